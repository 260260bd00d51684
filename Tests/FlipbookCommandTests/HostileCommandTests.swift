import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

@testable import FlipbookCommand

/// Issue 18, third pass: `sheet --times` with negative numbers, sheets too large to make, and
/// batch messages about files named by absolute paths.
@Suite struct HostileCommandTests {
  static let scenes = FixtureFiles.root + "/scenes"
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  /// `--from 1e18` trapped converting a negative frame count past `Int.min`, and `--from
  /// 1e308` was called too many frames: a start past the end has no frame, however far.
  @Test func aStartFarPastTheEndHasNoFrame() {
    let scene = FixtureFiles.root + "/scenes/spinner.json"
    for from in ["1e18", "1e20", "1e308"] {
      let result = run([
        "render", scene, "-o", FixtureFiles.temporaryFolder() + "/x.gif", "--from", from,
      ])
      #expect(result.status == 1)
      #expect(result.errors.contains("no frame lies in"), "\(from): \(result.errors)")
    }
  }

  @Test func negativeSheetTimesAreTimesRefusedByRange() {
    for times in [["-1"], ["0", "-0.5", "1"]] {
      let result = run(
        ["sheet", Self.scenes + "/spinner.json", "-o", folder + "/s.png", "--times"] + times)
      #expect(result.status == 2)
      #expect(result.errors.hasPrefix("Error: --times must be times of 0 s or later, found -"))
      #expect(!result.errors.contains("Missing value"))
    }
    // Values after --times still end at the next option.
    #expect(
      SheetCommand.attachingTimes(["sheet", "a.json", "--times", "0", "-2", "-o", "x.png"]) == [
        "sheet", "a.json", "--times=0", "--times=-2", "-o", "x.png",
      ])
    #expect(
      run(["sheet", Self.scenes + "/spinner.json", "-o", folder + "/s.png", "--times", "0", "0.1"])
        .status == 0)
  }

  @Test func aNegativeScaleNamesItsRangeAndValueInEveryCommand() {
    let scene = Self.scenes + "/spinner.json"
    for command in [
      ["frame", scene, "--time", "0", "-o", folder + "/s.png", "--scale", "-2"],
      ["sheet", scene, "-o", folder + "/s.png", "--scale", "-2"],
      ["render", scene, "-o", folder + "/s.gif", "--scale", "-2"],
    ] {
      let result = run(command)
      #expect(result.status == 2)
      #expect(
        result.errors.hasPrefix(
          "Error: --scale must be a finite number greater than 0, found -2\n"))
    }
  }

  @Test func anOversizedSheetIsRefusedBeforeAnyFrameIsRendered() throws {
    // 1000 frames of 40 x 40 at scale 100 (4000 x 4000 pixels each): terabytes of sheet.
    let start = Date()
    let times = (0..<1000).map { String(Double($0) / 1000) }
    let result = run(
      [
        "sheet", Self.scenes + "/spinner.json", "-o", folder + "/s.png", "--scale", "100",
        "--times",
      ] + times)
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(Self.scenes)/spinner.json: a sheet of 1000 frames of 4000 x 4000 pixels would be "
        + "16040 x 1006508 pixels, over the limits (16384 pixels a side, 64 megapixels): show fewer "
        + "frames (--times), at a smaller scale (--scale), or in other columns (--columns)\n")
    #expect(Date().timeIntervalSince(start) < 20)
    #expect(!FixtureFiles.exists(folder + "/s.png"))
  }

  @Test func batchNamesAnAbsoluteFileOnceWithItsSlash() throws {
    try AtomicFile.write(
      Array("/dev/zero\n\(folder)/missing.json\n".utf8), to: folder + "/list.txt")
    let result = run(["batch", "@" + folder + "/list.txt", "-o", folder + "/out", "--quiet"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "/dev/zero: cannot read the file: is not a regular file (a device, pipe or socket)\n"
        + "\(folder)/missing.json: cannot read the file: No such file or directory\n")
  }
}
