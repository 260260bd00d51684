import CairoCanvas
import ImageEncoding
import Testing

/// The libpng writer: every preset round-trips through an independent decoder (Cairo's reader).
@Suite struct PNGTests {
  func sample(opaque: Bool) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 37, pixelHeight: 23)
    if opaque { canvas.clear(to: .white) }
    canvas.fill(Path(ellipseIn: Rect(2, 2, 30, 18)), with: Color(red: 0.1, green: 0.6, blue: 0.9, alpha: opaque ? 1 : 0.6))
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

  @Test func smallerSettingsGiveSmallerFiles() throws {
    let bitmap = try sample(opaque: true)
    let fast = try PNG.encode(bitmap, compression: .fast).count
    let small = try PNG.encode(bitmap, compression: .small).count
    #expect(small <= fast)
  }

  @Test func anEmptyImageIsRefused() {
    #expect(throws: PNG.EncodingError.emptyImage) { try PNG.encode(Bitmap(width: 0, height: 5)) }
  }
}
