/// The timing of one animation (`CAMediaTiming` plus `removedOnCompletion`): when it begins, how
/// long one pass lasts, how fast and how often it plays, and what it shows before and after.
///
/// Units are seconds in the parent's time. `speed` and `repeatCount` are `Float`, as Core
/// Animation stores them. The mapping from parent time to the animation's basic local time is
/// docs/timing.md §2 and §4, exactly: `evaluate(parentTime:simpleDuration:removedOnCompletion:)`.
public struct MediaTiming: Hashable, Sendable {
  /// When the animation starts, in its parent's time (default 0; may be negative). Not scaled by
  /// the animation's own speed.
  public var beginTime: Double = 0
  /// One forward pass, in seconds; 0 (the default) means 0.25 s, or the group's duration for an
  /// animation inside a group.
  public var duration: Double = 0
  /// How fast local time runs (default 1; 0 freezes at `timeOffset`; negative runs backwards).
  public var speed: Float = 1
  /// Added to local time after scaling, in seconds; it wraps within the repeating pattern and
  /// never moves or shortens the active interval (default 0).
  public var timeOffset: Double = 0
  /// How many cycles play (fractional allowed, `.infinity` for forever; 0, the default, is one).
  public var repeatCount: Float = 0
  /// How long the animation repeats, in seconds (0, the default, ignores it; it wins over
  /// `repeatCount` when both are set).
  public var repeatDuration: Double = 0
  /// Whether each cycle plays forward then backward, doubling its length (default false).
  public var autoreverses = false
  /// What shows outside the active interval (default `.removed`).
  public var fillMode: FillMode = .removed
  /// Whether the animation is removed once its active duration has passed, which hides a
  /// forwards fill (default true). Ignored for animations inside a group.
  public var isRemovedOnCompletion = true

  /// Creates timing with Core Animation's defaults.
  public init() {}

  /// The duration of one forward pass: `duration`, or `fallback` when it is 0.
  public func simpleDuration(fallback: Double = 0.25) -> Double {
    duration > 0 ? duration : fallback
  }

  /// The active duration for a simple duration `d`: `repeatDuration`, else `repeatCount` cycles
  /// (infinite for `.infinity` or `Float.greatestFiniteMagnitude`), else one cycle; a cycle is
  /// `2d` with `autoreverses`.
  public func activeDuration(simpleDuration d: Double) -> Double {
    let cycle = autoreverses ? 2 * d : d
    if repeatDuration > 0 { return repeatDuration }
    if repeatCount > 0 {
      if repeatCount.isInfinite || repeatCount == .greatestFiniteMagnitude { return .infinity }
      return Double(repeatCount) * cycle
    }
    return cycle
  }

  /// Where an animation is at a parent time: its basic local time (0...d, mirrored on backward
  /// legs) and the index of its cycle.
  public struct State: Hashable, Sendable {
    /// Seconds into the forward pass, 0...d; what the timing function (or a spring) reads.
    public var basicTime: Double
    /// The cycle index (for `cumulative`); negative before a wrapped offset. A `Double`: a
    /// `Float` repeat count reaches 3.4e38 cycles, past any integer's range (an `Int` index was
    /// 0 after 10^19 cycles, so a cumulative animation showed one cycle's value).
    public var cycle: Double
    /// The simple duration `d` the state was computed with.
    public var simpleDuration: Double

    /// `basicTime / simpleDuration`, the fraction of the pass.
    public var fraction: Double { simpleDuration > 0 ? basicTime / simpleDuration : 1 }

    /// Whether the animation's time at the instant is finite. It is not when its and its groups'
    /// `beginTime`, `speed` and `timeOffset` together overflow a `Double` (a `beginTime` of
    /// -1e308 at a speed of 3.4e38, or nine nested groups of speed 3.4e38) where that decides
    /// what shows (the animation repeats forever, or the time is NaN): such a state has a NaN
    /// `basicTime` and `cycle`, and whoever applies it refuses it rather than show a value.
    /// A cycle index past a `Double`'s range (a duration of 1e-310 repeating forever) is
    /// infinite in a finite time: only a cumulative animation reads it
    /// (`isCycleCountFinite`).
    public var isTimeFinite: Bool { basicTime.isFinite && !cycle.isNaN }

    /// Whether the cycle index is finite: it is not when the time over the cycle's length
    /// passes the largest `Double` (a duration of 1e-310 repeating forever), which a cumulative
    /// animation, adding `cycle × (end − start)`, cannot show.
    public var isCycleCountFinite: Bool { cycle.isFinite }

    /// The state of an animation whose time is not finite (see `isTimeFinite`).
    static func timeNotFinite(simpleDuration d: Double) -> State {
      State(basicTime: .nan, cycle: .nan, simpleDuration: d)
    }
  }

  /// The state at `parentTime`, or `nil` when the animation contributes nothing there (before or
  /// after its active interval without a fill that shows it, or removed on completion). A state
  /// whose `isTimeFinite` is false when its time is not finite and that decides what shows: a
  /// NaN `parentTime` (a group's time that overflowed), an active time that overflows while the
  /// animation repeats forever, or a time whose cycle index overflows.
  ///
  /// The active interval is `[beginTime, beginTime + AD/|speed|)`: it ends exclusively, and at its
  /// end a forwards fill freezes on the end of the last cycle (docs/timing.md §4.3's end rule).
  ///
  /// - Parameters:
  ///   - simpleDuration: `d`, already resolved (see `simpleDuration(fallback:)`).
  ///   - removedOnCompletion: whether completion removes it (false inside groups).
  public func evaluate(
    parentTime: Double, simpleDuration d: Double, removedOnCompletion: Bool
  ) -> State? {
    let e = parentTime - beginTime
    let s = Double(speed)
    let ad = activeDuration(simpleDuration: d)
    if e.isNaN { return .timeNotFinite(simpleDuration: d) }
    if e < 0 {
      guard fillMode == .backwards || fillMode == .both else { return nil }
      return map(timeOffset, d: d, atEnd: false)
    }
    if s == 0 { return map(timeOffset, d: d, atEnd: false) }
    let tau = e * s
    if abs(tau) < ad { return map(timeOffset + tau, d: d, atEnd: false) }
    // Past a finite active duration whatever the overflow: the end shows. Not so forever.
    if !tau.isFinite && !ad.isFinite { return .timeNotFinite(simpleDuration: d) }
    guard (fillMode == .forwards || fillMode == .both) && !removedOnCompletion else { return nil }
    let end = timeOffset + (s < 0 ? -ad : ad)
    return map(end, d: d, atEnd: true)
  }

  /// Active local time to basic local time: floor-modulo into the cycle, mirrored on the backward
  /// leg; at the end of the active interval a time on a cycle boundary belongs to the cycle it
  /// ends.
  func map(_ t: Double, d: Double, atEnd: Bool) -> State {
    guard t.isFinite else { return .timeNotFinite(simpleDuration: d) }
    guard d > 0 else { return State(basicTime: 0, cycle: 0, simpleDuration: d) }
    let cycleLength = autoreverses ? 2 * d : d
    var k = (t / cycleLength).rounded(.down)
    // Past 2^53 cycles `k × C` rounds by more than a cycle, and past 1.8e308 (a duration of
    // 1e-310 at any time) `k` is infinite: the phase is then the exact floor-modulo (`fmod`),
    // which needs no cycle count, and the index is `floor(t / C)` as a Double holds it, infinite
    // past its range (only a cumulative animation reads it: it refuses an infinite one).
    // With autoreverses a cycle is both legs, so the leg needs no parity either.
    // A cycle of two legs past the largest Double (a duration of 1e308 with autoreverses) is
    // infinite: its only cycle starts at 0 (`0 × ∞` is NaN).
    var c: Double
    if abs(k) < 0x1p53 {
      c = k == 0 ? t : t - k * cycleLength
    } else {
      c = t.truncatingRemainder(dividingBy: cycleLength)
      if c < 0 { c += cycleLength }
    }
    if c < 0 { c = 0 }
    if c >= cycleLength {
      k += 1
      c = 0
    }
    if atEnd && c == 0 && t != timeOffset {
      k -= 1
      c = cycleLength
    }
    let basic = autoreverses && c > d ? (cycleLength.isFinite ? cycleLength - c : d - (c - d)) : c
    return State(basicTime: basic, cycle: k, simpleDuration: d)
  }
}
