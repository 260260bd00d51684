import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// docs/command-line.md `demo`: NAME, --all and --list, with render's output rules.
@Suite struct DemoCommandTests {
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  @Test func listPrintsANameAndADescriptionPerLine() throws {
    let result = try Tools.run(Tools.flipbook, ["demo", "--list"])
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n")
    #expect(
      lines.map { String($0.split(separator: " ")[0]) } == [
        "radar", "cradle", "waves", "spinner", "cat", "counter", "shimmer", "activity", "lift",
        "flip",
      ])
    #expect(lines.allSatisfy { $0.split(separator: " ").count > 3 })
  }

  @Test func allWritesOneGIFPerDemoIntoTheFolder() throws {
    let result = run(["demo", "--all", "-o", folder + "/", "--to", "0.25", "--quiet"])
    #expect(result.status == 0, "\(result.errors)")
    for name in ["radar", "cradle", "waves", "spinner", "cat", "counter"] {
      let bytes = try AtomicFile.read("\(folder)/\(name).gif")
      let gif = try DecodedGIF(bytes)
      #expect(gif.frames.count >= 2, "\(name)")
      #expect(gif.delays.allSatisfy { $0 >= 2 }, "\(name): delays \(gif.delays)")
    }
  }

  @Test func oneDemoTakesRendersOutputRules() throws {
    #expect(run(["demo", "spinner", "-o", folder + "/spinner.png", "--quiet"]).status == 0)
    let png = try Bitmap(contentsOfPNGFile: folder + "/spinner.png")
    #expect(png.width == 120 && png.height == 120)  // 40 pt at the demo's scale 3
    #expect(run(["demo", "spinner", "-o", folder + "/frames/", "--quiet"]).status == 0)
    #expect(FixtureFiles.names(in: folder + "/frames", suffix: ".png").count == 8)
    #expect(
      run(["demo", "cat", "-o", folder + "/cat.gif", "--scale", "0.5", "--fps", "10", "--quiet"])
        .status == 0)
    let cat = try DecodedGIF(try AtomicFile.read(folder + "/cat.gif"))
    #expect(cat.width == 100 && cat.frames.count == 20)
  }

  @Test func wrongUsageExitsWith2AndNamesTheDemos() {
    let unknown = run(["demo", "dog", "-o", folder + "/dog.gif"])
    #expect(unknown.status == 2)
    #expect(unknown.errors.contains("radar, cradle, waves, spinner, cat"))
    #expect(run(["demo", "-o", folder + "/x.gif"]).status == 2)
    #expect(run(["demo", "radar"]).status == 2)
    #expect(run(["demo", "radar", "--all", "-o", folder + "/"]).status == 2)
    #expect(run(["demo", "--all", "-o", folder + "/x.gif"]).status == 2)
    #expect(run(["demo", "radar", "-o", folder + "/x.txt"]).status == 2)
  }

  /// A folder `--all` made is removed again when the demos fail before any is written in it
  /// (an empty folder was left behind on a full disk).
  @Test func aFailedAllLeavesNoFolderItMade() {
    let made = folder + "/new/"
    let result = run(["demo", "--all", "-o", made, "--scale", "1000"])
    #expect(result.status == 1 && result.errors.hasPrefix("radar: --scale 1000 makes a frame"))
    #expect(AtomicFile.names(in: folder).isEmpty)
  }
}
