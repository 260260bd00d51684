import CJPEGShim
import Geometry

/// JPEG decoding (libjpeg through `CJPEGShim`), for the pictures Lottie files embed: Flipbook
/// reads JPEGs, it never writes them.
public enum JPEG {
  /// Why bytes could not be read as a JPEG.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in words.
    public var reason: String

    /// Creates an error with its reason.
    public init(reason: String) { self.reason = reason }

    /// `"not a readable JPEG image: <reason>"`.
    public var description: String { "not a readable JPEG image: \(reason)" }
  }

  /// Whether the bytes start as a JPEG does (the SOI marker).
  public static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xD8, 0xFF]) }

  /// Decodes JPEG bytes (baseline or progressive; gray, YCbCr or Adobe CMYK) into opaque RGBA8,
  /// within PNG's limits (`PNG.maximumDecodedSide`, `PNG.maximumDecodedPixels`).
  ///
  /// - Throws: `DecodingError` when the bytes are not a readable JPEG or the image is too big.
  public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Bitmap {
    guard isJPEG(bytes) else { throw DecodingError(reason: "no JPEG signature") }
    var message = [CChar](repeating: 0, count: 256)
    var rgba: UnsafeMutablePointer<UInt8>? = nil
    var width: Int32 = 0, height: Int32 = 0
    let status = bytes.withUnsafeBufferPointer { input in
      message.withUnsafeMutableBufferPointer { text in
        flipbook_jpeg_decode(
          input.baseAddress, input.count, Int32(PNG.maximumDecodedSide),
          UInt64(PNG.maximumDecodedPixels), &rgba, &width, &height, text.baseAddress, text.count)
      }
    }
    guard status == 0, let rgba else {
      let text = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw DecodingError(reason: text.isEmpty ? "corrupt or truncated JPEG data" : text)
    }
    defer { flipbook_jpeg_free(rgba) }
    let count = Int(width) * Int(height) * 4
    return Bitmap(
      width: Int(width), height: Int(height),
      pixels: Array(UnsafeBufferPointer(start: rgba, count: count)))
  }
}
