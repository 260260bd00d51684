import Geometry
import Testing

/// SVG path data: every command, absolute and relative, implicit repeats, arcs, errors.
@Suite struct SVGPathTests {
  func parse(_ d: String) throws -> [Path.Element] { try Path(svgPathData: d).elements }

  /// Nineteenth hostile pass: whole numbers from 10^15 to 10^16 were written out in full
  /// (`1000000000000000.0`) beside `1e+16`, in messages and sheet captions alike.
  @Test func shortestNumbersUseOneFormForLargeWholeNumbers() {
    #expect(shortestNumber(2) == "2" && shortestNumber(0.1) == "0.1" && shortestNumber(-0.0) == "0")
    #expect(shortestNumber(1e15) == "1e+15" && shortestNumber(-1e15) == "-1e+15")
    #expect(shortestNumber(1234567890123456) == "1.234567890123456e+15")
    #expect(shortestNumber(999_999_999_999_999) == "999999999999999")
    #expect(shortestNumber(1e16) == "1e+16" && shortestNumber(1.5e300) == "1.5e+300")
    for x in [1e15, -1e15, 1234567890123456, 9.007199254740993e15, 5e15 + 2] {
      #expect(Double(shortestNumber(x)) == x, "\(x)")
    }
    #expect(shortestNumber(.infinity) == "inf")
  }

  @Test func moveLineCloseAbsoluteAndRelative() throws {
    #expect(
      try parse("M 10 20 L 30 40 Z") == [
        .move(to: Point(10, 20)), .line(to: Point(30, 40)), .closeSubpath,
      ])
    #expect(
      try parse("m 10 20 l 5 5 z") == [
        .move(to: Point(10, 20)), .line(to: Point(15, 25)), .closeSubpath,
      ])
  }

  @Test func implicitRepeats() throws {
    // Extra pairs after M are lines (l after m), and commands repeat.
    #expect(
      try parse("M0 0 10 10 20 0") == [
        .move(to: Point(0, 0)), .line(to: Point(10, 10)), .line(to: Point(20, 0)),
      ])
    #expect(
      try parse("m1 1 2 2 3 3") == [
        .move(to: Point(1, 1)), .line(to: Point(3, 3)), .line(to: Point(6, 6)),
      ])
    #expect(
      try parse("M0 0 H 5 10 v 2 3") == [
        .move(to: Point(0, 0)), .line(to: Point(5, 0)), .line(to: Point(10, 0)),
        .line(to: Point(10, 2)), .line(to: Point(10, 5)),
      ])
    // Twenty-first hostile pass: a comma between argument groups (SVG 1.1's comma-wsp, which
    // minifiers write) was refused as "expected a path command".
    #expect(try parse("M0,0L1,1,2,2") == parse("M0 0 L1 1 2 2"))
    #expect(try parse("M0,0,1,1") == parse("M0 0 1 1"))
    #expect(try parse("M0 0 l1,1,1,1") == parse("M0 0 l1 1 1 1"))
    #expect(try parse("M0 0 C1 1,2 2,3 3,4 4,5 5,6 6") == parse("M0 0 C1 1 2 2 3 3 4 4 5 5 6 6"))
    #expect(try parse("M0 0 H1,2") == parse("M0 0 H1 2"))
    #expect(
      try parse("M0 0 A1 1 0 0 1 2 2,1 1 0 0 1 3 3") == parse("M0 0 A1 1 0 0 1 2 2 1 1 0 0 1 3 3"))
    // Not before a command, after a close, or at the end.
    for bad in ["M0 0,L1 1", "M0 0 L1 1,", "M0 0 L1 1 Z,M2 2"] {
      #expect(throws: SVGPathError.self, "\(bad)") { try parse(bad) }
    }
  }

  @Test func horizontalAndVerticalRelative() throws {
    #expect(
      try parse("M1 2 h 3 V 10 H 0 v -1") == [
        .move(to: Point(1, 2)), .line(to: Point(4, 2)), .line(to: Point(4, 10)),
        .line(to: Point(0, 10)), .line(to: Point(0, 9)),
      ])
  }

  @Test func cubicAndSmoothCubic() throws {
    #expect(
      try parse("M0 0 C 1 2 3 4 5 6 S 9 10 11 12") == [
        .move(to: Point(0, 0)),
        .curve(to: Point(5, 6), control1: Point(1, 2), control2: Point(3, 4)),
        .curve(to: Point(11, 12), control1: Point(7, 8), control2: Point(9, 10)),
      ])
    #expect(
      try parse("M1 1 c 1 1 2 2 3 3 s 1 1 2 2") == [
        .move(to: Point(1, 1)),
        .curve(to: Point(4, 4), control1: Point(2, 2), control2: Point(3, 3)),
        .curve(to: Point(6, 6), control1: Point(5, 5), control2: Point(5, 5)),
      ])
    // S without a preceding curve uses the current point as its first control point.
    #expect(
      try parse("M0 0 S 1 1 2 0")[1]
        == .curve(to: Point(2, 0), control1: Point(0, 0), control2: Point(1, 1)))
  }

  @Test func quadraticAndSmoothQuadratic() throws {
    #expect(
      try parse("M0 0 Q 5 10 10 0 T 20 0") == [
        .move(to: Point(0, 0)),
        .quadCurve(to: Point(10, 0), control: Point(5, 10)),
        .quadCurve(to: Point(20, 0), control: Point(15, -10)),
      ])
    #expect(
      try parse("m0 0 q 5 10 10 0 t 10 0")[2]
        == .quadCurve(to: Point(20, 0), control: Point(15, -10)))
    #expect(try parse("M0 0 T 4 4")[1] == .quadCurve(to: Point(4, 4), control: Point(0, 0)))
  }

  @Test func ellipticalArcLandsOnItsEndPointAndBulgesTheRightWay() throws {
    // A half circle from (0,0) to (20,0), radius 10. Sweep flag 1 is the positive-angle
    // direction; in y-down space that passes over the top, through (10, -10).
    let over = try Path(svgPathData: "M0 0 A 10 10 0 0 1 20 0")
    #expect(over.currentPoint == Point(20, 0))
    let top = try #require(over.trimmed(from: 0, to: 0.5).currentPoint)
    #expect(abs(top.x - 10) < 0.01 && abs(top.y + 10) < 0.01)
    #expect(abs(over.length - .pi * 10) < 0.01)
    // Sweep flag 0 passes under, through (10, 10).
    let under = try Path(svgPathData: "M0 0 a10 10 0 0 0 20 0")
    let bottom = try #require(under.trimmed(from: 0, to: 0.5).currentPoint)
    #expect(abs(bottom.x - 10) < 0.01 && abs(bottom.y - 10) < 0.01)
    // The large-arc flag picks the longer of the two arcs of a smaller circle.
    let large = try Path(svgPathData: "M0 0 A 20 20 0 1 1 20 0")
    let small = try Path(svgPathData: "M0 0 A 20 20 0 0 1 20 0")
    #expect(large.length > 3 * small.length)
  }

  @Test func arcFlagsMayRunTogetherAndRadiiScaleUp() throws {
    // Radii too small are scaled up: a half circle of radius 5.
    let p = try Path(svgPathData: "M0 0a1 1 0 0010 0")
    #expect(p.currentPoint == Point(10, 0))
    #expect(abs(p.length - .pi * 5) < 0.01)
    // A zero radius is a straight line.
    #expect(try parse("M0 0 A 0 5 0 0 1 10 0")[1] == .line(to: Point(10, 0)))
  }

  @Test func numberForms() throws {
    #expect(
      try parse("M.5.5L-1-2l1e1,2E-1") == [
        .move(to: Point(0.5, 0.5)), .line(to: Point(-1, -2)), .line(to: Point(9, -1.8)),
      ])
  }

  @Test func relativeAfterCloseStartsFromTheSubpathStart() throws {
    #expect(try parse("M10 10 l5 0 z l0 5").last == .line(to: Point(10, 15)))
  }

  @Test(arguments: [
    ("L 1 1", 0, "path data must begin with a move command (M or m)"),
    ("M 0 0 X 1", 6, "expected a path command, found 'X'"),
    ("M 0 0 L 10", 10, "expected a number, found end of data"),
    ("M 0 0 L 10 ,", 12, "expected a number, found end of data"),
    ("M 1e 2", 2, "malformed exponent in number"),
    ("M 0 0 A 1 1 0 2 0 5 5", 14, "expected an arc flag (0 or 1), found '2'"),
    ("M 0 0 Z 1", 8, "unexpected number after close command"),
    ("M 0 0 L a b", 8, "expected a number, found 'a'"),
  ])
  func badDataIsRejectedWithTheOffsetOfTheBadToken(_ d: String, _ offset: Int, _ reason: String) {
    #expect(throws: SVGPathError(offset: offset, reason: reason)) { try Path(svgPathData: d) }
  }

  @Test func serializationRoundTrips() throws {
    let p = try Path(svgPathData: "M0.1 0 Q 1 2 3 4 C 1 1 2 2 3.25 -7 Z M 5 5 L 6 6")
    #expect(try Path(svgPathData: p.svgPathData) == p)
  }
}
