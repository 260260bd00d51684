import FileIO
import Geometry
import ImageEncoding

/// An animated PNG, to a file or to memory, with Flipbook's APNG writer (`APNG.Encoder`).
///
/// Lossless with full alpha; each frame's delay is the exact fraction `1 / fps` (or the merged
/// frames' sum); only the rectangle that changed is stored, with the disposal and blend that
/// keep it exact and smallest. Two passes: the first looks at every frame's colours (keeping at
/// most 257 of them, and whether all are opaque) to store pixels in the smallest colour type
/// that holds them (indexed, else RGBA); the second encodes, writing each frame as the next
/// one decides its delay and disposal (the output's temporary file is put in place by
/// `finish()`). The same bytes whatever the number of jobs.
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
  private var output: (any ByteOutput)? = nil
  private var plan: FramePlan? = nil
  private var colors: Set<UInt32>? = []
  private var opaque = true

  /// An APNG sink writing to `destination`; `loopCount` `nil` takes the scene's.
  public init(
    _ destination: ByteDestination, options: APNG.Options = APNG.Options(), loopCount: Int? = nil
  ) {
    self.destination = destination
    self.options = options
    self.loopCount = loopCount
  }

  /// The colour pass.
  public var firstPass: String? { "colors" }

  /// The bytes the APNG encoder holds a pixel of the frame while it chooses how to store each
  /// frame, about 12 (the frame before, the canvases and rows of its candidates: an 8000 x
  /// 8000 render with one job peaked 712 MB above the same frames written as PNGs). The
  /// compressed frames it keeps until `finish()` come on top.
  public static let encoderBytesPerPixel = 12

  /// The encoder's bytes for `plan`'s frames (see `FrameSink.encoderMemory(_:)`).
  public func encoderMemory(_ plan: FramePlan) -> Int {
    plan.pixelWidth * plan.pixelHeight * Self.encoderBytesPerPixel
  }

  /// Takes the plan (see `FrameSink.begin(_:)`).
  public func begin(_ plan: FramePlan) throws {
    self.plan = plan
    (colors, opaque) = ([], true)
  }

  /// A frame's distinct colours (`nil` past 256) and whether it is opaque, on the rendering
  /// threads (see `FrameSink.surveyWork()`).
  public func surveyWork() -> @Sendable (Bitmap, FrameInfo) throws -> APNGColorSurvey {
    { bitmap, _ in APNGColorSurvey(bitmap) }
  }

  /// Merges a frame's colours, in frame order (see `FrameSink.absorb(_:_:)`).
  public func absorb(_ survey: APNGColorSurvey, _ frame: FrameInfo) {
    opaque = opaque && survey.opaque
    if let frameColors = survey.colors, let all = colors {
      let merged = all.union(frameColors)
      colors = merged.count <= 256 ? merged : nil
    } else {
      colors = nil
    }
  }

  /// Makes the encoder with the colour model the first pass chose; the frames as rendered (each
  /// is compared with the one before in `add(_:_:)`).
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Bitmap {
    guard let plan else { preconditionFailure("APNGSink.frameWork before begin") }
    var options = options
    options.loopCount = loopCount ?? plan.loopCount
    let model = APNG.ColorModel.smallest(colors: colors, opaque: opaque)
    let output = try destination.makeOutput()
    self.output = output
    encoder = try APNG.Encoder(
      width: plan.pixelWidth, height: plan.pixelHeight, fps: plan.fps, colorModel: model,
      options: options, output: output)
    return { bitmap, _ in bitmap }
  }

  /// Encodes a frame, in frame order (see `FrameSink.add(_:_:)`).
  public func add(_ frame: Bitmap, _ info: FrameInfo) throws {
    guard let encoder else { preconditionFailure("APNGSink.add before begin") }
    try passingOutputFailures { () throws(APNG.EncodingError) in try encoder.add(frame) }
  }

  /// Ends the file and puts it in place (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    guard let encoder, let output else { preconditionFailure("APNGSink.finish before begin") }
    try passingOutputFailures { () throws(APNG.EncodingError) in try encoder.finish() }
    try output.commit()
    self.encoder = nil
    self.output = nil
    if let buffer = output as? ByteBuffer { bytes = buffer.bytes }
    return OutputSummary(
      storedFrameCount: encoder.storedFrameCount, byteCount: encoder.byteCount)
  }

  /// Runs `body`, throwing the output's own error (a `FileError` naming the file: "No space
  /// left on device") where the encoder wrapped it.
  private func passingOutputFailures(_ body: () throws(APNG.EncodingError) -> Void) throws {
    do {
      try body()
    } catch {
      if case .output(let failure) = error { throw failure }
      throw error
    }
  }

  /// Drops the encoder and removes what it wrote (see `FrameSink.abort()`).
  public func abort() {
    output?.abort()
    output = nil
    encoder = nil
  }
}

/// What the APNG sink's first pass keeps of a frame: its distinct colours (RGBA bytes as
/// little-endian `UInt32`), `nil` when there are more than 256, and whether every pixel is opaque.
public struct APNGColorSurvey: Sendable {
  /// The distinct colours, or `nil` past 256.
  public var colors: Set<UInt32>?
  /// Whether every pixel has alpha 255.
  public var opaque: Bool

  /// Surveys `bitmap`.
  public init(_ bitmap: Bitmap) {
    var colors: Set<UInt32>? = []
    var opaque = true
    bitmap.pixels.withUnsafeBytes { raw in
      let words = raw.bindMemory(to: UInt32.self)
      var last: UInt32? = nil
      for w in words where w != last {
        last = w
        if w >> 24 != 255 { opaque = false }
        if colors != nil {
          colors!.insert(w)
          if colors!.count > 256 { colors = nil }
        }
        if colors == nil && !opaque { break }
      }
    }
    (self.colors, self.opaque) = (colors, opaque)
  }
}
