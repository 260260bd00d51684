import Flipbook
import FlipbookTestSupport
import Foundation
import Glibc
import Testing

@testable import FlipbookCommand

/// Issue 18, an independent pass: messages that named the wrong cause or place (an empty frame
/// range without the option or where the end comes from, a size or scale blamed on the other,
/// a full disk blamed on the input, a picture called invalid JSON), and a folder of frames left
/// half-written by a failed render.
@Suite struct HostileMessageTests {
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  /// A scene of `size` points lasting 2 s, written into the test's folder.
  func scene(size: String = "[64, 64]", named name: String = "s.json") throws -> String {
    let path = folder + "/" + name
    try #"{"flipbook": 1, "size": \#(size), "duration": 2, "fps": 10}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func anEmptyRangeNamesFromAndWhereTheEndComesFrom() throws {
    let path = try scene()
    let past = run(["render", path, "-o", folder + "/x.gif", "--from", "2.5"])
    #expect(past.status == 1)
    #expect(
      past.errors
        == "\(path): --from 2.5 is not before the end, 2 s (the scene's duration): no frame lies "
        + "in 2.5 ..< 2 s\n")
    // A Lottie file's end is its out point.
    let lottie = folder + "/l.json"
    try #"{"v": "5.7.4", "fr": 30, "ip": 0, "op": 60, "w": 10, "h": 10, "layers": []}"#.write(
      toFile: lottie, atomically: true, encoding: .utf8)
    let result = run(["render", lottie, "-o", folder + "/x.gif", "--from", "2"])
    #expect(
      result.errors
        == "\(lottie): --from 2 is not before the end, 2 s (the Lottie out point, op 60 at fr "
        + "30): no frame lies in 2 ..< 2 s\n")
    #expect(!FileManager.default.fileExists(atPath: folder + "/x.gif"))
    // --duration and --to are named as the end when they set it.
    #expect(
      run(["render", lottie, "-o", folder + "/x.gif", "--from", "1", "--duration", "0.5"]).errors
        == "\(lottie): --from 1 is not before the end, 0.5 s (--duration): no frame lies in "
        + "1 ..< 0.5 s\n")
  }

  @Test func aSizeOrAScaleOutOfRangeIsNamedAsTheCause() throws {
    let flat = try scene(size: "[0, 64]", named: "flat.json")
    let size = run(["render", flat, "-o", folder + "/x.gif"])
    #expect(size.status == 1)
    #expect(
      size.errors
        == "\(flat): size: 0 x 64 points at scale 1 make a frame of 0 x 64 pixels, outside the "
        + "limits (1 to 16384 pixels a side, at most 64 megapixels)\n")
    let path = try scene()
    for (scale, pixels) in [("0.001", "0 x 0"), ("65536", "4194304 x 4194304")] {
      let result = run(["render", path, "-o", folder + "/x.gif", "--scale", scale])
      #expect(result.status == 1)
      let shown = scale
      #expect(
        result.errors
          == "\(path): --scale \(shown) makes a frame of \(pixels) pixels from the scene's 64 x "
          + "64 points, outside the limits (1 to 16384 pixels a side, at most 64 megapixels)\n")
    }
  }

  /// A full disk (the temporary file beside the output made a link to /dev/full) is the
  /// output's failure, with its cause, not the input's.
  @Test func aFullDiskNamesTheOutputAndTheCause() throws {
    let path = try scene()
    for name in ["x.gif", "x.png", "x.apng"] {
      let output = folder + "/" + name
      let temporary = folder + "/.\(name).\(getpid()).tmp"
      #expect(symlink("/dev/full", temporary) == 0)
      let result = run(["render", path, "-o", output, "--quiet"])
      #expect(result.status == 1)
      #expect(
        result.errors == "cannot write output \(output): No space left on device\n", "\(name)")
      #expect(!FileManager.default.fileExists(atPath: output))
      unlink(temporary)
    }
  }

  @Test(.enabled(if: Tools.path(of: "ffmpeg") != nil))
  func aFullDiskUnderFFmpegKeepsTheCause() throws {
    let path = try scene()
    // WebM: ffmpeg exits with status 0 when it cannot write the trailer, yet says so.
    for name in ["x.mp4", "x.webm"] {
      let output = folder + "/" + name
      let temporary = folder + "/.\(name).\(getpid()).tmp"
      #expect(symlink("/dev/full", temporary) == 0)
      defer { unlink(temporary) }
      let result = run(["render", path, "-o", output, "--quiet"])
      #expect(result.status == 1, "\(name)")
      #expect(result.errors.contains("No space left on device"), "\(result.errors)")
      #expect(result.errors.hasPrefix("\(path): ffmpeg: "), "\(result.errors)")
      #expect(!result.errors.contains(".tmp"), "\(result.errors)")
      #expect(access(output, F_OK) != 0, "\(name)")
    }
  }

  @Test func aPictureIsNamedForWhatItIs() throws {
    let png = FixtureFiles.root + "/images/quadrants.png"
    // sheet says what it takes: a scene, a Lottie animation or a GIF (a GIF named .png is one).
    let sheet = run(["sheet", png, "-o", folder + "/s.png"])
    #expect(sheet.status == 1)
    #expect(
      sheet.errors
        == "\(png): is a PNG image: sheet takes a scene file, a Lottie animation or a GIF\n")
    for command in [["render", png, "-o", folder + "/s.gif"], ["inspect", png, "--time", "0"]] {
      let result = run(command)
      #expect(result.status == 1)
      #expect(
        result.errors
          == "\(png): is a PNG image, not a scene file or Lottie animation (JSON, or a dotLottie "
          + "archive)\n")
    }
    let gif = folder + "/x.gif"
    try Data(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]).write(
      to: URL(fileURLWithPath: gif))
    #expect(
      run(["inspect", gif, "--time", "0"]).errors
        == "\(gif): is a GIF image, not a scene file or Lottie animation (JSON, or a dotLottie "
        + "archive)\n")
  }

  /// A render into a folder that fails at its fifth frame (an animation lengthens a dashed
  /// path past the dash limit) leaves no frames behind, neither in the folder nor beside it.
  @Test func aFailedFolderRenderLeavesNothing() throws {
    let path = folder + "/grow.json"
    try #"""
    {"flipbook": 1, "size": [40, 40], "duration": 1, "fps": 10, "layers": [{"type": "shape",
     "path": "M 0 20 L 10 20", "strokeColor": "#000000", "lineWidth": 1, "lineDashPattern": [1, 1],
     "animations": [{"type": "basic", "keyPath": "path", "fromValue": "M 0 20 L 10 20",
      "toValue": "M 0 20 L 1000000 20", "duration": 1}]}]}
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    for jobs in ["1", "2"] {
      let frames = folder + "/frames-\(jobs)"
      let result = run(["render", path, "-o", frames + "/", "--jobs", jobs, "--quiet"])
      #expect(result.status == 1)
      #expect(result.errors.contains("dashes"), "\(result.errors)")
      #expect(!FileManager.default.fileExists(atPath: frames))
    }
    // Into an existing folder: its files stay as they were.
    let existing = folder + "/existing"
    try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: false)
    try Data("old".utf8).write(to: URL(fileURLWithPath: existing + "/frame-00000.png"))
    #expect(run(["render", path, "-o", existing, "--quiet"]).status == 1)
    #expect(AtomicFile.names(in: existing) == ["frame-00000.png"])
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: existing + "/frame-00000.png")) == Data("old".utf8))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasSuffix(".tmp")
    }
    #expect(left.isEmpty, "\(left)")
    // A render that succeeds puts every frame in place, beside the files already there.
    let ok = try scene(named: "ok.json")
    #expect(run(["render", ok, "-o", existing, "--to", "0.3", "--quiet"]).status == 0)
    #expect(
      AtomicFile.names(in: existing) == ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
  }

  /// SIGINT during a folder render removes the frames written so far with their folder.
  @Test func anInterruptedFolderRenderLeavesNothing() throws {
    let run = try Tools.interruptFlipbook(
      [
        "render", FixtureFiles.root + "/scenes/radar-pulses.json", "-o", folder + "/frames/",
        "--duration", "30", "--jobs", "1",
      ], in: folder
    ) { names in
      // Under way once the temporary folder holds a frame.
      let temporary = names.first { $0.hasPrefix(".frames.") && $0.hasSuffix(".tmp") }
      return temporary.map { !AtomicFile.names(in: folder + "/" + $0).isEmpty } ?? false
    }
    #expect(run.started, "the render never started writing frames")
    #expect(run.interrupted)
    #expect(run.leftovers.isEmpty, "left behind: \(run.leftovers)")
  }
  /// What a command prints is part of its result: a standard output that cannot take it (a
  /// full disk) fails the command with one line, where it exited 0 before.
  @Test func aStandardOutputThatCannotBeWrittenFailsTheCommand() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Tools.flipbook)
    process.arguments = ["inspect", FixtureFiles.root + "/scenes/strokes.json", "--time", "0"]
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 1)
    #expect(message == "cannot write standard output: No space left on device\n")
  }

  /// A file with a problem on every one of 10,000 layers printed 30,001 lines: every command
  /// says the first 100 problems, warnings or failures, then one line counting the rest.
  @Test func longListsOfProblemsAreCutAtAHundredLines() throws {
    let path = folder + "/many.json"
    let layers = Array(repeating: #"{"bounds": "x"}"#, count: 150).joined(separator: ", ")
    try #"{"flipbook": 1, "size": [10, 10], "duration": 1, "layers": [\#(layers)]}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    for command in [["render", path, "-o", folder + "/x.gif"], ["inspect", path, "--time", "0"]] {
      let result = run(command)
      let lines = result.errors.split(separator: "\n")
      #expect(result.status == 1 && lines.count == 101, "\(command[0])")
      #expect(
        lines.first == "\(path): layers[0].bounds: expected [x, y, width, height], found a string")
      #expect(lines.last.map(String.init) == "\(path): … and 50 more problems")
    }
    let warnings = SceneDocument.warningLines((0..<130).map { "w\($0)" })
    #expect(warnings.count == 101 && warnings[0] == "warning: w0")
    #expect(warnings.last == "warning: … and 30 more warnings")
    let failures = BatchCommand.failureMessage(Array(repeating: "a.json: 1\na.json: 2", count: 60))
      .split(separator: "\n")
    #expect(failures.count == 101)
    #expect(failures.last == "… and 20 more lines of errors (the manifest holds every animation's)")
    #expect(BatchCommand.failureMessage(["a.json: 1", "b.json: 2"]) == "a.json: 1\nb.json: 2")
  }

  /// An 8000 x 8000 WebM with transparency asked ffmpeg for more than 8 GB (its two VP9
  /// encoders) and failed after the frames were drawn: it is refused before, saying the limit;
  /// large opaque ones look fewer frames ahead (libvpx's lag buffers), smaller ones as before.
  @Test func aWebMTooLargeForFFmpegIsRefusedBeforeDrawing() throws {
    let path = try scene(size: "[8000, 8000]")
    let result = run(["render", path, "-o", folder + "/x.webm", "--to", "0.1"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(path): a WebM with transparency takes at most 32000000 pixels a frame, 8000 x 8000 "
        + "is over it (ffmpeg's two VP9 encoders, colour and alpha, need about 135 bytes a pixel: "
        + "8000 x 8000 asked for 8.6 GB); give the scene a background, or use .mp4 or a smaller "
        + "--scale\n")
    #expect(VideoSink.lagFrames(width: 1920, height: 1080, alpha: true) == 25)
    #expect(VideoSink.lagFrames(width: 8000, height: 8000, alpha: false) == 2)
    #expect(VideoSink.lagFrames(width: 5000, height: 5000, alpha: true) == 4)
  }

  /// An animation whose own time overflows (beginTime -1e308 at speed 3.4e38, repeating forever)
  /// showed the model value in `inspect` and `frame` alike, without a word: both now refuse it
  /// with one message naming the layer, the key path and the cause.
  @Test func anOverflowingAnimationTimeIsRefusedByInspectAndFrameAlike() throws {
    let path = folder + "/t.json"
    try #"""
    {"flipbook": 1, "size": [60, 20], "duration": 1, "layers": [{"bounds": [0, 0, 10, 10],
    "position": [50, 10], "animations": [{"type": "basic", "keyPath": "position.x",
    "fromValue": 0, "toValue": 10, "beginTime": -1e308, "speed": 3.4e38, "duration": 1,
    "repeatCount": "infinity", "fillMode": "both"}]}]}
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    let message =
      "\(path): the animation of \"position.x\" at layer layers[0] has no finite time at this "
      + "instant: its and its groups' beginTime, speed and timeOffset together overflow, or, for "
      + "a cumulative animation, its cycle count (the time over its duration) does\n"
    for command in [
      ["inspect", path, "--time", "0.3"],
      ["frame", path, "--time", "0.3", "-o", folder + "/t.png"],
    ] {
      let result = run(command)
      #expect(result.status == 1)
      #expect(result.errors == message)
    }
  }

  /// Seventeenth hostile pass: an opacity animation of 1e-310 s repeating forever failed to
  /// render as a time overflowing through beginTime, speed and timeOffset (none set): it
  /// renders, its phase taken by floor-modulo. A replicator of 10,000 instances delayed 1e305 s
  /// blamed the same three; it names the replicator and its instanceDelay, and a render says
  /// the frame's time.
  @Test func cycleCountsAndInstanceDelaysPastADoubleAreSaidForWhatTheyAre() throws {
    let tiny = folder + "/tiny.json"
    try #"""
    {"flipbook": 1, "size": [20, 20], "duration": 1, "fps": 10, "layers": [{"name": "a",
    "bounds": [0, 0, 10, 10], "backgroundColor": "#f00", "animations": [{"type": "basic",
    "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1e-310,
    "repeatCount": "infinity"}]}]}
    """#.write(toFile: tiny, atomically: true, encoding: .utf8)
    #expect(run(["render", tiny, "-o", folder + "/tiny.gif", "--quiet"]).status == 0)
    let delayed = folder + "/delayed.json"
    try #"""
    {"flipbook": 1, "size": [20, 20], "duration": 1, "fps": 10, "layers": [{"type":
    "replicator", "name": "r", "instanceCount": 10000, "instanceDelay": 1e305,
    "bounds": [0, 0, 20, 20], "position": [10, 10], "sublayers": [{"name": "a",
    "bounds": [0, 0, 10, 10], "backgroundColor": "#f00", "animations": [{"type": "basic",
    "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1,
    "repeatCount": "infinity"}]}]}]}
    """#.write(toFile: delayed, atomically: true, encoding: .utf8)
    let result = run(["render", delayed, "-o", folder + "/delayed.gif", "--quiet"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(delayed): at 0 s (frame 0): layer 'a' (layers[0].sublayers[0]) has animations but "
        + "no finite time at this instant: it is in instance 1798 of the replicator layer 'r' "
        + "(layers[0]), shown 1798 x its instanceDelay of 1e305 s earlier, past the largest time "
        + "a Double holds (1.8e308 s)\n")
  }

  /// Seventeenth hostile pass: an error found while drawing a frame of a render did not say
  /// which frame ("the frame would draw more than 100000 layers": frames 0 to 5 were fine). It
  /// is said after the file's name, once, in `render`, `sheet` and `batch`; `frame --time`
  /// says it as `inspect --time` does, without the time the user gave.
  @Test func aDrawingErrorSaysTheFramesTime() throws {
    let path = folder + "/mf.json"
    // Two replicators, one inside the other, whose counts jump from 1 to 400 at 0.51 s:
    // 160,000 layers from frame 6 on.
    let grow = #"""
      {"type": "keyframe", "keyPath": "instanceCount", "values": [1, 400],
       "keyTimes": [0, 0.51, 1], "calculationMode": "discrete", "duration": 1}
      """#
    try #"""
    {"flipbook": 1, "size": [20, 20], "duration": 1, "fps": 10, "layers": [
     {"type": "replicator", "name": "outer", "bounds": [0, 0, 4, 4], "position": [2, 2],
      "animations": [\#(grow)], "sublayers": [
       {"type": "replicator", "name": "inner", "bounds": [0, 0, 4, 4], "position": [2, 2],
        "animations": [\#(grow)], "sublayers": [
         {"name": "a", "bounds": [0, 0, 1, 1], "position": [1, 1], "backgroundColor": "#000"}]}]}]}
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    let cause = "the frame would draw more than 100000 layers, the limit, at layer 'a'"
    let render = run(["render", path, "-o", folder + "/mf.gif", "--jobs", "2"])
    #expect(render.status == 1)
    #expect(render.errors.hasPrefix("\(path): at 0.6 s (frame 6): \(cause)"), "\(render.errors)")
    let sheet = run(["sheet", path, "-o", folder + "/mf.png", "--times", "0", "0.7"])
    #expect(sheet.status == 1)
    #expect(sheet.errors.hasPrefix("\(path): at 0.7 s: \(cause)"), "\(sheet.errors)")
    let frame = run(["frame", path, "--time", "0.8", "-o", folder + "/f.png"])
    #expect(frame.status == 1)
    #expect(frame.errors.hasPrefix("\(path): \(cause)"), "\(frame.errors)")
    let batch = run(["batch", path, "-o", folder + "/out", "--quiet"])
    #expect(batch.status == 1)
    #expect(batch.errors.contains("at 0.6 s (frame 6): \(cause)"), "\(batch.errors)")
    let x = CommandFailure(message: "x")
    #expect(
      FrameDrawingError(time: 0.30000000000000004, underlying: x).description == "at 0.3 s: x")
    #expect(
      FrameDrawingError(time: 0.0001, frame: 0, underlying: x).description
        == "at 0.0001 s (frame 0): x")
  }

  /// Seventeenth hostile pass: `sheet --times` with 1001 values said "a sheet shows at most
  /// 1000 frames", naming neither the option nor what was found.
  @Test func tooManySheetTimesNameTheOptionAndTheCount() throws {
    let path = try scene()
    let times = (0...1000).map { String(Double($0) / 1000) }
    let result = run(["sheet", path, "-o", folder + "/s.png", "--times"] + times)
    #expect(result.status == 2)
    #expect(
      result.errors.contains("--times: a sheet shows at most 1000 frames, found 1001"),
      "\(result.errors)")
  }
}
