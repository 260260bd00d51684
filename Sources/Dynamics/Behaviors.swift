import Geometry

/// A behavior that holds others, added to the animator together (UIKit's `UIDynamicBehavior`
/// used as a composite). The specific behaviors below are its kinds.
public class DynamicBehavior {
  /// The behaviors this one holds, in the order they were added.
  public private(set) var childBehaviors: [DynamicBehavior] = []

  /// Creates an empty composite behavior.
  public init() {}

  /// Adds `behavior` as a child: it acts while this behavior is in an animator.
  public func addChildBehavior(_ behavior: DynamicBehavior) {
    precondition(behavior !== self, "A behavior cannot be its own child")
    childBehaviors.append(behavior)
  }

  /// Removes `behavior` from the children.
  public func removeChildBehavior(_ behavior: DynamicBehavior) {
    childBehaviors.removeAll { $0 === behavior }
  }

  /// This behavior and all its descendants, depth first.
  var flattened: [DynamicBehavior] { [self] + childBehaviors.flatMap(\.flattened) }
}

/// Constant acceleration of its items (`UIGravityBehavior`): magnitude 1.0 is 1,000 points per
/// second squared; the default direction is down.
public final class GravityBehavior: DynamicBehavior {
  /// The items pulled.
  public let items: [DynamicItem]
  /// The strength: 1.0 accelerates items by 1,000 points/s² (default 1).
  public var magnitude: Double = 1
  /// The direction, in radians: 0 points to +x, π/2 (the default) down.
  public var angle: Double = Double.pi / 2

  /// Creates gravity for `items`.
  public init(items: [DynamicItem]) {
    self.items = items
  }

  /// The acceleration as a vector whose length is the magnitude (`gravityDirection`); setting it
  /// sets `angle` and `magnitude` (a zero vector gives magnitude 0 and angle 0, as UIKit does).
  public var gravityDirection: Point {
    get { Point(magnitude: magnitude, angle: angle) }
    set { (magnitude, angle) = newValue.polar }
  }

  /// Sets the direction and magnitude at once.
  public func setAngle(_ angle: Double, magnitude: Double) {
    self.angle = angle
    self.magnitude = magnitude
  }
}

/// A link between an item and an anchor point or another item (`UIAttachmentBehavior`): a
/// rigid rod when `frequency` is 0 (the default), a spring otherwise.
public final class AttachmentBehavior: DynamicBehavior {
  /// The item attached.
  public let item: DynamicItem
  /// Where on the item, from its center, in the item's own (rotating) coordinates.
  public let offset: Point
  /// The other item, for an item-to-item attachment.
  public let otherItem: DynamicItem?
  /// Where on the other item, from its center.
  public let otherOffset: Point
  /// The fixed point in reference coordinates, for an item-to-anchor attachment.
  public var anchorPoint: Point
  /// The distance kept between the two attachment points, in points; `nil` (the default) keeps
  /// the distance they have when the simulation starts.
  public var length: Double?
  /// Oscillations per second of the spring; 0 (the default) is a rigid rod.
  public var frequency: Double = 0
  /// The spring's damping ratio: 0 none, 1 critical (default 0).
  public var damping: Double = 0

  /// Attaches `item` (at `offset` from its center) to a fixed `anchor` point.
  public init(
    item: DynamicItem, offsetFromCenter offset: Point = .zero, attachedToAnchor anchor: Point
  ) {
    self.item = item
    self.offset = offset
    otherItem = nil
    otherOffset = .zero
    anchorPoint = anchor
  }

  /// Attaches `item` to `other`, each at an offset from its center.
  public init(
    item: DynamicItem, offsetFromCenter offset: Point = .zero, attachedTo other: DynamicItem,
    offsetFromCenter otherOffset: Point = .zero
  ) {
    self.item = item
    self.offset = offset
    otherItem = other
    self.otherOffset = otherOffset
    anchorPoint = .zero
  }
}

/// Makes its items collide with each other and with boundaries (`UICollisionBehavior`).
public final class CollisionBehavior: DynamicBehavior {
  /// What collides (`UICollisionBehavior.Mode`).
  public enum Mode: String, Hashable, Sendable, CaseIterable {
    /// Items with each other only.
    case items
    /// Items with boundaries only.
    case boundaries
    /// Both (the default).
    case everything
  }

  /// A boundary: a segment, named or not.
  public struct Boundary: Hashable, Sendable {
    /// The name it was added under (`nil` for the reference bounds).
    public var identifier: String?
    /// One end, in reference coordinates.
    public var from: Point
    /// The other end.
    public var to: Point
  }

  /// The items that collide.
  public let items: [DynamicItem]
  /// What collides (default `.everything`).
  public var collisionMode: Mode = .everything
  /// Whether the animator's reference bounds are a boundary (default false).
  public var translatesReferenceBoundsIntoBoundary = false
  /// The boundaries added, as segments (a path boundary is its closed outline).
  public private(set) var boundaries: [Boundary] = []

  /// Creates a collision behavior for `items`.
  public init(items: [DynamicItem]) {
    self.items = items
  }

  /// Adds a segment boundary.
  public func addBoundary(withIdentifier identifier: String?, from: Point, to: Point) {
    boundaries.append(Boundary(identifier: identifier, from: from, to: to))
  }

  /// Adds a path boundary: the outline of each subpath, closed, curves flattened.
  public func addBoundary(withIdentifier identifier: String?, for path: Path) {
    for segment in path.measuredSegments() {
      let s = segment.segment
      let n = 16
      var previous = s.start
      for k in 1...n {
        let p = s.point(at: Double(k) / Double(n))
        if case .line = s, k < n { continue }
        boundaries.append(Boundary(identifier: identifier, from: previous, to: p))
        previous = p
      }
    }
  }

  /// Removes the boundaries added under `identifier`.
  public func removeBoundary(withIdentifier identifier: String) {
    boundaries.removeAll { $0.identifier == identifier }
  }
}

/// Material and motion settings of items (`UIDynamicItemBehavior`). Where several item
/// behaviors set the same property of an item, the one added last wins.
public final class DynamicItemBehavior: DynamicBehavior {
  /// The items configured.
  public let items: [DynamicItem]
  /// Bounciness: 0 none (default) ... 1 fully elastic.
  public var elasticity: Double?
  /// Friction when sliding: 0 none (default), 1 strong.
  public var friction: Double?
  /// Relative mass per area (default 1): mass = density × collision area / 10,000.
  public var density: Double?
  /// Linear velocity damping per second: v decays as e^(-resistance·t) (default 0).
  public var resistance: Double?
  /// Angular velocity damping per second (default 0).
  public var angularResistance: Double?
  /// Whether the items may turn (default true).
  public var allowsRotation: Bool?
  /// Whether the items stay put and act as obstacles (default false).
  public var isAnchored: Bool?
  private(set) var addedLinearVelocity: [(DynamicItem, Point)] = []
  private(set) var addedAngularVelocity: [(DynamicItem, Double)] = []

  /// Creates settings for `items`; properties left unset keep their defaults.
  public init(items: [DynamicItem]) {
    self.items = items
  }

  /// Adds `velocity` (points per second) to `item` when the simulation starts.
  public func addLinearVelocity(_ velocity: Point, for item: DynamicItem) {
    addedLinearVelocity.append((item, velocity))
  }

  /// Adds `velocity` (radians per second) to `item` when the simulation starts.
  public func addAngularVelocity(_ velocity: Double, for item: DynamicItem) {
    addedAngularVelocity.append((item, velocity))
  }
}

/// A force or an impulse on items (`UIPushBehavior`): magnitude 1.0 accelerates a 100 x 100
/// item of density 1 by 100 points/s² (continuous), or changes its velocity by 100 points/s
/// (instantaneous).
public final class PushBehavior: DynamicBehavior {
  /// Whether the push lasts or acts once.
  public enum Mode: String, Hashable, Sendable, CaseIterable {
    /// A force from `beginTime` until `endTime`.
    case continuous
    /// One impulse at `beginTime`.
    case instantaneous
  }

  /// The items pushed.
  public let items: [DynamicItem]
  /// Continuous or instantaneous (fixed at creation).
  public let mode: Mode
  /// The strength (default 0).
  public var magnitude: Double = 0
  /// The direction, in radians (default 0: +x).
  public var angle: Double = 0
  /// When the push starts (an instantaneous push acts then), in seconds of scene time (default 0).
  public var beginTime: Double = 0
  /// When a continuous push stops (default: never).
  public var endTime: Double = .infinity
  /// Where on each item the force acts, from its center (default the center: no torque).
  public var targetOffsetFromCenter: Point = .zero

  /// Creates a push on `items`.
  public init(items: [DynamicItem], mode: Mode) {
    self.items = items
    self.mode = mode
  }

  /// The push as a vector whose length is the magnitude; setting it sets `angle` and `magnitude`.
  public var pushDirection: Point {
    get { Point(magnitude: magnitude, angle: angle) }
    set { (magnitude, angle) = newValue.polar }
  }

  /// Sets the direction and magnitude at once.
  public func setAngle(_ angle: Double, magnitude: Double) {
    self.angle = angle
    self.magnitude = magnitude
  }
}

/// Pulls an item to a point, settling there with a damped oscillation (`UISnapBehavior`).
public final class SnapBehavior: DynamicBehavior {
  /// The item snapped.
  public let item: DynamicItem
  /// Where it settles, in reference coordinates.
  public var snapPoint: Point
  /// 0 the most oscillation ... 1 the least (default 0.5).
  public var damping: Double = 0.5

  /// Creates a snap of `item` to `point`.
  public init(item: DynamicItem, snapTo point: Point) {
    self.item = item
    snapPoint = point
  }
}
