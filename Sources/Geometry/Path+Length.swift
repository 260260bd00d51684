extension Path {
  /// One drawn piece of a path, with its start point made explicit.
  public enum Segment: Sendable {
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(Point, Point, Point, Point)

    /// Where the segment begins.
    public var start: Point {
      switch self {
      case .line(let p, _), .quad(let p, _, _), .cubic(let p, _, _, _): return p
      }
    }

    /// Where the segment ends.
    public var end: Point {
      switch self {
      case .line(_, let p), .quad(_, _, let p), .cubic(_, _, _, let p): return p
      }
    }

    /// The point at parameter `t` (0...1).
    public func point(at t: Double) -> Point {
      let u = 1 - t
      switch self {
      case .line(let a, let b): return a * u + b * t
      case .quad(let a, let c, let b): return a * (u * u) + c * (2 * u * t) + b * (t * t)
      case .cubic(let a, let c1, let c2, let b):
        return a * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + b * (t * t * t)
      }
    }

    /// The direction of travel at parameter `t` (not normalized); for a degenerate curve the
    /// direction from start to end.
    public func direction(at t: Double) -> Point {
      let u = 1 - t
      var d: Point
      switch self {
      case .line(let a, let b): d = b - a
      case .quad(let a, let c, let b): d = (c - a) * (2 * u) + (b - c) * (2 * t)
      case .cubic(let a, let c1, let c2, let b):
        d = (c1 - a) * (3 * u * u) + (c2 - c1) * (6 * u * t) + (b - c2) * (3 * t * t)
      }
      if d.x == 0 && d.y == 0 { d = end - start }
      return d
    }

    /// The part of the segment between parameters `t0 < t1` (de Casteljau).
    func slice(_ t0: Double, _ t1: Double) -> Segment {
      switch self {
      case .line: return .line(point(at: t0), point(at: t1))
      case .quad(let a, let c, let b):
        let lerp = { (p: Point, q: Point, t: Double) in p * (1 - t) + q * t }
        func left(_ a: Point, _ c: Point, _ b: Point, _ t: Double) -> (Point, Point, Point) {
          let ac = lerp(a, c, t), cb = lerp(c, b, t)
          return (a, ac, lerp(ac, cb, t))
        }
        let (a1, c1, b1) = left(a, c, b, t1)
        guard t1 > 0 else { return .quad(a1, a1, a1) }
        // Reverse, cut the head off at t0/t1 of the left piece.
        let (b2, c2, a2) = left(b1, c1, a1, 1 - t0 / t1)
        return .quad(a2, c2, b2)
      case .cubic(let a, let c1, let c2, let b):
        let lerp = { (p: Point, q: Point, t: Double) in p * (1 - t) + q * t }
        func left(
          _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double
        ) -> (Point, Point, Point, Point) {
          let q0 = lerp(p0, p1, t), q1 = lerp(p1, p2, t), q2 = lerp(p2, p3, t)
          let r0 = lerp(q0, q1, t), r1 = lerp(q1, q2, t)
          return (p0, q0, r0, lerp(r0, r1, t))
        }
        let (a1, d1, e1, b1) = left(a, c1, c2, b, t1)
        guard t1 > 0 else { return .cubic(a1, a1, a1, a1) }
        let (b2, e2, d2, a2) = left(b1, e1, d1, a1, 1 - t0 / t1)
        return .cubic(a2, d2, e2, b2)
      }
    }

    var element: Element {
      switch self {
      case .line(_, let b): return .line(to: b)
      case .quad(_, let c, let b): return .quadCurve(to: b, control: c)
      case .cubic(_, let c1, let c2, let b): return .curve(to: b, control1: c1, control2: c2)
      }
    }

    /// Cumulative arc length at `samples` evenly spaced parameters (first entry 0).
    func lengthTable(samples: Int) -> [Double] {
      if case .line(let a, let b) = self { return [0, a.distance(to: b)] }
      var table = [0.0]
      table.reserveCapacity(samples + 1)
      var previous = start
      var sum = 0.0
      for i in 1...samples {
        let p = point(at: Double(i) / Double(samples))
        sum += previous.distance(to: p)
        table.append(sum)
        previous = p
      }
      return table
    }
  }

  /// A segment with where it sits in the path and its arc-length table.
  public struct MeasuredSegment: Sendable {
    /// The segment.
    public var segment: Segment
    /// Which subpath (0-based) it belongs to.
    public var subpath: Int
    /// Whether it is the line a close element draws.
    public var closes: Bool
    var table: [Double]
    /// Its arc length, in points.
    public var length: Double { table.last ?? 0 }

    /// The parameter at which the arc length from the start is `distance`.
    public func parameter(atDistance distance: Double) -> Double {
      let n = table.count - 1
      guard length > 0 else { return 0 }
      if distance <= 0 { return 0 }
      if distance >= length { return 1 }
      var lo = 0, hi = n
      while hi - lo > 1 {
        let mid = (lo + hi) / 2
        if table[mid] <= distance { lo = mid } else { hi = mid }
      }
      let span = table[hi] - table[lo]
      let f = span > 0 ? (distance - table[lo]) / span : 0
      return (Double(lo) + f) / Double(n)
    }
  }

  /// The drawn segments of the path in order, measured; a close contributes the line back to its
  /// start.
  public func measuredSegments(samples: Int = 48) -> [MeasuredSegment] {
    var out: [MeasuredSegment] = []
    var current = Point.zero, start = Point.zero
    var subpath = -1
    for e in elements {
      let seg: Segment?
      var closes = false
      switch e {
      case .move(let p):
        current = p
        start = p
        subpath += 1
        seg = nil
      case .line(let p): seg = .line(current, p)
      case .quadCurve(let p, let c): seg = .quad(current, c, p)
      case .curve(let p, let c1, let c2): seg = .cubic(current, c1, c2, p)
      case .closeSubpath:
        seg = .line(current, start)
        closes = true
      }
      if let seg {
        out.append(
          MeasuredSegment(
            segment: seg, subpath: subpath, closes: closes, table: seg.lengthTable(samples: samples)
          ))
        current = seg.end
      }
    }
    return out
  }

  /// The total arc length of the path in points, closing lines included.
  public var length: Double {
    measuredSegments().reduce(0) { $0 + $1.length }
  }

  /// The part of the path between the fractions `start` and `end` of its total arc length, as
  /// `CAShapeLayer.strokeStart`/`strokeEnd` select it; the whole path when the range is 0...1,
  /// empty when `end <= start`. A subpath kept whole stays closed.
  public func trimmed(from start: Double, to end: Double) -> Path {
    let s0 = Swift.max(0, start), s1 = Swift.min(1, end)
    if s0 <= 0 && s1 >= 1 { return self }
    if s1 <= s0 { return Path() }
    let segments = measuredSegments()
    let total = segments.reduce(0) { $0 + $1.length }
    guard total > 0 else { return Path() }
    let a = s0 * total, b = s1 * total
    var out = Path()
    var offset = 0.0
    var lastSubpath = -1
    var subpathBeganAtStart = false
    var contiguous = false
    for (i, m) in segments.enumerated() {
      defer { offset += m.length }
      let segStart = offset, segEnd = offset + m.length
      if segStart >= b { break }
      guard segEnd > a else { continue }
      let t0 = m.parameter(atDistance: a - segStart)
      let t1 = m.parameter(atDistance: b - segStart)
      let piece = (t0 <= 0 && t1 >= 1) ? m.segment : m.segment.slice(t0, t1)
      if m.subpath != lastSubpath || !contiguous {
        out.move(to: piece.start)
        lastSubpath = m.subpath
        let isFirstOfSubpath = i == 0 || segments[i - 1].subpath != m.subpath
        subpathBeganAtStart = isFirstOfSubpath && t0 <= 0
      }
      if m.closes && t1 >= 1 && subpathBeganAtStart {
        out.closeSubpath()
      } else {
        out.append(piece.element)
      }
      contiguous = t1 >= 1
    }
    return out
  }
}
