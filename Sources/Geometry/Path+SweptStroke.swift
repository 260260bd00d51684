extension Path {
  /// Whether some open sub-path of the path has a curve that bends tighter than `radius`
  /// (see `flatteningCurves`): where chords leave a stroke's fan uncovered (a closed
  /// sub-path's chords cover their own).
  public func hasOpenCurve(tighterThan radius: Double) -> Bool {
    guard radius > 0, radius.isFinite else { return false }
    var current = Point.zero, start = Point.zero
    var tight = false
    for element in elements {
      switch element {
      case .move(let p):
        if tight { return true }
        (current, start) = (p, p)
      case .line(let p): current = p
      case .quadCurve(let p, let c):
        let c1 = current + (c - current) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
        if Path.bendsTighter(current, c1, c2, p, than: radius) { tight = true }
        current = p
      case .curve(let p, let c1, let c2):
        if Path.bendsTighter(current, c1, c2, p, than: radius) { tight = true }
        current = p
      case .closeSubpath:
        tight = false
        current = start
      }
    }
    return tight
  }

  /// The region a stroke of the path sweeps, as pieces to fill together with the non-zero
  /// rule (each piece turns the same way, so where they overlap they add up): the line of
  /// `2 × halfWidth` held square to the path at every point (a piece between each two points
  /// of the path taken within `tolerance`, split in two triangles where the lines square to
  /// the path at its ends cross), the joins between elements, and the caps of open sub-paths;
  /// `nil` when it would take more than `maximumPieces` pieces.
  ///
  /// Why: where a curve bends tighter than half the width, the lines square to it cross beyond
  /// its centre of curvature and sweep a fan there. Cairo's stroker offsets the curve to each
  /// side and the inner offset turns inside out (a hole in a circle of radius 20 stroked 45
  /// wide); stroked as chords instead, each chord's rectangle covers only the chord's width of
  /// the fan, so an open arc left it grey (a half circle of radius 3 stroked 20 wide), and the
  /// end chords' caps stood askew to the curve (a notch in a full-turn arc). Dashed strokes
  /// are left to Cairo.
  public func sweptStrokeOutline(
    halfWidth h: Double, cap: LineCap, join: LineJoin, miterLimit: Double, tolerance: Double,
    maximumPieces: Int = 200_000
  ) -> Path? {
    guard h > 0, h.isFinite, tolerance > 0, tolerance.isFinite else { return nil }
    var out = Path()
    var pieces = 0
    // The largest turn of the line square to the path between two points, so that the
    // outline's sides stay within the tolerance of the true offset (h × angle² / 8).
    let maximumTurn = Swift.min(0.5, (8 * tolerance / h).squareRoot())
    let arcSteps = Swift.max(4, Swift.min(1_000, Int((2 * Double.pi / maximumTurn).rounded(.up))))

    func polygon(_ points: [Point]) {
      guard points.count >= 3 else { return }
      var area = 0.0
      for i in points.indices {
        let a = points[i], b = points[(i + 1) % points.count]
        area += a.x * b.y - a.y * b.x
      }
      guard area != 0, area.isFinite else { return }
      let ordered = area > 0 ? points : points.reversed()
      out.move(to: ordered[0])
      for p in ordered.dropFirst() { out.addLine(to: p) }
      out.closeSubpath()
      pieces += 1
    }
    func normal(_ t: Point) -> Point { Point(x: -t.y, y: t.x) }
    func unit(_ v: Point) -> Point? {
      let length = (v.x * v.x + v.y * v.y).squareRoot()
      guard length > 0, length.isFinite else { return nil }
      return Point(x: v.x / length, y: v.y / length)
    }
    /// The piece swept between two points of the path with their unit tangents.
    func segment(_ p: Point, _ tp: Point, _ q: Point, _ tq: Point) {
      let (np, nq) = (normal(tp) * h, normal(tq) * h)
      let (a0, b0, a1, b1) = (p + np, p - np, q + nq, q - nq)
      if let x = Path.crossing(a0, b0, a1, b1) {
        polygon([a0, a1, x])
        polygon([b0, b1, x])
      } else {
        polygon([a0, a1, b1, b0])
      }
    }
    func disc(_ center: Point) {
      polygon(
        (0..<arcSteps).map { i in
          let angle = 2 * Double.pi * Double(i) / Double(arcSteps)
          return center + Point(x: cos(angle), y: sin(angle)) * h
        })
    }
    /// The two sectors the line square to the path sweeps turning about `p` from tangent `ta`
    /// to `tb` (the shorter way).
    func sectors(at p: Point, from ta: Point, to tb: Point) {
      let a = atan2(ta.y, ta.x)
      var turn = atan2(tb.y, tb.x) - a
      if turn > .pi { turn -= 2 * .pi }
      if turn < -.pi { turn += 2 * .pi }
      let steps = Swift.max(2, Int((Double(arcSteps) * abs(turn) / (2 * .pi)).rounded(.up)))
      for side in [1.0, -1.0] {
        var points = [p]
        for i in 0...steps {
          let angle = a + turn * Double(i) / Double(steps) + .pi / 2
          points.append(p + Point(x: cos(angle), y: sin(angle)) * (h * side))
        }
        polygon(points)
      }
    }
    func joinPieces(at p: Point, _ ta: Point, _ tb: Point) {
      let cross = ta.x * tb.y - ta.y * tb.x, dot = ta.x * tb.x + ta.y * tb.y
      guard abs(cross) > 1e-12 || dot < 0 else { return }
      let (na, nb) = (normal(ta) * h, normal(tb) * h)
      switch join {
      case .round:
        disc(p)
      case .bevel, .miter:
        // The outer side is the one the path turns away from; the inner triangle lies within
        // the two pieces' overlap, and is added too (a half turn has no outer side).
        polygon([p, p + na, p + nb])
        polygon([p, p - na, p - nb])
        if join == .miter, dot > -1 {
          let side = cross > 0 ? -1.0 : 1.0
          let u = (na + nb) * (1 / h)
          let length = (u.x * u.x + u.y * u.y).squareRoot()
          if length > 0, 2 / length <= miterLimit {
            let m = p + u * (side * 2 * h / (length * length))
            polygon([p, p + na * side, m, p + nb * side])
          }
        }
      }
    }
    func capPieces(at p: Point, outward t: Point) {
      let n = normal(t) * h
      switch cap {
      case .butt: break
      case .square: polygon([p + n, p - n, p - n + t * h, p + n + t * h])
      case .round:
        // From +n through the outward tangent to −n: the half disc beyond the end.
        let steps = Swift.max(2, arcSteps / 2)
        polygon(
          (0...steps).map { i in
            let angle = Double.pi * Double(i) / Double(steps)
            return p + n * cos(angle) + t * (h * sin(angle))
          })
      }
    }

    // Sub-paths, each as runs of (point, unit tangent) samples, one run an element.
    var start = Point.zero, current = Point.zero
    var runs: [[(Point, Point)]] = []
    // Whether the sub-path has drawn an element (a move alone draws nothing; a line of no
    // length with round caps draws a dot, as Core Graphics and Cairo draw it).
    var closed = false, drew = false
    func finishSubpath() {
      defer { (runs, closed, drew) = ([], false, false) }
      if closed, current != start, let t = unit(start - current) {
        runs.append([(current, t), (start, t)])
      }
      guard !runs.isEmpty else {
        if drew, cap == .round, !closed { disc(start) }
        return
      }
      for run in runs {
        for k in 0..<(run.count - 1) {
          segment(run[k].0, run[k].1, run[k + 1].0, run[k + 1].1)
          // Where the curve turns faster than its samples follow (a cusp), the line square to
          // it turns about the point: the sectors it sweeps there.
          let (ta, tb) = (run[k].1, run[k + 1].1)
          if acos(Swift.max(-1, Swift.min(1, ta.x * tb.x + ta.y * tb.y))) > maximumTurn {
            sectors(at: run[k + 1].0, from: ta, to: tb)
          }
        }
      }
      for i in 0..<(runs.count - 1) {
        joinPieces(at: runs[i][runs[i].count - 1].0, runs[i][runs[i].count - 1].1, runs[i + 1][0].1)
      }
      if closed {
        joinPieces(
          at: runs[runs.count - 1][runs[runs.count - 1].count - 1].0,
          runs[runs.count - 1][runs[runs.count - 1].count - 1].1, runs[0][0].1)
      } else {
        let first = runs[0][0], last = runs[runs.count - 1][runs[runs.count - 1].count - 1]
        capPieces(at: first.0, outward: first.1 * -1)
        capPieces(at: last.0, outward: last.1)
      }
    }
    func cubic(_ a: Point, _ c1: Point, _ c2: Point, _ b: Point) {
      let d0 = (c1 - a) * 3, d1 = (c2 - c1) * 3, d2 = (b - c2) * 3
      func point(_ t: Double) -> Point {
        let u = 1 - t
        return a * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + b * (t * t * t)
      }
      func tangent(_ t: Double) -> Point? {
        let u = 1 - t
        return unit(d0 * (u * u) + d1 * (2 * u * t) + d2 * (t * t))
      }
      // Samples at parameters found by halving until each piece is flat and turns little.
      var ts: [Double] = [0]
      var stack: [(Double, Double, Int)] = [(0, 1, 0)]
      while let (t0, t1, depth) = stack.popLast() {
        // Flat and turning little, judged at the quarters (a symmetric S has its middle on its
        // chord and the same tangent at both ends), after at least two halvings.
        let (p0, p1) = (point(t0), point(t1))
        let chord = p1 - p0
        let length = (chord.x * chord.x + chord.y * chord.y).squareRoot()
        var deviation = 0.0, turn = 0.0
        var previous = tangent(t0)
        for q in [0.25, 0.5, 0.75, 1.0] {
          let t = t0 + (t1 - t0) * q
          if q < 1 {
            let off = point(t) - p0
            deviation = Swift.max(
              deviation,
              length > 0
                ? abs(off.x * chord.y - off.y * chord.x) / length
                : (off.x * off.x + off.y * off.y).squareRoot())
          }
          let next = tangent(t)
          if let a = previous, let b = next {
            turn += acos(Swift.max(-1, Swift.min(1, a.x * b.x + a.y * b.y)))
          } else {
            turn = .pi
          }
          previous = next
        }
        if depth >= 12 || (depth >= 2 && deviation <= tolerance && turn <= maximumTurn) {
          ts.append(t1)
        } else {
          let m = (t0 + t1) / 2
          stack.append((m, t1, depth + 1))
          stack.append((t0, m, depth + 1))
        }
      }
      var run: [(Point, Point)] = []
      var last: Point? = nil
      for t in ts {
        // A cusp has no tangent: the direction toward the next sample, or from the last.
        let p = point(t)
        if let tangent = tangent(t)
          ?? unit(point(Swift.min(1, t + 1e-6)) - point(Swift.max(0, t - 1e-6)))
        {
          if let l = last, l == p, let previous = run.last?.1, previous == tangent { continue }
          run.append((p, tangent))
          last = p
        }
      }
      if run.count >= 2 { runs.append(run) }
      pieces += run.count
    }
    for element in elements {
      if pieces > maximumPieces { return nil }
      switch element {
      case .move(let p):
        finishSubpath()
        (start, current) = (p, p)
      case .line(let p):
        if let t = unit(p - current) { runs.append([(current, t), (p, t)]) }
        (current, drew) = (p, true)
      case .quadCurve(let p, let c):
        cubic(current, current + (c - current) * (2.0 / 3.0), p + (c - p) * (2.0 / 3.0), p)
        (current, drew) = (p, true)
      case .curve(let p, let c1, let c2):
        cubic(current, c1, c2, p)
        (current, drew) = (p, true)
      case .closeSubpath:
        closed = true
        finishSubpath()
        // A line after a close starts a new sub-path at the closed one's start.
        current = start
      }
    }
    finishSubpath()
    return pieces > maximumPieces ? nil : out
  }

  /// Where the segments `a0 b0` and `a1 b1` cross (not at their ends), or `nil`.
  static func crossing(_ a0: Point, _ b0: Point, _ a1: Point, _ b1: Point) -> Point? {
    let r = b0 - a0, s = b1 - a1
    let denominator = r.x * s.y - r.y * s.x
    guard denominator != 0 else { return nil }
    let q = a1 - a0
    let t = (q.x * s.y - q.y * s.x) / denominator
    let u = (q.x * r.y - q.y * r.x) / denominator
    guard t > 0, t < 1, u > 0, u < 1 else { return nil }
    return a0 + r * t
  }
}
