/// Why SVG path data could not be read, with the byte offset of the offending token.
public struct SVGPathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 0-based offset, in UTF-8 bytes, of the token that is wrong (the end of the text when
  /// something is missing).
  public var offset: Int
  /// What is wrong, in words.
  public var reason: String

  /// Creates an error at `offset`.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// `"<reason> at offset <n>"`.
  public var description: String { "\(reason) at offset \(offset)" }
}

extension Path {
  /// Parses the `d` attribute of an SVG path: every command (M L H V C S Q T A Z), absolute
  /// (upper case) and relative (lower case), with implicit repeats of the last command and
  /// elliptical arcs converted to cubic curves (SVG 1.1, appendix F.6).
  ///
  /// - Throws: `SVGPathError` naming the offset of the first bad token.
  public init(svgPathData text: String) throws(SVGPathError) {
    var parser = SVGPathParser(Array(text.utf8))
    self = try parser.parse()
  }
}

/// Reads SVG path data into a `Path`, one command at a time.
struct SVGPathParser {
  private let bytes: [UInt8]
  private var index = 0
  private var path = Path()
  private var current = Point.zero
  private var subpathStart = Point.zero
  /// The reflection point for S/T, valid only right after a C/S (cubic) or Q/T (quad).
  private var lastCubicControl: Point? = nil
  private var lastQuadControl: Point? = nil

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func parse() throws(SVGPathError) -> Path {
    skipSeparators(allowComma: false)
    var command: UInt8? = nil
    var first = true
    while index < bytes.count {
      let c = bytes[index]
      if isCommandLetter(c) {
        command = c
        index += 1
      } else if command == nil || !startsNumber(c) {
        throw SVGPathError(
          offset: index, reason: "expected a path command, found \(describe(index))")
      } else if command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
        throw SVGPathError(offset: index, reason: "unexpected number after close command")
      }
      guard let cmd = command else { break }
      if first && cmd != UInt8(ascii: "M") && cmd != UInt8(ascii: "m") {
        throw SVGPathError(
          offset: index - 1, reason: "path data must begin with a move command (M or m)")
      }
      first = false
      try run(cmd)
      // After a moveto, further coordinate pairs are implicit linetos.
      if cmd == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
      if cmd == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
      // A comma may part one argument group from the next of the same command (SVG 1.1's
      // `comma-wsp` between groups: `l1,1,2,2`), but not come before a command or the end.
      let before = index
      skipSeparators(allowComma: true)
      if bytes[before..<index].contains(UInt8(ascii: ",")),
        index >= bytes.count || !startsNumber(bytes[index])
          || cmd == UInt8(ascii: "Z") || cmd == UInt8(ascii: "z")
      {
        throw SVGPathError(
          offset: index, reason: "expected a number after ',', found \(describe(index))")
      }
    }
    return path
  }

  private func isCommandLetter(_ c: UInt8) -> Bool {
    switch c {
    case UInt8(ascii: "M"), UInt8(ascii: "m"), UInt8(ascii: "L"), UInt8(ascii: "l"),
      UInt8(ascii: "H"), UInt8(ascii: "h"), UInt8(ascii: "V"), UInt8(ascii: "v"),
      UInt8(ascii: "C"), UInt8(ascii: "c"), UInt8(ascii: "S"), UInt8(ascii: "s"),
      UInt8(ascii: "Q"), UInt8(ascii: "q"), UInt8(ascii: "T"), UInt8(ascii: "t"),
      UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "Z"), UInt8(ascii: "z"):
      return true
    default: return false
    }
  }

  private func startsNumber(_ c: UInt8) -> Bool {
    (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-")
      || c == UInt8(ascii: "+")
      || c == UInt8(ascii: ".")
  }

  private func describe(_ at: Int) -> String {
    guard at < bytes.count else { return "end of data" }
    let scalar = Unicode.Scalar(bytes[at])
    return bytes[at] < 128 ? "'\(Character(scalar))'" : "a non-ASCII byte"
  }

  private mutating func skipSeparators(allowComma: Bool) {
    var sawComma = false
    while index < bytes.count {
      let c = bytes[index]
      if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C {
        index += 1
      } else if allowComma && !sawComma && c == UInt8(ascii: ",") {
        sawComma = true
        index += 1
      } else {
        break
      }
    }
  }

  private mutating func number() throws(SVGPathError) -> Double {
    skipSeparators(allowComma: true)
    let start = index
    if index < bytes.count
      && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
    {
      index += 1
    }
    var digits = 0
    while index < bytes.count && bytes[index] >= UInt8(ascii: "0")
      && bytes[index] <= UInt8(ascii: "9")
    {
      index += 1
      digits += 1
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count && bytes[index] >= UInt8(ascii: "0")
        && bytes[index] <= UInt8(ascii: "9")
      {
        index += 1
        digits += 1
      }
    }
    guard digits > 0 else {
      index = start
      throw SVGPathError(offset: start, reason: "expected a number, found \(describe(start))")
    }
    if index < bytes.count
      && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E"))
    {
      var j = index + 1
      if j < bytes.count && (bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-")) {
        j += 1
      }
      var expDigits = 0
      while j < bytes.count && bytes[j] >= UInt8(ascii: "0") && bytes[j] <= UInt8(ascii: "9") {
        j += 1
        expDigits += 1
      }
      guard expDigits > 0 else {
        throw SVGPathError(offset: start, reason: "malformed exponent in number")
      }
      index = j
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw SVGPathError(offset: start, reason: "number out of range")
    }
    return value
  }

  /// An arc flag: a single `0` or `1`, which may run into the next token ("a1 1 0 00 10 10").
  private mutating func flag() throws(SVGPathError) -> Bool {
    skipSeparators(allowComma: true)
    guard index < bytes.count else {
      throw SVGPathError(offset: index, reason: "expected an arc flag (0 or 1), found end of data")
    }
    switch bytes[index] {
    case UInt8(ascii: "0"): index += 1; return false
    case UInt8(ascii: "1"): index += 1; return true
    default:
      throw SVGPathError(
        offset: index, reason: "expected an arc flag (0 or 1), found \(describe(index))")
    }
  }

  private mutating func point(relative: Bool) throws(SVGPathError) -> Point {
    let x = try number()
    let y = try number()
    return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
  }

  private mutating func run(_ command: UInt8) throws(SVGPathError) {
    let relative = command >= UInt8(ascii: "a")
    var cubicControl: Point? = nil
    var quadControl: Point? = nil
    switch command | 0x20 {  // lower-cased
    case UInt8(ascii: "m"):
      let p = try point(relative: relative)
      path.move(to: p)
      current = p
      subpathStart = p
    case UInt8(ascii: "l"):
      let p = try point(relative: relative)
      path.addLine(to: p)
      current = p
    case UInt8(ascii: "h"):
      let x = try number()
      current = Point(x: relative ? current.x + x : x, y: current.y)
      path.addLine(to: current)
    case UInt8(ascii: "v"):
      let y = try number()
      current = Point(x: current.x, y: relative ? current.y + y : y)
      path.addLine(to: current)
    case UInt8(ascii: "c"):
      let c1 = try point(relative: relative)
      let c2 = try point(relative: relative)
      let p = try point(relative: relative)
      path.addCurve(to: p, control1: c1, control2: c2)
      cubicControl = c2
      current = p
    case UInt8(ascii: "s"):
      let c1 = lastCubicControl.map { current * 2 - $0 } ?? current
      let c2 = try point(relative: relative)
      let p = try point(relative: relative)
      path.addCurve(to: p, control1: c1, control2: c2)
      cubicControl = c2
      current = p
    case UInt8(ascii: "q"):
      let c = try point(relative: relative)
      let p = try point(relative: relative)
      path.addQuadCurve(to: p, control: c)
      quadControl = c
      current = p
    case UInt8(ascii: "t"):
      let c = lastQuadControl.map { current * 2 - $0 } ?? current
      let p = try point(relative: relative)
      path.addQuadCurve(to: p, control: c)
      quadControl = c
      current = p
    case UInt8(ascii: "a"):
      let rx = try number()
      let ry = try number()
      let rotation = try number()
      let largeArc = try flag()
      let sweep = try flag()
      let p = try point(relative: relative)
      path.addEllipticalArc(
        from: current, to: p, rx: rx, ry: ry, rotationDegrees: rotation, largeArc: largeArc,
        sweep: sweep)
      current = p
    case UInt8(ascii: "z"):
      path.closeSubpath()
      current = subpathStart
    default:
      throw SVGPathError(offset: index - 1, reason: "unknown command")
    }
    lastCubicControl = cubicControl
    lastQuadControl = quadControl
  }
}

extension Path {
  /// Adds an SVG elliptical arc from `start` to `end` (SVG 1.1 F.6.5 endpoint to center
  /// conversion, with out-of-range radii scaled up as F.6.6 says; a zero radius is a line).
  mutating func addEllipticalArc(
    from start: Point, to end: Point, rx: Double, ry: Double, rotationDegrees: Double,
    largeArc: Bool, sweep: Bool
  ) {
    if start == end { return }
    // Work in units of the half chord so that no square below overflows or underflows (SVG
    // numbers may be as large as 1e308); a radius that is zero at that scale is a line.
    let phi = (rotationDegrees.truncatingRemainder(dividingBy: 360)) * Double.pi / 180
    let (cphi, sphi) = (cos(phi), sin(phi))
    let dx = start.x / 2 - end.x / 2, dy = start.y / 2 - end.y / 2
    let unit = Swift.max(abs(dx), abs(dy))
    var rx = abs(rx) / unit, ry = abs(ry) / unit
    guard unit > 0, unit.isFinite, rx > 0, ry > 0, rx.isFinite, ry.isFinite else {
      addLine(to: end)
      return
    }
    let x1p = (cphi * dx + sphi * dy) / unit
    let y1p = (-sphi * dx + cphi * dy) / unit
    let lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
    if lambda > 1 {
      let s = lambda.squareRoot()
      rx *= s
      ry *= s
    }
    // Radii many orders above the chord: the small arc is indistinguishable from the line.
    guard (rx < 1e12 && ry < 1e12) || largeArc, lambda.isFinite else {
      addLine(to: end)
      return
    }
    let num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    let den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    var coef = (Swift.max(0, num) / den).squareRoot()
    if largeArc == sweep { coef = -coef }
    let cxp = coef * rx * y1p / ry
    let cyp = -coef * ry * x1p / rx
    let center = Point(
      x: unit * (cphi * cxp - sphi * cyp) + (start.x / 2 + end.x / 2),
      y: unit * (sphi * cxp + cphi * cyp) + (start.y / 2 + end.y / 2))
    guard center.x.isFinite, center.y.isFinite else {
      addLine(to: end)
      return
    }
    func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
      atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    }
    let ux = (x1p - cxp) / rx, uy = (y1p - cyp) / ry
    let vx = (-x1p - cxp) / rx, vy = (-y1p - cyp) / ry
    let theta1 = angle(1, 0, ux, uy)
    var delta = angle(ux, uy, vx, vy)
    if !sweep && delta > 0 { delta -= 2 * Double.pi }
    if sweep && delta < 0 { delta += 2 * Double.pi }
    guard delta.isFinite, theta1.isFinite else {
      addLine(to: end)
      return
    }
    appendArcCurves(
      center: center, rx: rx * unit, ry: ry * unit, rotation: phi, startAngle: theta1, sweep: delta)
    // Land exactly on the requested end point despite rounding in the curves.
    if case .curve(_, let c1, let c2)? = elements.last {
      elements.removeLast()
      elements.append(.curve(to: end, control1: c1, control2: c2))
      currentPoint = end
    }
  }
}
