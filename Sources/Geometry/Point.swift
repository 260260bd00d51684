/// A location in a two-dimensional coordinate space, in points, with y pointing down (as UIKit).
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal coordinate, in points.
  public var x: Double
  /// The vertical coordinate, in points; larger values are lower on screen.
  public var y: Double

  /// Creates a point from its coordinates.
  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// Creates a point from its coordinates, without labels: `Point(3, 4)`.
  @inlinable public init(_ x: Double, _ y: Double) {
    self.init(x: x, y: y)
  }

  /// The origin, (0, 0).
  public static let zero = Point(x: 0, y: 0)

  /// The point with both coordinates mapped by `transform`.
  @inlinable public func applying(_ transform: AffineTransform) -> Point {
    Point(
      x: transform.a * x + transform.c * y + transform.tx,
      y: transform.b * x + transform.d * y + transform.ty)
  }

  /// The Euclidean distance to `other`, in points.
  @inlinable public func distance(to other: Point) -> Double {
    ((other.x - x) * (other.x - x) + (other.y - y) * (other.y - y)).squareRoot()
  }

  @inlinable public static func + (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
  }
  @inlinable public static func - (lhs: Point, rhs: Point) -> Point {
    Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
  }
  @inlinable public static func * (lhs: Point, rhs: Double) -> Point {
    Point(x: lhs.x * rhs, y: lhs.y * rhs)
  }
  @inlinable public static func * (lhs: Double, rhs: Point) -> Point {
    Point(x: lhs * rhs.x, y: lhs * rhs.y)
  }

  /// `(x, y)`, for messages.
  public var description: String { "(\(x), \(y))" }
}
