import CairoCanvas
import FileIO
import FlipbookTestSupport
import ImageEncoding
import Testing

/// The libpng writer and reader: every preset round-trips exactly; Cairo's own PNG path is gone.
@Suite struct PNGTests {
  func sample(opaque: Bool) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 37, pixelHeight: 23)
    if opaque { canvas.clear(to: .white) }
    canvas.fill(
      Path(ellipseIn: Rect(2, 2, 30, 18)),
      with: Color(red: 0.1, green: 0.6, blue: 0.9, alpha: opaque ? 1 : 0.6))
    canvas.stroke(Path(rect: Rect(5, 5, 20, 10)), with: .red, style: StrokeStyle(lineWidth: 3))
    return canvas.makeBitmap()
  }

  /// The color type byte of the IHDR chunk: 2 is RGB, 6 is RGBA.
  func colorType(_ png: [UInt8]) -> UInt8 { png[25] }

  @Test(arguments: PNG.Compression.allCases)
  func roundTripsExactly(_ compression: PNG.Compression) throws {
    for opaque in [true, false] {
      let bitmap = try sample(opaque: opaque)
      let png = try PNG.encode(bitmap, compression: compression)
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      #expect(try Bitmap(pngData: png) == bitmap)
      #expect(colorType(png) == (opaque ? 2 : 6))
    }
  }

  /// A 51-byte file whose text chunk claims 2 GB made libpng allocate the 2 GB before finding
  /// the data missing: a chunk longer than what is left of the file is refused first.
  @Test func aChunkLongerThanTheFileIsRefusedBeforeItIsAllocated() {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8) + [0, 0, 0, 64, 0, 0, 0, 64, 8, 6, 0, 0, 0, 0xAA, 0x69, 0x71, 0xDE]
    bytes += [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + Array("aaaaaaaaaa".utf8)
    #expect(throws: PNG.DecodingError.self) { try PNG.decode(bytes) }
    do {
      _ = try PNG.decode(bytes)
    } catch {
      #expect(error.reason.contains("longer than the file"))
    }
  }

  /// Fifteenth hostile pass: a 40 x 40 picture whose image data went on with 8 GiB of zeros
  /// (8 MB compressed) took 17 s, libpng inflating all of it to find the stream's end. Image
  /// data past what the picture can take compressed is refused before anything is inflated.
  @Test func imageDataPastWhatThePictureCanTakeIsRefused() throws {
    // Opaque: written as RGB, 40 rows of 121 bytes, so at most 4,840 + 75 + 65,536.
    let png = try PNG.encode(Bitmap(width: 40, height: 40, fill: RGBA8(1, 2, 3, 255)))
    #expect(try PNG.decode(png).width == 40)
    // A second IDAT chunk of 80,000 bytes before IEND (its CRC is not reached).
    let iend = png.count - 12
    var long = Array(png[..<iend])
    long += [0x00, 0x01, 0x38, 0x80] + Array("IDAT".utf8) + [UInt8](repeating: 0, count: 80_000)
    long += [0, 0, 0, 0] + Array(png[iend...])
    #expect(
      throws: PNG.DecodingError(
        reason: "its image data (IDAT) is \(80_000 + (png.count - 57)) bytes, more than the "
          + "70451 an image of its size can take compressed (a stream that goes on inflating "
          + "past the image)")
    ) { try PNG.decode(long) }
    // Twenty-second pass: an IDAT stating 1,000,000 bytes in a file that ends 30 bytes into it
    // was said to inflate on; only the bytes the file holds count, and it is truncated.
    var cut = Array(png[..<iend])
    cut += [0x00, 0x0F, 0x42, 0x40] + Array("IDAT".utf8) + [UInt8](repeating: 0, count: 30)
    #expect(throws: PNG.DecodingError.self) { try PNG.decode(cut) }
    do {
      _ = try PNG.decode(cut)
    } catch {
      #expect(error.reason.contains("longer than the file"), "\(error.reason)")
    }
  }

  @Test func smallerSettingsGiveSmallerFiles() throws {
    let bitmap = try sample(opaque: true)
    let fast = try PNG.encode(bitmap, compression: .fast).count
    let small = try PNG.encode(bitmap, compression: .small).count
    #expect(small <= fast)
  }

  @Test func canvasPNGIsTheOneWriter() throws {
    // Canvas.pngData is Scenes' shorthand for the same libpng writer; here the bytes from
    // PNG.encode and Bitmap.pngData agree, and semi-transparent pixels decode exactly.
    let bitmap = try sample(opaque: false)
    #expect(try bitmap.pngData() == PNG.encode(bitmap))
    #expect(try PNG.decode(try bitmap.pngData(compression: .small)) == bitmap)
  }

  @Test func invalidPNGBytesAreRejected() {
    #expect(throws: PNG.DecodingError.self) {
      try Bitmap(pngData: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
    }
    #expect(throws: PNG.DecodingError(reason: "not a PNG file (no PNG signature)")) {
      try Bitmap(pngData: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
    }
    #expect(throws: PNG.DecodingError(reason: "the file is empty")) { try Bitmap(pngData: []) }
    // Truncated data.
    let png = (try? PNG.encode(Bitmap(width: 8, height: 8, fill: RGBA8(1, 2, 3, 255)))) ?? []
    #expect(throws: PNG.DecodingError.self) {
      try Bitmap(pngData: Array(png.prefix(png.count - 20)))
    }
  }

  /// Issue 18: a PNG whose header claims a huge size is refused before its pixels are
  /// allocated, with the size it claims.
  @Test func aHugeImageIsRefusedByItsHeader() throws {
    var png = try PNG.encode(Bitmap(width: 2, height: 2, fill: RGBA8(1, 2, 3, 255)))
    for (offset, value) in [(16, UInt32(16000)), (20, UInt32(16000))] {
      for k in 0..<4 { png[offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(k))) }
    }
    // The header's CRC, recomputed over "IHDR" and its 13 bytes.
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in png[12..<29] {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    for k in 0..<4 { png[29 + k] = UInt8(truncatingIfNeeded: ~crc >> (24 - 8 * UInt32(k))) }
    #expect(
      throws: PNG.DecodingError(
        reason: "the image is 16000 x 16000 pixels, outside the limits "
          + "(1 to 16384 pixels a side, at most 64000000 pixels)")
    ) { try PNG.decode(png) }
  }

  @Test func fixturePNGsDecodeAndRoundTrip() throws {
    // The spinner's drawings (RGBA with partial alpha; the scene-file goldens check what they draw).
    let bitmap = try Bitmap(contentsOfPNGFile: FixtureFiles.root + "/scenes/spinner/spinner-1.png")
    #expect(bitmap.width > 0 && bitmap.height > 0)
    #expect(try PNG.decode(PNG.encode(bitmap)) == bitmap)
  }

  /// libpng's reader against an independent one (Pillow) on PNGs Pillow writes in forms
  /// Flipbook never writes: palette with transparency, gray, gray with alpha, interlaced.
  @Test(.enabled(if: Tools.hasPillow)) func decodesWhatPillowWritesAsPillowReadsIt() throws {
    let folder = FixtureFiles.temporaryFolder()
    let script = """
      import sys
      from PIL import Image
      base = Image.new("RGBA", (13, 7))
      for y in range(7):
          for x in range(13):
              base.putpixel((x, y), (x * 19 % 256, y * 37 % 256, (x * y * 11) % 256, 255 if (x + y) % 3 else (x * 20) % 256))
      forms = {
          "palette": base.convert("RGB").quantize(16),
          "gray": base.convert("L"),
          "grayalpha": base.convert("LA"),
          "interlaced": base,
          "rgb": base.convert("RGB"),
      }
      for name, image in forms.items():
          image.save(sys.argv[1] + "/" + name + ".png", interlace=(name == "interlaced"))
          open(sys.argv[1] + "/" + name + ".rgba", "wb").write(Image.open(sys.argv[1] + "/" + name + ".png").convert("RGBA").tobytes())
      """
    let result = try Tools.run("/usr/bin/env", ["python3", "-c", script, folder])
    #expect(result.status == 0, "\(result.errors)")
    for name in ["palette", "gray", "grayalpha", "interlaced", "rgb"] {
      let decoded = try Bitmap(contentsOfPNGFile: "\(folder)/\(name).png")
      let expected = try AtomicFile.read("\(folder)/\(name).rgba")
      #expect(decoded.width == 13 && decoded.height == 7, "\(name)")
      #expect(decoded.pixels == expected, "\(name)")
    }
  }

  @Test func anEmptyImageIsRefused() {
    #expect(throws: PNG.EncodingError.emptyImage) { try PNG.encode(Bitmap(width: 0, height: 5)) }
  }
}
