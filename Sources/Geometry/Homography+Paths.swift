extension Homography {
  /// The closed polygons of `path` (each subpath flattened, curves cut into chords) cut to the
  /// part of the plane this map shows inside `rect` (in its image's coordinates): what a fill
  /// of `path` covers, ready to be mapped point by point with `apply(_:)`.
  ///
  /// Lines stay lines under a projective map, so only curves are cut: each into as many chords
  /// as keep the image of the curve within about `tolerance` (image units, e.g. device pixels)
  /// of its chords, estimated from the images of its control points (Wang's bound for a
  /// cubic; the map's own curvature over one curve is far smaller). Each polygon is then cut to where `w` is positive
  /// and to `rect` (Sutherland-Hodgman against five half-planes of the plane, all linear in
  /// homogeneous coordinates), so every point left has a finite image near `rect`. Cutting
  /// every closed loop to the same convex region keeps the winding number of each point inside
  /// it, so both fill rules give the same inside as before the cut.
  public func polygons(of path: Path, within rect: Rect, tolerance: Double) -> [[Point]] {
    var polygons: [[Point]] = []
    var current: [Point] = []
    var point = Point.zero
    // Whether a point needs no cutting: in front of the eye with its image inside `rect`.
    let epsilon = Swift.max(Swift.abs(m13), Swift.abs(m23), Swift.abs(m33)) * 1e-6
    func shows(_ p: Point) -> Bool {
      let w = self.w(at: p)
      guard w > epsilon else { return false }
      let x = (p.x * m11 + p.y * m21 + m31) / w, y = (p.x * m12 + p.y * m22 + m32) / w
      return x >= rect.minX && x <= rect.maxX && y >= rect.minY && y <= rect.maxY
    }
    func close() {
      if current.count >= 3 {
        if current.allSatisfy(shows) {
          polygons.append(current)
        } else {
          let cut = Homography.clip(current, of: self, to: rect)
          if cut.count >= 3 { polygons.append(cut) }
        }
      }
      current = []
    }
    func curve(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point) {
      let n = chordCount(p0, c1, c2, p3, tolerance: tolerance)
      for i in 1...n {
        let t = Double(i) / Double(n), s = 1 - t
        let a = s * s * s, b = 3 * s * s * t, c = 3 * s * t * t, d = t * t * t
        current.append(
          Point(
            x: a * p0.x + b * c1.x + c * c2.x + d * p3.x,
            y: a * p0.y + b * c1.y + c * c2.y + d * p3.y))
      }
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        close()
        current = [p]
        point = p
      case .line(let p):
        if current.isEmpty { current = [point] }
        current.append(p)
        point = p
      case .quadCurve(let p, let c):
        if current.isEmpty { current = [point] }
        curve(point, point + (c - point) * (2.0 / 3.0), p + (c - p) * (2.0 / 3.0), p)
        point = p
      case .curve(let p, let c1, let c2):
        if current.isEmpty { current = [point] }
        curve(point, c1, c2, p)
        point = p
      case .closeSubpath:
        let start = current.first ?? point
        close()
        point = start
      }
    }
    close()
    return polygons
  }

  /// The most chords a curve is cut into.
  static let maximumChords = 256

  /// How many chords keep the image of the cubic `p0 c1 c2 p3` within `tolerance` of them.
  private func chordCount(
    _ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, tolerance: Double
  ) -> Int {
    guard let q0 = apply(p0), let q1 = apply(c1), let q2 = apply(c2), let q3 = apply(p3) else {
      // Part of the curve is at or behind the eye: cut finely, the clip does the rest.
      return 64
    }
    let d1 = q0 - q1 * 2 + q2, d2 = q1 - q2 * 2 + q3
    let dd = Swift.max((d1.x * d1.x + d1.y * d1.y), (d2.x * d2.x + d2.y * d2.y)).squareRoot()
    let n = (0.75 * dd / Swift.max(tolerance, 1e-6)).squareRoot().rounded(.up)
    guard n.isFinite else { return Homography.maximumChords }
    return Swift.min(Homography.maximumChords, Swift.max(1, Int(n)))
  }
}
