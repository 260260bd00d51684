import Geometry
import Glibc

// 2D vector helpers on `Point`, for the solver only.
extension Point {
  @inline(__always) func dot(_ o: Point) -> Double { x * o.x + y * o.y }
  /// The z of the 3D cross product.
  @inline(__always) func cross(_ o: Point) -> Double { x * o.y - y * o.x }
  @inline(__always) var lengthSquared: Double { x * x + y * y }
  @inline(__always) var length: Double { lengthSquared.squareRoot() }
  /// The vector turned a quarter turn (x, y) -> (-y, x).
  @inline(__always) var perpendicular: Point { Point(x: -y, y: x) }
  @inline(__always) var normalized: Point {
    let l = length
    return l > 0 ? Point(x: x / l, y: y / l) : Point(x: 1, y: 0)
  }
  /// The vector of length `magnitude` at `angle` radians (0 along +x, π/2 along +y).
  init(magnitude: Double, angle: Double) {
    self.init(x: magnitude * cos(angle), y: magnitude * sin(angle))
  }
  /// The vector's length and angle, as UIKit's direction setters take them apart: a zero
  /// vector is magnitude 0 at angle 0.
  var polar: (magnitude: Double, angle: Double) {
    let m = length.isFinite ? length : hypot(x, y)  // components past 1e154 square to infinity
    return (m, m > 0 ? atan2(y, x) : 0)
  }
  @inline(__always) func rotated(cos c: Double, sin s: Double) -> Point {
    Point(x: c * x - s * y, y: s * x + c * y)
  }
  @inline(__always) static prefix func - (p: Point) -> Point { Point(x: -p.x, y: -p.y) }
  @inline(__always) static func / (p: Point, d: Double) -> Point { Point(x: p.x / d, y: p.y / d) }
}

/// ω × r for a scalar angular velocity.
@inline(__always) func cross(_ w: Double, _ r: Point) -> Point { Point(x: -w * r.y, y: w * r.x) }
