import Foundation
import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// docs/command-line.md: exit statuses, messages on stderr, and `frame`/`inspect` behaviour.
@Suite struct CommandTests {
  static let fixtures = FixtureFiles.root
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

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
    let result = run([
      "frame", Self.fixtures + "/invalid/negative-sizes.json", "--time", "0", "-o",
      folder + "/out.png",
    ])
    #expect(result.status == 1)
    #expect(result.errors.split(separator: "\n").count == 3)
    #expect(
      result.errors.contains(
        "negative-sizes.json: layers[0].bounds: width and height must not be negative"))
    #expect(access(folder + "/out.png", F_OK) != 0)
  }

  @Test func aMissingSceneNamesTheFile() {
    let result = run(["inspect", folder + "/nope.json", "--time", "0"])
    #expect(result.status == 1)
    #expect(
      result.errors == "\(folder)/nope.json: cannot read the file: No such file or directory\n")
  }

  /// Twenty-third hostile pass: `inspect --time 1 --time 3601` on a scene that simulates
  /// printed the first line, then failed. The simulated-time limit is known once the scene is
  /// read: a time past it is refused before any line (the scene's limit said as `advance` says
  /// it).
  @Test func inspectRefusesATimePastTheSimulationBeforePrinting() throws {
    let cradle = Self.fixtures + "/scenes/cradle.json"
    let scene = try SceneFormat.load(contentsOf: cradle)
    #expect(scene.simulatedTimeLimit == 3600)
    let result = run(["inspect", cradle, "--time", "1", "--time", "3601"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(cradle): the time 3601 s is past the limit of 3600 s for a scene that simulates "
        + "(dynamics, timeline events or display-link hooks step through every instant before it)\n"
    )
  }

  /// Twenty-third hostile pass: a render whose range passed the simulation's limit simulated up
  /// to it, then said the time twice (`at 3600.05 s (frame 1): the time 3600.0499999999997 s is
  /// past ...`). The range is checked before frame 0, and the time said once.
  @Test func aRenderOrSheetPastTheSimulationFailsBeforeDrawingAndSaysTheTimeOnce() throws {
    let cradle = Self.fixtures + "/scenes/cradle.json"
    let reason =
      "past the limit of 3600 s for a scene that simulates (dynamics, timeline events or "
      + "display-link hooks step through every instant before it)\n"
    let gif = folder + "/late.gif"
    let render = run([
      "render", cradle, "--from", "3599.95", "--to", "3600.2", "--fps", "10", "-o", gif,
    ])
    #expect(render.status == 1)
    #expect(render.errors == "\(cradle): at 3600.05 s (frame 1): " + reason)
    let sheet = run(["sheet", cradle, "--times", "1", "3601", "-o", folder + "/late.png"])
    #expect(sheet.status == 1)
    #expect(sheet.errors == "\(cradle): at 3601 s: " + reason)
    #expect(access(gif, F_OK) != 0 && access(folder + "/late.png", F_OK) != 0)
  }

  /// verify25 after the twenty-fourth pass: `render`, `frame` and `sheet` wrote over the
  /// picture the scene shows (`-o logo.png`), or over the scene file itself (`self.png`), as
  /// `diff` and `batch` no longer do. Refused; the picture is left as it is.
  @Test func anOutputOverTheSceneOrAPictureItShowsIsRefused() throws {
    let png = try AtomicFile.read(Self.fixtures + "/images/quadrants.png")
    try AtomicFile.write(png, to: folder + "/logo.png")
    let scene =
      #"{"flipbook": 1, "size": [4, 4], "layers": [{"bounds": [0, 0, 4, 4], "contents": "logo.png"}]}"#
    try AtomicFile.write(Array(scene.utf8), to: folder + "/logo.json")
    try AtomicFile.write(Array(scene.utf8), to: folder + "/self.png")
    let logo = folder + "/logo.png"
    for command in [
      ["render", folder + "/logo.json", "-o", logo],
      ["frame", folder + "/logo.json", "--time", "0", "-o", logo],
      ["sheet", folder + "/logo.json", "-o", logo],
    ] {
      let result = run(command)
      #expect(result.status == 1)
      #expect(
        result.errors == "cannot write output \(logo): it is \(logo), a picture the scene shows\n",
        "\(command[0])")
    }
    #expect(try AtomicFile.read(logo) == png)
    #expect(
      run(["render", folder + "/self.png", "-o", folder + "/self.png"]).errors
        == "cannot write output \(folder)/self.png: it is the scene file itself\n")
  }

  /// Twenty-sixth and -seventh passes: a folder of frames replaced `fr/frame-00001.png`, which
  /// the scene showed (each render compounding the last), or the scene file itself when it was
  /// named as a frame; `sheet anim.png -o anim.png` replaced a GIF named .png. Refused, before
  /// anything is written.
  @Test func aFramesFolderOrASheetOverAnInputIsRefused() throws {
    let png = try AtomicFile.read(Self.fixtures + "/images/quadrants.png")
    let frames = folder + "/fr"
    try AtomicFile.makeFolder(frames)
    try AtomicFile.write(png, to: frames + "/frame-00001.png")
    let scene =
      #"{"flipbook": 1, "size": [4, 4], "duration": 0.1, "layers": [{"bounds": [0, 0, 4, 4], "#
      + #""contents": "fr/frame-00001.png"}]}"#
    try AtomicFile.write(Array(scene.utf8), to: folder + "/shows.json")
    for output in [frames + "/", frames] {
      let result = run(["render", folder + "/shows.json", "-o", output])
      #expect(result.status == 1)
      #expect(
        result.errors
          == "cannot write frames into \(output): \(frames)/frame-00001.png, a picture the scene "
          + "shows, would be replaced by a frame of this render\n")
    }
    #expect(try AtomicFile.read(frames + "/frame-00001.png") == png)
    let plain = #"{"flipbook": 1, "size": [4, 4], "duration": 0.1, "layers": []}"#
    try AtomicFile.write(Array(plain.utf8), to: frames + "/frame-00002.png")
    #expect(
      run(["render", frames + "/frame-00002.png", "-o", frames + "/"]).errors
        == "cannot write frames into \(frames)/: \(frames)/frame-00002.png, the scene file, would "
        + "be replaced by a frame of this render\n")
    // Other files in the folder are left alone by a render, so they are no reason to refuse.
    try AtomicFile.write(Array(plain.utf8), to: frames + "/scene.json")
    #expect(run(["render", frames + "/scene.json", "-o", frames + "/"]).status == 0)
    let gif = try GIFBytes.encode([Bitmap(width: 2, height: 2), Bitmap(width: 2, height: 2)])
    try AtomicFile.write(gif, to: folder + "/anim.png")
    let sheet = run(["sheet", folder + "/anim.png", "-o", folder + "/anim.png"])
    #expect(sheet.errors == "cannot write output \(folder)/anim.png: it is the GIF itself\n")
    #expect(try AtomicFile.read(folder + "/anim.png") == gif)
  }

  /// Hostile pass 35: rendering a shorter animation into a frames folder left the earlier
  /// render's later frames, read as this render's by whatever takes the folder. They are left
  /// alone, as the contract says of other files, and said.
  @Test func framesLeftFromALongerRenderAreSaid() throws {
    let scene = #"{"flipbook": 1, "size": [4, 4], "duration": 1, "layers": []}"#
    try AtomicFile.write(Array(scene.utf8), to: folder + "/short.json")
    let frames = folder + "/later/"
    #expect(run(["render", folder + "/short.json", "-o", frames, "--fps", "8"]).status == 0)
    // Warnings go to the process's standard error: run as a user runs it.
    func render(_ extra: [String]) throws -> (status: Int32, errors: String) {
      let run = try Tools.run(
        Tools.flipbook, ["render", folder + "/short.json", "-o", frames, "--fps", "8"] + extra)
      return (run.status, run.errors)
    }
    let shorter = try render(["--to", "0.5"])
    #expect(shorter.status == 0)
    #expect(
      shorter.errors
        == "warning: the frames folder also holds 4 frames past this render's 4 "
        + "(frame-00004.png to frame-00007.png), from an earlier render: left alone\n")
    #expect(AtomicFile.names(in: frames, suffix: ".png").count == 8)
    let same = try render([])
    #expect(same.status == 0 && same.errors == "")
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

  /// The README's `scene.makeFrame(at: 0).writePNG(toFile:)` and `flipbook frame`: one PNG writer.
  @Test func theSwiftAPIAndFlipbookFrameWriteTheSameBytes() throws {
    let scene = FixtureFiles.root + "/scenes/readme-example.json"
    try SceneFormat.load(contentsOf: scene).makeFrame(at: 0).writePNG(toFile: folder + "/swift.png")
    #expect(run(["frame", scene, "--time", "0", "-o", folder + "/command.png"]).status == 0)
    let swift = try AtomicFile.read(folder + "/swift.png")
    #expect(swift == (try AtomicFile.read(folder + "/command.png")))
    #expect(swift == (try SceneFormat.load(contentsOf: scene).makeFrame(at: 0).pngData()))
  }

  @Test func anUnwritableOutputFailsWithItsPath() {
    let out = folder + "/missing/frame.png"
    let result = run(["frame", Self.fixtures + "/scenes/strokes.json", "--time", "0", "-o", out])
    #expect(result.status == 1)
    // Nineteenth pass: the folder missing is named (it said "No such file or directory" of
    // the output, and of a frames folder whose parent was missing).
    #expect(
      result.errors
        == "cannot write output \(out): the folder it goes in, \(folder)/missing, does not exist\n")
    let frames = folder + "/missing/a/b/"
    let folderResult = run(["render", Self.fixtures + "/scenes/strokes.json", "-o", frames])
    #expect(
      folderResult.errors
        == "cannot write output \(folder)/missing/a/b: the folder it goes in, \(folder)/missing/a, "
        + "does not exist\n")
  }

  @Test func inspectRangeTimesAreComputedNotAccumulated() throws {
    let command = try InspectCommand.parse([
      "s.json", "--time", "2", "--from", "0", "--to", "0.3", "--step", "0.1",
    ])
    #expect(command.times == [2, 0, 0.1, 0.2, 0.30000000000000004])
    let long = try InspectCommand.parse(["s.json", "--from", "0", "--to", "1", "--step", "0.01"])
    #expect(long.times.count == 101)
    #expect(long.times[70] == 0.7000000000000001)  // 70 * 0.01, not the sum of seventy 0.01s
    // Twenty-sixth pass: steps of subnormal numbers printed a time past --to (within 1e-9 s of
    // it), or were counted as more than a million (their halves are 0).
    let tiny = try InspectCommand.parse([
      "s.json", "--from", "0", "--to", "1e-310", "--step", "1e-311",
    ])
    #expect(tiny.times.count == 11 && tiny.times.last! <= 1e-310)
    let least = try InspectCommand.parse([
      "s.json", "--from", "5e-324", "--to", "1e-323", "--step", "5e-324",
    ])
    #expect(least.times == [5e-324, 1e-323])
  }

  @Test func inspectListsLayersInDrawingOrderWithTheirValues() throws {
    let scene = try SceneFormat.load(
      contentsOf: Self.fixtures + "/scenes/visibility-transparent.json")
    let line = try Inspection.line(for: scene, at: 0.25)
    #expect(line.hasPrefix("{\"time\": 0.25, \"layers\": [{\"name\": \"hidden\""))
    // z-high (zPosition 1) is drawn after z-low although it comes first in the file.
    let names = line.split(separator: "\"name\": ").dropFirst().map {
      $0.prefix(while: { $0 != "," })
    }
    #expect(
      names == [
        "\"hidden\"", "\"z-low\"", "\"faded\"", "\"zero-scale\"", "\"translucent\"", "\"z-high\"",
      ])
    #expect(
      line.contains(
        "\"name\": \"faded\", \"position\": [130, 50], \"bounds\": [0, 0, 40, 40], \"anchorPoint\": [0.5, 0.5], \"opacity\": 0.3"
      ))
    #expect(line.contains("\"transform\": [0, 0, 0, 0, 0, 0]"))
    #expect(line.contains("\"backgroundColor\": [1, 0.5, 0, 0.5]"))
  }

  @Test func inspectPrintsShapeValuesAndPathsThatReadBack() throws {
    let scene = try SceneFormat.load(contentsOf: Self.fixtures + "/scenes/path-forms.json")
    let entry = Inspection.entry(for: try #require(scene.layer(named: "rect")))
    #expect(entry.contains("\"path\": \"M 10 10 L 60 10 L 60 40 L 10 40 Z\""))
    #expect(
      entry.contains(
        "\"strokeColor\": null, \"lineWidth\": 1, \"lineDashPhase\": 0, \"strokeStart\": 0, \"strokeEnd\": 1, \"miterLimit\": 10"
      ))
  }

  @Test func inspectPrintsTextValuesAsTheyShowAtTheTime() throws {
    let scene = try SceneFormat.load(contentsOf: Self.fixtures + "/scenes/text-layers.json")
    let line = try Inspection.line(for: scene, at: 0.5)
    #expect(
      line.contains(
        "\"string\": \"Hello, Flipbook! ffi AV\", \"font\": \"Helvetica\", \"fontSize\": 31, "))
    #expect(line.contains("\"foregroundColor\": [1, 0.9, 0.5, 1]"))
    #expect(line.contains("\"string\": \"你好，世界\""))
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

/// `flipbook inspect` prints presentation values (docs/command-line.md), checked against values
/// computed independently from docs/timing.md's formulas.
@Suite struct InspectPresentationTests {
  func layers(_ scene: String, at time: Double) throws -> [[String: Any]] {
    let loaded = try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/\(scene).json")
    let line = try Inspection.line(for: loaded, at: time)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["time"] as? Double == time)
    return try #require(object["layers"] as? [[String: Any]])
  }

  @Test func theRadarsPulsesAtOneSecond() throws {
    let all = try layers("radar-pulses", at: 1)
    func pulse(_ i: Int) throws -> (opacity: Double, transform: [Double]) {
      let l = try #require(all.first { $0["name"] as? String == "pulse-\(i)" })
      return (try #require(l["opacity"] as? Double), try #require(l["transform"] as? [Double]))
    }
    // pulse-0: group time 1 of 4, default curve: u = F(0.25); scale 1.5u; opacity 1 - 0.3u/0.5.
    let p0 = try pulse(0)
    #expect(abs(p0.transform[0] - 0.6127658879906038) < 1e-9 && p0.transform[1] == 0)
    #expect(abs(p0.opacity - 0.7548936448037584) < 1e-9)
    // pulse-1 began at 4/6 s.
    let p1 = try pulse(1)
    #expect(abs(p1.transform[3] - 0.10620881092366796) < 1e-9)
    #expect(abs(p1.opacity - 0.9575164756305328) < 1e-9)
    // pulse-2 has not begun: filled backwards at scale 0 and opacity 1.
    let p2 = try pulse(2)
    #expect(p2.transform == [0, 0, 0, 0, 0, 0] && p2.opacity == 1)
  }

  @Test func aPausedSubtreeHoldsItsInstant() throws {
    for t in [0.0, 1.3] {
      let child = try #require(
        try layers("animation-kinds", at: t).first { $0["name"] as? String == "paused-child" })
      #expect(child["transform"] as? [Double] == [1.25, 0, 0, 1.25, 0, 0])
    }
  }
}

/// `flipbook inspect` prints every new property of visual-effects.md §1–§4 and §6, animated,
/// with masks inside their layer's entry.
@Suite struct InspectEffectsTests {
  func entry(_ scene: String, _ name: String, at time: Double) throws -> [String: Any] {
    let loaded = try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/\(scene).json")
    let line = try Inspection.line(for: loaded, at: time)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let layers = try #require(object["layers"] as? [[String: Any]])
    return try #require(layers.first { $0["name"] as? String == name })
  }

  @Test func blendModesMaskModesAndAnimatedFiltersAsTheSceneFileWritesThem() throws {
    let blurred = try entry("effects-filters", "animated-blur", at: 0.5)
    let filters = try #require(blurred["filters"] as? [[String: Any]])
    #expect(filters.count == 1)
    #expect(filters.first?["type"] as? String == "gaussianBlur")
    #expect(filters.first?["radius"] as? Double == 3)  // 0 → 6 over 1 s, linear
    #expect(blurred["compositingFilter"] as? String == "normal")
    let tint = try entry("effects-filters", "tint", at: 0)
    let first = try #require((tint["filters"] as? [[String: Any]])?.first)
    let black: [Double] = [26, 35, 126, 255].map { $0 / 255 }  // "#1a237e"
    let read = try #require(first["black"] as? [Double])
    #expect(zip(read, black).allSatisfy { abs($0 - $1) < 1e-12 } && read.count == 4)
    #expect(first["amount"] as? Double == 1)
    let luminance = try entry("effects-mask-modes", "luminance", at: 0)
    #expect(luminance["maskMode"] as? String == "luminance")
    let multiply = try entry("effects-blend-modes", "multiplyBlendMode", at: 0)
    #expect(multiply["compositingFilter"] as? String == "sourceOverCompositing")
  }

  @Test func shadowAndContentsRectanglesOfEveryLayer() throws {
    let card = try entry("effects-shadows", "card", at: 1)
    #expect(card["shadowColor"] as? [Double] == [0, 0, 0, 1])
    #expect(card["shadowOpacity"] as? Double == 0.5)
    #expect(card["shadowRadius"] as? Double == 7)  // 2 → 12 over 2 s, linear
    #expect(card["shadowOffset"] as? [Double] == [0, 5.5])
    #expect(card["shadowPath"] is NSNull)
    #expect(card["contentsRect"] as? [Double] == [0, 0, 1, 1])
    #expect(card["contentsCenter"] as? [Double] == [0, 0, 1, 1])
    let path = try entry("effects-shadows", "path-shadow", at: 0)
    #expect((path["shadowPath"] as? String)?.hasPrefix("M 60 30") == true)
  }

  @Test func gradientValuesAnimateElementByElement() throws {
    let stops = try entry("effects-gradients", "stops", at: 1)
    #expect(stops["locations"] as? [Double] == [0, 0.5, 1])
    #expect(
      stops["startPoint"] as? [Double] == [0, 0] && stops["endPoint"] as? [Double] == [1, 1])
    #expect(stops["gradientType"] == nil)  // a choice: not animatable, not printed
    let colors = try entry("effects-gradients", "animated-colors", at: 1)
    let list = try #require(colors["colors"] as? [[Double]])
    // Half way from black to #ff9800 and from white to #3f51b5.
    #expect(list.count == 2 && abs(list[0][0] - 0.5) < 1e-9 && abs(list[0][1] - 152.0 / 510) < 1e-9)
    #expect(abs(list[1][2] - (1 + 181.0 / 255) / 2) < 1e-9)
    let conic = try entry("effects-gradients", "conic", at: 1)
    #expect(conic["endPoint"] as? [Double] == [0.75, 0.75])
    #expect(conic["locations"] is NSNull)
  }

  @Test func replicatorValuesAndMasksInsideTheirLayer() throws {
    let spinner = try entry("effects-replicator", "spinner", at: 0)
    #expect(spinner["instanceCount"] as? Double == 12)
    #expect(spinner["instanceDelay"] as? Double == 1.0 / 12)
    #expect(spinner["instanceColor"] as? [Double] == [1, 1, 1, 1])
    #expect(
      spinner["instanceRedOffset"] as? Double == 0 && spinner["instanceAlphaOffset"] as? Double == 0
    )
    let t = try #require(spinner["instanceTransform"] as? [Double])
    #expect(
      abs(t[0] - cos(0.5235987755982988)) < 1e-12 && abs(t[1] - sin(0.5235987755982988)) < 1e-12)
    let masked = try entry("effects-masks", "masked-gradient", at: 1)
    let mask = try #require(masked["mask"] as? [String: Any])
    #expect(mask["bounds"] as? [Double] == [0, 0, 160, 120])
    #expect(masked["colors"] as? [[Double]] != nil)
    // The mask's own subtree, in drawing order, with presentation values (the ellipse is
    // animated from x 40 to 120 over 2 s).
    let parts = try #require(mask["sublayers"] as? [[String: Any]])
    #expect(parts.count == 3)
    #expect(parts[0]["bounds"] as? [Double] == [0, 0, 140, 20])
    #expect(parts[2]["position"] as? [Double] == [80, 90])
  }
}
