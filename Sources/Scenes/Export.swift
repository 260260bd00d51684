import CairoCanvas
import Geometry
import ImageEncoding

/// Renders scenes into files: an animated GIF, one PNG, or a folder of PNG frames, each
/// written whole or not at all.
public enum Export {
  /// What to render and how.
  public struct Options: Sendable {
    /// The time of the first frame, in seconds (default 0).
    public var from: Double = 0
    /// The end of the range, excluded (default: the scene's duration).
    public var to: Double? = nil
    /// Frames per second (default: the scene's).
    public var fps: Double? = nil
    /// Pixels per point (default: the scene's).
    public var scale: Double? = nil
    /// Rendering threads (default: the number of cores).
    public var jobs: Int = FrameRenderer.coreCount
    /// GIF palette size, dithering and loop count (the loop count defaults to the scene's).
    public var gif = GIF.Options()
    /// Whether `gif.loopCount` was chosen (otherwise the scene's `loopCount` is used).
    public var loopCountIsSet = false
    /// PNG compression for PNG outputs.
    public var pngCompression: PNG.Compression = .default

    /// Creates options with the defaults above.
    public init() {}
  }

  /// What a render produced.
  public struct Report: Sendable {
    /// Frames rendered (for a GIF, in each of its two passes).
    public var frameCount: Int
    /// Frames stored in the output (a GIF merges identical neighbours).
    public var storedFrameCount: Int
    /// Bytes written.
    public var byteCount: Int
    /// Things worth knowing that did not stop the render.
    public var warnings: [String]
  }

  /// How far a render has come: the phase ("palette", "frames"), frames done, frames in all.
  public typealias Progress = (_ phase: String, _ done: Int, _ total: Int) -> Void

  /// Why a render was refused before it started.
  public enum LimitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// More frames than `Scene.maximumFrameCount`.
    case tooManyFrames(count: Int, limit: Int)
    /// No frame lies in the range.
    case noFrames(from: Double, to: Double)

    /// A one-line message.
    public var description: String {
      switch self {
      case .tooManyFrames(let count, let limit): return "the render would make \(count) frames, over the limit of \(limit)"
      case .noFrames(let from, let to): return "no frame lies in \(from) ..< \(to) s"
      }
    }
  }

  static func plan(_ recipe: SceneRecipe, _ options: Options) throws -> (Scene, FrameSequence) {
    let scene = try recipe.make()
    let sequence = FrameSequence(from: options.from, to: options.to ?? scene.duration, fps: options.fps ?? scene.fps)
    guard sequence.count > 0 else { throw LimitError.noFrames(from: sequence.from, to: sequence.to) }
    guard sequence.count <= Scene.maximumFrameCount else {
      throw LimitError.tooManyFrames(count: sequence.count, limit: Scene.maximumFrameCount)
    }
    _ = try Canvas(size: scene.size, scale: options.scale ?? scene.scale)  // the pixel limits
    return (scene, sequence)
  }

  /// Renders an animated GIF to `path`: a first pass collects the colors of every frame, a
  /// second renders the frames again (rendering is deterministic) and encodes them as they come.
  public static func gif(_ recipe: SceneRecipe, to path: String, options: Options = Options(), progress: Progress? = nil) throws -> Report {
    let (scene, sequence) = try plan(recipe, options)
    let renderer = FrameRenderer(recipe: recipe, scale: options.scale, jobs: options.jobs)
    var warnings: [String] = []
    if let warning = GIF.DelayPlan.warning(fps: sequence.fps) { warnings.append(warning) }

    let builder = GIF.PaletteBuilder()
    try renderer.render(sequence, process: { _, bitmap in GIF.FrameHistogram(bitmap) }) { i, histogram in
      builder.add(histogram)
      progress?("palette", i + 1, sequence.count)
    }
    var gifOptions = options.gif
    if !options.loopCountIsSet { gifOptions.loopCount = scene.loopCount }
    let palette = builder.makePalette(maxColors: gifOptions.maxColors)
    let delays = GIF.DelayPlan.centiseconds(frameCount: sequence.count, fps: sequence.fps)

    let file = try AtomicFile.Stream(path: path)
    var bytes = 0
    let (width, height) = scene.pixelSize(scale: options.scale)
    // With more than one job, frames are mapped and chosen on a thread of their own (same
    // bytes); the output is still called on this thread.
    var written = 0
    let encoder = try GIF.Encoder(width: width, height: height, palette: palette, options: gifOptions, pipelined: options.jobs > 1) { chunk in
      try file.write(chunk)
      written += chunk.count
    }
    // Frames the global palette serves clearly worse than one of their own get a local palette,
    // chosen on the rendering threads.
    let local = gifOptions.allowsLocalPalettes && !palette.isExact
    try renderer.render(sequence, process: { _, bitmap in
      (bitmap, local ? GIF.LocalPalette.choose(for: GIF.FrameHistogram(bitmap), global: palette) : nil)
    }) { i, frame in
      try encoder.add(frame.0, delay: delays[i], localPalette: frame.1)
      progress?("frames", i + 1, sequence.count)
    }
    try encoder.finish()
    try file.commit()
    bytes = written
    return Report(frameCount: sequence.count, storedFrameCount: encoder.storedFrameCount, byteCount: bytes, warnings: warnings)
  }

  /// Renders one PNG of the first frame to `path`.
  public static func png(_ recipe: SceneRecipe, to path: String, options: Options = Options()) throws -> Report {
    let (_, sequence) = try plan(recipe, options)
    let first = FrameSequence(from: sequence.from, to: sequence.time(at: 1), fps: sequence.fps)
    var bytes = 0
    let compression = options.pngCompression
    try FrameRenderer(recipe: recipe, scale: options.scale, jobs: 1).render(first, process: { _, bitmap in
      try PNG.encode(bitmap, compression: compression)
    }) { _, png in
      try AtomicFile.write(png, to: path)
      bytes = png.count
    }
    return Report(frameCount: 1, storedFrameCount: 1, byteCount: bytes, warnings: [])
  }

  /// Renders one PNG per frame into `folder` (created if missing), named `frame-00000.png`,
  /// `frame-00001.png`, ...; files of those names are replaced, other files are left alone.
  public static func pngFolder(_ recipe: SceneRecipe, to folder: String, options: Options = Options(), progress: Progress? = nil) throws -> Report {
    let (_, sequence) = try plan(recipe, options)
    try AtomicFile.makeFolder(folder)
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    let compression = options.pngCompression
    var bytes = 0
    try FrameRenderer(recipe: recipe, scale: options.scale, jobs: options.jobs).render(sequence, process: { _, bitmap in
      try PNG.encode(bitmap, compression: compression)
    }) { i, png in
      try AtomicFile.write(png, to: base + frameName(i))
      bytes += png.count
      progress?("frames", i + 1, sequence.count)
    }
    return Report(frameCount: sequence.count, storedFrameCount: sequence.count, byteCount: bytes, warnings: [])
  }

  /// `frame-00000.png` for frame 0 (five digits, more when needed).
  public static func frameName(_ index: Int) -> String {
    let digits = String(index)
    return "frame-" + String(repeating: "0", count: Swift.max(0, 5 - digits.count)) + digits + ".png"
  }
}
