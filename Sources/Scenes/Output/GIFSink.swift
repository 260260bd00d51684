import FileIO
import Glibc
import Geometry
import ImageEncoding

/// An animated GIF, to a file or to memory, with Flipbook's encoder.
///
/// Two passes: the first keeps only a colour histogram per frame (merged as the frames come),
/// the second encodes the frames as they come, a few in flight, so memory does not grow with
/// the frame count (the pipeline may keep the first pass's frames for the second when they
/// fit `Export.Options.firstPassFrameBudget`). Frames the global palette serves clearly worse
/// than one of their own get a local palette, chosen on the rendering threads.
public final class GIFSink: FrameSink {
  /// Where the GIF goes.
  public let destination: ByteDestination
  /// Palette size, dithering, loop count and local palettes.
  public let options: GIF.Options
  /// Whether `options.loopCount` was chosen; otherwise the scene's loop count is used.
  public let loopCountIsSet: Bool
  /// The GIF's bytes, once `finish()` has run with a `.memory` destination.
  public private(set) var bytes: [UInt8] = []

  private var plan: FramePlan? = nil
  private var builder = GIF.PaletteBuilder()
  private var delays: [Int] = []
  private var warnings: [String] = []
  private var output: (any ByteOutput)? = nil
  private var encoder: GIF.Encoder? = nil
  private var makeEncoder: (() throws -> GIF.Encoder)? = nil
  /// What the output threw, when it refused bytes.
  private var outputFailure: (any Error)? = nil
  private var written = 0

  /// A GIF sink writing to `destination`.
  public init(
    _ destination: ByteDestination, options: GIF.Options = GIF.Options(),
    loopCountIsSet: Bool = false
  ) {
    self.destination = destination
    self.options = options
    self.loopCountIsSet = loopCountIsSet
  }

  /// The bytes Flipbook's GIF encoder holds a pixel of the frame, about 8 (the frame before,
  /// each frame's palette indices and its coded rectangle, a few frames in flight: an 8000 x
  /// 8000 render with one job peaked 440 MB above the same frames written as PNGs).
  public static let encoderBytesPerPixel = 8

  /// The encoder's bytes for `plan`'s frames (see `FrameSink.encoderMemory(_:)`).
  public func encoderMemory(_ plan: FramePlan) -> Int {
    plan.pixelWidth * plan.pixelHeight * Self.encoderBytesPerPixel
  }

  /// The colour histogram pass.
  public var firstPass: String? { "palette" }

  /// Takes the plan (see `FrameSink.begin(_:)`).
  public func begin(_ plan: FramePlan) throws {
    self.plan = plan
    builder = GIF.PaletteBuilder()
    warnings = GIF.DelayPlan.warning(fps: plan.fps).map { [$0] } ?? []
    delays = GIF.DelayPlan.centiseconds(frameCount: plan.frameCount, fps: plan.fps)
  }

  /// The first pass's per-frame work (see `FrameSink.surveyWork()`).
  public func surveyWork() -> @Sendable (Bitmap, FrameInfo) throws -> GIF.FrameHistogram {
    { bitmap, _ in GIF.FrameHistogram(bitmap) }
  }

  /// Takes a first-pass result, in frame order (see `FrameSink.absorb(_:_:)`).
  public func absorb(_ survey: GIF.FrameHistogram, _ frame: FrameInfo) {
    builder.add(survey)
  }

  /// The output pass's per-frame work, on the rendering threads (see `FrameSink.frameWork()`).
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> GIFFrame {
    guard let plan else { preconditionFailure("GIFSink.frameWork() before begin(_:)") }
    var gifOptions = options
    if !loopCountIsSet { gifOptions.loopCount = plan.loopCount }
    let palette = builder.makePalette(maxColors: gifOptions.maxColors)
    let output = try destination.makeOutput()
    self.output = output
    // Made with the first frame, so that an abort before it leaves no encoder thread behind.
    // With more than one job, frames are chosen on a thread of their own and coded on another
    // (same bytes); the encoder calls its output on this thread, the one that adds frames.
    makeEncoder = { [plan, unowned self] () throws -> GIF.Encoder in
      try GIF.Encoder(
        width: plan.pixelWidth, height: plan.pixelHeight, palette: palette, options: gifOptions,
        pipelined: plan.jobs > 1
      ) { chunk in
        do {
          try output.write(chunk)
        } catch {
          self.outputFailure = error  // rethrown as itself: it names the output file
          throw error
        }
        self.written += chunk.count
      }
    }
    let local = gifOptions.allowsLocalPalettes && !palette.isExact
    let maxColors = gifOptions.maxColors
    // An exact palette's mapping depends on nothing but the frame: done here, on the rendering
    // threads, it leaves the encoder's serial stage only what depends on the frames before.
    let mapper = GIF.IndependentMapper(palette: palette)
    return { bitmap, _ in
      GIFFrame(
        bitmap: bitmap,
        localPalette: local
          ? GIF.LocalPalette.choose(
            for: GIF.FrameHistogram(bitmap), global: palette, maxColors: maxColors)
          : nil,
        indices: mapper?.indices(of: bitmap))
    }
  }

  /// Takes a prepared frame, in frame order (see `FrameSink.add(_:_:)`).
  public func add(_ frame: GIFFrame, _ info: FrameInfo) throws {
    try passingOutputFailures {
      if encoder == nil, let makeEncoder { encoder = try makeEncoder() }
      try encoder?.add(
        frame.bitmap, delay: delays[info.index], localPalette: frame.localPalette,
        indices: frame.indices)
    }
  }

  /// Runs `body`, throwing the output's own error (a `FileError` naming the file: "No space
  /// left on device") where the encoder wrapped it as `GIF.EncodingError.output`.
  private func passingOutputFailures(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as GIF.EncodingError {
      if case .output = error, let outputFailure { throw outputFailure }
      throw error
    }
  }

  /// Completes and commits the output (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    guard let output else { preconditionFailure("GIFSink.finish() before frameWork()") }
    guard let encoder else { throw GIF.EncodingError.noFrames }
    try passingOutputFailures { try encoder.finish() }
    try output.commit()
    if let buffer = output as? ByteBuffer { bytes = buffer.bytes }
    self.output = nil
    return OutputSummary(
      storedFrameCount: encoder.storedFrameCount, byteCount: written, warnings: warnings)
  }

  /// Removes what was written so far (see `FrameSink.abort()`).
  public func abort() {
    // Let the encoder end normally first: that stops its choosing thread (the bytes are thrown
    // away below). Its output runs on this thread, so nothing writes after the abort.
    try? encoder?.finish()
    encoder = nil
    output?.abort()
    output = nil
  }
}

/// A frame on its way into a GIF: its pixels and, when it gets one, its own palette.
public struct GIFFrame: Sendable {
  /// The frame.
  public var bitmap: Bitmap
  /// The local palette chosen for it, or `nil` for the global one.
  public var localPalette: GIF.Palette?
  /// Its pixels mapped to the global palette on the rendering thread, when that palette is
  /// exact (see `GIF.IndependentMapper`); otherwise `nil`, and the encoder maps them.
  package var indices: [UInt8]? = nil
}
