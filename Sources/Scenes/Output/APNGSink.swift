import FileIO
import Geometry
import ImageEncoding

/// An animated PNG, to a file or to memory, with Flipbook's APNG writer (`APNG.Encoder`).
///
/// Lossless with full alpha; each frame's delay is the exact fraction `1 / fps` (or the merged
/// frames' sum); only the rectangle that changed is stored, with the disposal and blend that
/// keep it exact and smallest. One pass; the compressed frames are kept until `finish()` writes
/// the file whole. The same bytes whatever the number of jobs.
public final class APNGSink: FrameSink {
  /// Where the APNG goes.
  public let destination: ByteDestination
  /// zlib level; `options.loopCount` is used only when `loopCount` is set.
  public let options: APNG.Options
  /// The loop count chosen (0 forever, N plays in all), or `nil` for the scene's.
  public let loopCount: Int?
  /// The APNG's bytes, once `finish()` has run with a `.memory` destination.
  public private(set) var bytes: [UInt8] = []

  private var encoder: APNG.Encoder? = nil

  /// An APNG sink writing to `destination`; `loopCount` `nil` takes the scene's.
  public init(_ destination: ByteDestination, options: APNG.Options = APNG.Options(), loopCount: Int? = nil) {
    self.destination = destination
    self.options = options
    self.loopCount = loopCount
  }

  /// Makes the encoder (see `FrameSink.begin(_:)`).
  public func begin(_ plan: FramePlan) throws {
    var options = options
    options.loopCount = loopCount ?? plan.loopCount
    encoder = try APNG.Encoder(width: plan.pixelWidth, height: plan.pixelHeight, fps: plan.fps, options: options)
  }

  /// The frames as rendered (each is compared with the one before in `add(_:_:)`).
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Bitmap { { bitmap, _ in bitmap } }

  /// Encodes a frame, in frame order (see `FrameSink.add(_:_:)`).
  public func add(_ frame: Bitmap, _ info: FrameInfo) throws {
    guard let encoder else { preconditionFailure("APNGSink.add before begin") }
    try encoder.add(frame)
  }

  /// Assembles the file and writes it whole (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    guard let encoder else { preconditionFailure("APNGSink.finish before begin") }
    let apng = try encoder.assemble()
    self.encoder = nil
    let output = try destination.makeOutput()
    try output.write(apng)
    try output.commit()
    if destination == .memory { bytes = apng }
    return OutputSummary(storedFrameCount: encoder.storedFrameCount, byteCount: apng.count)
  }

  /// Drops the encoder; nothing was written yet (see `FrameSink.abort()`).
  public func abort() { encoder = nil }
}
