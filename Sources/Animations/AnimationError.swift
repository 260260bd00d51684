/// Why an animation or one of its parts was refused.
public enum AnimationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A timing function's control point has an x outside 0...1, which makes the curve ambiguous.
  case controlPointOutOfRange(x: Double)

  /// A one-line message.
  public var description: String {
    switch self {
    case .controlPointOutOfRange(let x):
      return
        "timing function control point x = \(x) is outside 0...1 (the curve would not be a function of time)"
    }
  }
}
