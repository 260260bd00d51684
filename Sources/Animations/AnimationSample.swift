/// One property animation's contribution at one instant: which animation, and where in its
/// timing it is. Produced by `samples(of:at:)`, applied in order by the layer tree.
public struct AnimationSample: Sendable {
  /// The animation contributing.
  public let animation: any PropertyAnimation
  /// The parsed key path of `animation`.
  public let keyPath: AnimatableKeyPath
  /// Where the animation is.
  public let state: MediaTiming.State

  /// The value the property shows, given the layer's model value for the key path and the value
  /// produced so far by earlier animations on it (`underlying`, the model value if none).
  public func value(model: AnimationValue, underlying: AnimationValue) -> AnimationValue {
    var v: AnimationValue
    switch animation {
    case let basic as BasicAnimation:
      let (from, to) = basic.endpoints(model: model)
      let f = state.fraction
      v = AnimationValue.interpolate(from, to, basic.timingFunction?.value(at: f) ?? f)
      if basic.isCumulative && state.cycle != 0 { v = v.advanced(by: to.subtracting(from), times: Double(state.cycle)) }
    case let spring as SpringAnimation:
      let (from, to) = spring.endpoints(model: model)
      v = AnimationValue.interpolate(from, to, 1 - spring.spring.displacement(at: state.basicTime))
      if spring.isCumulative && state.cycle != 0 { v = v.advanced(by: to.subtracting(from), times: Double(state.cycle)) }
    case let keyframe as KeyframeAnimation:
      v = keyframe.value(atFraction: state.fraction, model: model)
      if keyframe.isCumulative && state.cycle != 0, let first = keyframe.effectiveValues.first, let last = keyframe.effectiveValues.last {
        v = v.advanced(by: last.subtracting(first), times: Double(state.cycle))
      }
    default:
      return underlying
    }
    return animation.isAdditive ? v.adding(underlying) : v
  }

  /// For a keyframe animation along a path with a rotation mode: the angle, in radians, to turn
  /// the layer by; otherwise `nil`.
  public var pathRotation: Double? {
    guard let keyframe = animation as? KeyframeAnimation, keyframe.rotationMode != nil, keyframe.path != nil else { return nil }
    return keyframe.pathRotation(atFraction: state.fraction)
  }
}

/// The samples of `animation` and, for a group, of its descendants, at `parentTime` (the owning
/// layer's local time), in the order they apply: children in the order they were added.
///
/// - Parameters:
///   - fallbackDuration: the duration an animation left at 0 takes: 0.25 s at the top level,
///     the group's duration inside a group.
///   - inGroup: whether `animation` is a group's child (it then ignores `isRemovedOnCompletion`).
public func samples(
  of animation: any Animation, at parentTime: Double, fallbackDuration: Double = 0.25, inGroup: Bool = false,
  into out: inout [AnimationSample]
) {
  let timing = animation.timing
  let d: Double
  if let spring = animation as? SpringAnimation, timing.duration == 0 {
    d = spring.settlingDuration
  } else {
    d = timing.simpleDuration(fallback: fallbackDuration)
  }
  guard let state = timing.evaluate(parentTime: parentTime, simpleDuration: d, removedOnCompletion: inGroup ? false : timing.isRemovedOnCompletion)
  else { return }
  if let group = animation as? AnimationGroup {
    let f = state.fraction
    let warped = d * (group.timingFunction?.value(at: f) ?? f)
    for child in group.animations {
      samples(of: child, at: warped, fallbackDuration: d, inGroup: true, into: &out)
    }
  } else if let property = animation as? any PropertyAnimation, let keyPath = AnimatableKeyPath(property.keyPath) {
    out.append(AnimationSample(animation: property, keyPath: keyPath, state: state))
  }
}
