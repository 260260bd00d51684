import CPNGShim
import Geometry

extension PNG {
  /// Why bytes could not be read as a PNG.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in words.
    public var reason: String

    /// Creates an error with its reason.
    public init(reason: String) { self.reason = reason }

    /// `"not a readable PNG image: <reason>"`.
    public var description: String { "not a readable PNG image: \(reason)" }
  }

  /// The longest side, in pixels, of a PNG Flipbook decodes: 16384 (a canvas's limit).
  public static let maximumDecodedSide = 16384
  /// The most pixels a PNG Flipbook decodes may have: 64,000,000 (a canvas's limit).
  public static let maximumDecodedPixels = 64_000_000

  /// The width and height in pixels a PNG's header states, read without decoding anything
  /// (so that two images of different sizes can be told apart before either is decoded);
  /// `nil` when the bytes do not start with a PNG signature and an `IHDR` chunk the decoder
  /// would take (see `maximumDecodedSide`, `maximumDecodedPixels`).
  public static func statedSize(of bytes: [UInt8]) -> (width: Int, height: Int)? {
    let ihdr: [UInt8] = [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
    guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
      bytes[8..<16].elementsEqual(ihdr)
    else { return nil }
    func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    let (width, height) = (word(16), word(20))
    // Only a header the decoder would take: a size within its limits, and a bit depth, colour
    // type, compression, filter and interlace method the PNG specification allows.
    let depths: [UInt8: [UInt8]] = [
      0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
    ]
    guard bytes.count >= 29, (1...maximumDecodedSide).contains(width),
      (1...maximumDecodedSide).contains(height), width * height <= maximumDecodedPixels,
      depths[bytes[25]]?.contains(bytes[24]) == true, bytes[26] == 0, bytes[27] == 0,
      bytes[28] <= 1
    else { return nil }
    return (width, height)
  }

  /// The bytes of image data (all `IDAT` chunks) a PNG has and the most its header's image can
  /// take compressed, when it has more; `nil` otherwise (or when the header cannot be read:
  /// the decoder says why). Deflate never makes data much larger than it is (stored blocks
  /// add 5 bytes in 65,535), so more than the rows themselves, plus a sixty-fourth and 64 KiB,
  /// is a stream that goes on after the image: libpng inflates it all to find its end (8 MB
  /// of a 40 x 40 picture inflated 8 GiB of zeros for 17 s).
  static func imageDataExcess(_ bytes: [UInt8]) -> (given: Int, most: Int)? {
    guard bytes.count >= 33 else { return nil }
    func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    let (width, height) = (word(16), word(20))
    let channels: [UInt8: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
    guard let perPixel = channels[bytes[25]], width > 0, height > 0,
      width <= maximumDecodedSide, height <= maximumDecodedSide
    else { return nil }
    let rowBytes = (width * perPixel * Int(bytes[24]) + 7) / 8 + 1
    // Interlaced: seven passes, each row with its filter byte.
    let rows = height * rowBytes + (bytes[28] == 1 ? 7 * height + 7 * width : 0)
    let most = rows + rows / 64 + 65_536
    var given = 0, at = 8
    while at + 12 <= bytes.count {
      let length = word(at)
      // Only the bytes the file holds: a chunk that states more than is left is a truncated
      // file, which the decoder says as such (it was said to be a stream inflating on).
      let held = Swift.min(length, bytes.count - (at + 8))
      if bytes[at + 4..<at + 8].elementsEqual([0x49, 0x44, 0x41, 0x54]) { given += held }  // IDAT
      guard held == length else { break }
      at += 12 + length
    }
    return given > most ? (given, most) : nil
  }

  /// Decodes PNG bytes (gray, palette, RGB or RGBA; 1 to 16 bits; interlaced or not) into
  /// straight-alpha RGBA8; 16-bit samples keep their high byte, gamma is not changed.
  ///
  /// - Throws: `DecodingError` when the bytes are not a readable PNG or the image is over
  ///   `maximumDecodedSide` or `maximumDecodedPixels`.
  public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Bitmap {
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
      throw DecodingError(
        reason: bytes.isEmpty ? "the file is empty" : "not a PNG file (no PNG signature)")
    }
    if let excess = imageDataExcess(bytes) {
      throw DecodingError(
        reason: "its image data (IDAT) is \(excess.given) bytes, more than the \(excess.most) an "
          + "image of its size can take compressed (a stream that goes on inflating past the "
          + "image)")
    }
    var message = [CChar](repeating: 0, count: 256)
    var rgba: UnsafeMutablePointer<UInt8>? = nil
    var width: Int32 = 0, height: Int32 = 0
    let status = bytes.withUnsafeBufferPointer { input in
      message.withUnsafeMutableBufferPointer { text in
        flipbook_png_decode(
          input.baseAddress, input.count, Int32(maximumDecodedSide), UInt64(maximumDecodedPixels),
          &rgba, &width, &height, text.baseAddress, text.count)
      }
    }
    guard status == 0, let rgba else {
      let text = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw DecodingError(reason: text.isEmpty ? "corrupt or truncated PNG data" : text)
    }
    defer { flipbook_png_free(rgba) }
    let count = Int(width) * Int(height) * 4
    return Bitmap(
      width: Int(width), height: Int(height),
      pixels: Array(UnsafeBufferPointer(start: rgba, count: count)))
  }
}
