@testable import CairoCanvas
import Geometry
import Glibc
import Testing

/// Shadow masks drawn at fractional places, and blurs with a σ per axis.
@Suite struct ShadowMaskTests {
  /// A mask of pseudo-random alpha values (every level appears), `width × height`.
  func noise(_ width: Int, _ height: Int, seed: UInt64) -> AlphaMask {
    var state = seed
    let pixels = (0..<(width * height)).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    return AlphaMask(width: width, height: height, pixels: pixels)
  }

  /// The frame after filling `mask` at `(x, y)` on a translucent background, clipped or not,
  /// with the resampling done by Cairo or by `AlphaMask.placed`.
  func frame(_ mask: AlphaMask, x: Double, y: Double, clip: Bool, cairo: Bool) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 120, pixelHeight: 90)
    let background = Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.8)
    canvas.fill(Path(rect: Rect(0, 0, 120, 90)), with: background)
    if clip { canvas.clip(to: Path(roundedRect: Rect(20.5, 10.25, 70, 60), cornerRadius: 9)) }
    let color = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.3)
    canvas.fill(mask, atDeviceX: x, y: y, with: color, resamplingInCairo: cairo)
    return canvas.makeBitmap()
  }

  @Test func masksAtFractionalPlacesGiveCairosOwnPixels() throws {
    let mask = noise(37, 29, seed: 12)
    // Places with every kind of fraction: random, tiny (Cairo rounds places within 1/512 of a
    // pixel on both axes, and not on one), just below a whole pixel, halves, negative, and
    // partly off the frame.
    var places: [(Double, Double)] = [
      (10, 20), (10 + 1 / 65536, 20), (10 + 1 / 65536, 20.5), (10 - 1 / 65536, 20),
      (10 + 1 / 1024, 20 - 1 / 1024), (10 + 1 / 256, 20), (10.5, 20.5), (-7.3, -11.9),
      (100.2, 80.7), (33.999_999_9, 41.000_000_1), (12.5 + 1 / 131_072, 7.25),
    ]
    var state: UInt64 = 7
    for _ in 0..<120 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let x = Double(state >> 40 & 0xFFFF) / 65536 * 140 - 30
      let y = Double(state >> 16 & 0xFFFF) / 65536 * 110 - 20
      places.append((x, y))
    }
    var differing: [String] = []
    for (x, y) in places {
      for clip in [false, true] {
        let ours = try frame(mask, x: x, y: y, clip: clip, cairo: false)
        let cairos = try frame(mask, x: x, y: y, clip: clip, cairo: true)
        if ours != cairos { differing.append("(\(x), \(y))\(clip ? " clipped" : "")") }
      }
    }
    #expect(differing.isEmpty, "differs from Cairo's bilinear mask at \(differing)")
  }

  @Test func placedMaskSpreadsByTheFraction() throws {
    // One opaque pixel drawn at (2.25, 3): Pixman's weights out of 256 are (1 − f)'s top 7 bits
    // doubled: 0.75 → 192 on the pixel's own column, 64 on the next.
    let one = AlphaMask(width: 1, height: 1, pixels: [255])
    let placed = try #require(one.placed(atDeviceX: 2.25, y: 3))
    #expect(placed.x == 2 && placed.y == 3)
    #expect(placed.mask.height == 1)
    let expected: [UInt8] = [191, 63, 0]  // 255 · 192 / 256 = 191.25, 255 · 64 / 256 = 63.75
    #expect(Array(placed.mask.pixels.prefix(3)) == expected)
    #expect(one.placed(atDeviceX: 2, y: 3) == nil)
    #expect(one.placed(atDeviceX: 2 + 1 / 1024, y: 3 - 1 / 1024) == nil)
  }

  /// The Gaussian's cumulative distribution: the profile of a blurred straight edge.
  func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.squareRoot())) }

  @Test(arguments: [(3.0, 9.0), (9.0, 3.0), (2.0, 20.0), (8.0, 0.0)])
  func blurHasItsOwnSigmaAlongEachAxis(sigmaX: Double, sigmaY: Double) {
    // An opaque square far larger than either blur: its left edge's profile along a row is
    // Φ(x / σx), its top edge's profile down a column Φ(y / σy).
    let side = 300, at = 150
    let mask = AlphaMask(
      width: side, height: side, pixels: [UInt8](repeating: 255, count: side * side))
    let blurred = mask.blurred(sigmaX: sigmaX, sigmaY: sigmaY)
    var worstX = 0.0, worstY = 0.0
    for d in -Int(4 * sigmaX)...Int(4 * sigmaX) {
      let expected = phi((Double(d) + 0.5) / sigmaX) * 255
      let got = Double(blurred[d - blurred.originX, at - blurred.originY])
      worstX = max(worstX, abs(got - (sigmaX > 0 ? expected : d >= 0 ? 255 : 0)))
    }
    for d in -Int(4 * sigmaY)...Int(4 * sigmaY) {
      let expected = phi((Double(d) + 0.5) / sigmaY) * 255
      let got = Double(blurred[at - blurred.originX, d - blurred.originY])
      worstY = max(worstY, abs(got - (sigmaY > 0 ? expected : d >= 0 ? 255 : 0)))
    }
    #expect(worstX <= 1 && worstY <= 1, "levels from Φ: \(worstX) along x, \(worstY) along y")
    // Each axis spreads by its own reach only.
    #expect(sigmaX == 0 || blurred.originX == -Blur.passes(sigma: sigmaX).reach)
    #expect(blurred.originY == -(sigmaY > 0 ? Blur.passes(sigma: sigmaY).reach : 0))
  }

  @Test func equalSigmasBlurAsTheRoundBlur() {
    let mask = noise(40, 30, seed: 5)
    for sigma in [2.5, 7.0] {
      #expect(mask.blurred(sigmaX: sigma, sigmaY: sigma) == mask.blurred(sigma: sigma))
    }
  }
}
