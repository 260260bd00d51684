import Geometry
import Glibc
import Testing

/// Outlines flattened and cut for drawing through a projective map
/// (`Homography.polygons(of:within:tolerance:)`).
@Suite struct HomographyPathTests {
  /// The card-flip map of a 200 x 100 layer anchored at its centre at (150, 100), θ about y,
  /// perspective 500.
  func cardMap(_ theta: Double, distance: Double = 500) -> Homography {
    let t = Transform3D.perspective(distance: distance).rotated(theta, x: 0, y: 1, z: 0)
    return Homography(
      Transform3D.translation(x: -100, y: -50).concatenating(t)
        .concatenating(.translation(x: 150, y: 100)))
  }

  let region = Rect(x: -64, y: -64, width: 428, height: 328)

  @Test func straightOutlinesKeepTheirCorners() {
    let polygons = cardMap(0.7).polygons(
      of: Path(rect: Rect(0, 0, 200, 100)), within: region, tolerance: 0.1)
    #expect(polygons == [[Point(0, 0), Point(200, 0), Point(200, 100), Point(0, 100)]])
  }

  /// A circle of radius 40 on the plane: every point of its true image lies within the
  /// tolerance (and a little for the sampling) of the polygon's edges, and no chord point is
  /// off the true circle.
  @Test(arguments: [0.0, 0.6, 1.2])
  func curvesAreCutWithinTheTolerance(theta: Double) throws {
    let map = cardMap(theta)
    let circle = Path(ellipseIn: Rect(60, 10, 80, 80))
    let polygons = map.polygons(of: circle, within: region, tolerance: 0.1)
    #expect(polygons.count == 1)
    let polygon = try #require(polygons.first).compactMap { map.apply($0) }
    func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
      let d = b - a, l2 = d.x * d.x + d.y * d.y
      let t = l2 > 0 ? Swift.max(0, Swift.min(1, ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / l2)) : 0
      let q = a + d * t
      return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }
    var worst = 0.0
    for k in 0..<720 {
      let angle = Double(k) / 720 * 2 * .pi
      let p = try #require(map.apply(Point(x: 100 + 40 * cos(angle), y: 50 + 40 * sin(angle))))
      var nearest = Double.infinity
      for i in polygon.indices {
        nearest = Swift.min(nearest, distance(p, polygon[i], polygon[(i + 1) % polygon.count]))
      }
      worst = Swift.max(worst, nearest)
    }
    // Bezier arcs are within 0.03% of a circle's radius (0.01 here) of the true circle.
    #expect(worst <= 0.1 + 0.02, "θ \(theta): \(worst) px")
    // And not wastefully fine: a 40-point circle needs tens of chords, not hundreds.
    #expect(polygon.count < 120)
  }

  /// perspective 100, θ 1.2 on a 400-wide layer: its left part is behind the eye. What is left
  /// has w > 0 everywhere and its images inside the region; the front part is kept whole.
  @Test func partsBehindTheEyeOrFarOutsideAreCut() throws {
    let t = Transform3D.perspective(distance: 100).rotated(1.2, x: 0, y: 1, z: 0)
    let map = Homography(
      Transform3D.translation(x: -200, y: -50).concatenating(t)
        .concatenating(.translation(x: 150, y: 100)))
    let polygons = map.polygons(
      of: Path(rect: Rect(0, 0, 400, 100)), within: region, tolerance: 0.1)
    let polygon = try #require(polygons.first)
    #expect(polygons.count == 1)
    for p in polygon {
      let q = try #require(map.apply(p))
      #expect(map.w(at: p) > 0)
      #expect(region.insetBy(dx: -1e-6, dy: -1e-6).contains(q))
    }
    // The anchor's neighbourhood is in front and inside: its right edge keeps its corners.
    #expect(polygon.contains(Point(400, 0)) && polygon.contains(Point(400, 100)))
  }

  /// Each subpath is cut on its own, so a ring (two loops, even-odd) stays two loops.
  @Test func subpathsStaySeparate() {
    var ring = Path(rect: Rect(0, 0, 200, 100))
    ring.addPath(Path(rect: Rect(20, 20, 160, 60)))
    #expect(cardMap(0.4).polygons(of: ring, within: region, tolerance: 0.1).count == 2)
  }
}
