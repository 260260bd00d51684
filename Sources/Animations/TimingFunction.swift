/// The pacing of an animation: a cubic Bézier curve from (0, 0) to (1, 1) that maps the fraction
/// of time elapsed to the fraction of the change shown (`CAMediaTimingFunction`).
///
/// Control points are stored as `Float`, as Core Animation stores them. The y of a control point
/// may leave 0...1 (overshoot); its x may not. `nil` where an animation takes a timing function
/// means linear pacing; `.default` is Core Animation's implicit-animation curve, which is *not*
/// `.easeInEaseOut`.
///
/// ```swift
/// group.timingFunction = .default
/// eyelids.timingFunction = try TimingFunction(controlPoints: 0.2, 0, 0.8, 1)
/// ```
public struct TimingFunction: Hashable, Sendable {
  /// The first control point's x, 0...1.
  public let c1x: Float
  /// The first control point's y.
  public let c1y: Float
  /// The second control point's x, 0...1.
  public let c2x: Float
  /// The second control point's y.
  public let c2y: Float

  /// Creates a timing function from its two control points (`init(controlPoints:_:_:_:)`).
  ///
  /// - Throws: `AnimationError.controlPointOutOfRange` when an x lies outside 0...1 (or is not
  ///   a number), `AnimationError.controlPointNotFinite` when a y is infinite or not a number.
  public init(
    controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float
  ) throws(AnimationError) {
    for x in [c1x, c2x] where !(x >= 0 && x <= 1) { throw .controlPointOutOfRange(x: Double(x)) }
    for y in [c1y, c2y] where !y.isFinite { throw .controlPointNotFinite(y: Double(y)) }
    self.init(unchecked: c1x, c1y, c2x, c2y)
  }

  private init(unchecked c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
    (self.c1x, self.c1y, self.c2x, self.c2y) = (c1x, c1y, c2x, c2y)
  }

  /// Constant pace: (0, 0), (1, 1).
  public static let linear = TimingFunction(unchecked: 0, 0, 1, 1)
  /// Slow start: (0.42, 0), (1, 1).
  public static let easeIn = TimingFunction(unchecked: 0.42, 0, 1, 1)
  /// Slow end: (0, 0), (0.58, 1).
  public static let easeOut = TimingFunction(unchecked: 0, 0, 0.58, 1)
  /// Slow start and end: (0.42, 0), (0.58, 1).
  public static let easeInEaseOut = TimingFunction(unchecked: 0.42, 0, 0.58, 1)
  /// Core Animation's default curve, used by implicit animations: (0.25, 0.1), (0.25, 1).
  public static let `default` = TimingFunction(unchecked: 0.25, 0.1, 0.25, 1)

  /// The output fraction for the input fraction `x`, solving the curve's x(s) = x to within
  /// 1e-12 (Newton's method from a table guess, bisection where Newton stalls or leaves the
  /// bracket). Inputs outside
  /// 0...1 are clamped: Core Animation never evaluates there.
  public func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    if c1x == c1y && c2x == c2y { return x }  // a straight line
    let curve = CubicBezier(self)
    return curve.y(curve.solve(x))
  }
}

/// A unit cubic Bézier in polynomial form, `a·s³ + b·s² + c·s` per axis (Horner evaluation).
struct CubicBezier {
  let ax: Double, bx: Double, cx: Double
  let ay: Double, by: Double, cy: Double

  init(_ f: TimingFunction) {
    cx = 3 * Double(f.c1x)
    bx = 3 * (Double(f.c2x) - Double(f.c1x)) - cx
    ax = 1 - cx - bx
    cy = 3 * Double(f.c1y)
    by = 3 * (Double(f.c2y) - Double(f.c1y)) - cy
    ay = 1 - cy - by
  }

  @inline(__always) func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
  @inline(__always) func y(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
  @inline(__always) func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

  /// The parameter s in 0...1 with x(s) = x, to within 1e-12 in x (well inside the 1e-7 the
  /// contract asks; Core Animation itself stops near 1e-5).
  func solve(_ x: Double) -> Double {
    let epsilon = 1e-12
    // x(s) is monotonic for control x in 0...1: bracket by an 11-entry table.
    var lo = 0.0, hi = 1.0
    var previous = 0.0
    for i in 1...10 {
      let s = Double(i) / 10
      let xs = self.x(s)
      if xs >= x {
        lo = Double(i - 1) / 10
        hi = s
        break
      }
      previous = xs
    }
    let xl = previous, xh = self.x(hi)
    var s = xh > xl ? lo + (hi - lo) * (x - xl) / (xh - xl) : lo
    for _ in 0..<12 {
      let err = self.x(s) - x
      if abs(err) < epsilon { return s }
      let d = dx(s)
      if abs(d) < 1e-7 { break }
      let next = s - err / d
      if next < lo || next > hi { break }
      s = next
    }
    // Bisection inside the bracket.
    var a = lo, b = hi
    s = (a + b) / 2
    for _ in 0..<64 {
      let xs = self.x(s)
      if abs(xs - x) < 1e-12 { break }
      if xs < x { a = s } else { b = s }
      s = (a + b) / 2
    }
    return s
  }
}
