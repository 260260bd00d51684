/// Why an animation or one of its parts was refused.
public enum AnimationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A timing function's control point has an x outside 0...1, which makes the curve ambiguous.
  case controlPointOutOfRange(x: Double)
  /// A timing function's control point has a y that is infinite or not a number (the curve
  /// would have no value).
  case controlPointNotFinite(y: Double)

  /// A one-line message.
  public var description: String {
    switch self {
    case .controlPointOutOfRange(let x):
      return
        "timing function control point x = \(x) is outside 0...1 (the curve would not be a function of time)"
    case .controlPointNotFinite(let y):
      return "timing function control point y = \(y) is not a finite number"
    }
  }
}
