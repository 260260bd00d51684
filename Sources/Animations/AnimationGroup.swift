/// Animations that run together in the group's time (Core Animation's `CAAnimationGroup`).
///
/// Children see the group's basic local time after its `timingFunction`; they are clipped to the
/// group's duration, not scaled to it, and a child whose `duration` is 0 takes the group's. Each
/// child keeps its own `beginTime` (in the group's time) and fill; `isRemovedOnCompletion` of a
/// child is ignored.
///
/// ```swift
/// var group = AnimationGroup()
/// group.animations = [scale, opacity]
/// group.duration = 4
/// group.repeatCount = .infinity
/// ```
public struct AnimationGroup: Animation {
  public var timing = MediaTiming()
  public var timingFunction: TimingFunction? = nil
  /// The animations that run together.
  public var animations: [any Animation] = []

  /// Creates an empty group.
  public init() {}

  /// Creates a group of `animations`.
  public init(_ animations: [any Animation]) {
    self.animations = animations
  }
}
