import Geometry

/// A Swift value an animation can move a property through: the typed form of `AnimationValue`,
/// so that animations take `Point`, `Color`, `Transform3D`, ... directly, as Core Animation takes
/// `CGPoint`, `CGColor` and `CATransform3D`:
///
/// ```swift
/// let move = BasicAnimation(keyPath: "position", from: Point(20, 60), to: Point(100, 60))
/// let tint = KeyframeAnimation(keyPath: "backgroundColor", values: [Color.red, .blue, .red])
/// ```
public protocol AnimationValueConvertible: Sendable {
  /// The value as an animation carries it.
  var animationValue: AnimationValue { get }
}

extension AnimationValue: AnimationValueConvertible {
  /// The value itself.
  public var animationValue: AnimationValue { self }
}

extension Double: AnimationValueConvertible {
  /// A number (`opacity`, `position.x`, `transform.rotation.z`, ...).
  public var animationValue: AnimationValue { .scalar(self) }
}

extension Int: AnimationValueConvertible {
  /// A number, as a `Double` (so that `from: 0, to: 1` reads as Core Animation's `@0`, `@1`).
  public var animationValue: AnimationValue { .scalar(Double(self)) }
}

extension Point: AnimationValueConvertible {
  /// A point (`position`, `anchorPoint`).
  public var animationValue: AnimationValue { .point(self) }
}

extension Size: AnimationValueConvertible {
  /// A size (`bounds.size`).
  public var animationValue: AnimationValue { .size(self) }
}

extension Rect: AnimationValueConvertible {
  /// A rectangle (`bounds`).
  public var animationValue: AnimationValue { .rect(self) }
}

extension Color: AnimationValueConvertible {
  /// A color (`backgroundColor`, `borderColor`, `fillColor`, `strokeColor`).
  public var animationValue: AnimationValue { .color(self) }
}

extension Transform3D: AnimationValueConvertible {
  /// A transform (`transform`, `sublayerTransform`).
  public var animationValue: AnimationValue { .transform(self) }
}

extension Path: AnimationValueConvertible {
  /// A path (`path`).
  public var animationValue: AnimationValue { .path(self) }
}

extension Image: AnimationValueConvertible {
  /// An image (`contents`); changes discretely.
  public var animationValue: AnimationValue { .image(self) }
}

extension Bool: AnimationValueConvertible {
  /// A flag (`hidden`); changes discretely.
  public var animationValue: AnimationValue { .bool(self) }
}

extension BasicAnimation {
  /// An animation of the property at `keyPath` with typed ends, as Core Animation's
  /// `fromValue`, `toValue` and `byValue` (set one or two; see the type's discussion):
  /// `BasicAnimation(keyPath: "position", from: Point(20, 60), to: Point(100, 60))`.
  /// `duration` is in seconds (0: Core Animation's default, 0.25 s).
  public init<Value: AnimationValueConvertible>(
    keyPath: String, from: Value? = nil, to: Value? = nil, by: Value? = nil, duration: Double = 0
  ) {
    self.init(keyPath: keyPath)
    (fromValue, toValue, byValue) = (from?.animationValue, to?.animationValue, by?.animationValue)
    self.duration = duration
  }
}

extension SpringAnimation {
  /// A spring animation of the property at `keyPath` with typed ends (see `BasicAnimation`'s
  /// typed initializer); the spring's parameters keep their defaults.
  public init<Value: AnimationValueConvertible>(
    keyPath: String, from: Value? = nil, to: Value? = nil, by: Value? = nil
  ) {
    self.init(keyPath: keyPath)
    (fromValue, toValue, byValue) = (from?.animationValue, to?.animationValue, by?.animationValue)
  }
}

extension KeyframeAnimation {
  /// An animation of the property at `keyPath` through typed keyframe values:
  /// `KeyframeAnimation(keyPath: "backgroundColor", values: [Color.red, .blue])`. `keyTimes`
  /// are fractions 0...1 of the duration (evenly spaced when `nil`); `duration` is in seconds
  /// (0: Core Animation's default, 0.25 s).
  public init<Value: AnimationValueConvertible>(
    keyPath: String, values: [Value], keyTimes: [Double]? = nil, duration: Double = 0
  ) {
    self.init(keyPath: keyPath)
    self.values = values.map(\.animationValue)
    self.keyTimes = keyTimes
    self.duration = duration
  }
}
