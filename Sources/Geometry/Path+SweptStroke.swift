extension Path {
  /// Whether some open sub-path of the path has a curve that bends tighter than `radius`
  /// (see `flatteningCurves`): where chords leave a stroke's fan uncovered (a closed
  /// sub-path's chords cover their own).
  public func hasOpenCurve(tighterThan radius: Double, orClosed: Bool = false) -> Bool {
    // Asked of every stroke: most paths have no curve, and are passed over in one scan.
    guard radius > 0, radius.isFinite, elements.contains(where: \.isCurve) else { return false }
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
        if orClosed && tight { return true }
        tight = false
        current = start
      }
    }
    return tight
  }

  /// The path's sub-paths in two: those a stroke of half width `radius` draws as the region
  /// it sweeps (open ones with a curve tighter than `radius`, or, `dashed`, any with one: their
  /// dashes are open) and the rest, each in order.
  public func separatingTightSubpaths(
    tighterThan radius: Double, dashed: Bool
  ) -> (
    tight: Path, rest: Path
  ) {
    var tight = Path(), rest = Path()
    var piece: [Element] = [], start = Point.zero, current = Point.zero
    var bends = false, closed = false
    func flush() {
      guard !piece.isEmpty else { return }
      let swept = bends && (!closed || dashed)
      for e in piece {
        if swept { tight.append(e) } else { rest.append(e) }
      }
      (piece, bends, closed) = ([], false, false)
    }
    for element in elements {
      switch element {
      case .move(let p):
        flush()
        (start, current) = (p, p)
        piece.append(element)
      case .line(let p):
        if piece.isEmpty { piece.append(.move(to: current)) }
        piece.append(element)
        current = p
      case .quadCurve(let p, let c):
        if piece.isEmpty { piece.append(.move(to: current)) }
        let c1 = current + (c - current) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
        if Path.bendsTighter(current, c1, c2, p, than: radius) { bends = true }
        piece.append(element)
        current = p
      case .curve(let p, let c1, let c2):
        if piece.isEmpty { piece.append(.move(to: current)) }
        if Path.bendsTighter(current, c1, c2, p, than: radius) { bends = true }
        piece.append(element)
        current = p
      case .closeSubpath:
        piece.append(element)
        closed = true
        flush()
        current = start
      }
    }
    flush()
    return (tight, rest)
  }

  /// The dashes of the path under `pattern` (lengths in the path's units, drawn then left out
  /// in turn, repeating), starting `phase` into the pattern at each sub-path's start, as Core
  /// Graphics and Cairo dash a stroke: each dash an open sub-path (a dash of no length a tiny
  /// segment along the path, so that its caps know their direction); `nil` when the pattern
  /// draws no dashes or there would be more than `maximumDashes`. For strokes Cairo cannot
  /// draw as it dashes (`sweptStrokeOutline`).
  public func dashed(pattern: [Double], phase: Double, maximumDashes: Int) -> Path? {
    guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }),
      pattern.contains(where: { $0 > 0 }), phase.isFinite
    else { return nil }
    let cycle = pattern.count % 2 == 0 ? pattern : pattern + pattern
    let total = cycle.reduce(0, +)
    let segments = measuredSegments()
    var out = Path()
    var dashes = 0
    var i = 0
    while i < segments.count {
      var j = i
      while j < segments.count && segments[j].subpath == segments[i].subpath { j += 1 }
      var starts: [Double] = []
      var length = 0.0
      for m in segments[i..<j] {
        starts.append(length)
        length += m.length
      }
      /// Adds the part of the sub-path between distances `a` and `b` from its start.
      func emit(_ a: Double, _ b: Double) {
        var first = true
        for k in i..<j {
          let s0 = starts[k - i], m = segments[k]
          let s1 = s0 + m.length
          guard s1 >= a, s0 <= b else { continue }
          if a == b {
            // A dash of no length: a tiny segment along the path where it falls.
            let t = m.parameter(atDistance: a - s0)
            let p = m.segment.point(at: t), d = m.segment.direction(at: t)
            let size = (d.x * d.x + d.y * d.y).squareRoot()
            guard size > 0, size.isFinite else { return }
            let step = Swift.max(1, abs(p.x), abs(p.y)) * 1e-9 / size
            out.move(to: p)
            out.addLine(to: p + d * step)
            return
          }
          guard s1 > a, s0 < b, m.length > 0 else { continue }
          let t0 = m.parameter(atDistance: a - s0), t1 = m.parameter(atDistance: b - s0)
          let piece = t0 <= 0 && t1 >= 1 ? m.segment : m.segment.slice(t0, t1)
          if first { out.move(to: piece.start) }
          first = false
          out.append(piece.element)
        }
      }
      // Where the pattern stands at the sub-path's start.
      var index = 0, remaining = cycle[0]
      var skip = phase.truncatingRemainder(dividingBy: total)
      if skip < 0 { skip += total }
      while skip > 0 {
        if skip >= remaining {
          skip -= remaining
          index = (index + 1) % cycle.count
          remaining = cycle[index]
        } else {
          remaining -= skip
          skip = 0
        }
      }
      var position = 0.0
      while position < length || (position == length && remaining == 0 && index % 2 == 0) {
        let end = Swift.min(length, position + remaining)
        if index % 2 == 0 {
          dashes += 1
          guard dashes <= maximumDashes else { return nil }
          emit(position, end)
        }
        if position + remaining > length { break }
        position = end
        index = (index + 1) % cycle.count
        remaining = cycle[index]
        if position >= length && remaining > 0 { break }
      }
      i = j
    }
    return out
  }

  /// The region a stroke of the path sweeps, as pieces to fill together with the non-zero
  /// rule (each piece turns the same way, so where they overlap they add up): the line of
  /// `2 × halfWidth` held square to the path at every point (a piece between each two points
  /// of the path taken within `tolerance`, split in two triangles where the lines square to
  /// the path at its ends cross), the joins between elements, and the caps of open sub-paths;
  /// `nil` when it would take more than `maximumPoints` points (made up to there only: a
  /// path of 40,000 tiny lines stroked 40,000 wide with round joins, each a disc of 1,000
  /// points, took 3.7 GB).
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
    maximumPoints: Int = 2_000_000
  ) -> Path? {
    guard h > 0, h.isFinite, tolerance > 0, tolerance.isFinite else { return nil }
    var out = Path()
    var pointsMade = 0
    // The largest turn of the line square to the path between two points, so that the
    // outline's sides stay within the tolerance of the true offset (h × angle² / 8).
    let maximumTurn = Swift.min(0.5, (8 * tolerance / h).squareRoot())
    let arcSteps = Swift.max(4, Swift.min(1_000, Int((2 * Double.pi / maximumTurn).rounded(.up))))

    func polygon(_ corners: [Point]) {
      guard corners.count >= 3, pointsMade <= maximumPoints else { return }
      let points = corners
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
      pointsMade += ordered.count
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
      guard pointsMade <= maximumPoints else { return }
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
        // Where the derivative vanishes (a control point on its end point, a cusp) the
        // direction is the derivative's just beside it, taken from the control points'
        // differences (points' differences lose it at coordinates of 1e6 and more).
        let p = point(t)
        if let tangent = tangent(t) ?? (t < 1 ? tangent(Swift.min(1, t + 1e-6)) : nil)
          ?? tangent(Swift.max(0, t - 1e-6))
        {
          if let l = last, l == p, let previous = run.last?.1, previous == tangent { continue }
          run.append((p, tangent))
          last = p
        }
      }
      if run.count >= 2 { runs.append(run) }
      pointsMade += run.count
    }
    for element in elements {
      if pointsMade > maximumPoints { return nil }
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
    return pointsMade > maximumPoints ? nil : out
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
