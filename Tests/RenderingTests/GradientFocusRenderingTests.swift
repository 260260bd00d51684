import Flipbook
import FlipbookTestSupport
import Testing

/// Pixel facts of a radial gradient's `focalOffset` (SVG's focal point, Lottie's highlight).
@Suite struct GradientFocusRenderingTests {
  /// Black at location 0 to white at 1, a circle of radius 50 about (50, 50), the focus moved
  /// by `offset` (unit coordinates of the 100 x 100 bounds).
  func render(_ offset: Point) throws -> Bitmap {
    let scene = Scene(size: Size(100, 100))
    let g = GradientLayer()
    g.frame = Rect(0, 0, 100, 100)
    g.type = .radial
    g.colors = [.black, .white]
    g.startPoint = Point(0.5, 0.5)
    g.endPoint = Point(1, 1)
    g.focalOffset = offset
    scene.addLayer(g)
    return try scene.makeFrame(at: 0).makeBitmap()
  }

  func near(_ value: UInt8, _ expected: Double) -> Bool { abs(Double(value) - expected) <= 5 }

  @Test func theFocusMovesLocationZeroAndKeepsTheCircle() throws {
    let centred = try render(Point(0, 0))
    #expect(near(centred[50, 50].r, 0))
    #expect(near(centred[25, 50].r, 127.5))  // half way out
    // The focus a quarter of the bounds to the right, (75, 50), half way to the circle: the
    // circles from the focus (radius 0) to the circle (radius 50) pass the centre at 1/3 and
    // the point half way out on the other side at 2/3.
    let moved = try render(Point(0.25, 0))
    #expect(moved[75, 50].r < 12)
    #expect(near(moved[50, 50].r, 255.0 / 3))
    #expect(near(moved[25, 50].r, 2 * 255.0 / 3))
    // The circle stays where it was: white beyond it, nearly white just inside it either side.
    #expect(moved[3, 3].r == 255 && moved[96, 96].r == 255)
    #expect(moved[99, 50].r > 240 && moved[2, 50].r > 240)
  }

  /// Sixteenth pass: an offset of 1e154 or more was dropped (its length's square overflowed);
  /// any offset past the circle is kept inside alike, whatever its length.
  @Test func aHugeFocalOffsetIsKeptInsideAsAnyFarOneIs() throws {
    let far = try render(Point(5, -5))
    #expect(far[75, 25].r < 40)  // the focus up and to the right, at the circle's edge
    for v in [1e153, 1e154, 1e300] {
      let huge = try render(Point(v, -v))
      // The same focus to rounding near it: within four levels everywhere (dropped, the offset
      // left the focus at the centre, 145 levels off at the edge).
      let most = zip(huge.pixels, far.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(most <= 4, "\(v): \(most)")
    }
  }

  @Test func aFocusOnOrPastTheCircleIsKeptInside() throws {
    let past = try render(Point(0.9, 0))
    let edge = try render(Point(0.495, 0))  // 0.99 of the way
    #expect(past[60, 50] == edge[60, 50])
    #expect(past[20, 50] == edge[20, 50])
  }
}
