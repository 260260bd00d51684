/// A damped harmonic oscillator in closed form: the motion of `SpringAnimation`.
///
/// `displacement(at:)` is the remaining fraction of the distance, `x(t)`, with `x(0) = 1`,
/// target 0 and `x'(0) = -initialVelocity` (docs/timing.md §9.2).
public struct Spring: Hashable, Sendable {
  /// The mass (greater than 0).
  public var mass: Double
  /// The stiffness (greater than 0).
  public var stiffness: Double
  /// The damping (at least 0).
  public var damping: Double
  /// The initial velocity toward the target, in distances per second.
  public var initialVelocity: Double
  /// Whether damping above critical is honoured; otherwise it is treated as critical.
  public var allowsOverdamping: Bool

  /// Creates a spring; the defaults are `CASpringAnimation`'s.
  public init(
    mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
    allowsOverdamping: Bool = false
  ) {
    precondition(
      mass > 0 && stiffness > 0 && damping >= 0,
      "A spring needs mass > 0, stiffness > 0 and damping >= 0")
    (self.mass, self.stiffness, self.damping, self.initialVelocity, self.allowsOverdamping) =
      (mass, stiffness, damping, initialVelocity, allowsOverdamping)
  }

  /// The undamped angular frequency ω0 = √(k/m), in radians per second.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
  /// The damping ratio ζ = c / (2√(k·m)) as given.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }
  /// The damping ratio the motion uses: `dampingRatio`, capped at 1 without `allowsOverdamping`.
  public var effectiveDampingRatio: Double {
    allowsOverdamping ? dampingRatio : Swift.min(dampingRatio, 1)
  }

  /// The remaining fraction of the distance at `t` seconds (1 at the start, 0 at rest).
  public func displacement(at t: Double) -> Double {
    let w0 = naturalFrequency, zeta = effectiveDampingRatio, v0 = initialVelocity
    if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      return exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v0) / wd * sin(wd * t))
    }
    if zeta == 1 {
      return (1 + (w0 - v0) * t) * exp(-w0 * t)
    }
    let wo = w0 * (zeta * zeta - 1).squareRoot()
    // e^(-ζω0 t)·[cosh + B·sinh], written with the two decaying exponentials to stay finite.
    let b = (zeta * w0 - v0) / wo
    let slow = exp((-zeta * w0 + wo) * t), fast = exp((-zeta * w0 - wo) * t)
    return 0.5 * (1 + b) * slow + 0.5 * (1 - b) * fast
  }

  /// An upper bound of `|displacement|` that decreases once the motion decays: for an
  /// underdamped spring the amplitude envelope `A·e^(-ζω0 t)`, otherwise the displacement's
  /// absolute value bounded term by term.
  func envelope(at t: Double) -> Double {
    let w0 = naturalFrequency, zeta = effectiveDampingRatio, v0 = initialVelocity
    if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      let b = (zeta * w0 - v0) / wd
      return (1 + b * b).squareRoot() * exp(-zeta * w0 * t)
    }
    if zeta == 1 { return (1 + abs(w0 - v0) * t) * exp(-w0 * t) }
    let wo = w0 * (zeta * zeta - 1).squareRoot()
    let b = (zeta * w0 - v0) / wo
    return 0.5 * abs(1 + b) * exp((-zeta * w0 + wo) * t) + 0.5 * abs(1 - b)
      * exp((-zeta * w0 - wo) * t)
  }

  /// The first multiple of 0.1 s (computed as k × 0.1, never accumulated) at which the envelope
  /// is below 0.001 and decreasing, so it stays below; at most 600 s.
  ///
  /// The search starts a step before the envelope's slowest term alone falls below 0.001 (the
  /// envelope is never below it there), so it takes a few steps whatever the damping: from
  /// 0.1 s it took 6,000 for an undamped spring, and a file of 20,000 of them 11 s to read.
  public var settlingDuration: Double {
    let epsilon = 1e-3
    let (c, r) = slowestEnvelopeTerm
    var first = 1
    if c >= epsilon {
      guard r > 0 else { return 600 }  // the envelope stays at c or above: it never settles
      let below = (log(c / epsilon) / r / 0.1).rounded(.down) - 1
      guard below < 6000 else { return 600 }
      first = Swift.max(1, Int(below))
    }
    for k in first...6000 {
      let t = Double(k) * 0.1
      if envelope(at: t) < epsilon && envelope(at: t + 1e-3) <= envelope(at: t) { return t }
    }
    return 600
  }

  /// The term `c·e^(−r·t)` of the envelope that no other term of it falls below: its
  /// amplitude for an underdamped spring, `e^(−ω0·t)` for a critically damped one, the slower
  /// exponential for an overdamped one.
  private var slowestEnvelopeTerm: (c: Double, r: Double) {
    let w0 = naturalFrequency, zeta = effectiveDampingRatio, v0 = initialVelocity
    if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      let b = (zeta * w0 - v0) / wd
      return ((1 + b * b).squareRoot(), zeta * w0)
    }
    if zeta == 1 { return (1, w0) }
    let wo = w0 * (zeta * zeta - 1).squareRoot()
    let b = (zeta * w0 - v0) / wo
    return (0.5 * abs(1 + b), zeta * w0 - wo)
  }
}
