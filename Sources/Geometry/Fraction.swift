/// The simplest fraction `p / q` within `tolerance × |x|` of `x > 0`: the first convergent of
/// `x`'s continued fraction that close, with `q` at most `maximumDenominator` and `p` at most
/// `maximumNumerator` (the last convergent within those when none is that close). For frame
/// rates and delays that files store as fractions: 29.97 is 2997/100, 1/30 is 1/30, and a rate of
/// 1.0005 stays 2001/2000 where rounding to thousandths made it 1.001 (ffmpeg then dropped
/// frames, and an APNG's delays drifted).
///
/// - Returns: `(p, q)` with `q >= 1`; `p` is 0 when `x` is below `1 / maximumDenominator`'s
///   reach.
package func simplestFraction(
  approximating x: Double, tolerance: Double = 1e-9, maximumNumerator: Double,
  maximumDenominator: Double
) -> (numerator: Double, denominator: Double) {
  precondition(x > 0 && x.isFinite, "a fraction approximates a positive finite number")
  var (h0, h1) = (0.0, 1.0), (k0, k1) = (1.0, 0.0)
  var rest = x
  for _ in 0..<64 {
    let a = rest.rounded(.down)
    let (h, k) = (a * h1 + h0, a * k1 + k0)
    guard k <= maximumDenominator, h <= maximumNumerator else { break }
    (h0, h1, k0, k1) = (h1, h, k1, k)
    if abs(h / k - x) <= tolerance * x { break }
    let fraction = rest - a
    guard fraction > 0 else { break }
    rest = 1 / fraction
  }
  return (k1 == 0 ? 0 : h1, Swift.max(k1, 1))
}
