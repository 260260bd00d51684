import Geometry

/// Something the dynamic animator moves (UIKit's `UIDynamicItem`): it gives its starting center,
/// bounds and collision shape; the animator then reports where the simulation has taken it.
///
/// In a scene, layers are the items (`Scenes` makes `Layer` conform).
public protocol DynamicItem: AnyObject {
  /// The center of the item's bounds, in the animator's reference coordinates (points).
  var dynamicCenter: Point { get }
  /// The item's size, in points (the origin is ignored).
  var dynamicBounds: Rect { get }
  /// The shape it collides as (default `.rectangle`, as UIKit's views).
  var collisionBoundsType: CollisionBoundsType { get }
}

/// Where the simulation has an item at a time.
public struct DynamicItemState: Hashable, Sendable {
  /// The item's center, in points.
  public var center: Point
  /// Its rotation since the start, in radians (clockwise on screen for positive).
  public var angle: Double
  /// Its velocity, in points per second.
  public var velocity: Point
  /// Its angular velocity, in radians per second.
  public var angularVelocity: Double
}
