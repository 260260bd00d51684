import FileIO
import Geometry
import ImageEncoding

/// One PNG of the first frame, to a file or to memory.
public final class PNGSink: FrameSink {
  /// Where the PNG goes.
  public let destination: ByteDestination
  /// libpng's speed/size trade-off.
  public let compression: PNG.Compression
  /// The PNG's bytes, once written to a `.memory` destination.
  public private(set) var bytes: [UInt8] = []
  private var byteCount = 0

  /// A PNG sink writing to `destination`.
  public init(_ destination: ByteDestination, compression: PNG.Compression = .default) {
    self.destination = destination
    self.compression = compression
  }

  /// Only the first frame.
  public var frameLimit: Int? { 1 }

  /// Takes the plan (see `FrameSink.begin(_:)`).
  public func begin(_ plan: FramePlan) throws {}

  /// The output pass's per-frame work, on the rendering threads (see `FrameSink.frameWork()`).
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> [UInt8] {
    let compression = compression
    return { bitmap, _ in try PNG.encode(bitmap, compression: compression) }
  }

  /// Takes a prepared frame, in frame order (see `FrameSink.add(_:_:)`).
  public func add(_ png: [UInt8], _ info: FrameInfo) throws {
    let output = try destination.makeOutput()
    try output.write(png)
    try output.commit()
    if destination == .memory { bytes = png }
    byteCount = png.count
  }

  /// Completes and commits the output (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    OutputSummary(storedFrameCount: 1, byteCount: byteCount)
  }
}

/// One PNG per frame: into a folder (`frame-00000.png`, `frame-00001.png`, ...; the frames are
/// written all or none: into a temporary folder beside it, put in place when the last is
/// written and removed on a failure or an interrupt; files of those names are replaced, other
/// files are left alone) or into memory.
public final class PNGSequenceSink: FrameSink {
  /// Where the PNGs go.
  public enum Destination: Hashable, Sendable {
    /// This folder, created if missing (its parent must exist).
    case folder(String)
    /// `pngs`.
    case memory
  }

  /// Where the PNGs go.
  public let destination: Destination
  /// libpng's speed/size trade-off.
  public let compression: PNG.Compression
  /// Each frame's PNG bytes, in order, with a `.memory` destination.
  public private(set) var pngs: [[UInt8]] = []
  private var count = 0, byteCount = 0
  /// The frames written so far, until `finish()` puts them in place.
  private var folder: AtomicFile.Folder? = nil

  /// A PNG sequence sink writing to `destination`.
  public init(_ destination: Destination, compression: PNG.Compression = .default) {
    self.destination = destination
    self.compression = compression
  }

  /// Takes the plan (see `FrameSink.begin(_:)`).
  public func begin(_ plan: FramePlan) throws {
    if case .folder(let path) = destination { folder = try AtomicFile.Folder(path: path) }
  }

  /// The output pass's per-frame work, on the rendering threads (see `FrameSink.frameWork()`).
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> [UInt8] {
    let compression = compression
    return { bitmap, _ in try PNG.encode(bitmap, compression: compression) }
  }

  /// Takes a prepared frame, in frame order (see `FrameSink.add(_:_:)`).
  public func add(_ png: [UInt8], _ info: FrameInfo) throws {
    switch destination {
    case .folder:
      try folder?.write(png, name: PNGSequenceSink.frameName(info.index))
    case .memory:
      pngs.append(png)
    }
    count += 1
    byteCount += png.count
  }

  /// Completes and commits the output (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    try folder?.commit()
    folder = nil
    var warnings: [String] = []
    if case .folder(let path) = destination,
      let later = PNGSequenceSink.framesPast(count, in: path)
    {
      warnings.append(later)
    }
    return OutputSummary(storedFrameCount: count, byteCount: byteCount, warnings: warnings)
  }

  /// What `folder` holds of frames numbered `count` and past, from an earlier, longer render:
  /// said, since they are left alone (the contract's "other files") but read as this
  /// render's by whatever takes the folder's frames; `nil` when there are none.
  static func framesPast(_ count: Int, in folder: String) -> String? {
    // By number: `frame-100000.png` sorts before `frame-99999.png` by name.
    let later = AtomicFile.names(in: folder, suffix: ".png").filter(isFrameFileName)
      .compactMap { Int($0.dropFirst(6).dropLast(4)) }.filter { $0 >= count }.sorted()
    guard let first = later.first, let last = later.last else { return nil }
    let which =
      later.count == 1 ? frameName(first) : "\(frameName(first)) to \(frameName(last))"
    let frames = later.count == 1 ? "1 frame" : "\(later.count) frames"
    return "the frames folder also holds \(frames) past this "
      + "render's \(count) (\(which)), from an earlier render: left alone"
  }

  /// Removes the frames written so far (see `FrameSink.abort()`).
  public func abort() {
    folder?.abort()
    folder = nil
  }

  /// Whether `name` is a frame's file name (`frameName(_:)` of some frame): `frame-`, five or
  /// more digits without a sign, `.png`.
  public static func isFrameFileName(_ name: String) -> Bool {
    guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
    let digits = name.dropFirst(6).dropLast(4)
    guard digits.count >= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
    return frameName(Int(digits) ?? -1) == name
  }

  /// `frame-00000.png` for frame 0 (five digits, more when needed).
  public static func frameName(_ index: Int) -> String {
    let digits = String(index)
    return "frame-" + String(repeating: "0", count: Swift.max(0, 5 - digits.count)) + digits
      + ".png"
  }
}
