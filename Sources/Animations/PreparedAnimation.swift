/// An animation made ready for evaluation at many instants: key paths parsed, keyframe tables
/// built, a spring's settling duration found, group children prepared. Immutable, so one can be
/// shared by any number of renders at once.
///
/// A layer prepares each animation when it is added; evaluating then costs no parsing, no
/// dynamic casts and no copies of the animation's values. `Animations` knows no property names:
/// whoever prepares an animation resolves each key path to an integer `target` of its own
/// (`LayerTree` uses its property table), and samples carry that target back.
package final class PreparedAnimation: Sendable {
  let timing: MediaTiming
  let timingFunction: TimingFunction?
  /// The simple duration when the animation decides it itself (a spring left at 0).
  let ownDuration: Double?
  let node: Node

  enum Node: Sendable {
    case group([PreparedAnimation])
    case property(PropertyEvaluator)
    /// A property animation whose key path Flipbook does not animate: contributes nothing.
    case inert
  }

  /// Prepares `animation` (and, for a group, its children).
  ///
  /// - Parameter target: resolves a property animation's key path to the target its samples
  ///   carry; `nil` makes the animation inert (it contributes nothing).
  package init(_ animation: any Animation, target: (String) -> Int?) {
    timing = animation.timing
    timingFunction = animation.timingFunction
    switch animation {
    case let group as AnimationGroup:
      ownDuration = nil
      node = .group(group.animations.map { PreparedAnimation($0, target: target) })
    case let spring as SpringAnimation:
      ownDuration = spring.duration == 0 ? spring.settlingDuration : nil
      node =
        target(spring.keyPath).map { .property(PropertyEvaluator(spring, target: $0)) } ?? .inert
    case let basic as BasicAnimation:
      ownDuration = nil
      node = target(basic.keyPath).map { .property(PropertyEvaluator(basic, target: $0)) } ?? .inert
    case let keyframe as KeyframeAnimation:
      ownDuration = nil
      node =
        target(keyframe.keyPath).map { .property(PropertyEvaluator(keyframe, target: $0)) }
        ?? .inert
    default:
      ownDuration = nil
      node = .inert
    }
  }

  /// Appends the samples of this animation (for a group, of its descendants in the order they
  /// were added) at `parentTime`, the owning layer's local time.
  ///
  /// - Parameters:
  ///   - fallbackDuration: what a duration of 0 means: 0.25 s at the top level, the group's
  ///     duration inside a group.
  ///   - inGroup: whether this is a group's child (it then ignores `isRemovedOnCompletion`).
  package func appendSamples(
    at parentTime: Double, fallbackDuration: Double = 0.25, inGroup: Bool = false,
    into out: inout [AnimationSample]
  ) {
    let d = ownDuration ?? timing.simpleDuration(fallback: fallbackDuration)
    guard
      let state = timing.evaluate(
        parentTime: parentTime, simpleDuration: d,
        removedOnCompletion: inGroup ? false : timing.isRemovedOnCompletion)
    else { return }
    switch node {
    case .group(let children):
      let f = state.fraction
      // A group's time that is not finite is its children's: NaN, which each refuses.
      let warped = state.isTimeFinite ? d * (timingFunction?.value(at: f) ?? f) : .nan
      for child in children {
        child.appendSamples(at: warped, fallbackDuration: d, inGroup: true, into: &out)
      }
    case .property(let evaluator):
      out.append(AnimationSample(evaluator: evaluator, state: state))
    case .inert:
      break
    }
  }
}

/// One property animation's contribution at one instant: which animation, and where in its
/// timing it is.
package struct AnimationSample: Sendable {
  /// The prepared property animation contributing.
  package let evaluator: PropertyEvaluator
  /// Where the animation is.
  package let state: MediaTiming.State

  /// Whether the sample can be shown: its time is finite (`MediaTiming.State.isTimeFinite`)
  /// and, for a cumulative animation, so is its cycle index (a duration of 1e-310 repeating
  /// forever has more cycles than a `Double` counts).
  package var isTimeFinite: Bool {
    state.isTimeFinite && (state.isCycleCountFinite || !evaluator.cumulative)
  }

  /// What the sample animates: the target its key path was resolved to when the animation was
  /// prepared.
  package var target: Int { evaluator.target }

  /// The value the property shows, given the layer's model value for the key path and the value
  /// produced so far by earlier animations on it (`underlying`, the model value if none).
  package func value(model: AnimationValue, underlying: AnimationValue) -> AnimationValue {
    evaluator.value(state: state, model: model, underlying: underlying)
  }

  /// For a keyframe animation along a path with a rotation mode: the angle, in radians, to turn
  /// the layer by; otherwise `nil`.
  package var pathRotation: Double? { evaluator.pathRotation(state: state) }

  /// Whether `value(model:underlying:)` reads `model` (see `PropertyEvaluator.needsModel`); when
  /// it does not, any value of the right kind may stand for it.
  package var needsModel: Bool { evaluator.needsModel }

  /// Whether `value(model:underlying:)` reads `underlying`: only additive animations do.
  package var needsUnderlying: Bool { evaluator.additive }
}

/// The samples of `animation` at `parentTime`, appended to `out`, every key path resolved to
/// target 0 (prepares the animation first; layers keep their animations prepared).
package func samples(
  of animation: any Animation, at parentTime: Double, into out: inout [AnimationSample]
) {
  PreparedAnimation(animation, target: { _ in 0 }).appendSamples(at: parentTime, into: &out)
}

/// A property animation's value as a function of its timing state.
package final class PropertyEvaluator: Sendable {
  /// What is animated: the target the key path was resolved to.
  let target: Int
  let additive: Bool
  let cumulative: Bool
  let kind: Kind
  // The fields of each kind, stored flat so evaluating binds nothing large.
  let from: AnimationValue?, to: AnimationValue?, by: AnimationValue?
  let timingFunction: TimingFunction?
  let spring: Spring?
  let keyframes: PreparedKeyframes?
  /// Whether `value` reads its `model` argument: only when the animation's own values leave an
  /// end open (a basic animation without two of from/to/by, keyframes without values).
  let needsModel: Bool

  enum Kind: Sendable { case basic, spring, keyframes }

  private init(
    _ target: Int, additive: Bool, cumulative: Bool, kind: Kind, from: AnimationValue? = nil,
    to: AnimationValue? = nil,
    by: AnimationValue? = nil, timingFunction: TimingFunction? = nil, spring: Spring? = nil,
    keyframes: PreparedKeyframes? = nil
  ) {
    (self.target, self.additive, self.cumulative, self.kind) = (target, additive, cumulative, kind)
    (self.from, self.to, self.by, self.timingFunction, self.spring, self.keyframes) = (
      from, to, by, timingFunction, spring, keyframes
    )
    switch kind {
    case .basic, .spring:
      let given = [from, to, by].filter { $0 != nil }.count
      needsModel = given < 2 || (from == nil && to == nil)
    case .keyframes:
      needsModel = keyframes?.values.isEmpty ?? true
    }
  }

  convenience init(_ a: BasicAnimation, target: Int) {
    self.init(
      target, additive: a.isAdditive, cumulative: a.isCumulative, kind: .basic, from: a.fromValue,
      to: a.toValue, by: a.byValue, timingFunction: a.timingFunction)
  }

  convenience init(_ a: SpringAnimation, target: Int) {
    self.init(
      target, additive: a.isAdditive, cumulative: a.isCumulative, kind: .spring, from: a.fromValue,
      to: a.toValue, by: a.byValue, spring: a.spring)
  }

  convenience init(_ a: KeyframeAnimation, target: Int) {
    self.init(
      target, additive: a.isAdditive, cumulative: a.isCumulative, kind: .keyframes,
      keyframes: PreparedKeyframes(a))
  }

  func value(
    state: MediaTiming.State, model: AnimationValue, underlying: AnimationValue
  ) -> AnimationValue {
    var v: AnimationValue
    switch kind {
    case .basic, .spring:
      let (a, b) = BasicAnimation.endpoints(from: from, to: to, by: by, model: model)
      let progress: Double
      if let spring {
        progress = 1 - spring.displacement(at: state.basicTime)
      } else {
        let f = state.fraction
        progress = timingFunction?.value(at: f) ?? f
      }
      v = AnimationValue.interpolate(a, b, progress)
      if cumulative && state.cycle != 0 {
        v = v.advanced(byDifferenceFrom: a, to: b, times: state.cycle)
      }
    case .keyframes:
      guard let keyframes else { return underlying }
      v = keyframes.value(atFraction: state.fraction, model: model)
      if cumulative && state.cycle != 0, let first = keyframes.values.first,
        let last = keyframes.values.last
      {
        v = v.advanced(byDifferenceFrom: first, to: last, times: state.cycle)
      }
    }
    return additive ? v.adding(underlying) : v
  }

  func pathRotation(state: MediaTiming.State) -> Double? {
    keyframes?.pathRotation(atFraction: state.fraction)
  }
}
