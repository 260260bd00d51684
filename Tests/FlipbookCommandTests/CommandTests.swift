import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// spec/cli.md: exit statuses, messages on standard error, and `frame`/`inspect` behaviour.
@Suite struct CommandTests {
  static let fixtures = FixtureFiles.root
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, errors: String) {
    var errors = ""
    let status = FlipbookTool.run(arguments, standardError: { errors += $0 + "\n" })
    return (status, errors)
  }

  @Test func wrongUsageExitsWith2() {
    #expect(run(["frame"]).status == 2)
    #expect(run(["frame", "x.json", "--time", "0"]).status == 2)
    #expect(run(["frame", "x.json", "--time", "0", "-o", "x.gif"]).status == 2)
    #expect(run(["frame", "x.json", "--time", "0", "-o", "x.png", "--bogus"]).status == 2)
    #expect(run(["inspect", "x.json"]).status == 2)
    #expect(run(["inspect", "x.json", "--from", "0", "--to", "1"]).status == 2)
    #expect(run(["no-such-command"]).status == 2)
  }

  @Test func aBadSceneExitsWith1WithOneLinePerProblem() {
    let result = run(["frame", Self.fixtures + "/invalid/negative-sizes.json", "--time", "0", "-o", folder + "/out.png"])
    #expect(result.status == 1)
    #expect(result.errors.split(separator: "\n").count == 3)
    #expect(result.errors.contains("negative-sizes.json: layers[0].bounds: width and height must not be negative"))
    #expect(access(folder + "/out.png", F_OK) != 0)
  }

  @Test func aMissingSceneNamesTheFile() {
    let result = run(["inspect", folder + "/nope.json", "--time", "0"])
    #expect(result.status == 1)
    #expect(result.errors == "\(folder)/nope.json: cannot read the file: No such file or directory\n")
  }

  @Test func frameWritesThePNGOfThatTime() throws {
    let scene = Self.fixtures + "/scenes/path-forms.json"
    let out = folder + "/frame.png"
    #expect(run(["frame", scene, "--time", "0.5", "-o", out, "--scale", "1"]).status == 0)
    let written = try Bitmap(contentsOfPNGFile: out)
    let expected = try SceneFormat.load(contentsOf: scene).makeFrame(at: 0.5, scale: 1).makeBitmap()
    #expect(written == expected)
    #expect(written.width == 230)
  }

  @Test func anUnwritableOutputFailsWithItsPath() {
    let out = folder + "/missing/frame.png"
    let result = run(["frame", Self.fixtures + "/scenes/strokes.json", "--time", "0", "-o", out])
    #expect(result.status == 1)
    #expect(result.errors == "\(out): No such file or directory\n")
  }

  @Test func inspectRangeTimesAreComputedNotAccumulated() throws {
    let command = try InspectCommand.parse(["s.json", "--time", "2", "--from", "0", "--to", "0.3", "--step", "0.1"])
    #expect(command.times == [2, 0, 0.1, 0.2, 0.30000000000000004])
    let long = try InspectCommand.parse(["s.json", "--from", "0", "--to", "1", "--step", "0.01"])
    #expect(long.times.count == 101)
    #expect(long.times[70] == 0.7000000000000001)  // 70 * 0.01, not the sum of seventy 0.01s
  }

  @Test func inspectListsLayersInDrawingOrderWithTheirValues() throws {
    let scene = try SceneFormat.load(contentsOf: Self.fixtures + "/scenes/visibility-transparent.json")
    let line = Inspection.line(for: scene, at: 0.25)
    #expect(line.hasPrefix("{\"time\": 0.25, \"layers\": [{\"name\": \"hidden\""))
    // z-high (zPosition 1) is drawn after z-low although it comes first in the file.
    let names = line.split(separator: "\"name\": ").dropFirst().map { $0.prefix(while: { $0 != "," }) }
    #expect(names == ["\"hidden\"", "\"z-low\"", "\"faded\"", "\"zero-scale\"", "\"translucent\"", "\"z-high\""])
    #expect(line.contains("\"name\": \"faded\", \"position\": [130, 50], \"bounds\": [0, 0, 40, 40], \"anchorPoint\": [0.5, 0.5], \"opacity\": 0.3"))
    #expect(line.contains("\"transform\": [0, 0, 0, 0, 0, 0]"))
    #expect(line.contains("\"backgroundColor\": [1, 0.5, 0, 0.5]"))
  }

  @Test func inspectPrintsShapeValuesAndPathsThatReadBack() throws {
    let scene = try SceneFormat.load(contentsOf: Self.fixtures + "/scenes/path-forms.json")
    let entry = Inspection.entry(for: try #require(scene.layer(named: "rect")))
    #expect(entry.contains("\"path\": \"M 10 10 L 60 10 L 60 40 L 10 40 Z\""))
    #expect(entry.contains("\"strokeColor\": null, \"lineWidth\": 1, \"lineDashPhase\": 0, \"strokeStart\": 0, \"strokeEnd\": 1, \"miterLimit\": 10"))
  }

  @Test func numbersAreShortestRoundTrip() {
    #expect(Inspection.number(0.1) == "0.1")
    #expect(Inspection.number(1) == "1")
    #expect(Inspection.number(-2.5) == "-2.5")
    #expect(Inspection.number(1e-7) == "1e-07")
    #expect(Double(Inspection.number(0.1 + 0.2)) == 0.1 + 0.2)
    #expect(Inspection.string("a\"b\n") == "\"a\\\"b\\n\"")
  }
}
