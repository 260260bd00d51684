import CairoCanvas
import FileIO
import Geometry
import ImageEncoding
import Parallelism

/// Renders scenes into frame sinks (`FrameSink`): an animated GIF, one PNG, a folder of PNG
/// frames, bytes in memory; files are written whole or not at all. `gif`, `png` and
/// `pngFolder` are shorthands for `render(_:into:options:progress:)` with the matching sink.
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
    /// Animated WebP: lossless by default, `webp.quality` for lossy (the loop count comes from
    /// `gif.loopCount` when `loopCountIsSet`, else the scene's).
    public var webp = WebP.Options()
    /// APNG: zlib level (the loop count as for WebP).
    public var apng = APNG.Options()
    /// Videos: the constant rate factor, or `nil` for the format's default (18 for H.264, 24 for
    /// VP9).
    public var crf: Int? = nil
    /// The most bytes of frames (4 a pixel) a render with two passes (a GIF: its palette, then
    /// its frames) keeps from the first pass for the second instead of rendering them again
    /// (default 64 MiB: a 320 x 320 animation of 160 frames, most Lottie files). Longer or
    /// larger renders render twice and hold a few frames at a time; the bytes are the same.
    public var firstPassFrameBudget = 64 << 20

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
    /// No frame lies in the range `from ..< to`; `end` says where `to` came from (`--to 2`,
    /// `the scene's duration`, `Lottie op 60 at fr 30`).
    case noFrames(from: Double, to: Double, end: String)
    /// The frame rate is outside `Scene.minimumFPS ... Scene.maximumFPS` (or not finite).
    case frameRate(Double)
    /// The frames are closer together (`1 / fps` seconds) than times can be told apart at the
    /// range's end farther from 0 (`time`, with its sign, whose neighbouring numbers are
    /// `time.ulp` apart): near 2^53 s, 240 frames a second all fell on one time.
    case framesIndistinct(time: Double, fps: Double)
    /// The scene's `size` (points) at `scale` makes a frame outside the canvas limits
    /// (`Canvas.maximumSide`, `Canvas.maximumPixelCount`) or under one pixel; `scaleIsOptions`
    /// says whether the scale came from the render's options (`--scale`) or the scene.
    case frameSize(size: Size, scale: Double, scaleIsOptions: Bool)
    /// The scale (pixels a point) is outside `Scene.scaleRange`; `scaleIsOptions` as above.
    case scale(Double, scaleIsOptions: Bool)

    /// A one-line message.
    public var description: String {
      switch self {
      case .tooManyFrames(let count, let limit):
        let frames = count == Int.max ? "more than 10^18" : "\(count)"
        return "the render would make \(frames) frames, over the limit of \(limit)"
      case .noFrames(let from, let to, let end):
        guard from < to else {
          return "--from \(text(from)) is not before the end, \(text(to)) s (\(end)): no frame "
            + "lies in \(text(from)) ..< \(text(to)) s"
        }
        return "no frame lies in \(text(from)) ..< \(text(to)) s (--from to the end, \(end))"
      case .frameRate(let fps):
        return "a frame rate of \(fps) fps is outside \(Scene.minimumFPS)...\(Scene.maximumFPS)"
      case .framesIndistinct(let time, let fps):
        return
          "frames 1/\(text(fps)) s apart cannot be told apart at \(text(time)) s, where times "
          + "are \(text(time.ulp)) s apart at the least: render times nearer 0"
      case .frameSize(let size, let scale, let scaleIsOptions):
        let w = (size.width * scale).rounded(), h = (size.height * scale).rounded()
        let pixels = "\(text(w)) x \(text(h))"
        let limits =
          "outside the limits (1 to \(Canvas.maximumSide) pixels a side, "
          + "at most \(Canvas.maximumPixelCount / 1_000_000) megapixels)"
        let points = "\(text(size.width)) x \(text(size.height)) points"
        // The cause named first: `--scale` when the scene's size is drawable and the option
        // takes it out of the limits, else the scene's `size`.
        guard !scaleIsOptions || !(size.width > 0 && size.height > 0) else {
          return "--scale \(text(scale)) makes a frame of \(pixels) pixels from the scene's "
            + "\(points), \(limits)"
        }
        return "size: \(points) at \(scaleIsOptions ? "--scale" : "scale") \(text(scale)) "
          + "make a frame of \(pixels) pixels, \(limits)"
      case .scale(let scale, let scaleIsOptions):
        return "\(scaleIsOptions ? "--scale" : "scale") \(text(scale)) is outside "
          + "\(text(Scene.scaleRange.lowerBound))...\(text(Scene.scaleRange.upperBound)) pixels a "
          + "point"
      }
    }

    /// `x` shortest: `2`, `2.5`, `1e-09`.
    private func text(_ x: Double) -> String { shortestNumber(x) }
  }

  /// Throws `LimitError.frameSize` when `scene` at `scale` (or its own) makes no canvas.
  static func checkFrameSize(_ scene: Scene, scale: Double?) throws(LimitError) {
    guard Scene.scaleRange.contains(scale ?? scene.scale) else {
      throw .scale(scale ?? scene.scale, scaleIsOptions: scale != nil)
    }
    do {
      _ = try Canvas(size: scene.size, scale: scale ?? scene.scale)  // the pixel limits
    } catch {
      throw .frameSize(size: scene.size, scale: scale ?? scene.scale, scaleIsOptions: scale != nil)
    }
  }

  static func plan(_ recipe: SceneRecipe, _ options: Options) throws -> (Scene, FrameSequence) {
    let scene = try recipe.make()
    let fps = options.fps ?? scene.fps
    guard fps >= Scene.minimumFPS && fps <= Scene.maximumFPS else {
      throw LimitError.frameRate(fps)
    }
    let to = options.to ?? scene.duration
    let end =
      options.to != nil
      ? "--to" : scene.durationSource ?? "the scene's duration"
    // Checked before the sequence counts its frames, so that no count can overflow.
    let estimate = ((to - options.from) * fps).rounded(.up)
    // An empty range (a start at or past the end, however far) says so, not a frame count.
    guard estimate > 0 else { throw LimitError.noFrames(from: options.from, to: to, end: end) }
    guard estimate.isFinite, estimate <= Double(Scene.maximumFrameCount) + 1 else {
      let count = estimate.isFinite && estimate < 1e18 ? Int(estimate) : Int.max
      throw LimitError.tooManyFrames(count: count, limit: Scene.maximumFrameCount)
    }
    // The end farther from 0, its sign kept for the message (`-1e15` was said as `1e15`).
    let farthest = options.from.magnitude >= to.magnitude ? options.from : to
    guard 1 / fps >= farthest.ulp else {
      throw LimitError.framesIndistinct(time: farthest, fps: fps)
    }
    let sequence = FrameSequence(from: options.from, to: to, fps: fps)
    guard sequence.count > 0 else {
      throw LimitError.noFrames(from: sequence.from, to: sequence.to, end: end)
    }
    guard sequence.count <= Scene.maximumFrameCount else {
      throw LimitError.tooManyFrames(count: sequence.count, limit: Scene.maximumFrameCount)
    }
    try checkFrameSize(scene, scale: options.scale)
    return (scene, sequence)
  }

  /// Encoder memory, shared by every render in the process (a batch's animations side by side
  /// too): 2 GiB of what sinks' encoders hold beside the frames (`FrameSink.encoderMemory`,
  /// taken before `begin` and given back after `finish` or `abort`). A render waits until its
  /// encoder fits (one alone always runs): six 8000 x 8000 WebPs side by side took 6.1 GB, one
  /// failing out of memory. Taken before the frame memory (`FrameRenderer.frameMemory`), never
  /// while holding it, so the two budgets cannot wait on each other.
  public static let encoderMemory = MemoryBudget(limit: 2 << 30)

  /// Runs `body` holding `bytes` of `encoderMemory` (none when 0).
  static func withEncoderMemory<R>(_ bytes: Int, _ body: () throws -> R) rethrows -> R {
    guard bytes > 0 else { return try body() }
    _ = encoderMemory.acquire(workers: 1, bytesPerWorker: bytes)
    defer { encoderMemory.release(workers: 1, bytesPerWorker: bytes) }
    return try body()
  }

  /// Renders the frames the options choose into `sink`: the one pipeline every output goes
  /// through (see `FrameSink`). The frames are rendered on `options.jobs` threads and handed to
  /// the sink in order; a sink with a first pass gets every frame twice (rendering is
  /// deterministic). After any error the sink is aborted, so no file is left half-written.
  @discardableResult  // the report is informational
  public static func render<Sink: FrameSink>(
    _ recipe: SceneRecipe, into sink: Sink, options: Options = Options(), progress: Progress? = nil
  ) throws -> Report {
    let (scene, planned) = try plan(recipe, options)
    let sequence = sink.frameLimit.map { planned.prefix(Swift.max(1, $0)) } ?? planned
    try FrameDrawingError.checkSimulatedTime(
      of: scene, at: (0..<sequence.count).lazy.map(sequence.time(at:)), numbered: true)
    let (width, height) = scene.pixelSize(scale: options.scale)
    var plan = FramePlan(
      frameCount: sequence.count, fps: sequence.fps, pixelWidth: width, pixelHeight: height,
      loopCount: scene.loopCount, jobs: options.jobs)
    plan.background = scene.backgroundColor.map { c in
      func byte(_ v: Double) -> UInt8 { UInt8((Swift.min(1, Swift.max(0, v)) * 255).rounded()) }
      return RGBA8(byte(c.red), byte(c.green), byte(c.blue), byte(c.alpha))
    }
    var renderer = FrameRenderer(recipe: recipe, scale: options.scale, jobs: options.jobs)
    renderer.frameBytes = width * height * 4
    renderer.reuse(scene)  // the first worker renders with it: one read of the file fewer
    return try withEncoderMemory(sink.encoderMemory(plan)) {
      try render(sequence, of: plan, by: renderer, into: sink, options: options, progress: progress)
    }
  }

  /// `render(_:into:options:progress:)` once the plan is made and the encoder's memory held.
  private static func render<Sink: FrameSink>(
    _ sequence: FrameSequence, of plan: FramePlan, by renderer: FrameRenderer, into sink: Sink,
    options: Options, progress: Progress?
  ) throws -> Report {
    let (width, height) = (plan.pixelWidth, plan.pixelHeight)
    do {
      try sink.begin(plan)
      // A first pass's frames, kept for the second when they fit the budget.
      var kept: [Bitmap]? = nil
      if let phase = sink.firstPass {
        let work = sink.surveyWork()
        let bytes = Double(sequence.count) * Double(width) * Double(height) * 4
        if bytes <= Double(options.firstPassFrameBudget) {
          var frames: [Bitmap] = []
          frames.reserveCapacity(sequence.count)
          try renderer.render(
            sequence,
            process: { i, bitmap in (bitmap, try work(bitmap, sequence.info(at: i))) }
          ) { i, result in
            frames.append(result.0)
            try sink.absorb(result.1, sequence.info(at: i))
            progress?(phase, i + 1, sequence.count)
          }
          kept = frames
        } else {
          try renderer.render(
            sequence, process: { i, bitmap in try work(bitmap, sequence.info(at: i)) }
          ) { i, survey in
            try sink.absorb(survey, sequence.info(at: i))
            progress?(phase, i + 1, sequence.count)
          }
        }
      }
      let work = try sink.frameWork()
      let deliver = { (i: Int, frame: Sink.Prepared) throws in
        try sink.add(frame, sequence.info(at: i))
        progress?("frames", i + 1, sequence.count)
      }
      if let kept {
        // The same per-frame work on the same number of threads, on the kept frames.
        try renderer.withWorkers(renderer.jobs) { workers in
          try OrderedJobs.run(
            count: kept.count, threads: workers, window: 2 * workers,
            makeState: {}, job: { _, i in try work(kept[i], sequence.info(at: i)) },
            deliver: deliver)
        }
      } else {
        try renderer.render(
          sequence, process: { i, bitmap in try work(bitmap, sequence.info(at: i)) },
          deliver: deliver)
      }
      return try finish(sink, frameCount: sequence.count)
    } catch {
      sink.abort()
      throw error
    }
  }

  /// Renders the scene at `times` (seconds, in the order given, any times) into `sink`, one
  /// frame after another on the calling thread, at the scene's scale or `scale`; a time before
  /// the scene's timeline has reached makes a new scene from `recipe`. For single frames and
  /// contact sheets. `scene` is a first instance already made from `recipe`, if there is one.
  @discardableResult  // the report is informational
  public static func render<Sink: FrameSink>(
    _ recipe: SceneRecipe, at times: [Double], scale: Double? = nil, into sink: Sink,
    startingWith scene: Scene? = nil
  ) throws -> Report {
    var scene = try scene ?? recipe.make()
    try checkFrameSize(scene, scale: scale)
    let times = sink.frameLimit.map { Array(times.prefix($0)) } ?? times
    try FrameDrawingError.checkSimulatedTime(of: scene, at: times, numbered: false)
    let (width, height) = scene.pixelSize(scale: scale)
    let plan = FramePlan(
      frameCount: times.count, fps: scene.fps, pixelWidth: width, pixelHeight: height,
      loopCount: scene.loopCount, jobs: 1)
    let duration = 1 / scene.fps
    return try withEncoderMemory(sink.encoderMemory(plan)) { () throws -> Report in
      do {
        try sink.begin(plan)
        if sink.firstPass != nil {
          let work = sink.surveyWork()
          for (i, time) in times.enumerated() {
            if scene.hasTimeline && time < scene.modelTime { scene = try recipe.make() }
            let info = FrameInfo(index: i, time: time, duration: duration)
            let frame = try FrameDrawingError.drawing(at: time) {
              try scene.makeFrame(at: time, scale: scale).makeBitmap()
            }
            try sink.absorb(try work(frame, info), info)
          }
          scene = try recipe.make()
        }
        let work = try sink.frameWork()
        for (i, time) in times.enumerated() {
          if scene.hasTimeline && time < scene.modelTime { scene = try recipe.make() }
          let info = FrameInfo(index: i, time: time, duration: duration)
          let frame = try FrameDrawingError.drawing(at: time) {
            try scene.makeFrame(at: time, scale: scale).makeBitmap()
          }
          try sink.add(try work(frame, info), info)
        }
        return try finish(sink, frameCount: times.count)
      } catch {
        sink.abort()
        throw error
      }
    }
  }

  /// Finishes `sink` and reports what it wrote for `frameCount` frames.
  private static func finish<Sink: FrameSink>(
    _ sink: Sink, frameCount: Int
  ) throws -> Report {
    let summary = try sink.finish()
    return Report(
      frameCount: frameCount, storedFrameCount: summary.storedFrameCount,
      byteCount: summary.byteCount, warnings: summary.warnings)
  }

  /// Renders an animated GIF to `path` (see `GIFSink`).
  @discardableResult  // the report is informational
  public static func gif(
    _ recipe: SceneRecipe, to path: String, options: Options = Options(), progress: Progress? = nil
  ) throws -> Report {
    try render(
      recipe,
      into: GIFSink(.file(path), options: options.gif, loopCountIsSet: options.loopCountIsSet),
      options: options, progress: progress)
  }

  /// Renders an animated GIF into memory and returns its bytes (the same bytes `gif(_:to:)`
  /// writes).
  public static func gifData(
    _ recipe: SceneRecipe, options: Options = Options(), progress: Progress? = nil
  ) throws -> [UInt8] {
    let sink = GIFSink(.memory, options: options.gif, loopCountIsSet: options.loopCountIsSet)
    _ = try render(recipe, into: sink, options: options, progress: progress)
    return sink.bytes
  }

  /// Renders one PNG of the first frame to `path` (see `PNGSink`).
  @discardableResult  // the report is informational
  public static func png(
    _ recipe: SceneRecipe, to path: String, options: Options = Options()
  ) throws -> Report {
    try render(
      recipe, into: PNGSink(.file(path), compression: options.pngCompression), options: options)
  }

  /// Renders one PNG per frame into `folder` (created if missing), named `frame-00000.png`,
  /// `frame-00001.png`, ...; files of those names are replaced, other files are left alone
  /// (see `PNGSequenceSink`).
  @discardableResult  // the report is informational
  public static func pngFolder(
    _ recipe: SceneRecipe, to folder: String, options: Options = Options(),
    progress: Progress? = nil
  ) throws -> Report {
    try render(
      recipe, into: PNGSequenceSink(.folder(folder), compression: options.pngCompression),
      options: options, progress: progress)
  }

  /// The animated formats beside GIF, for `export(_:as:to:options:progress:)`.
  public enum Format: String, Hashable, Sendable, CaseIterable {
    /// An animated GIF (`GIFSink`).
    case gif
    /// An animated WebP, lossless unless `Options.webp.quality` is set (`WebPSink`).
    case webp
    /// An animated PNG (`APNGSink`).
    case apng
    /// H.264 in MP4 through ffmpeg (`VideoSink`).
    case mp4
    /// VP9 in WebM through ffmpeg, with alpha when the background is transparent (`VideoSink`).
    case webm

    /// The format a file name's extension names (`.gif`, `.webp`, `.apng`, `.mp4`, `.webm`), or
    /// `nil`.
    public init?(path: String) {
      let lower = path.lowercased()
      guard let dot = lower.lastIndex(of: "."),
        let format = Format(rawValue: String(lower[lower.index(after: dot)...]))
      else {
        return nil
      }
      self = format
    }
  }

  /// The sink that writes `format` to `path` with `options` (the loop count from `gif.loopCount`
  /// when `loopCountIsSet`, else the scene's); `SendableMetatype` so that it can be one side of a
  /// `TeeSink`.
  public static func sink(
    _ format: Format, to path: String, options: Options = Options()
  ) -> any FrameSink & SendableMetatype {
    let loop = options.loopCountIsSet ? options.gif.loopCount : nil
    switch format {
    case .gif:
      return GIFSink(.file(path), options: options.gif, loopCountIsSet: options.loopCountIsSet)
    case .webp: return WebPSink(.file(path), options: options.webp, loopCount: loop)
    case .apng: return APNGSink(.file(path), options: options.apng, loopCount: loop)
    case .mp4, .webm:
      return VideoSink(path: path, format: format == .mp4 ? .mp4 : .webm, crf: options.crf)
    }
  }

  /// Renders the scene as `format` to `path`, written whole or not at all.
  public static func export(
    _ recipe: SceneRecipe, as format: Format, to path: String, options: Options = Options(),
    progress: Progress? = nil
  ) throws -> Report {
    try render(
      recipe, into: sink(format, to: path, options: options), options: options, progress: progress)
  }

  /// Renders an animated WebP to `path` (see `WebPSink`): lossless unless `options.webp.quality`
  /// is set.
  public static func webp(
    _ recipe: SceneRecipe, to path: String, options: Options = Options(), progress: Progress? = nil
  ) throws -> Report {
    try export(recipe, as: .webp, to: path, options: options, progress: progress)
  }

  /// Renders an animated PNG to `path` (see `APNGSink`).
  public static func apng(
    _ recipe: SceneRecipe, to path: String, options: Options = Options(), progress: Progress? = nil
  ) throws -> Report {
    try export(recipe, as: .apng, to: path, options: options, progress: progress)
  }

  /// Renders a video to `path` through ffmpeg (see `VideoSink`): `.webm` VP9, anything else
  /// H.264 MP4.
  public static func video(
    _ recipe: SceneRecipe, to path: String, options: Options = Options(), progress: Progress? = nil
  ) throws -> Report {
    try export(
      recipe, as: path.lowercased().hasSuffix(".webm") ? .webm : .mp4, to: path, options: options,
      progress: progress)
  }

  /// `frame-00000.png` for frame 0 (five digits, more when needed).
  public static func frameName(_ index: Int) -> String { PNGSequenceSink.frameName(index) }
}
