import Animations

extension Layer {
  /// Attaches `animation` (a copy of it) under `key`, replacing an animation with the same key;
  /// it applies after the animations already attached. A `nil` key never replaces.
  ///
  /// A property animation must name a key path Flipbook animates (`AnimatableKeyPath`); one that
  /// names a shape-layer property on a plain layer has no effect, as in Core Animation.
  public func add(_ animation: any Animation, forKey key: String?) {
    Layer.checkKeyPaths(animation)
    if let key { animations.removeAll { $0.key == key } }
    animations.append((key, animation))
  }

  /// Detaches the animation attached under `key`, if any.
  public func removeAnimation(forKey key: String) {
    animations.removeAll { $0.key == key }
  }

  /// Detaches every animation.
  public func removeAllAnimations() {
    animations.removeAll()
  }

  /// The animation attached under `key`.
  public func animation(forKey key: String) -> (any Animation)? {
    animations.first { $0.key == key }?.animation
  }

  /// The keys of the attached animations, in the order they were added.
  public var animationKeys: [String] { animations.compactMap(\.key) }

  private static func checkKeyPaths(_ animation: any Animation) {
    if let group = animation as? AnimationGroup {
      group.animations.forEach(checkKeyPaths)
    } else if let property = animation as? any PropertyAnimation {
      precondition(
        AnimatableKeyPath(property.keyPath) != nil,
        "Flipbook does not animate the key path \"\(property.keyPath)\"; animatable key paths: \(AnimatableKeyPath.allNames.joined(separator: ", "))")
    }
  }
}
