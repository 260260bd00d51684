/// The timing keys a layer adopts from `CAMediaTiming`: they map the superlayer's time to the
/// layer's own, for the layer's animations and everything below it.
///
/// `t_layer = (t_parent - beginTime) * speed + timeOffset` (docs/timing.md §3). A layer never ends,
/// so it has no duration, repeat or fill. Pause a subtree with `speed = 0` and `timeOffset` set to
/// the instant to hold.
public struct LayerTiming: Hashable, Sendable {
  /// When the layer's time starts, in the superlayer's time (seconds, default 0).
  public var beginTime: Double
  /// How fast the layer's time runs relative to its superlayer's (default 1). Stored as `Float`,
  /// as Core Animation stores it, so `0.3` means `0.30000001192...`.
  public var speed: Float
  /// Added to the layer's time after scaling, in seconds (default 0).
  public var timeOffset: Double

  /// Creates layer timing; the defaults are Core Animation's.
  public init(beginTime: Double = 0, speed: Float = 1, timeOffset: Double = 0) {
    self.beginTime = beginTime
    self.speed = speed
    self.timeOffset = timeOffset
  }

  /// The layer's local time for the superlayer's time `parentTime`.
  @inlinable public func localTime(_ parentTime: Double) -> Double {
    (parentTime - beginTime) * Double(speed) + timeOffset
  }

  /// Whether the timing is the identity mapping.
  public var isIdentity: Bool { beginTime == 0 && speed == 1 && timeOffset == 0 }
}
