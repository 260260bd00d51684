import Animations
import Synchronization

extension Layer {
  /// Attaches `animation` (a copy of it) under `key`, replacing an animation with the same key;
  /// it applies after the animations already attached. A `nil` key never replaces.
  ///
  /// A property animation must name a key path Flipbook animates (`LayerKeyPath`) and carry
  /// values of the kind it takes; one that names a shape-layer property on a plain layer has no
  /// effect, as in Core Animation. Like Core Animation's, this method does not throw: an
  /// animation that fails `LayerKeyPath.check(_:key:)` is not attached, and its error is kept in
  /// `animationErrors`, which makes every frame of a scene holding the layer fail to render
  /// (`SceneError.invalidAnimation`), so a golden test reports it as that test's failure.
  /// `addChecked(_:forKey:)` throws the error at the call instead.
  public func add(_ animation: any Animation, forKey key: String?) {
    do {
      try addChecked(animation, forKey: key)
    } catch {
      animationErrors.append(error)
      Layer.refusedAnimations.add(1, ordering: .releasing)
    }
  }

  /// How many animations `add(_:forKey:)` has refused in this process, on any layer: while
  /// none, no tree holds an error, and `firstAnimationErrorInTree` (asked every frame) need not
  /// visit the tree.
  static let refusedAnimations = Atomic<Int>(0)

  /// Attaches `animation` under `key` as `add(_:forKey:)` does, or throws why it cannot: an
  /// unknown key path (with the nearest valid one) or a value of the wrong kind.
  public func addChecked(
    _ animation: any Animation, forKey key: String?
  ) throws(AnimationKeyPathError) {
    try LayerKeyPath.check(animation, key: key)
    if let key { animationEntries.removeAll { $0.key == key } }
    let prepared = PreparedAnimation(animation, target: { LayerKeyPath($0)?.target })
    animationEntries.append(AnimationEntry(key: key, animation: animation, prepared: prepared))
  }

  /// The first animation error of this layer or any layer below it (depth first), if any.
  public var firstAnimationErrorInTree: AnimationKeyPathError? {
    guard Layer.refusedAnimations.load(ordering: .acquiring) > 0 else { return nil }
    return firstAnimationErrorBelow
  }

  private var firstAnimationErrorBelow: AnimationKeyPathError? {
    if let first = animationErrors.first { return first }
    for sublayer in sublayers {
      if let error = sublayer.firstAnimationErrorBelow { return error }
    }
    return nil
  }

  /// Detaches the animation attached under `key`, if any (and forgets one refused under it).
  public func removeAnimation(forKey key: String) {
    animationEntries.removeAll { $0.key == key }
    animationErrors.removeAll { $0.animationKey == key }
  }

  /// Detaches every animation (and forgets the refused ones).
  public func removeAllAnimations() {
    animationEntries.removeAll()
    animationErrors.removeAll()
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
}
