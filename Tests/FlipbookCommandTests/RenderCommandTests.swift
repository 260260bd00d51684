import Flipbook
import FlipbookTestSupport
import Foundation
import Glibc
import Testing

@testable import FlipbookCommand

/// `flipbook render` (docs/command-line.md) and its GIFs as independent decoders see them.
@Suite(.serialized) struct RenderCommandTests {
  let folder = FixtureFiles.temporaryFolder()
  static let radar = FixtureFiles.root + "/scenes/radar-pulses.json"
  static let kinds = FixtureFiles.root + "/scenes/animation-kinds.json"
  static let transparent = FixtureFiles.root + "/scenes/visibility-transparent.json"

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  @Test func usageErrorsExitWith2() {
    #expect(run(["render", Self.radar, "-o", folder + "/x.tiff"]).status == 2)
    #expect(run(["render", Self.radar, "-o", folder + "/x.gif", "--colors", "300"]).status == 2)
    #expect(
      run(["render", Self.radar, "-o", folder + "/x.gif", "--dither", "blue-noise"]).status == 2)
    #expect(
      run(["render", Self.radar, "-o", folder + "/x.gif", "--from", "2", "--to", "1"]).status == 2)
  }

  @Test func failuresExitWith1AndLeaveNoFile() {
    let result = run(["render", Self.radar, "-o", folder + "/missing/x.gif", "--quiet"])
    #expect(result.status == 1)
    #expect(result.errors.contains("missing/x.gif"))
    let tooMany = run([
      "render", Self.radar, "-o", folder + "/x.gif", "--fps", "240", "--to", "1000", "--quiet",
    ])
    #expect(tooMany.status == 1)
    #expect(tooMany.errors.contains("over the limit of 100000"))
    #expect(access(folder + "/x.gif", F_OK) != 0)
  }

  @Test func aGIFShowsEveryFrameWithTheRightDelaysAndLoop() throws {
    let out = folder + "/kinds.gif"
    #expect(
      run([
        "render", Self.kinds, "-o", out, "--fps", "30", "--to", "0.4", "--loop", "3", "--quiet",
        "--jobs", "2",
      ]).status == 0)
    let decoded = try DecodedGIF(AtomicFile.read(out))
    #expect(decoded.delays.reduce(0, +) == 40)
    #expect(decoded.loopExtension == 2)
    let scene = try SceneFormat.load(contentsOf: Self.kinds)
    // Frames at 0, 1/30, ... 11/30: each stored frame shows its time's render exactly (few colors).
    var shown = 0
    for (k, delay) in decoded.delays.enumerated() {
      let expected = try scene.makeFrame(at: Double(shown) / 30).makeBitmap()
      #expect(Fidelity.psnr(decoded.frames[k], expected) > 40, "frame \(k)")
      shown += Int((Double(delay) * 30 / 100).rounded())
    }
  }

  @Test func noProgressBarWhenNotATerminal() throws {
    let result = try Tools.run(
      Tools.flipbook,
      ["render", Self.radar, "-o", folder + "/r.gif", "--to", "1", "--scale", "0.5"])
    #expect(result.status == 0)
    #expect(!result.errors.contains("\r"))
    #expect(result.output.hasPrefix(folder + "/r.gif: 25 frames"))
  }

  @Test func anInterruptedRenderLeavesNoFile() throws {
    // Interrupted once the GIF is being written (after the palette pass): its temporary file
    // beside the target has appeared.
    let run = try Tools.interruptFlipbook(
      [
        "render", Self.radar, "-o", folder + "/long.gif", "--duration", "12", "--fps", "25",
        "--scale", "2", "--jobs", "1",
      ], in: folder
    ) { names in names.contains { $0.hasPrefix(".long.gif.") && $0.hasSuffix(".tmp") } }
    #expect(run.started, "the render never started writing the GIF")
    #expect(run.interrupted)
    #expect(run.leftovers.isEmpty, "left behind: \(run.leftovers)")
  }

  /// Hostile pass 43: SIGQUIT (Ctrl-\) made Swift's runtime print a crash report of every
  /// thread and let the render go on to exit 0; SIGUSR1 ended it with its temporary file left.
  /// Both now end it as SIGINT does, nothing left (SIGQUIT with exit status 131); and, from
  /// hostile pass 45, so do SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU and SIGPWR.
  @Test func quitAndUserSignalsEndARenderLeavingNoFile() throws {
    for signal in [SIGQUIT, SIGUSR1, SIGALRM] {
      let run = try Tools.interruptFlipbook(
        [
          "render", Self.radar, "-o", folder + "/q.gif", "--duration", "12", "--fps", "25",
          "--scale", "2", "--jobs", "1",
        ], in: folder, signal: signal
      ) { names in names.contains { $0.hasPrefix(".q.gif.") && $0.hasSuffix(".tmp") } }
      #expect(run.started, "signal \(signal): the render never started writing the GIF")
      #expect(run.interrupted, "signal \(signal)")
      #expect(run.leftovers.isEmpty, "signal \(signal): left behind: \(run.leftovers)")
    }
  }

  /// Hostile pass 35: under a file-size limit (`ulimit -f`) SIGXFSZ ended the process without
  /// a word (exit 153) and left its temporary file. The write fails instead, said as the
  /// output's error, and nothing is left.
  @Test func aFileSizeLimitIsSaidAsTheOutputsError() throws {
    let result = try Tools.run(
      "/bin/sh",
      [
        "-c", "ulimit -f 8; exec \"$0\" render \"$1\" -o \"$2\" --scale 2", Tools.flipbook,
        Self.radar, folder + "/big.gif",
      ])
    #expect(result.status == 1)
    #expect(result.errors == "cannot write output \(folder)/big.gif: File too large\n")
    #expect(AtomicFile.names(in: folder).isEmpty)
  }
}

/// GIFs decoded by Pillow, ImageMagick and ffmpeg show the source frames (run when installed;
/// `scripts/test` installs them).
@Suite(.serialized) struct IndependentDecoderTests {
  let folder = FixtureFiles.temporaryFolder()

  /// Renders the transparent fixture as a GIF, and its frames as PNGs to compare with.
  func render() throws -> (gif: String, frames: [Bitmap]) {
    let scene = FixtureFiles.root + "/scenes/animation-kinds.json"
    let gif = folder + "/kinds.gif"
    var options = Export.Options()
    options.to = 0.5
    options.fps = 10
    let recipe = SceneRecipe { try SceneFormat.load(contentsOf: scene) }
    _ = try Export.gif(recipe, to: gif, options: options)
    let loaded = try SceneFormat.load(contentsOf: scene)
    let frames = try (0..<5).map { try loaded.makeFrame(at: Double($0) / 10).makeBitmap() }
    return (gif, frames)
  }

  func compare(_ decodedFolder: String, _ frames: [Bitmap]) throws {
    for (i, expected) in frames.enumerated() {
      let decoded = try Bitmap(contentsOfPNGFile: "\(decodedFolder)/\(i).png")
      #expect(decoded.width == expected.width && decoded.height == expected.height)
      #expect(
        Fidelity.psnr(decoded, expected) > 40, "frame \(i): \(Fidelity.psnr(decoded, expected)) dB")
    }
  }

  @Test(.enabled(if: Tools.hasPillow)) func pillow() throws {
    let (gif, frames) = try render()
    let script = """
      import sys
      from PIL import Image, ImageSequence
      im = Image.open(sys.argv[1])
      assert im.info.get('loop') == 0, im.info
      durations = []
      for i, frame in enumerate(ImageSequence.Iterator(im)):
          durations.append(frame.info['duration'])
          frame.convert('RGBA').save(f'{sys.argv[2]}/{i}.png')
      print(' '.join(map(str, durations)))
      """
    try FileManager.default.createDirectory(
      atPath: folder + "/pillow", withIntermediateDirectories: true)
    let result = try Tools.run("/usr/bin/env", ["python3", "-c", script, gif, folder + "/pillow"])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "100 100 100 100 100")
    try compare(folder + "/pillow", frames)
  }

  @Test(.enabled(if: Tools.path(of: "convert") != nil)) func imageMagick() throws {
    let (gif, frames) = try render()
    let result = try Tools.run(
      Tools.path(of: "convert")!, [gif, "-coalesce", folder + "/im-%d.png"])
    #expect(result.status == 0, "\(result.errors)")
    try FileManager.default.createDirectory(
      atPath: folder + "/im", withIntermediateDirectories: true)
    for i in 0..<5 {
      try FileManager.default.moveItem(
        atPath: folder + "/im-\(i).png", toPath: folder + "/im/\(i).png")
    }
    try compare(folder + "/im", frames)
  }

  @Test(.enabled(if: Tools.path(of: "ffmpeg") != nil)) func ffmpeg() throws {
    let (gif, frames) = try render()
    try FileManager.default.createDirectory(
      atPath: folder + "/ff", withIntermediateDirectories: true)
    let result = try Tools.run(
      Tools.path(of: "ffmpeg")!,
      [
        "-loglevel", "error", "-i", gif, "-fps_mode", "passthrough", "-start_number", "0",
        folder + "/ff/%d.png",
      ])
    #expect(result.status == 0, "\(result.errors)")
    try compare(folder + "/ff", frames)
  }
}
