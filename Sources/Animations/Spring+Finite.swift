/// Springs whose parameters make their motion overflow are refused when read (issue 18: a
/// mass of 1e-300 made every value NaN, and the layer silently vanished).
extension Spring {
  /// The most the displacement may reach, in distances from the start to the target: 10^12.
  public static let maximumOvershoot = 1e12

  /// Why a spring's motion cannot be used.
  public enum MotionProblem: Equatable, Sendable {
    /// The arithmetic overflows: the natural frequency or the damping ratio, or either's
    /// square, is not a finite positive number (a damping of 1e300 squares its ratio past a
    /// double), however small the motion itself would be.
    case notComputable
    /// The displacement goes past `maximumOvershoot` distances (or past a double: an initial
    /// velocity of 1e308).
    case overshoots
  }

  /// Whether the motion is finite: the natural frequency and damping ratio are finite numbers,
  /// and the displacement at the start, through its first second and at rest is finite and
  /// within `maximumOvershoot` (so that no value it makes overflows).
  public var motionIsFinite: Bool { motionProblem == nil }

  /// What makes the motion unusable (`motionIsFinite`), or `nil`.
  public var motionProblem: MotionProblem? {
    let w0 = naturalFrequency, zeta = effectiveDampingRatio
    guard w0.isFinite, w0 > 0, zeta.isFinite, (w0 * w0).isFinite, (zeta * zeta).isFinite,
      initialVelocity.isFinite
    else { return .notComputable }
    let start = envelope(at: 0)
    guard start.isFinite, start <= Self.maximumOvershoot else { return .overshoots }
    // |displacement| is at most the envelope, which falls from the start (a critically damped
    // one from its peak at 1/ω0 − 1/c, if that is later): within the limit there, every value
    // is, and the samples below need not be taken (a file holds up to some 670,000 springs).
    let c = abs(w0 - initialVelocity)
    let peak = zeta == 1 && c > w0 ? envelope(at: 1 / w0 - 1 / c) : envelope(at: 0)
    if peak.isFinite && peak <= Self.maximumOvershoot / 2 { return nil }
    let times = (0...100).map { Double($0) / 100 } + [settlingDuration]
    for time in times {
      let x = displacement(at: time)
      guard x.isFinite, abs(x) <= Self.maximumOvershoot else { return .overshoots }
    }
    return nil
  }
}
