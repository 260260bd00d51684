import Geometry
import Glibc
import Testing

/// docs/scene-format.md §5: start points and directions of the shape forms.
@Suite struct PathShapeTests {
  func points(_ path: Path) -> [Point] {
    path.elements.compactMap { e -> Point? in
      switch e {
      case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): return p
      case .closeSubpath: return nil
      }
    }
  }

  func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance
  }

  @Test func rectStartsTopLeftAndRunsClockwise() {
    let p = Path(rect: Rect(10, 20, 30, 40))
    #expect(points(p) == [Point(10, 20), Point(40, 20), Point(40, 60), Point(10, 60)])
    #expect(p.elements.last == .closeSubpath)
  }

  @Test func ellipseStartsAtMaxXMidYThenMidXMaxY() {
    let p = Path(ellipseIn: Rect(0, 0, 100, 50))
    let pts = points(p)
    #expect(pts[0] == Point(100, 25))
    #expect(pts[1] == Point(50, 50))
    #expect(pts[2] == Point(0, 25))
    #expect(pts[3] == Point(50, 0))
    #expect(p.elements.last == .closeSubpath)
  }

  @Test func roundedRectStartsAfterTheTopLeftCorner() {
    let p = Path(roundedRect: Rect(0, 0, 100, 50), cornerRadius: 10)
    let pts = points(p)
    #expect(pts[0] == Point(10, 0))
    #expect(pts[1] == Point(90, 0))
    #expect(pts[2] == Point(100, 10))
  }

  @Test func roundedRectRadiusIsClampedToHalfTheShorterSide() {
    let p = Path(roundedRect: Rect(0, 0, 100, 20), cornerRadius: 50)
    #expect(points(p)[0] == Point(10, 0))
  }

  @Test func clockwiseArcRunsTowardPlusY() {
    let p = Path(
      arcCenter: Point(0, 0), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
    let pts = points(p)
    #expect(close(pts.first!, Point(10, 0)))
    #expect(close(pts.last!, Point(0, 10)))
    #expect(p.elements.count == 2)  // one quarter: a move and one curve
  }

  @Test func counterClockwiseArcGoesTheLongWay() {
    // From 0 to π/2 counterclockwise is three quarters of a turn through -y.
    let p = Path(
      arcCenter: Point(0, 0), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
    let pts = points(p)
    #expect(close(pts[1], Point(0, -10)))
    #expect(close(pts.last!, Point(0, 10)))
    #expect(p.elements.count == 4)
  }

  @Test func sweepOfTwoPiOrMoreIsOneFullCircle() {
    for end in [2 * Double.pi, 5 * Double.pi] {
      let p = Path(
        arcCenter: Point(0, 0), radius: 10, startAngle: 0, endAngle: end, clockwise: true)
      #expect(p.elements.count == 5)
      #expect(close(points(p).last!, Point(10, 0)))
      #expect(abs(p.length - 2 * .pi * 10) < 0.01)
    }
  }

  @Test func arcAfterAPointAddsAJoiningLine() {
    var p = Path()
    p.move(to: Point(0, 0))
    p.addArc(center: Point(20, 0), radius: 5, startAngle: .pi, endAngle: 0, clockwise: true)
    #expect(p.elements[1] == .line(to: Point(15, sin(Double.pi) * 5)))
  }

  @Test func lengthAndTrimming() {
    let square = Path(rect: Rect(0, 0, 10, 10))
    #expect(abs(square.length - 40) < 1e-9)
    // The first half of a closed square: two sides, open.
    let half = square.trimmed(from: 0, to: 0.5)
    #expect(
      half.elements == [.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10))])
    // A trim across the closing side.
    let tail = square.trimmed(from: 0.875, to: 1)
    #expect(tail.elements == [.move(to: Point(0, 5)), .line(to: Point(0, 0))])
    #expect(square.trimmed(from: 0.5, to: 0.5).isEmpty)
    #expect(square.trimmed(from: 0, to: 1) == square)
  }

  @Test func trimmingACurveFollowsArcLength() {
    let circle = Path(ellipseIn: Rect(-10, -10, 20, 20))
    let quarter = circle.trimmed(from: 0, to: 0.25)
    #expect(abs(quarter.length - circle.length / 4) < 0.01)
    #expect(close(quarter.currentPoint!, Point(0, 10), 0.01))
  }
}
