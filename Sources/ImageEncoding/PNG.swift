import CPNGShim
import Geometry

/// PNG images from and to bitmaps, with libpng: Flipbook's one PNG writer and reader.
///
/// Opaque bitmaps are written as 8-bit RGB, others as 8-bit RGBA (straight alpha). Reading
/// (`PNG.decode`, in `PNG+Decoding.swift`) takes any PNG to straight RGBA8.
public enum PNG {
  /// The speed/size trade-off of the encoder, chosen by measurement on rendered frames
  /// (`flipbook-bench png-grid`; figures in BENCHMARKS.md). Flat UI frames compress best without
  /// row filters; Cairo's own writer (zlib level 6, adaptive filters) is slower and larger there.
  public enum Compression: String, Hashable, Sendable, CaseIterable {
    /// zlib level 1, no row filter: about a fifth of Cairo's writer's time, about 30% more bytes.
    case fast
    /// zlib level 6, no row filter: well under half of Cairo's writer's time and smaller files
    /// on rendered frames (the default).
    case `default`
    /// zlib level 9, both without filters and with adaptive filtering, keeping the smaller: the
    /// smallest files (filters win on gradients and photographs), the slowest.
    case small

    // Each attempt: (zlib level, libpng filter mask, zlib strategy).
    var attempts: [(level: Int32, filters: Int32, strategy: Int32)] {
      switch self {
      case .fast: return [(1, 0x08, 0)]  // PNG_FILTER_NONE, Z_DEFAULT_STRATEGY
      case .default: return [(6, 0x08, 0)]
      case .small: return [(9, 0x08, 0), (9, 0xF8, 0)]  // and PNG_ALL_FILTERS
      }
    }
  }

  /// Why a PNG could not be written.
  public enum EncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bitmap has no pixels.
    case emptyImage
    /// libpng failed; its message.
    case libpng(String)

    /// A one-line message.
    public var description: String {
      switch self {
      case .emptyImage: return "cannot write a PNG of an empty image"
      case .libpng(let message): return "libpng: \(message)"
      }
    }
  }

  /// The PNG bytes of `bitmap`.
  public static func encode(
    _ bitmap: Bitmap, compression: Compression = .default
  ) throws(EncodingError) -> [UInt8] {
    guard bitmap.width > 0, bitmap.height > 0 else { throw .emptyImage }
    let opaque = bitmap.isOpaque
    var best: [UInt8]? = nil
    for attempt in compression.attempts {
      let bytes = try encode(
        bitmap, opaque: opaque, level: attempt.level, filters: attempt.filters,
        strategy: attempt.strategy)
      if best == nil || bytes.count < best!.count { best = bytes }
    }
    return best ?? []
  }

  static func encode(
    _ bitmap: Bitmap, opaque: Bool, level: Int32, filters: Int32, strategy: Int32
  ) throws(EncodingError) -> [UInt8] {
    let sink = Sink()
    sink.bytes.reserveCapacity(bitmap.width * bitmap.height / 4)
    var message = [CChar](repeating: 0, count: 256)
    let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
      message.withUnsafeMutableBufferPointer { text in
        flipbook_png_encode(
          pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), bitmap.width * 4,
          opaque ? 1 : 0,
          level, filters, strategy,
          { context, bytes, count in
            guard let context, let bytes else { return 1 }
            Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().bytes.append(
              contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            return 0
          }, Unmanaged.passUnretained(sink).toOpaque(), text.baseAddress, text.count)
      }
    }
    guard status == 0 else {
      throw .libpng(
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return sink.bytes
  }

  private final class Sink {
    var bytes: [UInt8] = []
  }
}
