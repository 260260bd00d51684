import FileIO
import Geometry

/// Where rendered frames go: a GIF, one PNG, a folder of PNGs, bytes in memory, a contact sheet;
/// the one output abstraction every render goes through (`Export.render(_:into:options:progress:)`).
///
/// The pipeline calls, on the calling thread and in this order:
/// 1. `begin(_:)` once, with what will be rendered;
/// 2. when `firstPass` is not `nil`, a first pass over every frame: `surveyWork()` runs on the
///    rendering threads for each frame (in any order) and `absorb(_:_:)` takes its results in
///    frame order (a GIF keeps a colour histogram here: memory must not grow with the frame
///    count, so keep a summary, never the frames);
/// 3. the frames again (rendered again, rendering being deterministic, or kept from the first
///    pass when they all fit `Export.Options.firstPassFrameBudget`): `frameWork()` runs on the
///    rendering threads (encoding, palette choice: work whose order does not matter),
///    `add(_:_:)` takes its results in frame order;
/// 4. `finish()`, which completes the destination (a file appears whole under its name only
///    now), or `abort()` after any error (nothing is left behind).
///
/// A new format is a new sink; the pipeline does not change. An animated WebP, for example:
///
/// ```swift
/// final class WebPSink: FrameSink {
///   let destination: ByteDestination
///   var encoder: WebPAnimationEncoder?                           // libwebp's, in ImageEncoding
///   init(_ destination: ByteDestination) { self.destination = destination }
///   func begin(_ plan: FramePlan) throws { encoder = try WebPAnimationEncoder(width: plan.pixelWidth, height: plan.pixelHeight) }
///   func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Bitmap { { bitmap, _ in bitmap } }
///   func add(_ frame: Bitmap, _ info: FrameInfo) throws { try encoder!.add(frame, milliseconds: ...) }
///   func finish() throws -> OutputSummary {
///     let output = try destination.makeOutput()                  // AtomicFile.Stream or ByteBuffer
///     try output.write(encoder!.assemble()); try output.commit()
///     ...
///   }
/// }
/// ```
/// A video sink through ffmpeg pipes raw frames in `add` and lets ffmpeg write
/// `AtomicFile.Stream.temporaryPath`, committed in `finish`.
public protocol FrameSink: AnyObject {
  /// What the first pass keeps of a frame (`Void` for sinks without a first pass).
  associatedtype Survey: Sendable = Void
  /// What the rendering threads make of a frame for `add(_:_:)`.
  associatedtype Prepared: Sendable

  /// The most frames the sink takes (the first ones); `nil` for all (the default).
  var frameLimit: Int? { get }
  /// The progress name of a first pass over every frame (e.g. "palette"), or `nil` when the
  /// sink needs none (the default).
  var firstPass: String? { get }

  /// The bytes the sink's encoder holds from `begin(_:)` to `finish()` beside the frames in
  /// flight, estimated from `plan` (libwebp's animation encoder: about 32 a pixel; a video's
  /// ffmpeg: 12 to 135), or 0 when it holds little (the default). `Export.render` takes them
  /// from `Export.encoderMemory` before `begin(_:)`, so that encoders of large frames side by
  /// side (a batch's animations) wait for one another instead of passing the machine's memory.
  func encoderMemory(_ plan: FramePlan) -> Int

  /// Called once before any frame.
  func begin(_ plan: FramePlan) throws
  /// The first pass's per-frame work, run on the rendering threads.
  func surveyWork() -> @Sendable (Bitmap, FrameInfo) throws -> Survey
  /// Takes the first pass's result for each frame, in frame order.
  func absorb(_ survey: Survey, _ frame: FrameInfo) throws
  /// The per-frame work of the output pass, run on the rendering threads (called once, after
  /// the first pass).
  func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Prepared
  /// Takes each frame's prepared form, in frame order.
  func add(_ frame: Prepared, _ info: FrameInfo) throws
  /// Completes the output: writes what is left and commits it.
  func finish() throws -> OutputSummary
  /// Abandons the output after an error: temporary files are removed, targets are left as they were.
  func abort()
}

extension FrameSink {
  /// All frames.
  public var frameLimit: Int? { nil }
  /// An encoder that holds little.
  public func encoderMemory(_ plan: FramePlan) -> Int { 0 }
  /// No first pass.
  public var firstPass: String? { nil }
  /// Nothing to clean up.
  public func abort() {}
}

extension FrameSink where Survey == Void {
  /// No first-pass work.
  public func surveyWork() -> @Sendable (Bitmap, FrameInfo) throws -> Void { { _, _ in } }
  /// Nothing to absorb.
  public func absorb(_ survey: Void, _ frame: FrameInfo) {}
}

/// What a sink is told before the frames come.
public struct FramePlan: Hashable, Sendable {
  /// How many frames will come.
  public var frameCount: Int
  /// The frame rate the frames are timed at (frames per second).
  public var fps: Double
  /// Each frame's size in pixels.
  public var pixelWidth: Int, pixelHeight: Int
  /// How many times the animation should play (0 forever): the scene's.
  public var loopCount: Int
  /// Rendering threads: a sink may pipeline its own work when there are several.
  public var jobs: Int
  /// The scene's background colour, or `nil` when it is transparent (or not known): what a
  /// video pads odd sizes with and whether it needs an alpha channel.
  public var background: RGBA8? = nil

  /// Creates a plan.
  public init(
    frameCount: Int, fps: Double, pixelWidth: Int, pixelHeight: Int, loopCount: Int, jobs: Int
  ) {
    (self.frameCount, self.fps, self.pixelWidth, self.pixelHeight, self.loopCount, self.jobs) =
      (frameCount, fps, pixelWidth, pixelHeight, loopCount, jobs)
  }
}

/// One frame as a sink sees it.
public struct FrameInfo: Hashable, Sendable {
  /// Its place in the render, from 0.
  public var index: Int
  /// The scene time it shows, in seconds.
  public var time: Double
  /// How long it shows, in seconds (`1 / fps`; sinks that store whole units, such as a GIF's
  /// centiseconds, plan their delays from the frame count and rate so the running total stays exact).
  public var duration: Double

  /// Creates a frame description.
  public init(index: Int, time: Double, duration: Double) {
    (self.index, self.time, self.duration) = (index, time, duration)
  }
}

/// What a sink wrote.
public struct OutputSummary: Hashable, Sendable {
  /// Frames stored in the output (a GIF merges identical neighbours).
  public var storedFrameCount: Int
  /// Bytes written, over all files.
  public var byteCount: Int
  /// Things worth knowing that did not stop the output.
  public var warnings: [String]

  /// Creates a summary.
  public init(storedFrameCount: Int, byteCount: Int, warnings: [String] = []) {
    (self.storedFrameCount, self.byteCount, self.warnings) = (storedFrameCount, byteCount, warnings)
  }
}

/// Where a sink's bytes go: a file (written whole or not at all, through `AtomicFile`) or memory.
public enum ByteDestination: Hashable, Sendable {
  /// The file at this path.
  case file(String)
  /// A `ByteBuffer`; the sink then hands the bytes out.
  case memory

  /// A new output for this destination.
  public func makeOutput() throws(FileError) -> any ByteOutput {
    switch self {
    case .file(let path): return try AtomicFile.Stream(path: path)
    case .memory: return ByteBuffer()
    }
  }
}
