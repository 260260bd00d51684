import CairoCanvas
import Geometry
import ImageEncoding
import Testing

/// Frames mapped ahead on other threads (`GIF.IndependentMapper`) give the encoder's own bytes.
@Suite struct GIFIndependentMapperTests {
  /// Few colors (an exact palette), partly transparent, moving: what a UI animation gives.
  func frame(_ i: Int) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 30)
    if i % 3 != 0 { canvas.clear(to: .white) }
    canvas.fill(
      Path(roundedRect: Rect(Double(2 + i * 2), 4, 14, 14), cornerRadius: 3),
      with: Color(red: 0.2, green: 0.4, blue: 0.8))
    canvas.fill(
      Path(ellipseIn: Rect(24, 12, 10, 10)),
      with: Color(red: 0.9, green: 0.3, blue: 0.1, alpha: i % 2 == 0 ? 1 : 0.5))
    return canvas.makeBitmap()
  }

  func encode(
    _ frames: [Bitmap], palette: GIF.Palette, ahead: Bool, pipelined: Bool
  ) throws -> [UInt8] {
    var bytes: [UInt8] = []
    let encoder = try GIF.Encoder(
      width: frames[0].width, height: frames[0].height, palette: palette, pipelined: pipelined
    ) { bytes += $0 }
    let mapper = ahead ? GIF.IndependentMapper(palette: palette) : nil
    for f in frames {
      try encoder.add(f, delay: 4, indices: mapper?.indices(of: f))
    }
    try encoder.finish()
    return bytes
  }

  @Test func framesMappedAheadGiveTheSameBytes() throws {
    let frames = try (0..<8).map(frame)
    let builder = GIF.PaletteBuilder()
    frames.forEach(builder.add)
    let palette = builder.makePalette()
    #expect(palette.isExact && palette.transparentIndex != nil)
    let reference = try encode(frames, palette: palette, ahead: false, pipelined: false)
    for pipelined in [false, true] {
      #expect(try encode(frames, palette: palette, ahead: true, pipelined: pipelined) == reference)
    }
    // The indices are the palette's: every opaque pixel's own color, transparent under half.
    let indices = try #require(GIF.IndependentMapper(palette: palette)).indices(of: frames[1])
    #expect(indices.count == 40 * 30)
    for (k, index) in indices.enumerated() {
      let p = k * 4
      if frames[1].pixels[p + 3] < GIF.alphaThreshold {
        #expect(index == palette.transparentIndex)
      } else {
        let c = palette.colors[Int(index)]
        #expect(
          [c.r, c.g, c.b] == Array(frames[1].pixels[p..<(p + 3)]), "pixel \(k)")
      }
    }
  }

  @Test func aQuantizedPaletteIsMappedByTheEncoderAlone() throws {
    // 4,096 colors into 64: dithering keeps unchanged pixels' previous indices, an order only
    // the encoder knows.
    var bitmap = Bitmap(width: 64, height: 64)
    for k in 0..<(64 * 64) {
      bitmap.pixels.replaceSubrange(
        (k * 4)..<(k * 4 + 4), with: [UInt8(k % 64 * 4), UInt8(k / 64 * 4), UInt8(k % 7 * 30), 255])
    }
    let builder = GIF.PaletteBuilder()
    builder.add(bitmap)
    let palette = builder.makePalette(maxColors: 64)
    #expect(!palette.isExact)
    #expect(GIF.IndependentMapper(palette: palette) == nil)
  }
}
