import ArgumentParser
import Flipbook
import Glibc

/// `flipbook render SCENE -o OUT [...]`: frames of a scene to a GIF, a PNG or a folder of PNGs.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract:
      "Render a scene to an animated GIF, WebP or PNG, a video, a PNG of its first frame, or PNG frames.",
    discussion: """
      Frames are at from + i / fps while the time is below --to (default 0 to the scene's \
      duration). OUT by extension: .gif an animated GIF, .webp an animated WebP (lossless \
      unless --quality), .apng an animated PNG, .mp4 (H.264) or .webm (VP9, alpha kept) a video \
      through ffmpeg (--crf), .png one PNG of the first frame, a folder (ending in / or existing) one PNG per frame named frame-00000.png, ... The bytes \
      are the same whatever --jobs is. Files are written whole or not at all.
      """)

  @Argument(help: "The scene file or Lottie animation (.json, .lottie).")
  var scene: String

  @OptionGroup var output: OutputOptions

  @Flag(name: .long, help: strictHelp) var strict = false

  func validate() throws {
    guard let path = output.output else {
      throw ValidationError("Missing expected argument '--output <output>'")
    }
    try OutputOptions.checkKind(of: path)
    try output.checkFormatOptions(for: OutputOptions.kind(of: path) ?? .folder)
  }

  func run() throws {
    let path = scene, strict = strict
    // Refuses a bad file and warns once; then the render's first instance (the file is not
    // read again for it).
    let first = try loadScene(path, strict: strict)
    try refuseOutput(output.output ?? "", over: first, file: path)
    try output.render(name: scene, to: output.output ?? "") { duration in
      @Sendable func ending(_ scene: Scene) -> Scene {
        if let duration {
          scene.duration = duration
          scene.durationSource = "--duration"  // what messages about the end name
        }
        return scene
      }
      return SceneRecipe(first: ending(first)) { ending(try reloadScene(path, strict: strict)) }
    }
  }
}

/// The output flags `render` and `demo` share, and the rendering they drive.
struct OutputOptions: ParsableArguments {
  @Option(
    name: [.customShort("o"), .long],
    help: "The output: FILE.gif, .webp, .apng, .mp4, .webm, .png, or a FOLDER/ of PNG frames.")
  var output: String?

  @Option(
    name: .long, parsing: .unconditional, help: "Frames per second (default: the scene's).",
    transform: decimal)
  var fps: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: "The scene's duration in seconds (default: the scene's).", transform: decimal)
  var duration: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: "The time of the first frame, in seconds (default 0).", transform: decimal)
  var from: Double = 0

  @Option(
    name: .long, parsing: .unconditional,
    help: "The end of the range, excluded, in seconds (default: the duration).", transform: decimal)
  var to: Double?

  @Option(
    name: .long, parsing: .unconditional, help: "Pixels per point (default: the scene's).",
    transform: decimal)
  var scale: Double?

  @Option(
    name: .long, parsing: .unconditional, help: "Rendering threads (default: the number of cores).",
    transform: wholeNumber("in 1...256"))
  var jobs: Int = FrameRenderer.coreCount

  @Option(
    name: .long, parsing: .unconditional,
    help: "The most colors in a GIF's palette, 2...256 (default 256).",
    transform: wholeNumber("in 2...256"))
  var colors: Int?

  @Option(
    name: .long, help: "GIF dithering: floyd-steinberg, ordered or none (default floyd-steinberg).")
  var dither: GIF.DitherMethod?

  @Option(
    name: .long, parsing: .unconditional,
    help: "GIF loop count: 0 forever, N plays N times in all (default: the scene's, 0).",
    transform: wholeNumber("in 0...65536"))
  var loop: Int?

  @Option(
    name: .long, parsing: .unconditional,
    help: "Lossy WebP of this quality, 0...100 (default: lossless).", transform: decimal)
  var quality: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: "Video quality: H.264 0...51 (default 18), VP9 0...63 (default 24); lower is better.",
    transform: wholeNumber("in 0...51 for H.264 (.mp4), 0...63 for VP9 (.webm)"))
  var crf: Int?

  @Option(name: .long, help: "PNG compression: fast, default or small.")
  var pngCompression: PNG.Compression?

  @Flag(name: .long, help: "Print nothing but errors.")
  var quiet = false

  enum Kind: Equatable { case gif, png, folder, webp, apng, video(VideoSink.Format) }

  /// What `path` names by its form: a GIF, a WebP, an APNG, a video, a PNG, or a folder (ending
  /// in / or existing).
  static func kind(of path: String) -> Kind? {
    let lower = path.lowercased()
    if lower.hasSuffix(".gif") { return .gif }
    if lower.hasSuffix(".webp") { return .webp }
    if lower.hasSuffix(".apng") { return .apng }
    if lower.hasSuffix(".mp4") { return .video(.mp4) }
    if lower.hasSuffix(".webm") { return .video(.webm) }
    if lower.hasSuffix(".png") { return .png }
    if path.hasSuffix("/") || AtomicFile.isFolder(path) { return .folder }
    return nil
  }

  /// Throws a usage error when `path` names no output format.
  static func checkKind(of path: String) throws {
    guard kind(of: path) != nil else {
      throw ValidationError(
        "cannot tell the output format of '\(path)': use a .gif, .webp, .apng, .mp4, .webm or .png file, or a folder ending in /"
      )
    }
  }

  func validate() throws {
    if let fps, !(fps >= Scene.minimumFPS && fps <= Scene.maximumFPS) {
      throw ValidationError(
        "--fps must be from \(Scene.minimumFPS) to \(Int(Scene.maximumFPS)) frames per second, found \(shortestNumber(fps))"
      )
    }
    if let duration, !(duration > 0 && duration <= Scene.maximumDuration) {
      throw ValidationError(
        "--duration must be more than 0 and at most \(Int(Scene.maximumDuration)) seconds, found \(shortestNumber(duration))"
      )
    }
    if let scale, !(scale > 0 && scale.isFinite) {
      throw ValidationError(
        "--scale must be a finite number greater than 0, found \(shortestNumber(scale))")
    }
    guard from.isFinite else {
      throw ValidationError("--from must be a finite time, found \(shortestNumber(from))")
    }
    if let to, !(to.isFinite && to > from) {
      throw ValidationError(
        "--to must be a finite time after --from (\(shortestNumber(from)) s), found "
          + "\(shortestNumber(to))")
    }
    guard jobs >= 1 && jobs <= 256 else {
      throw ValidationError("--jobs must be 1...256, found \(jobs)")
    }
    if let colors, !(2...256).contains(colors) {
      throw ValidationError("--colors must be 2...256, found \(colors)")
    }
    if let loop, !(0...65536).contains(loop) {
      throw ValidationError("--loop must be 0...65536, found \(loop)")
    }
    if let quality, !(quality >= 0 && quality <= 100) {
      throw ValidationError("--quality must be 0...100, found \(shortestNumber(quality))")
    }
  }

  /// Refuses a format option given for an output it does not apply to, as a usage error naming
  /// the option and the outputs it applies to: `--colors` and `--dither` shape a GIF's palette,
  /// `--loop` is stored by GIF, WebP and APNG, `--quality` is lossy WebP's, `--crf` a video's,
  /// `--png-compression` is for PNG files (an APNG is always compressed at zlib's level 9).
  /// Options that would be ignored are refused rather than silently dropped. `kind` is what the
  /// command writes: the output's form, or `.gif` for `demo --all` (a folder of GIFs).
  func checkFormatOptions(for kind: Kind) throws {
    if colors != nil, kind != .gif {
      throw ValidationError("--colors applies to .gif outputs only")
    }
    if dither != nil, kind != .gif {
      throw ValidationError("--dither applies to .gif outputs only")
    }
    if loop != nil, ![.gif, .webp, .apng].contains(kind) {
      throw ValidationError("--loop applies to animated .gif, .webp and .apng outputs only")
    }
    if let loop, kind == .webp, loop > 65535 {
      // A WebP stores the plays in 16 bits (`--loop N` is N plays); a GIF stores N − 1.
      throw ValidationError("--loop must be 0...65535 for .webp, found \(loop)")
    }
    if pngCompression != nil, kind != .png, kind != .folder {
      throw ValidationError(
        "--png-compression applies to .png outputs and folders of PNG frames only")
    }
    if quality != nil, kind != .webp {
      throw ValidationError("--quality applies to .webp outputs only (lossy WebP)")
    }
    if let crf {
      guard case .video(let format) = kind else {
        throw ValidationError("--crf applies to .mp4 and .webm outputs only")
      }
      guard format.crfRange.contains(crf) else {
        throw ValidationError(
          "--crf must be \(format.crfRange.lowerBound)...\(format.crfRange.upperBound)"
            + " for .\(format.rawValue), found \(crf)")
      }
    }
  }

  /// Renders the recipe `make(duration)` gives to `output`, as the flags say; `name` is the
  /// scene's name for messages.
  func render(name: String, to output: String, _ make: (Double?) -> SceneRecipe) throws {
    let recipe = make(duration)
    var options = Export.Options()
    options.from = from
    options.to = to
    options.fps = fps
    options.scale = scale
    options.jobs = jobs
    options.gif = GIF.Options(
      maxColors: colors ?? 256, dither: dither ?? .floydSteinberg, loopCount: loop ?? 0)
    options.loopCountIsSet = loop != nil
    options.pngCompression = pngCompression ?? .default
    options.webp.quality = quality
    options.crf = crf
    let bar = ProgressBar(enabled: !quiet && isatty(2) == 1)
    defer { bar.finish() }
    let sink = makeSink(for: output, options: options)
    let progress = OutputOptions.kind(of: output) == .png ? nil : bar.update
    let report = try failing(name, output: output) {
      try Export.render(recipe, into: sink, options: options, progress: progress)
    }
    bar.finish()
    guard !quiet else { return }
    for line in SceneDocument.warningLines(report.warnings) { FileHandleStandardError.write(line) }
    let stored =
      report.storedFrameCount == report.frameCount ? "" : " (\(report.storedFrameCount) stored)"
    print(
      "\(MessageText.path(output)): \(MessageText.counted(report.frameCount, "frame"))\(stored), "
        + "\(MessageText.counted(report.byteCount, "byte"))")
  }
}

extension OutputOptions {
  /// The frame sink for `output`, chosen by its form (`kind(of:)`): a new output format is a
  /// new case here and a new `FrameSink`, nothing else.
  func makeSink(for output: String, options: Export.Options) -> any FrameSink {
    switch OutputOptions.kind(of: output) {
    case .gif: return Export.sink(.gif, to: output, options: options)
    case .webp: return Export.sink(.webp, to: output, options: options)
    case .apng: return Export.sink(.apng, to: output, options: options)
    case .video(let format):
      return Export.sink(format == .mp4 ? .mp4 : .webm, to: output, options: options)
    case .folder: return PNGSequenceSink(.folder(output), compression: options.pngCompression)
    case .png, nil: return PNGSink(.file(output), compression: options.pngCompression)
    }
  }
}

extension GIF.DitherMethod: ExpressibleByArgument {}

/// A one-line progress bar on standard error, drawn only on a terminal.
final class ProgressBar {
  let enabled: Bool
  private var lastDrawn = -1
  private var drawn = false

  init(enabled: Bool) { self.enabled = enabled }

  func update(_ phase: String, _ done: Int, _ total: Int) {
    guard enabled, total > 0 else { return }
    let width = 30
    let filled = done * width / total
    guard filled != lastDrawn || done == total else { return }
    lastDrawn = filled
    let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
    let line = "\r\(phase.padding(8)) [\(bar)] \(done)/\(total)"
    FileHandleStandardError.writeRaw(line)
    drawn = true
  }

  func finish() {
    guard enabled, drawn else { return }
    FileHandleStandardError.writeRaw("\r\u{1B}[K")
    drawn = false
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: Swift.max(0, width - count))
  }
}
