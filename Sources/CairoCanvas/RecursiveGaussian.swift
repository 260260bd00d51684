import Foundation

/// A Gaussian blur along one axis in constant work per sample whatever σ: Deriche's fourth-order
/// recursive filter ("Recursively implementing the Gaussian and its derivatives", 1993), a
/// causal and an anticausal pass whose impulse responses add up to the Gaussian within 0.1 % of
/// its peak (an edge blurred by it is within a tenth of a level of the exact profile).
///
/// For x ≥ 0 the filter's response is Σₖ [aₖ cos(ωₖ x/σ) + cₖ sin(ωₖ x/σ)] e^(−bₖ x/σ), k = 1, 2,
/// sampled at whole pixels; it is written as four complex poles pⱼ = e^((−bₖ ± iωₖ)/σ), from
/// which the recurrences' coefficients follow exactly, and normalised so that a flat signal
/// stays flat.
struct RecursiveGaussian: Equatable {
  /// The causal pass's feed-forward coefficients: y⁺[n] = Σ nᵢ x[n − i] − Σ dᵢ y⁺[n − i].
  var causal: [Double]
  /// The anticausal pass's: y⁻[n] = Σ mᵢ x[n + i] − Σ dᵢ y⁻[n + i], i = 1...4.
  var anticausal: [Double]
  /// The feedback coefficients d₁...d₄ both passes share.
  var feedback: [Double]

  /// Deriche's fit of √(2π) e^(−x²/2): (a, b, ω, c) per pair of poles.
  static let fit: [(a: Double, b: Double, omega: Double, c: Double)] = [
    (1.680, 1.783, 0.6318, 3.735), (-0.6803, 1.723, 1.997, -0.2598),
  ]

  /// The filter for standard deviation `sigma` pixels (meant for σ of a few pixels and more:
  /// below that, sampling the response at whole pixels strays from the Gaussian).
  init(sigma: Double) {
    var poles: [Complex] = [], residues: [Complex] = []
    for term in Self.fit {
      let radius = exp(-term.b / sigma), angle = term.omega / sigma
      for sign in [1.0, -1.0] {
        poles.append(Complex(radius * cos(angle), sign * radius * sin(angle)))
        // a cos θn + c sin θn = ((a − ic) e^(iθn) + (a + ic) e^(−iθn)) / 2
        residues.append(Complex(term.a / 2, -sign * term.c / 2))
      }
    }
    // D(u) = Π (1 − pⱼ u); N⁺(u) = Σ rⱼ Π_{k≠j} (1 − pₖ u); N⁻(u) = Σ rⱼ pⱼ u Π_{k≠j} (1 − pₖ u).
    func product(skipping skipped: Int?) -> [Complex] {
      var p = [Complex(1, 0)]
      for (k, pole) in poles.enumerated() where k != skipped {
        p = zip(p + [Complex(0, 0)], [Complex(0, 0)] + p).map { $0 - $1 * pole }
      }
      return p
    }
    let d = product(skipping: nil)
    var forward = [Complex](repeating: Complex(0, 0), count: 4)
    var backward = [Complex](repeating: Complex(0, 0), count: 5)
    for j in 0..<4 {
      for (i, coefficient) in product(skipping: j).enumerated() {
        forward[i] = forward[i] + residues[j] * coefficient
        backward[i + 1] = backward[i + 1] + residues[j] * poles[j] * coefficient
      }
    }
    let denominator = d.reduce(0) { $0 + $1.re }
    let gain =
      (forward.reduce(0) { $0 + $1.re } + backward.reduce(0) { $0 + $1.re }) / denominator
    causal = forward.map { $0.re / gain }
    anticausal = backward.dropFirst().map { $0.re / gain }
    feedback = d.dropFirst().map(\.re)
  }

  /// Blurs down each column of `buffer` (`width × height`, row by row, zero outside): both
  /// passes run a whole row at a time, so memory is read in order and the loops vectorise.
  /// `history` holds 4 rows of the anticausal pass's past outputs.
  func blurColumns(
    _ buffer: UnsafeMutablePointer<Double>, into out: UnsafeMutablePointer<Double>,
    width: Int, height: Int, history: UnsafeMutablePointer<Double>
  ) {
    let (n0, n1, n2, n3) = (causal[0], causal[1], causal[2], causal[3])
    let (m1, m2, m3, m4) = (anticausal[0], anticausal[1], anticausal[2], anticausal[3])
    let (d1, d2, d3, d4) = (feedback[0], feedback[1], feedback[2], feedback[3])
    let zero = history + 4 * width  // one row of zeros past the history rows
    zero.update(repeating: 0, count: width)
    func row(_ p: UnsafeMutablePointer<Double>, _ y: Int) -> UnsafeMutablePointer<Double> {
      y >= 0 && y < height ? p + y * width : zero
    }
    for y in 0..<height {
      let x0 = row(buffer, y), x1 = row(buffer, y - 1), x2 = row(buffer, y - 2)
      let x3 = row(buffer, y - 3)
      let y1 = row(out, y - 1), y2 = row(out, y - 2), y3 = row(out, y - 3), y4 = row(out, y - 4)
      let o = out + y * width
      for x in 0..<width {
        let feedForward = n0 * x0[x] + n1 * x1[x] + n2 * x2[x] + n3 * x3[x]
        o[x] = feedForward - (d1 * y1[x] + d2 * y2[x] + d3 * y3[x] + d4 * y4[x])
      }
    }
    history.update(repeating: 0, count: 4 * width)
    for y in stride(from: height - 1, through: 0, by: -1) {
      let x1 = row(buffer, y + 1), x2 = row(buffer, y + 2), x3 = row(buffer, y + 3)
      let x4 = row(buffer, y + 4)
      // The anticausal outputs of rows y + 1 ... y + 4 sit in the history, row (y + k) % 4.
      let h1 = history + ((y + 1) % 4) * width, h2 = history + ((y + 2) % 4) * width
      let h3 = history + ((y + 3) % 4) * width, h4 = history + (y % 4) * width
      let o = out + y * width
      for x in 0..<width {
        let feedForward = m1 * x1[x] + m2 * x2[x] + m3 * x3[x] + m4 * x4[x]
        let value = feedForward - (d1 * h1[x] + d2 * h2[x] + d3 * h3[x] + d4 * h4[x])
        h4[x] = value  // row y replaces row y + 4, which is no longer needed
        o[x] += value
      }
    }
  }
}

/// The few complex operations the filter's design needs.
struct Complex: Equatable {
  var re: Double
  var im: Double
  init(_ re: Double, _ im: Double) {
    self.re = re
    self.im = im
  }
  static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
  static func - (a: Complex, b: Complex) -> Complex { Complex(a.re - b.re, a.im - b.im) }
  static func * (a: Complex, b: Complex) -> Complex {
    Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
  }
}
