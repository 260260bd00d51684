import Geometry
import Testing

/// Issue 18: arcs with extreme numbers never trap. SVG 1.1 F.6.2's degenerate cases hold at any
/// scale (a radius that is zero next to the chord is a line), huge numbers stay finite, and what
/// cannot be computed is drawn as the line SVG falls back to.
@Suite struct ExtremeArcTests {
  func points(_ path: Path) -> [Point] {
    path.elements.flatMap { element -> [Point] in
      switch element {
      case .move(let p), .line(let p): return [p]
      case .quadCurve(let p, let c): return [p, c]
      case .curve(let p, let c1, let c2): return [p, c1, c2]
      case .closeSubpath: return []
      }
    }
  }

  @Test(arguments: [
    "M0 0 A 1e308 1e308 0 0 1 1e308 -1e308",
    "M0 0 A 1e-320 1e300 0 1 1 1e300 1",
    "M-1e308 -1e308 A 1 1 0 1 1 1e308 1e308",
    "M0 0 A 1e308 1e-308 1e300 1 0 5 5",
  ])
  func extremeSVGArcsAreFiniteOrALine(_ d: String) throws {
    let path = try Path(svgPathData: d)
    #expect(points(path).allSatisfy { $0.x.isFinite && $0.y.isFinite } || path.elements.count == 2)
    #expect(path.elements.count <= 6)  // a move and at most four quarter curves, or a line
  }

  @Test func aRadiusNegligibleNextToTheChordIsALine() throws {
    #expect(
      try Path(svgPathData: "M0 0 A 1e-320 1e300 0 1 1 1e300 1").elements == [
        .move(to: Point(0, 0)), .line(to: Point(1e300, 1)),
      ])
  }

  @Test func aHugeSmallArcIsTheLineItIsIndistinguishableFrom() throws {
    #expect(
      try Path(svgPathData: "M0 0 A 1e200 1e200 0 0 1 10 0").elements == [
        .move(to: Point(0, 0)), .line(to: Point(10, 0)),
      ])
  }

  @Test func ordinaryArcsAreUnchangedByTheScaling() throws {
    // A half circle of radius 5 from (0, 0) to (10, 0), sweeping through y < 0.
    let path = try Path(svgPathData: "M0 0 A 5 5 0 0 1 10 0")
    #expect(path.elements.count == 3)
    guard case .curve(let mid, _, _) = path.elements[1] else { Issue.record("not a curve"); return }
    #expect(abs(mid.x - 5) < 1e-9 && abs(mid.y + 5) < 1e-9)
  }

  @Test func arcAnglesFarApartMakeAtMostAFullCircle() {
    let huge = Path(
      arcCenter: Point(50, 50), radius: 10, startAngle: 0, endAngle: 1e300, clockwise: true)
    #expect(huge.elements.count == 5)  // one full circle: a move and four quarters
    let overflow = Path(
      arcCenter: Point(0, 0), radius: 1, startAngle: 1e308, endAngle: -1e308, clockwise: true)
    #expect(overflow.elements.count == 5)
    #expect(points(overflow).allSatisfy { $0.x.isFinite && $0.y.isFinite })
  }
}
