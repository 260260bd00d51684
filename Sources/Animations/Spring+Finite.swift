/// Whether a spring's closed form stays a usable number (issue 18: a stiffness of 1e308 over a
/// mass of 1e-300 made every value NaN, and the layer silently vanished).
extension Spring {
  /// The most the displacement may reach, in distances from the start to the target: 10^12.
  public static let maximumOvershoot = 1e12

  /// Whether the motion is finite: the natural frequency and damping ratio are finite numbers,
  /// and the displacement at the start, through its first second and at rest is finite and
  /// within `maximumOvershoot` (so that no value it makes overflows).
  public var motionIsFinite: Bool {
    let w0 = naturalFrequency, zeta = effectiveDampingRatio
    guard w0.isFinite, w0 > 0, zeta.isFinite, initialVelocity.isFinite else { return false }
    guard envelope(at: 0).isFinite, envelope(at: 0) <= Self.maximumOvershoot else { return false }
    // |displacement| is at most the envelope, which falls from the start (a critically damped
    // one from its peak at 1/ω0 − 1/c, if that is later): within the limit there, every value
    // is, and the samples below need not be taken (a file holds up to some 670,000 springs).
    let c = abs(w0 - initialVelocity)
    let peak = zeta == 1 && c > w0 ? envelope(at: 1 / w0 - 1 / c) : envelope(at: 0)
    if peak.isFinite && peak <= Self.maximumOvershoot / 2 { return true }
    let times = (0...100).map { Double($0) / 100 } + [settlingDuration]
    return times.allSatisfy {
      let x = displacement(at: $0)
      return x.isFinite && abs(x) <= Self.maximumOvershoot
    }
  }
}
