/// A width and a height, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal extent, in points.
  public var width: Double
  /// The vertical extent, in points.
  public var height: Double

  /// Creates a size from its extents.
  @inlinable public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// Creates a size from its extents, without labels: `Size(320, 240)`.
  @inlinable public init(_ width: Double, _ height: Double) {
    self.init(width: width, height: height)
  }

  /// The size with both extents 0.
  public static let zero = Size(width: 0, height: 0)

  /// `width x height`, for messages.
  public var description: String { "\(width) x \(height)" }
}
