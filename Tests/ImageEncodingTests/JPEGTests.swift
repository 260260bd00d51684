import FileIO
import FlipbookTestSupport
import Geometry
import ImageEncoding
import Testing

/// JPEG decoding (for the pictures Lottie files embed): the pixels, gray, and refusals.
@Suite struct JPEGTests {
  static func read(_ name: String) throws -> [UInt8] {
    try AtomicFile.read(FixtureFiles.root + "/images/" + name)
  }

  static func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [Int] {
    let i = (y * b.width + x) * 4
    return b.pixels[i..<i + 4].map(Int.init)
  }

  static func near(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 4 } }

  @Test func decodesColorsOpaque() throws {
    // Fixtures/images/two-colors.jpg: 16 x 8, left half (200, 40, 60), right (30, 120, 220).
    let bitmap = try JPEG.decode(try Self.read("two-colors.jpg"))
    #expect(bitmap.width == 16 && bitmap.height == 8)
    #expect(Self.near(Self.pixel(bitmap, 2, 3), [200, 40, 60, 255]), "\(Self.pixel(bitmap, 2, 3))")
    #expect(Self.near(Self.pixel(bitmap, 13, 4), [30, 120, 220, 255]))
  }

  @Test func decodesGray() throws {
    let bitmap = try JPEG.decode(try Self.read("two-grays.jpg"))
    let p = Self.pixel(bitmap, 2, 3)
    #expect(p[0] == p[1] && p[1] == p[2] && p[3] == 255)
  }

  @Test func refusesDamagedData() throws {
    let bytes = try Self.read("two-colors.jpg")
    #expect(throws: JPEG.DecodingError.self) { try JPEG.decode(Array(bytes.prefix(30))) }
    #expect(throws: JPEG.DecodingError.self) { try JPEG.decode([0x89, 0x50]) }
  }

  /// Sixteenth pass: a progressive file repeating one tiny scan makes libjpeg walk every block
  /// once a scan (an 8000 x 8000 picture of 5,000 scans, 485 KB, took 28 s): at most 100.
  /// Fixtures/images/progressive-101-scans.jpg is 16 x 16 grey (Pillow reads it), 101 scans.
  @Test func aFileOfMoreScansThanTheLimitIsRefused() throws {
    #expect(
      throws: JPEG.DecodingError(
        reason: "more than 100 scans, the limit (a progressive file repeating its scans)")
    ) { try JPEG.decode(try Self.read("progressive-101-scans.jpg")) }
  }

  /// Fourteenth hostile pass: libjpeg fills what a truncated file lacks with grey and says so
  /// only as a warning; a JPEG cut short was drawn as if whole. It is refused, as a truncated
  /// PNG or GIF is.
  @Test func refusesAFileThatEndsInsideItsImageData() throws {
    let bytes = try Self.read("two-colors.jpg")
    #expect(bytes.suffix(2) == [0xFF, 0xD9])
    #expect(throws: JPEG.DecodingError(reason: "Premature end of JPEG file")) {
      try JPEG.decode(Array(bytes.dropLast(12)))
    }
    // Without only its end marker the data is whole: libjpeg still warns, and it is refused.
    #expect(throws: JPEG.DecodingError.self) { try JPEG.decode(Array(bytes.dropLast(2))) }
  }
}
