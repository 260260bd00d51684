/// The simplest fraction `p / q` within `tolerance × |x|` of `x > 0`: the first convergent of
/// `x`'s continued fraction that close, with `q` at most `maximumDenominator` and `p` at most
/// `maximumNumerator` (when none is that close, the closest fraction with such terms: the last
/// convergent within them or the semiconvergent after it). For frame
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
    guard k <= maximumDenominator, h <= maximumNumerator else {
      // Past the bounds: the largest semiconvergent within them, when it is closer than the
      // last convergent (the best approximation with such terms: 1.000123 is 8131/8130 within
      // 65535, where the convergents stop at 1/1).
      let t = Swift.min(
        a - 1, ((maximumNumerator - h0) / h1).rounded(.down),
        k1 > 0 ? ((maximumDenominator - k0) / k1).rounded(.down) : a - 1)
      if t >= 1, k1 > 0 {
        let (hs, ks) = (t * h1 + h0, t * k1 + k0)
        if abs(hs / ks - x) < abs(h1 / k1 - x) { (h1, k1) = (hs, ks) }
      }
      break
    }
    (h0, h1, k0, k1) = (h1, h, k1, k)
    if abs(h / k - x) <= tolerance * x { break }
    let fraction = rest - a
    guard fraction > 0 else { break }
    rest = 1 / fraction
  }
  return (k1 == 0 ? 0 : h1, Swift.max(k1, 1))
}
