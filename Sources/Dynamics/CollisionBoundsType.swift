/// The shape an item collides as when dynamics moves it (`UIDynamicItemCollisionBoundsType`).
public enum CollisionBoundsType: String, Hashable, Sendable, CaseIterable {
  /// Its bounds rectangle (UIKit's default).
  case rectangle
  /// The ellipse inscribed in its bounds (a circle for square bounds).
  case ellipse
}
