import FileIO
import Geometry
import ImageEncoding

/// An animated WebP, to a file or to memory, with libwebp's animation encoder (`WebP`).
///
/// Lossless by default (decoded frames equal the rendered ones, partial alpha included);
/// `options.quality` makes it lossy. Frame durations are whole milliseconds whose running total
/// follows the exact frame times; a frame identical to the one before is merged into it. One
/// pass: each frame is encoded as it comes (libwebp keeps only the previous canvas), so memory
/// does not grow with the frame count; the bytes are the same whatever the number of jobs.
public final class WebPSink: FrameSink {
  /// Where the WebP goes.
  public let destination: ByteDestination
  /// Lossless or lossy, effort; `options.loopCount` is used only when `loopCount` is set.
  public let options: WebP.Options
  /// The loop count chosen (0 forever, N plays in all), or `nil` for the scene's.
  public let loopCount: Int?
  /// The WebP's bytes, once `finish()` has run with a `.memory` destination.
  public private(set) var bytes: [UInt8] = []

  private var encoder: WebP.AnimationEncoder? = nil
  private var timestamps: [Int] = []

  /// A WebP sink writing to `destination`; `loopCount` `nil` takes the scene's.
  public init(
    _ destination: ByteDestination, options: WebP.Options = WebP.Options(), loopCount: Int? = nil
  ) {
    self.destination = destination
    self.options = options
    self.loopCount = loopCount
  }

  /// The bytes libwebp's animation encoder holds a pixel of the frame, about 32 (its canvases
  /// and candidate rectangles, and the encoding of one: an 8000 x 8000 render peaked at 2.2 GB
  /// with its frames in flight).
  public static let encoderBytesPerPixel = 32

  /// libwebp's encoder's bytes for `plan`'s frames (see `FrameSink.encoderMemory(_:)`).
  public func encoderMemory(_ plan: FramePlan) -> Int {
    plan.pixelWidth * plan.pixelHeight * Self.encoderBytesPerPixel
  }

  /// Makes the encoder (see `FrameSink.begin(_:)`).
  public func begin(_ plan: FramePlan) throws {
    var options = options
    options.loopCount = loopCount ?? plan.loopCount
    encoder = try WebP.AnimationEncoder(
      width: plan.pixelWidth, height: plan.pixelHeight, options: options)
    timestamps = WebP.timestamps(frameCount: plan.frameCount, fps: plan.fps)
  }

  /// The frames as rendered (libwebp encodes them in order, in `add(_:_:)`).
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Bitmap {
    { bitmap, _ in bitmap }
  }

  /// Encodes a frame, in frame order (see `FrameSink.add(_:_:)`).
  public func add(_ frame: Bitmap, _ info: FrameInfo) throws {
    guard let encoder else { preconditionFailure("WebPSink.add before begin") }
    try encoder.add(frame, timestamp: timestamps[info.index])
  }

  /// Assembles the file and writes it whole (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    guard let encoder else { preconditionFailure("WebPSink.finish before begin") }
    let webp = try encoder.assemble(endTimestamp: timestamps.last ?? 0)
    self.encoder = nil
    let output = try destination.makeOutput()
    try output.write(webp)
    try output.commit()
    if destination == .memory { bytes = webp }
    return OutputSummary(storedFrameCount: WebP.storedFrameCount(webp), byteCount: webp.count)
  }

  /// Drops the encoder; nothing was written yet (see `FrameSink.abort()`).
  public func abort() { encoder = nil }
}
