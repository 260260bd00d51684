/// Something that changes a layer over time: `BasicAnimation`, `KeyframeAnimation`,
/// `SpringAnimation` or `AnimationGroup` (Core Animation's `CAAnimation`).
///
/// Animations are values: add one to a layer with `layer.add(_:forKey:)`; changing the value
/// afterwards does not change the copy the layer holds. The timing properties (`beginTime`,
/// `duration`, `speed`, `timeOffset`, `repeatCount`, `repeatDuration`, `autoreverses`,
/// `fillMode`, `isRemovedOnCompletion`) are those of `MediaTiming`, reachable directly.
public protocol Animation: Sendable {
  /// When and how often the animation plays.
  var timing: MediaTiming { get set }
  /// The pacing of each pass (`nil`, the default, is linear). A group's timing function warps
  /// the time its children see.
  var timingFunction: TimingFunction? { get set }
}

/// An animation of one layer property named by a key path (Core Animation's
/// `CAPropertyAnimation`).
public protocol PropertyAnimation: Animation {
  /// The property animated, as Core Animation names it: `"opacity"`, `"position.x"`,
  /// `"transform.scale"`, ... (the layer property table, `LayerProperty`, says which exist).
  var keyPath: String { get }
  /// Whether the animated value is added to the value below it instead of replacing it
  /// (default false).
  var isAdditive: Bool { get set }
  /// Whether each repeat cycle starts where the previous one ended (default false).
  var isCumulative: Bool { get set }
}

extension Animation {
  /// When the animation starts, in its parent's time (seconds; see `MediaTiming.beginTime`).
  public var beginTime: Double {
    get { timing.beginTime }
    set { timing.beginTime = newValue }
  }
  /// One forward pass, in seconds (0 means the default; see `MediaTiming.duration`).
  public var duration: Double {
    get { timing.duration }
    set { timing.duration = newValue }
  }
  /// How fast local time runs (see `MediaTiming.speed`).
  public var speed: Float {
    get { timing.speed }
    set { timing.speed = newValue }
  }
  /// Seconds added to local time (see `MediaTiming.timeOffset`).
  public var timeOffset: Double {
    get { timing.timeOffset }
    set { timing.timeOffset = newValue }
  }
  /// How many cycles play; `.infinity` for forever (see `MediaTiming.repeatCount`).
  public var repeatCount: Float {
    get { timing.repeatCount }
    set { timing.repeatCount = newValue }
  }
  /// How long the animation repeats, in seconds (see `MediaTiming.repeatDuration`).
  public var repeatDuration: Double {
    get { timing.repeatDuration }
    set { timing.repeatDuration = newValue }
  }
  /// Whether each cycle plays forward then backward (see `MediaTiming.autoreverses`).
  public var autoreverses: Bool {
    get { timing.autoreverses }
    set { timing.autoreverses = newValue }
  }
  /// What shows outside the active interval (see `MediaTiming.fillMode`).
  public var fillMode: FillMode {
    get { timing.fillMode }
    set { timing.fillMode = newValue }
  }
  /// Whether completion removes the animation (see `MediaTiming.isRemovedOnCompletion`).
  public var isRemovedOnCompletion: Bool {
    get { timing.isRemovedOnCompletion }
    set { timing.isRemovedOnCompletion = newValue }
  }
}
