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

  /// Eighteenth hostile pass: a JPEG over the decoded-size limit said "is over the limit"
  /// without saying which; it names the limits as a PNG's refusal does.
  @Test func aJPEGOverTheSizeLimitsNamesThem() throws {
    var bytes = try Self.read("two-colors.jpg")
    // The start of frame (FF C0): length, precision, then height and width.
    let sof = try #require(
      (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0x0F, 0x43, 0x40, 0x00])  // 3907, 16384
    #expect(
      throws: JPEG.DecodingError(
        reason: "the image is 16384 x 3907 pixels, outside the limits (1 to 16384 pixels a side, "
          + "at most 64000000 pixels)")
    ) { try JPEG.decode(bytes) }
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

  /// `jpeg` with an `Exif` APP1 segment stating orientation `value` (a SHORT, `type` 3, unless
  /// told), in big- or little-endian TIFF order, after its JFIF APP0 segment.
  static func withOrientation(
    _ jpeg: [UInt8], _ value: Int, big: Bool, type: Int = 3, count: Int = 1
  ) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] {
      big ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
    }
    func u32(_ v: Int) -> [UInt8] {
      big ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16)
    }
    let tiff = (big ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
    let ifd = u16(1) + u16(0x0112) + u16(type) + u32(count) + u16(value) + [0, 0] + u32(0)
    let payload = Array("Exif".utf8) + [0, 0] + tiff + ifd
    let segment =
      [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)]
      + payload
    let app0 = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
    return Array(jpeg[..<app0]) + segment + Array(jpeg[app0...])
  }

  /// Eighteenth hostile pass: a JPEG's EXIF orientation was ignored, so a photo a phone took
  /// sideways was drawn sideways, where browsers (and so lottie-web) turn it upright. Each of
  /// the eight orientations, either byte order: Fixtures/images/quadrants.jpg is 32 x 16, red
  /// top left, green top right, blue bottom left, white bottom right (4:4:4, quality 95); the
  /// corners expected are what Pillow's `ImageOps.exif_transpose` shows.
  @Test(arguments: [
    (1, "RG/BW"), (2, "GR/WB"), (3, "WB/GR"), (4, "BW/RG"), (5, "RB/GW"), (6, "BR/WG"),
    (7, "WG/BR"), (8, "GW/RB"),
  ])
  func exifOrientationTurnsThePictureUpright(_ orientation: Int, _ corners: String) throws {
    let colors: [Character: [Int]] = [
      "R": [220, 30, 30, 255], "G": [30, 200, 40, 255], "B": [30, 40, 220, 255],
      "W": [240, 240, 240, 255],
    ]
    let stored = try Self.read("quadrants.jpg")
    for big in [true, false] {
      let bytes = Self.withOrientation(stored, orientation, big: big)
      #expect(JPEG.exifOrientation(of: bytes) == orientation)
      let bitmap = try JPEG.decode(bytes)
      #expect(
        orientation >= 5
          ? bitmap.width == 16 && bitmap.height == 32 : bitmap.width == 32 && bitmap.height == 16)
      let (w, h) = (bitmap.width, bitmap.height)
      let shown = [(3, 3), (w - 4, 3), (3, h - 4), (w - 4, h - 4)].map {
        Self.pixel(bitmap, $0.0, $0.1)
      }
      let expected = corners.filter { $0 != "/" }.map { colors[$0]! }
      for (a, b) in zip(shown, expected) {
        #expect(Self.near(a, b), "orientation \(orientation): \(shown)")
      }
    }
  }

  /// An orientation of another value or kind, or a segment cut short, is none: the picture as
  /// stored.
  @Test func anOrientationOfAnotherValueOrKindIsNone() throws {
    let stored = try Self.read("quadrants.jpg")
    #expect(JPEG.exifOrientation(of: stored) == 1)
    for bytes in [
      Self.withOrientation(stored, 0, big: true), Self.withOrientation(stored, 9, big: false),
      Self.withOrientation(stored, 6, big: true, type: 4),
      Self.withOrientation(stored, 6, big: false, count: 2),
    ] {
      #expect(JPEG.exifOrientation(of: bytes) == 1)
      #expect(try JPEG.decode(bytes) == JPEG.decode(stored))
    }
    // A segment stating more bytes than the file holds, and the bare signature.
    let cut = Array(Self.withOrientation(stored, 6, big: true).prefix(30))
    #expect(JPEG.exifOrientation(of: cut) == 1)
    #expect(JPEG.exifOrientation(of: [0xFF, 0xD8, 0xFF]) == 1)
    #expect(JPEG.exifOrientation(of: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF]) == 1)
  }
}
