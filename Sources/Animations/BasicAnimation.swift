/// An animation from one value to another (Core Animation's `CABasicAnimation`).
///
/// Of `fromValue`, `toValue` and `byValue`, set one or two; a missing end is the layer's model
/// value (docs/timing.md §7.1): from only runs from `fromValue` to the model value, to only from
/// the model value to `toValue`, by only from the model value to the model value plus `byValue`.
///
/// ```swift
/// var scale = BasicAnimation(keyPath: "transform.scale")
/// scale.fromValue = 0
/// scale.toValue = 1.5
/// ```
public struct BasicAnimation: PropertyAnimation, Hashable {
  public var timing = MediaTiming()
  public var timingFunction: TimingFunction? = nil
  public var keyPath: String
  public var isAdditive = false
  public var isCumulative = false
  /// The value at the start.
  public var fromValue: AnimationValue? = nil
  /// The value at the end.
  public var toValue: AnimationValue? = nil
  /// The change over one pass.
  public var byValue: AnimationValue? = nil

  /// Creates an animation of the property at `keyPath`.
  public init(keyPath: String) {
    self.keyPath = keyPath
  }

  /// The start and end values, with missing ends taken from `model` (docs/timing.md §7.1).
  public func endpoints(model: AnimationValue) -> (from: AnimationValue, to: AnimationValue) {
    BasicAnimation.endpoints(from: fromValue, to: toValue, by: byValue, model: model)
  }

  /// The start and end values of a from/to/by combination, missing ends taken from `model`.
  static func endpoints(
    from: AnimationValue?, to: AnimationValue?, by: AnimationValue?, model: AnimationValue
  )
    -> (from: AnimationValue, to: AnimationValue)
  {
    switch (from, to, by) {
    case (let from?, let to?, _): return (from, to)
    case (let from?, nil, let by?): return (from, by.adding(from))
    case (nil, let to?, let by?): return (to.subtracting(by), to)
    case (let from?, nil, nil): return (from, model)
    case (nil, let to?, nil): return (model, to)
    case (nil, nil, let by?): return (model, by.adding(model))
    case (nil, nil, nil): return (model, model)
    }
  }
}
