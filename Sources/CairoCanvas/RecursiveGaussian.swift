import Glibc

/// A Gaussian blur along one axis in constant work per sample whatever σ: Deriche's fourth-order
/// recursive filter ("Recursively implementing the Gaussian and its derivatives", 1993), a
/// causal and an anticausal pass whose impulse responses add up to the Gaussian within 0.1 % of
/// its peak (an edge blurred by it is within a tenth of a level of 255 of the exact profile).
///
/// For x ≥ 0 the filter's response is Σₖ [aₖ cos(ωₖ x/σ) + cₖ sin(ωₖ x/σ)] e^(−bₖ x/σ), k = 1, 2,
/// sampled at whole pixels. Each term is one pair of complex-conjugate poles, so the filter is
/// two second-order sections side by side (their outputs add: Deriche's partial fractions), each
/// run causally and anticausally. The sections run in `Float`, eight signals at a time, which
/// halves the memory of the fourth-order recurrence in doubles and doubles the lanes per
/// instruction, and they stay accurate because each is written in the delta form (`Section`):
/// the direct form's coefficients nearly cancel when σ is large (1 + d₁ + d₂ is about
/// (b² + ω²)/σ², 4·10⁻⁴ at σ 100), so in floats its rounding grows by 1/(1 + d₁ + d₂) and drifted by
/// levels; the delta form's coefficients are computed in doubles without cancellation and only
/// multiply small increments, so the rounding grows by about σ/b at most. Measured on a blurred
/// edge against the Gaussian's Φ before rounding to levels: 0.02 levels of 255 from σ 20 to 1,000
/// (the fit's own error), 0.05 at σ 10,000, 0.14 at σ 65,536 (the widest blur a filter asks for).
struct RecursiveGaussian: Equatable {
  /// One pair of poles pe^(±iθ) as a second-order section in the delta form. The causal pass
  /// computes, for n = 0, 1, ...,
  ///
  ///     g[n] = p·x[n] + q·(x[n] − x[n−1]) − k·y[n−1] + d₂·g[n−1],   y[n] = y[n−1] + g[n]
  ///
  /// which is y[n] = n₀x[n] + n₁x[n−1] − d₁y[n−1] − d₂y[n−2] (g is y's increment, k = 1 + d₁ +
  /// d₂, p = n₀ + n₁, q = −n₁); the anticausal pass, for n from the end down, the same with
  /// x[n+1] for x[n], x[n+2] for x[n−1], y[n+1] for y[n−1], and its own `pa`, `qa`. Unitless
  /// weights; the sections' outputs sum to a flat signal's own value.
  struct Section: Equatable {
    /// The causal pass's weight of x[n] (n₀ + n₁).
    var p: Float
    /// The causal pass's weight of the difference x[n] − x[n−1] (−n₁).
    var q: Float
    /// The anticausal pass's weight of x[n+1] (m₁ + m₂).
    var pa: Float
    /// The anticausal pass's weight of the difference x[n+1] − x[n+2] (−m₂).
    var qa: Float
    /// 1 + d₁ + d₂ = (1 − r)² + 4r sin²(θ/2): how much of the past output is taken back.
    var k: Float
    /// d₂ = r²: how much of the past increment is kept.
    var d2: Float
  }

  /// The two sections, one per term of the fit.
  var sections: [Section]

  /// Deriche's fit of √(2π) e^(−x²/2): (a, b, ω, c) per pair of poles.
  static let fit: [(a: Double, b: Double, omega: Double, c: Double)] = [
    (1.680, 1.783, 0.6318, 3.735), (-0.6803, 1.723, 1.997, -0.2598),
  ]

  /// The filter for standard deviation `sigma` pixels (meant for σ of a few pixels and more:
  /// below that, sampling the response at whole pixels strays from the Gaussian).
  ///
  /// Designed in doubles: for the term (a, b, ω, c), r = e^(−b/σ) and θ = ω/σ, the causal
  /// response Σₙ (a cos θn + c sin θn) rⁿ z⁻ⁿ is (n₀ + n₁z⁻¹) / (1 + d₁z⁻¹ + d₂z⁻²) with n₀ = a,
  /// n₁ = r(c sin θ − a cos θ), d₁ = −2r cos θ, d₂ = r²; the anticausal one (n ≥ 1) has
  /// m₁ = r(a cos θ + c sin θ), m₂ = −ar². The sums that would cancel (k, n₀ + n₁, m₁ + m₂) are
  /// written with 1 − r = −expm1(−b/σ) and sin²(θ/2), so they keep their relative precision
  /// however large σ is. All weights are divided by the filter's gain for a flat signal.
  init(sigma: Double) {
    var designed: [(p: Double, q: Double, pa: Double, qa: Double, k: Double, d2: Double)] = []
    var gain = 0.0
    for term in Self.fit {
      let r = exp(-term.b / sigma), theta = term.omega / sigma
      let oneMinusR = -expm1(-term.b / sigma)
      let halfSine = sin(theta / 2), sine = sin(theta)
      let k = oneMinusR * oneMinusR + 4 * r * halfSine * halfSine
      let n1 = r * (term.c * sine - term.a * cos(theta)), m2 = -term.a * r * r
      // n₀ + n₁ = a(1 − r cos θ) + rc sin θ, 1 − r cos θ = (1 − r) + 2r sin²(θ/2);
      // m₁ + m₂ = ar(cos θ − r) + rc sin θ, cos θ − r = (1 − r) − 2 sin²(θ/2).
      let p = term.a * (oneMinusR + 2 * r * halfSine * halfSine) + r * term.c * sine
      let pa = term.a * r * (oneMinusR - 2 * halfSine * halfSine) + r * term.c * sine
      designed.append((p, -n1, pa, -m2, k, r * r))
      gain += (p + pa) / k  // a flat signal x gives y = p·x / k per pass
    }
    sections = designed.map {
      Section(
        p: Float($0.p / gain), q: Float($0.q / gain), pa: Float($0.pa / gain),
        qa: Float($0.qa / gain), k: Float($0.k), d2: Float($0.d2))
    }
  }

  /// Eight samples, one per signal: lane i of element n is signal i's sample n.
  typealias Lanes = SIMD8<Float>

  /// Blurs eight signals at once: `x` holds `count` interleaved samples of each (zero outside
  /// 0..<count), `out` receives the blurred samples (`count` of them, not overlapping `x`).
  /// Both passes keep their state in registers, so memory is read and written once per pass.
  ///
  /// Zeros before the first nonzero sample and after the last leave both passes' states at
  /// zero, so the causal pass starts at the first (its outputs before it are zero) and the
  /// anticausal pass at the one before the last (its outputs from the last on are zero): the
  /// margins a mask is grown by, and columns it does not reach, cost a scan, not the filter.
  /// The values are those of the passes run over every sample (up to the sign of a zero).
  func filter(_ x: UnsafePointer<Lanes>, into out: UnsafeMutablePointer<Lanes>, count: Int) {
    var first = 0
    while first < count && x[first] == .zero { first += 1 }
    out.update(repeating: .zero, count: first)
    guard first < count else { return }
    var last = count - 1
    while x[last] == .zero { last -= 1 }
    let s = sections[0], t = sections[1]
    let (ps, qs, ks, ds) = (
      Lanes(repeating: s.p), Lanes(repeating: s.q), Lanes(repeating: s.k), Lanes(repeating: s.d2)
    )
    let (pt, qt, kt, dt) = (
      Lanes(repeating: t.p), Lanes(repeating: t.q), Lanes(repeating: t.k), Lanes(repeating: t.d2)
    )
    var ys = Lanes(), gs = Lanes(), yt = Lanes(), gt = Lanes(), previous = Lanes()
    for n in first..<count {
      let current = x[n], step = current - previous
      gs = ps * current + qs * step - ks * ys + ds * gs
      gt = pt * current + qt * step - kt * yt + dt * gt
      ys += gs
      yt += gt
      previous = current
      out[n] = ys + yt
    }
    let (pas, qas) = (Lanes(repeating: s.pa), Lanes(repeating: s.qa))
    let (pat, qat) = (Lanes(repeating: t.pa), Lanes(repeating: t.qa))
    (ys, gs, yt, gt) = (Lanes(), Lanes(), Lanes(), Lanes())
    var next = x[last], afterNext = Lanes()  // x[n + 1], x[n + 2]
    for n in stride(from: last - 1, through: 0, by: -1) {
      let step = next - afterNext
      gs = pas * next + qas * step - ks * ys + ds * gs
      gt = pat * next + qat * step - kt * yt + dt * gt
      ys += gs
      yt += gt
      afterNext = next
      next = x[n]
      out[n] += ys + yt
    }
  }
}
