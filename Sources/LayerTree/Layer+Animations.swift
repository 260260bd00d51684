import Animations

extension Layer {
  /// Attaches `animation` (a copy of it) under `key`, replacing an animation with the same key;
  /// it applies after the animations already attached. A `nil` key never replaces.
  ///
  /// A property animation must name a key path Flipbook animates (`LayerKeyPath`); one that
  /// names a shape-layer property on a plain layer has no effect, as in Core Animation.
  public func add(_ animation: any Animation, forKey key: String?) {
    Layer.checkKeyPaths(animation)
    if let key { animationEntries.removeAll { $0.key == key } }
    animationEntries.append(AnimationEntry(key: key, animation: animation, prepared: PreparedAnimation(animation, target: { LayerKeyPath($0)?.target })))
  }

  /// Detaches the animation attached under `key`, if any.
  public func removeAnimation(forKey key: String) {
    animationEntries.removeAll { $0.key == key }
  }

  /// Detaches every animation.
  public func removeAllAnimations() {
    animationEntries.removeAll()
  }

  /// The animation attached under `key`.
  public func animation(forKey key: String) -> (any Animation)? {
    animationEntries.first { $0.key == key }?.animation
  }

  /// The keys of the attached animations, in the order they were added.
  public var animationKeys: [String] { animationEntries.compactMap(\.key) }

  /// The attached animations with their keys, in the order they were added (the order they
  /// apply in).
  public var animations: [(key: String?, animation: any Animation)] {
    animationEntries.map { ($0.key, $0.animation) }
  }

  private static func checkKeyPaths(_ animation: any Animation) {
    if let group = animation as? AnimationGroup {
      group.animations.forEach(checkKeyPaths)
    } else if let property = animation as? any PropertyAnimation {
      precondition(
        LayerKeyPath(property.keyPath) != nil,
        "Flipbook does not animate the key path \"\(property.keyPath)\"; animatable key paths: \(LayerKeyPath.allNames.joined(separator: ", "))")
    }
  }
}
