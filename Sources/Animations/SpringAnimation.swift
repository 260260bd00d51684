/// A basic animation moved by a damped spring (Core Animation's `CASpringAnimation`).
///
/// The value is `from + (to - from) * (1 - x(t))`, where `x` is the closed-form displacement of
/// docs/timing.md §9.2 and `t` the basic local time in seconds (not a fraction of the duration: the
/// duration only decides when it stops). A spring left at `duration` 0 lasts its
/// `settlingDuration`. Without `allowsOverdamping`, a damping above critical acts as critical.
///
/// ```swift
/// var drop = SpringAnimation(keyPath: "position.y")
/// drop.fromValue = 0
/// drop.toValue = 100
/// drop.damping = 8
/// ```
public struct SpringAnimation: PropertyAnimation, Hashable {
  public var timing = MediaTiming()
  /// Ignored: a spring paces itself.
  public var timingFunction: TimingFunction? = nil
  public var keyPath: String
  public var isAdditive = false
  public var isCumulative = false
  /// The value at the start.
  public var fromValue: AnimationValue? = nil
  /// The value the spring settles on.
  public var toValue: AnimationValue? = nil
  /// The change, when `fromValue` or `toValue` is missing.
  public var byValue: AnimationValue? = nil
  /// The mass on the spring (default 1, greater than 0).
  public var mass: Double = 1
  /// The spring's stiffness (default 100, greater than 0).
  public var stiffness: Double = 100
  /// The damping (default 10, at least 0).
  public var damping: Double = 10
  /// The initial speed toward the target, in distances (from → to) per second (default 0;
  /// negative moves away first).
  public var initialVelocity: Double = 0
  /// Whether a damping above critical is honoured (default false: evaluated as critical).
  public var allowsOverdamping = false

  /// Creates a spring animation of the property at `keyPath`.
  public init(keyPath: String) {
    self.keyPath = keyPath
  }

  /// The start and end values, as `BasicAnimation.endpoints(model:)`.
  public func endpoints(model: AnimationValue) -> (from: AnimationValue, to: AnimationValue) {
    BasicAnimation.endpoints(from: fromValue, to: toValue, by: byValue, model: model)
  }

  /// The spring's parameters as an oscillator.
  public var spring: Spring {
    Spring(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
      allowsOverdamping: allowsOverdamping)
  }

  /// How long the spring takes to come to rest: the first multiple of 0.1 s at which the
  /// envelope of its displacement stays below 0.001 of the distance (docs/timing.md §9.3's
  /// convention; Apple does not publish its rule).
  public var settlingDuration: Double { spring.settlingDuration }
}
