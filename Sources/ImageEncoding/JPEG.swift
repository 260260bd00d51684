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
  /// within PNG's limits (`PNG.maximumDecodedSide`, `PNG.maximumDecodedPixels`), turned upright
  /// as its EXIF orientation says (`exifOrientation(of:)`), as browsers show it (CSS
  /// `image-orientation: from-image`, the default) and so lottie-web draws it.
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
    // Turned straight from libjpeg's rows (no copy of them as stored is held on the way).
    return oriented(
      UnsafeRawBufferPointer(start: rgba, count: count), width: Int(width), height: Int(height),
      exifOrientation(of: bytes))
  }

  /// The EXIF orientation the JPEG states (tag 0x0112 in the first IFD of its first `Exif`
  /// APP1 segment, one SHORT): 1 (as stored) to 8, as TIFF numbers them; 1 when it states
  /// none, or another value or kind (a LONG too: Chromium and Firefox read only a SHORT, so a
  /// browser shows such a file as stored). Only the segments before the image data are looked
  /// at, each bounds-checked.
  public static func exifOrientation(of bytes: [UInt8]) -> Int {
    guard isJPEG(bytes) else { return 1 }
    func u16(_ i: Int, big: Bool) -> Int {
      big ? Int(bytes[i]) << 8 | Int(bytes[i + 1]) : Int(bytes[i + 1]) << 8 | Int(bytes[i])
    }
    func u32(_ i: Int, big: Bool) -> Int {
      big
        ? u16(i, big: true) << 16 | u16(i + 2, big: true)
        : u16(i + 2, big: false) << 16 | u16(i, big: false)
    }
    var i = 2
    while i + 4 <= bytes.count, bytes[i] == 0xFF {
      let marker = bytes[i + 1]
      if marker == 0xFF {  // a fill byte
        i += 1
        continue
      }
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // markers without a length
        i += 2
        continue
      }
      // The image data (SOS) or the end (EOI): no orientation before it.
      if marker == 0xDA || marker == 0xD9 { return 1 }
      let length = u16(i + 2, big: true)
      let start = i + 4, end = i + 2 + length
      guard length >= 2, end <= bytes.count else { return 1 }
      if marker == 0xE1, end - start >= 14,
        bytes[start..<start + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
      {
        // The TIFF header: byte order, 42, the first IFD's offset from the header.
        let tiff = start + 6
        let big: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x4D, 0x4D): big = true
        case (0x49, 0x49): big = false
        default: return 1
        }
        guard u16(tiff + 2, big: big) == 42 else { return 1 }
        let ifd = tiff + u32(tiff + 4, big: big)
        guard ifd >= tiff + 8, ifd + 2 <= end else { return 1 }
        for n in 0..<u16(ifd, big: big) {
          let entry = ifd + 2 + 12 * n
          guard entry + 12 <= end else { break }
          guard u16(entry, big: big) == 0x0112 else { continue }
          // One SHORT, held in the entry's value field.
          guard u16(entry + 2, big: big) == 3, u32(entry + 4, big: big) == 1 else { return 1 }
          let value = u16(entry + 8, big: big)
          return (1...8).contains(value) ? value : 1
        }
        return 1
      }
      i = end
    }
    return 1
  }

  /// `bitmap` (the pixels as stored) turned upright as EXIF orientation `orientation` says: 2
  /// mirrored left to right, 3 turned a half turn, 4 mirrored top to bottom, 5 mirrored along
  /// the diagonal from the top left (transposed), 6 turned a quarter turn clockwise, 7 mirrored
  /// along the other diagonal, 8 turned a quarter turn anticlockwise; 5 to 8 swap the width and
  /// height. Another value leaves it as it is.
  public static func oriented(_ bitmap: Bitmap, _ orientation: Int) -> Bitmap {
    guard (2...8).contains(orientation) else { return bitmap }
    return bitmap.pixels.withUnsafeBytes {
      oriented($0, width: bitmap.width, height: bitmap.height, orientation)
    }
  }

  /// The RGBA8 rows `source` holds (`width` x `height`, as stored) turned upright as
  /// `oriented(_:_:)` says.
  static func oriented(
    _ source: UnsafeRawBufferPointer, width w: Int, height h: Int, _ orientation: Int
  ) -> Bitmap {
    guard (2...8).contains(orientation) else {
      return Bitmap(width: w, height: h, pixels: Array(source.bindMemory(to: UInt8.self)))
    }
    let (ow, oh) = orientation >= 5 ? (h, w) : (w, h)
    var out = [UInt8](repeating: 0, count: w * h * 4)
    out.withUnsafeMutableBytes { target in
      let s = source.bindMemory(to: UInt32.self), t = target.bindMemory(to: UInt32.self)
      for y in 0..<oh {
        for x in 0..<ow {
          // The stored pixel shown at (x, y).
          let (sx, sy): (Int, Int)
          switch orientation {
          case 2: (sx, sy) = (w - 1 - x, y)
          case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
          case 4: (sx, sy) = (x, h - 1 - y)
          case 5: (sx, sy) = (y, x)
          case 6: (sx, sy) = (y, h - 1 - x)
          case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
          default: (sx, sy) = (w - 1 - y, x)
          }
          t[y * ow + x] = s[sy * w + sx]
        }
      }
    }
    return Bitmap(width: ow, height: oh, pixels: out)
  }
}
