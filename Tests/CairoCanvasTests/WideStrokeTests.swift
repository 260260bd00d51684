import CairoCanvas
import Geometry
import Testing

/// Eighteenth pass: Cairo strokes a curve by offsetting it half the width to each side, and a
/// curve bending tighter than that turns its inner side inside out: a circle of radius 20
/// stroked 45 wide had a hole, and 200 or more wide drew nothing (a circle wipe, a Lottie mask
/// expanded past its radius, text stroked 1,000 wide). Such curves are stroked as chords.
@Suite struct WideStrokeTests {
  func covered(_ path: Path, width: Double, join: LineJoin = .miter) throws -> (Int, RGBA8) {
    let canvas = try Canvas(size: Size(100, 100))
    var style = StrokeStyle(lineWidth: width)
    style.lineJoin = join
    canvas.stroke(path, with: .black, style: style)
    let b = canvas.makeBitmap()
    var count = 0
    for y in 0..<100 {
      for x in 0..<100 where b[x, y].a > 127 { count += 1 }
    }
    return (count, b[50, 50])
  }

  @Test func aCircleStrokedWiderThanItsDiameterIsADisk() throws {
    let circle = Path(ellipseIn: Rect(30, 30, 40, 40))
    // Every point within half the width of the circle: a disk of radius 20 + w / 2.
    for width in [45.0, 100, 200, 1000, 1e6] {
      let (count, centre) = try covered(circle, width: width)
      #expect(centre.a == 255, "width \(width)")
      if width >= 100 { #expect(count == 10_000, "width \(width)") }
    }
    // 45 wide: a disk of radius 42.5, about 5,675 pixels.
    let (count, _) = try covered(circle, width: 45)
    #expect(abs(count - 5_675) < 100)
    // A rounded rectangle loses no side either.
    let rounded = Path(roundedRect: Rect(30, 30, 40, 40), cornerRadius: 10)
    #expect(try covered(rounded, width: 300).0 == 10_000)
  }

  @Test func curvesBendingLessThanHalfTheWidthReachCairoAsThemselves() {
    let circle = Path(ellipseIn: Rect(30, 30, 40, 40))
    #expect(circle.flatteningCurves(tighterThan: 19, tolerance: 0.1) == circle)
    let chords = circle.flatteningCurves(tighterThan: 20.1, tolerance: 0.1)
    #expect(chords != circle && !chords.elements.contains(where: \.isCurveForTests))
    // Chords within the tolerance of the circle.
    for element in chords.elements {
      guard case .line(let p) = element else { continue }
      let r = ((p.x - 50) * (p.x - 50) + (p.y - 50) * (p.y - 50)).squareRoot()
      #expect(abs(r - 20) < 0.1)
    }
    // A loop bends tightest at its apex, wherever its ends are.
    var loop = Path()
    loop.move(to: Point(0, 0))
    loop.addCurve(to: Point(10, 0), control1: Point(10, 10), control2: Point(0, 10))
    #expect(loop.flatteningCurves(tighterThan: 5, tolerance: 0.1) != loop)
  }
}

extension Path.Element {
  fileprivate var isCurveForTests: Bool {
    switch self {
    case .quadCurve, .curve: return true
    default: return false
    }
  }
}
