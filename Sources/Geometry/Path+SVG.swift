extension Path {
  /// The path as SVG path data with absolute commands (`M`, `L`, `Q`, `C`, `Z`) and numbers in
  /// shortest round-trip form, so `Path(svgPathData: p.svgPathData) == p`.
  public var svgPathData: String {
    var parts: [String] = []
    func n(_ x: Double) -> String { shortestNumber(x) }
    func pt(_ p: Point) -> String { "\(n(p.x)) \(n(p.y))" }
    for e in elements {
      switch e {
      case .move(let p): parts.append("M \(pt(p))")
      case .line(let p): parts.append("L \(pt(p))")
      case .quadCurve(let p, let c): parts.append("Q \(pt(c)) \(pt(p))")
      case .curve(let p, let c1, let c2): parts.append("C \(pt(c1)) \(pt(c2)) \(pt(p))")
      case .closeSubpath: parts.append("Z")
      }
    }
    return parts.joined(separator: " ")
  }
}

/// `x` in the shortest decimal form that reads back to the same double, without a trailing
/// `.0` for whole numbers: `2`, `0.1`, `1e-07`, `1e+15` (Swift writes whole numbers from 10^15
/// to 10^16 out in full, `1000000000000000.0`, beside `1e+16`: messages and captions used both).
public func shortestNumber(_ x: Double) -> String {
  if x == x.rounded(), abs(x) < 1e15 {
    return x == 0 ? "0" : String(Int(x))
  }
  let text = "\(x)"
  guard x.isFinite, x == x.rounded(), text.hasSuffix(".0") else { return text }
  // A whole number written out: its digits, trailing zeros dropped, as a mantissa.
  let digits = String(Int64(abs(x)))
  let significant = digits.reversed().drop { $0 == "0" }.reversed()
  let mantissa =
    significant.count > 1
    ? String(significant.first!) + "." + String(significant.dropFirst()) : String(significant)
  return (x < 0 ? "-" : "") + mantissa + "e+" + String(digits.count - 1)
}
