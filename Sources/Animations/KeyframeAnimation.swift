import Geometry

/// An animation through a list of values (Core Animation's `CAKeyframeAnimation`).
///
/// `keyTimes` place the values as fractions of the duration (evenly spaced when absent);
/// `timingFunctions` pace each segment, after the animation's own `timingFunction`.
/// `calculationMode` chooses how values between keyframes are made. For `position`, a `path`
/// replaces `values`: each point of the path that is not a move is a keyframe, and
/// `rotationMode` turns the layer to follow the path's direction.
///
/// ```swift
/// var opacity = KeyframeAnimation(keyPath: "opacity")
/// opacity.values = [1, 0.7, 0]
/// opacity.keyTimes = [0, 0.5, 1]
/// ```
public struct KeyframeAnimation: PropertyAnimation {
  public var timing = MediaTiming()
  public var timingFunction: TimingFunction? = nil
  public var keyPath: String
  public var isAdditive = false
  public var isCumulative = false
  /// The keyframe values.
  public var values: [AnimationValue] = []
  /// The time of each keyframe as a fraction 0...1 of the duration, non-decreasing; first 0 and
  /// last 1. As many as `values` (one more for `.discrete`). Invalid lists are ignored (the
  /// keyframes are then evenly spaced), as Core Animation ignores them.
  public var keyTimes: [Double]? = nil
  /// The pacing of each segment (one fewer than `values`; missing entries are linear).
  public var timingFunctions: [TimingFunction]? = nil
  /// How values between keyframes are made (default `.linear`).
  public var calculationMode: CalculationMode = .linear
  /// Kochanek-Bartels tension per keyframe for the cubic modes, -1...1 (missing: 0).
  public var tensionValues: [Double]? = nil
  /// Kochanek-Bartels continuity per keyframe for the cubic modes, -1...1 (missing: 0).
  public var continuityValues: [Double]? = nil
  /// Kochanek-Bartels bias per keyframe for the cubic modes, -1...1 (missing: 0).
  public var biasValues: [Double]? = nil
  /// A path for `position` to follow instead of `values`.
  public var path: Path? = nil
  /// Whether the layer turns to follow the path's tangent (default none).
  public var rotationMode: RotationMode? = nil

  /// How a keyframe animation makes the values between keyframes (`CAAnimationCalculationMode`).
  public enum CalculationMode: String, Hashable, Sendable, CaseIterable {
    /// Straight interpolation between neighbouring keyframes.
    case linear
    /// No interpolation: each value holds from its key time until the next.
    case discrete
    /// Linear, with key times chosen for a constant speed (key times and timing functions
    /// ignored).
    case paced
    /// A Kochanek-Bartels (Catmull-Rom by default) spline through the values.
    case cubic
    /// The cubic spline at a constant speed along it.
    case cubicPaced
  }

  /// How a layer turns along a path (`CAAnimationRotationMode`).
  public enum RotationMode: String, Hashable, Sendable, CaseIterable {
    /// The layer's x axis follows the path's direction.
    case auto
    /// As `auto`, turned a further half turn.
    case autoReverse
  }

  /// Creates an animation of the property at `keyPath`.
  public init(keyPath: String) {
    self.keyPath = keyPath
  }
}
