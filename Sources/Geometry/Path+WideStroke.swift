extension Path {
  /// The path with every curve that bends tighter than `radius` somewhere replaced by chords
  /// within `tolerance` of it (both in the path's units); lines, and curves that bend less, as
  /// they are.
  ///
  /// Why: Cairo strokes a curve by offsetting it half the line's width to each side, and where
  /// the curve bends tighter than that its inner offset turns inside out: a circle of radius 20
  /// stroked 45 wide had a hole in its middle, and 200 or more wide drew nothing at all (a
  /// circle wipe, a Lottie mask expanded past its radius). Chords are joined one by one, round
  /// the path's own points, which Cairo strokes right at any width. `radius` is the stroke's
  /// half width with a margin (`Canvas.stroke`).
  public func flatteningCurves(tighterThan radius: Double, tolerance: Double) -> Path {
    guard radius > 0, tolerance > 0, radius.isFinite, tolerance.isFinite,
      elements.contains(where: \.isCurve)
    else { return self }
    var out = Path()
    var current = Point.zero, start = Point.zero
    var changed = false
    for element in elements {
      switch element {
      case .move(let p):
        out.move(to: p)
        (current, start) = (p, p)
      case .line(let p):
        out.addLine(to: p)
        current = p
      case .quadCurve(let p, let c):
        let c1 = current + (c - current) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
        if Path.bendsTighter(current, c1, c2, p, than: radius) {
          Path.addChords(current, c1, c2, p, tolerance: tolerance, to: &out)
          changed = true
        } else {
          out.addQuadCurve(to: p, control: c)
        }
        current = p
      case .curve(let p, let c1, let c2):
        if Path.bendsTighter(current, c1, c2, p, than: radius) {
          Path.addChords(current, c1, c2, p, tolerance: tolerance, to: &out)
          changed = true
        } else {
          out.addCurve(to: p, control1: c1, control2: c2)
        }
        current = p
      case .closeSubpath:
        out.closeSubpath()
        current = start
      }
    }
    return changed ? out : self
  }

  /// Whether the cubic `a c1 c2 b` bends tighter than `radius` anywhere, judged at 33 points:
  /// its radius of curvature |B'|³ / |B' × B''| there below `radius` (a cusp, where B' is 0,
  /// bends tightest of all).
  static func bendsTighter(
    _ a: Point, _ c1: Point, _ c2: Point, _ b: Point, than radius: Double
  ) -> Bool {
    let d0 = (c1 - a) * 3, d1 = (c2 - c1) * 3, d2 = (b - c2) * 3
    for i in 0...32 {
      let t = Double(i) / 32, u = 1 - t
      let first = d0 * (u * u) + d1 * (2 * u * t) + d2 * (t * t)
      let second = (d1 - d0) * (2 * u) + (d2 - d1) * (2 * t)
      let speed = (first.x * first.x + first.y * first.y).squareRoot()
      let cross = Swift.abs(first.x * second.y - first.y * second.x)
      // radius of curvature < r  ⇔  speed³ < r × cross
      if speed * speed * speed < radius * cross { return true }
      if speed == 0 && (second.x != 0 || second.y != 0) { return true }
    }
    return false
  }

  /// Adds chords of the cubic `a c1 c2 b` (from the current point `a`) to `path`: halves until
  /// each piece's control points lie within `tolerance` of its chord, at most 2^12 chords.
  static func addChords(
    _ a: Point, _ c1: Point, _ c2: Point, _ b: Point, tolerance: Double, to path: inout Path
  ) {
    var stack: [(Point, Point, Point, Point, Int)] = [(a, c1, c2, b, 0)]
    while let (p0, p1, p2, p3, depth) = stack.popLast() {
      if depth >= 12 || isFlat(p0, p1, p2, p3, tolerance: tolerance) {
        path.addLine(to: p3)
        continue
      }
      let m01 = (p0 + p1) * 0.5, m12 = (p1 + p2) * 0.5, m23 = (p2 + p3) * 0.5
      let m012 = (m01 + m12) * 0.5, m123 = (m12 + m23) * 0.5
      let mid = (m012 + m123) * 0.5
      stack.append((mid, m123, m23, p3, depth + 1))
      stack.append((p0, m01, m012, mid, depth + 1))
    }
  }

  /// Whether both control points lie within `tolerance` of the chord `p0 p3` (of `p0` when
  /// the chord has no length).
  static func isFlat(
    _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double
  )
    -> Bool
  {
    let d = p3 - p0
    let length = (d.x * d.x + d.y * d.y).squareRoot()
    func distance(_ p: Point) -> Double {
      let v = p - p0
      guard length > 0 else { return (v.x * v.x + v.y * v.y).squareRoot() }
      return Swift.abs(v.x * d.y - v.y * d.x) / length
    }
    return distance(p1) <= tolerance && distance(p2) <= tolerance
  }
}

extension Path.Element {
  /// Whether the element is a quadratic or cubic curve.
  var isCurve: Bool {
    switch self {
    case .quadCurve, .curve: return true
    case .move, .line, .closeSubpath: return false
    }
  }
}
