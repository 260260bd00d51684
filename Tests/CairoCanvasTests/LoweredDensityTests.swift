@testable import CairoCanvas
import Geometry
import Scenes
import Testing

/// Issue 18, sixth pass: a shadow's shape whose region (the frame grown by the blur's reach,
/// cut to what the layer draws) is over the canvas limits (a full-frame shadow in an 8000 x
/// 8000 frame: "needs 8004 x 8004 pixels") was refused while drawing. It is drawn at the
/// highest density under the limits, blurred there and brought back to the frame's pixels.
@Suite struct LoweredDensityTests {
  /// The alpha of `mask` at device pixel (x, y) relative to the drawing's origin.
  func alpha(_ mask: AlphaMask, _ x: Int, _ y: Int) -> Int {
    Int(mask[x - mask.originX, y - mask.originY])
  }

  @Test func aShapeOverTheLimitsIsDrawnAtALowerDensityAndBlurredAlike() throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    let sigma = 4.0
    func shape(_ c: Canvas) { c.fill(Path(rect: Rect(10, 10, 80, 80)), with: .black) }
    let whole = canvas.makeAlphaMask(
      linear: .identity, origin: .zero, margin: 14, content: { nil }, shape)
    guard case .drawn(let drawn, _) = whole else {
      Issue.record("the whole shape was not drawn: \(whole)")
      return
    }
    let reference = drawn.blurred(sigma: sigma)
    // 128 x 128 pixels of region in a limit of 2,500: a density of about 0.39.
    let lowered = canvas.makeAlphaMask(
      linear: .identity, origin: .zero, margin: 14, content: { nil }, pixelLimit: 2_500, shape)
    guard case .drawnAtDensity(let low, let at, let density, _) = lowered else {
      Issue.record("the shape was not drawn at a lower density: \(lowered)")
      return
    }
    #expect(density > 0.38 && density < 0.4)
    #expect(low.width * low.height <= 2_500)
    let blurred = low.blurred(sigma: sigma * density)
    let mask = blurred.scaled(
      density: density,
      origin: Point(x: at.x + Double(blurred.originX), y: at.y + Double(blurred.originY)))
    // Inside, outside and across the blurred edge, within a few levels of the whole shape's.
    var worst = 0
    var total = (reference: 0, lowered: 0)
    for y in -10..<110 {
      for x in -10..<110 {
        let (a, b) = (alpha(reference, x, y), alpha(mask, x, y))
        worst = max(worst, abs(a - b))
        total = (total.reference + a, total.lowered + b)
      }
    }
    #expect(alpha(mask, 50, 50) == 255 && alpha(mask, -5, -5) == 0 && alpha(mask, 105, 50) == 0)
    #expect(worst <= 16)
    #expect(abs(total.reference - total.lowered) < total.reference / 100)
  }

  /// Scaling back interpolates each source row along x once and keeps it for the output rows
  /// that use it: the same bytes as the bilinear formula taken pixel by pixel.
  @Test(arguments: [[0.05, 0.3, -7.2], [0.5, 0.0, 0.0], [0.333, 11.5, 2.25], [0.9, -0.5, 0.75]])
  func scalingBackGivesTheFormulasBytes(place: [Double]) {
    let (density, ox, oy) = (place[0], place[1], place[2])
    var generator = SeededGenerator(seed: 18)
    let width = 37, height = 23
    let pixels = (0..<width * height).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let mask = AlphaMask(width: width, height: height, pixels: pixels)
    let origin = Point(x: ox, y: oy)
    let scaled = mask.scaled(density: density, origin: origin)
    // The formula: output pixel j samples (j + 0.5) x density - origin - 0.5.
    func sample(_ j: Int, _ o: Double) -> (Int, Float) {
      let s = (Double(j) + 0.5) * density - o - 0.5
      let i = Int(s.rounded(.down))
      return (i, Float(s - Double(i)))
    }
    func at(_ x: Int, _ y: Int) -> Float { Float(mask[x, y]) }
    var wrong = 0
    for row in 0..<scaled.height {
      let (y0, fy) = sample(row + scaled.originY, oy)
      for column in 0..<scaled.width {
        let (x0, fx) = sample(column + scaled.originX, ox)
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        let value = top * (1 - fy) + bottom * fy
        let expected = UInt8(Swift.min(255, Swift.max(0, value.rounded())))
        if scaled.pixels[row * scaled.width + column] != expected { wrong += 1 }
      }
    }
    #expect(wrong == 0)
    #expect(scaled.width == Int(((ox + 37) / density).rounded(.up)) - scaled.originX)
    #expect(scaled.pixels.contains { $0 > 0 })
  }
}
