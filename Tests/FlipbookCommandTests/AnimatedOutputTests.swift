import Flipbook
import FlipbookTestSupport
import Foundation
import Glibc
import Testing

@testable import FlipbookCommand

/// `flipbook render` to .webp, .apng, .mp4 and .webm (the contract's "Animated outputs beside
/// GIF"), checked with independent decoders: Pillow for WebP and APNG, ffprobe for videos.
@Suite(.serialized) struct AnimatedOutputTests {
  let folder = FixtureFiles.temporaryFolder()

  /// The radar fixture on a transparent background: pulses of partial alpha over nothing.
  func transparentRadar() throws -> String {
    let source = try String(
      contentsOfFile: FixtureFiles.root + "/scenes/radar-pulses.json", encoding: .utf8)
    let path = folder + "/radar-transparent.json"
    try source.replacingOccurrences(of: "\"#ffffff\"", with: "null").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  static let common = ["--to", "0.6", "--fps", "10", "--scale", "0.303125", "--quiet"]  // 97 x 97

  @Test func optionsOutOfRangeOrForAnotherFormatAreUsageErrors() {
    let radar = FixtureFiles.root + "/scenes/radar-pulses.json"
    let quality = run(["render", radar, "-o", folder + "/x.webp", "--quality", "101"])
    #expect(quality.status == 2 && quality.errors.contains("--quality must be 0...100"))
    #expect(run(["render", radar, "-o", folder + "/x.gif", "--quality", "50"]).status == 2)
    let crf = run(["render", radar, "-o", folder + "/x.mp4", "--crf", "52"])
    #expect(crf.status == 2 && crf.errors.contains("--crf must be 0...51"))
    // Negative numbers are values, refused by range (not "Missing value").
    let negative = run(["render", radar, "-o", folder + "/x.webp", "--quality", "-1"])
    #expect(negative.status == 2 && negative.errors.contains("--quality must be 0...100, found -1"))
    let negativeCRF = run(["render", radar, "-o", folder + "/x.mp4", "--crf", "-0"])
    #expect(negativeCRF.status == 2 || negativeCRF.status == 0)
    #expect(!negativeCRF.errors.contains("Missing value"))
    #expect(
      run(["render", radar, "-o", folder + "/x.webm", "--crf", "63", "--to", "0.1", "--quiet"])
        .status == 0)
    #expect(run(["render", radar, "-o", folder + "/x.apng", "--crf", "20"]).status == 2)
    // demo --all writes GIFs: the GIF options apply there, the others do not.
    let demo = run(["demo", "--all", "-o", folder + "/demos/", "--quality", "50"])
    #expect(demo.status == 2 && demo.errors.contains("--quality applies to .webp outputs only"))
  }

  /// A format option for an output it does not shape is refused by name, not silently dropped.
  @Test(arguments: [
    (["-o", "x.webp", "--colors", "16"], "--colors applies to .gif outputs only"),
    (["-o", "x.apng", "--dither", "none"], "--dither applies to .gif outputs only"),
    (
      ["-o", "x.mp4", "--loop", "2"],
      "--loop applies to animated .gif, .webp and .apng outputs only"
    ),
    (
      ["-o", "frames/", "--loop", "2"],
      "--loop applies to animated .gif, .webp and .apng outputs only"
    ),
    (["-o", "x.png", "--colors", "4"], "--colors applies to .gif outputs only"),
    (["-o", "x.webp", "--loop", "65536"], "--loop must be 0...65535 for .webp, found 65536"),
    (["-o", "x.gif", "--png-compression", "fast"], "--png-compression applies to .png outputs"),
    (["-o", "frames/", "--quality", "50"], "--quality applies to .webp outputs only"),
  ])
  func formatOptionsForAnotherFormatAreUsageErrors(_ options: [String], _ message: String) {
    let radar = FixtureFiles.root + "/scenes/radar-pulses.json"
    let arguments = options.map { $0.hasPrefix("x.") || $0 == "frames/" ? folder + "/" + $0 : $0 }
    let result = run(["render", radar] + arguments)
    #expect(result.status == 2 && result.errors.contains("Error: " + message), "\(result.errors)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/frames"))
  }

  /// Pillow's frames, durations (ms) and loop count of an animation, the frames saved as PNGs.
  func pillow(_ file: String) throws -> (frames: [Bitmap], durations: [Double], loop: Int) {
    let out = folder + "/pillow-" + (file as NSString).lastPathComponent
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let script = """
      import sys
      from PIL import Image, ImageSequence
      im = Image.open(sys.argv[1])
      print(im.info.get('loop'))
      for i, frame in enumerate(ImageSequence.Iterator(im)):
          rgba = frame.convert('RGBA')  # loads the frame: WebP's duration is known then
          print(frame.info['duration'])
          rgba.save(f'{sys.argv[2]}/{i}.png')
      """
    let result = try Tools.run("/usr/bin/env", ["python3", "-c", script, file, out])
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.output.split(separator: "\n").map(String.init)
    let durations = lines.dropFirst().compactMap(Double.init)
    let frames = try (0..<durations.count).map { try Bitmap(contentsOfPNGFile: "\(out)/\($0).png") }
    return (frames, durations, Int(lines.first ?? "") ?? -1)
  }

  @Test(.enabled(if: Tools.hasPillow)) func webpAndAPNGDecodeToTheRenderedFramesAlphaIncluded()
    throws
  {
    let scene = try transparentRadar()
    #expect(run(["render", scene, "-o", folder + "/frames/"] + Self.common).status == 0)
    let rendered = try (0..<6).map {
      try Bitmap(contentsOfPNGFile: folder + "/frames/" + Export.frameName($0))
    }
    #expect(
      rendered.contains {
        $0.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element > 0 && $0.element < 255 }
      })
    for ext in ["webp", "apng"] {
      let file = folder + "/radar." + ext
      #expect(run(["render", scene, "-o", file, "--loop", "2"] + Self.common).status == 0)
      let decoded = try pillow(file)
      let same = decoded.frames == rendered
      #expect(same, "\(ext): \(decoded.frames.count) frames decoded")
      #expect(decoded.loop == 2, "\(ext)")  // plays twice in all: loop 2 in both formats
      #expect(decoded.durations == [Double](repeating: 100, count: 6), "\(ext)")
    }
  }

  @Test func outputsAreTheSameBytesWhateverTheJobs() throws {
    let scene = try transparentRadar()
    for ext in ["webp", "apng", "webm"] {
      #expect(
        run(["render", scene, "-o", folder + "/one." + ext, "--jobs", "1"] + Self.common).status
          == 0)
      #expect(
        run(["render", scene, "-o", folder + "/two." + ext, "--jobs", "2"] + Self.common).status
          == 0)
      let (one, two) = (
        try AtomicFile.read(folder + "/one." + ext), try AtomicFile.read(folder + "/two." + ext)
      )
      #expect(!one.isEmpty && one == two, "\(ext)")
    }
  }

  /// ffprobe's view of a video's first stream: key=value lines.
  func probe(_ file: String) throws -> [String: String] {
    let result = try Tools.run(
      Tools.path(of: "ffprobe")!,
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=codec_name,pix_fmt,width,height,r_frame_rate,nb_read_frames:stream_tags=alpha_mode",
        "-of", "default=noprint_wrappers=1", file,
      ])
    #expect(result.status == 0, "\(result.errors)")
    var out: [String: String] = [:]
    for line in result.output.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { out[parts[0]] = parts[1] }
    }
    return out
  }

  @Test(.enabled(if: Tools.path(of: "ffprobe") != nil)) func videosHaveEveryFrameAtTheExactRate()
    throws
  {
    let scene = try transparentRadar()
    #expect(run(["render", scene, "-o", folder + "/radar.mp4"] + Self.common).status == 0)
    let mp4 = try probe(folder + "/radar.mp4")
    #expect(mp4["codec_name"] == "h264" && mp4["pix_fmt"] == "yuv420p")
    #expect(mp4["width"] == "98" && mp4["height"] == "98")  // 97 padded to even
    #expect(mp4["r_frame_rate"] == "10/1" && mp4["nb_read_frames"] == "6")
    let at2997 = ["--to", "0.6", "--fps", "29.97", "--scale", "0.303125", "--quiet"]
    #expect(run(["render", scene, "-o", folder + "/radar.webm"] + at2997).status == 0)
    let webm = try probe(folder + "/radar.webm")
    #expect(webm["codec_name"] == "vp9" && webm["TAG:alpha_mode"] == "1")  // VP9 with alpha
    #expect(webm["r_frame_rate"] == "2997/100" && webm["nb_read_frames"] == "18")
    // Twenty-sixth pass: with the rate given for the input only, ffmpeg timed an MP4's frames at
    // 1/1 for 2001/2000 (and 97573/97561): each frame's time drifted from i / fps.
    let odd = ["--to", "4", "--fps", "1.0005", "--scale", "0.303125", "--quiet"]
    #expect(run(["render", scene, "-o", folder + "/odd.mp4"] + odd).status == 0)
    let oddProbe = try probe(folder + "/odd.mp4")
    #expect(oddProbe["r_frame_rate"] == "2001/2000" && oddProbe["nb_read_frames"] == "5")
    // An opaque background: no alpha.
    #expect(
      run(
        ["render", FixtureFiles.root + "/scenes/radar-pulses.json", "-o", folder + "/opaque.webm"]
          + Self.common
      ).status == 0)
    #expect(try probe(folder + "/opaque.webm")["TAG:alpha_mode"] == nil)
  }

  @Test func withoutFFmpegAVideoFailsNamingWhatToInstall() throws {
    let radar = FixtureFiles.root + "/scenes/radar-pulses.json"
    let (status, _, errors) = try Tools.run(
      Tools.flipbook, ["render", radar, "-o", folder + "/x.mp4", "--to", "0.2"],
      environment: ["PATH": folder + "/empty-bin"])
    #expect(status == 1)
    #expect(errors.contains("ffmpeg") && errors.contains("apt-get install ffmpeg"), "\(errors)")
    #expect(access(folder + "/x.mp4", F_OK) != 0)
  }

  @Test(.enabled(if: Tools.path(of: "ffmpeg") != nil)) func anInterruptedVideoLeavesNoFile() throws
  {
    let run = try Tools.interruptFlipbook(
      [
        "render", FixtureFiles.root + "/scenes/radar-pulses.json", "-o", folder + "/long.webm",
        "--duration", "30", "--jobs", "1",
      ], in: folder, settle: 0.3
    ) { names in names.contains { $0.hasPrefix(".long.webm.") && $0.hasSuffix(".tmp") } }
    #expect(run.started, "the render never started writing the video")
    #expect(run.interrupted)
    #expect(run.leftovers.isEmpty, "left behind: \(run.leftovers)")
  }
}

/// `flipbook diff` compares animated WebPs and APNGs frame by frame, like GIFs.
@Suite struct AnimatedDiffTests {
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    var errors = ""
    let status = FlipbookTool.run(arguments, standardError: { errors += $0 + "\n" })
    return (status, "", errors)
  }

  @Test(arguments: ["webp", "apng"]) func animationsMatchThemselvesAndNotOthers(
    _ ext: String
  ) throws {
    let a = folder + "/a." + ext, b = folder + "/b." + ext, c = folder + "/c." + ext,
      d = folder + "/d." + ext
    #expect(run(["demo", "spinner", "-o", a, "--quiet", "--scale", "0.5"]).status == 0)
    #expect(
      run(["demo", "spinner", "-o", b, "--quiet", "--scale", "0.5", "--jobs", "1"]).status == 0)
    #expect(
      run(["demo", "spinner", "-o", c, "--quiet", "--scale", "0.5", "--loop", "3"]).status == 0)
    #expect(
      run(["demo", "spinner", "-o", d, "--quiet", "--scale", "0.5", "--from", "0.1"]).status == 0)
    #expect(run(["diff", a, b]).status == 0)
    let loop = run(["diff", a, c])
    #expect(loop.status == 1 && loop.errors.contains("differ"))
    #expect(run(["diff", a, d]).status == 1)
    #expect(run(["diff", a, FixtureFiles.root + "/goldens/spinner.png"]).status == 1)
  }

  @Test func anAPNGCutBeforeItsAnimationChunkIsReportedAsCutShort() throws {
    let whole = folder + "/whole.apng", cut = folder + "/cut.apng"
    #expect(run(["demo", "spinner", "-o", whole, "--quiet", "--scale", "0.25"]).status == 0)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
    try Data(bytes.prefix(40)).write(to: URL(fileURLWithPath: cut))
    let result = run(["diff", cut, whole])
    #expect(result.status == 1)
    #expect(result.errors == "\(cut): the file ends before its acTL chunk\n")
    // A whole PNG beside an APNG is two formats, said as such.
    let png = FixtureFiles.root + "/goldens/spinner.png"
    #expect(
      run(["diff", png, whole]).errors
        == "\(png) is a PNG but \(whole) is an APNG: compare two files of one format\n")
  }

  @Test func aFrameWiderThanWebPAllowsIsRefusedByName() {
    #expect(throws: WebP.EncodingError.tooLarge(width: 16384, height: 1)) {
      _ = try WebP.AnimationEncoder(width: 16384, height: 1)
    }
    let message = WebP.EncodingError.tooLarge(width: 16384, height: 1).description
    #expect(message.contains("16383 pixels a side"))
  }
}
