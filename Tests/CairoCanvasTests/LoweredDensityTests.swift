@testable import CairoCanvas
import Geometry
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
}
