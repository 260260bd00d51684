/// An axis-aligned rectangle: an origin (its minimum corner) and a size, in points.
///
/// As in Core Graphics, a negative width or height describes the same rectangle as its
/// standardized form; `minX`, `maxX`, `minY` and `maxY` account for it.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The corner with the smallest coordinates when the size is positive.
  public var origin: Point
  /// The extents.
  public var size: Size

  /// Creates a rectangle from an origin and a size.
  @inlinable public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its origin coordinates and extents.
  @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// Creates a rectangle from `[x, y, width, height]` without labels.
  @inlinable public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
    self.init(x: x, y: y, width: width, height: height)
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  /// The origin's x.
  @inlinable public var x: Double { origin.x }
  /// The origin's y.
  @inlinable public var y: Double { origin.y }
  /// The width (may be negative; see `standardized`).
  @inlinable public var width: Double { size.width }
  /// The height (may be negative; see `standardized`).
  @inlinable public var height: Double { size.height }
  /// The smallest x of the rectangle.
  @inlinable public var minX: Double { min(origin.x, origin.x + size.width) }
  /// The largest x of the rectangle.
  @inlinable public var maxX: Double { max(origin.x, origin.x + size.width) }
  /// The smallest y of the rectangle (its top edge on screen).
  @inlinable public var minY: Double { min(origin.y, origin.y + size.height) }
  /// The largest y of the rectangle (its bottom edge on screen).
  @inlinable public var maxY: Double { max(origin.y, origin.y + size.height) }
  /// The x halfway between `minX` and `maxX`.
  @inlinable public var midX: Double { (minX + maxX) / 2 }
  /// The y halfway between `minY` and `maxY`.
  @inlinable public var midY: Double { (minY + maxY) / 2 }
  /// The center point.
  @inlinable public var center: Point { Point(x: midX, y: midY) }

  /// The same rectangle with a non-negative width and height.
  @inlinable public var standardized: Rect {
    Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// Whether the rectangle encloses no area.
  @inlinable public var isEmpty: Bool { size.width == 0 || size.height == 0 }

  /// The rectangle moved inward by `dx` on the left and right and `dy` on the top and bottom
  /// (outward for negative values); empty at the center when the insets exceed the size.
  public func insetBy(dx: Double, dy: Double) -> Rect {
    let r = standardized
    let w = max(0, r.width - 2 * dx)
    let h = max(0, r.height - 2 * dy)
    return Rect(x: r.midX - w / 2, y: r.midY - h / 2, width: w, height: h)
  }

  /// Whether the two rectangles share interior area, as `CGRectIntersectsRect`.
  public func intersects(_ other: Rect) -> Bool {
    let a = standardized, b = other.standardized
    if a.isEmpty || b.isEmpty { return false }
    return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
  }

  /// Whether `point` lies inside the rectangle (the maximum edges excluded).
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// The smallest axis-aligned rectangle holding the rectangle's four corners mapped by
  /// `transform`, as `CGRectApplyAffineTransform`.
  public func applying(_ transform: AffineTransform) -> Rect {
    let corners = [
      Point(x: minX, y: minY), Point(x: maxX, y: minY),
      Point(x: maxX, y: maxY), Point(x: minX, y: maxY),
    ].map { $0.applying(transform) }
    let xs = corners.map(\.x), ys = corners.map(\.y)
    let x0 = xs.min() ?? 0, y0 = ys.min() ?? 0
    return Rect(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
  }

  /// `[x, y, width, height]`, for messages.
  public var description: String { "[\(x), \(y), \(width), \(height)]" }
}
