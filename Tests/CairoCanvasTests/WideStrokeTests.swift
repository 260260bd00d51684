import CairoCanvas
import Geometry
import Glibc
import Testing

/// Eighteenth pass: Cairo strokes a curve by offsetting it half the width to each side, and a
/// curve bending tighter than that turns its inner side inside out: a circle of radius 20
/// stroked 45 wide had a hole, and 200 or more wide drew nothing (a circle wipe, a Lottie mask
/// expanded past its radius, text stroked 1,000 wide). Such curves are stroked as chords.
@Suite struct WideStrokeTests {
  func covered(_ path: Path, width: Double, join: LineJoin = .miter) throws -> (Int, RGBA8) {
    let canvas = try Canvas(size: Size(100, 100))
    var style = StrokeStyle(lineWidth: width)
    style.lineJoin = join
    canvas.stroke(path, with: .black, style: style)
    let b = canvas.makeBitmap()
    var count = 0
    for y in 0..<100 {
      for x in 0..<100 where b[x, y].a > 127 { count += 1 }
    }
    return (count, b[50, 50])
  }

  @Test func aCircleStrokedWiderThanItsDiameterIsADisk() throws {
    let circle = Path(ellipseIn: Rect(30, 30, 40, 40))
    // Every point within half the width of the circle: a disk of radius 20 + w / 2.
    for width in [45.0, 100, 200, 1000, 1e6] {
      let (count, centre) = try covered(circle, width: width)
      #expect(centre.a == 255, "width \(width)")
      if width >= 100 { #expect(count == 10_000, "width \(width)") }
    }
    // 45 wide: a disk of radius 42.5, about 5,675 pixels.
    let (count, _) = try covered(circle, width: 45)
    #expect(abs(count - 5_675) < 100)
    // A rounded rectangle loses no side either.
    let rounded = Path(roundedRect: Rect(30, 30, 40, 40), cornerRadius: 10)
    #expect(try covered(rounded, width: 300).0 == 10_000)
  }

  /// Hostile pass 39: an OPEN curve bending tighter than half the width, stroked as chords,
  /// left the fan its width sweeps beyond the centre of curvature grey (each chord's
  /// rectangle covers only a chord's width of it) and its end caps askew (a full-turn arc
  /// drawn as a pac-man). Such paths are filled as the region their width sweeps.
  @Test func openCurvesTighterThanHalfTheWidthFillTheRegionTheySweep() throws {
    // A full-turn arc of radius 0.5, 20 wide, butt caps: a disc of radius 10.5, no notch.
    var arc = Path()
    arc.addArc(center: Point(50, 50), radius: 0.5, startAngle: 0, endAngle: 6.3, clockwise: true)
    let canvas = try Canvas(size: Size(100, 100))
    canvas.stroke(arc, with: .black, style: StrokeStyle(lineWidth: 20))
    let b = canvas.makeBitmap()
    for angle in stride(from: 0.0, to: 2 * Double.pi, by: 0.1) {
      for r in [1.0, 5, 9] {
        let x = Int(50 + r * cos(angle)), y = Int(50 + r * sin(angle))
        #expect(b[x, y].a >= 250, "angle \(angle), radius \(r): \(b[x, y].a)")
      }
    }
    // An open half circle of radius 3, 20 wide: the inner side, to 7 past the centre, solid.
    var half = Path()
    half.addArc(center: Point(50, 50), radius: 3, startAngle: .pi, endAngle: 0, clockwise: true)
    let halfCanvas = try Canvas(size: Size(100, 100))
    halfCanvas.stroke(half, with: .black, style: StrokeStyle(lineWidth: 20))
    let h = halfCanvas.makeBitmap()
    for x in 46...54 {
      for y in 44...49 { #expect(h[x, y].a >= 250, "(\(x), \(y)): \(h[x, y].a)") }
    }
    // The sweep ends square to the curve: nothing past the butt ends, below the centre line.
    #expect(h[50, 53].a == 255 && h[40, 51].a == 0 && h[60, 51].a == 0)
    // A line alone is its rectangle: the outline of a straight path is what Cairo strokes.
    var line = Path()
    line.move(to: Point(20, 50))
    line.addLine(to: Point(80, 50))
    let outline = try #require(
      line.sweptStrokeOutline(
        halfWidth: 5, cap: .butt, join: .miter, miterLimit: 10, tolerance: 0.1))
    let filled = try Canvas(size: Size(100, 100))
    filled.fill(outline, with: .black)
    let stroked = try Canvas(size: Size(100, 100))
    stroked.stroke(line, with: .black, style: StrokeStyle(lineWidth: 10))
    #expect(filled.makeBitmap() == stroked.makeBitmap())
  }

  /// Hostile passes 41 and 42: a dash pattern sent such curves back to chords (a dash longer
  /// than the path drew the grey fan again); a second, unrelated sub-path of many lines made
  /// the outline too large, and the whole path went back to chords; and where a control point
  /// lies on its end point, the end's direction was taken from points' differences, lost at
  /// coordinates of 1e6. Dashes are swept; only the tight sub-paths are, the rest stroked by
  /// Cairo in one group with them; and the direction comes from the control points.
  @Test func dashesOtherSubpathsAndFarCoordinatesKeepTheSweep() throws {
    func drawn(
      _ path: Path, _ style: StrokeStyle, color: Color = .black, offset: Double = 0
    )
      throws -> Bitmap
    {
      let canvas = try Canvas(size: Size(100, 100))
      canvas.translateBy(x: -offset, y: -offset)
      canvas.stroke(path, with: color, style: style)
      return canvas.makeBitmap()
    }
    var half = Path()
    half.addArc(center: Point(50, 50), radius: 3, startAngle: .pi, endAngle: 0, clockwise: true)
    let plain = try drawn(half, StrokeStyle(lineWidth: 20))
    var long = StrokeStyle(lineWidth: 20)
    long.dashPattern = [1_000, 1]
    #expect(try drawn(half, long) == plain)
    var lines = half
    lines.move(to: Point(10, 90))
    for i in 1...60_000 { lines.addLine(to: Point(10 + 80 * Double(i) / 60_000, 90)) }
    let withLines = try drawn(lines, StrokeStyle(lineWidth: 20))
    for y in 30..<70 {
      for x in 30..<70 { #expect(withLines[x, y] == plain[x, y], "(\(x), \(y))") }
    }
    // Translucent: where the swept arc and the stroked line overlap, drawn once.
    var crossing = half
    crossing.move(to: Point(10, 52))
    crossing.addLine(to: Point(90, 52))
    let blue = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
    let both = try drawn(crossing, StrokeStyle(lineWidth: 20), color: blue)
    #expect(both[50, 52] == both[85, 52] && both[85, 52].a == 128)
    // A cubic whose first control point is its start, far from the origin.
    func hook(at o: Double) -> Path {
      var p = Path()
      p.move(to: Point(o + 40, o + 60))
      p.addCurve(
        to: Point(o + 60, o + 60), control1: Point(o + 40, o + 60), control2: Point(o + 50, o + 40))
      return p
    }
    var square = StrokeStyle(lineWidth: 80)
    square.lineCap = .square
    let near = try drawn(hook(at: 0), square)
    let far = try drawn(hook(at: 1e6), square, offset: 1e6)
    let differing = zip(near.pixels, far.pixels).filter { abs(Int($0) - Int($1)) > 32 }.count
    #expect(differing == 0)
  }

  /// Hostile pass 41: the outline was made whole before its work was counted (40,000 tiny
  /// lines stroked 40,000 wide with round joins, each a disc of 1,000 points: 3.7 GB). It
  /// stops at its limit of points, and the renderer refuses such a stroke.
  @Test func anOutlineStopsAtItsLimitOfPoints() {
    var zigzag = Path()
    zigzag.move(to: Point(0, 0))
    for i in 1...100 { zigzag.addLine(to: Point(Double(i), Double(i % 2))) }
    let small = zigzag.sweptStrokeOutline(
      halfWidth: 1_000, cap: .butt, join: .round, miterLimit: 10, tolerance: 0.1)
    #expect(small != nil)
    let capped = zigzag.sweptStrokeOutline(
      halfWidth: 1_000, cap: .butt, join: .round, miterLimit: 10, tolerance: 0.1,
      maximumPoints: 5_000)
    #expect(capped == nil)
  }

  @Test func curvesBendingLessThanHalfTheWidthReachCairoAsThemselves() {
    let circle = Path(ellipseIn: Rect(30, 30, 40, 40))
    #expect(circle.flatteningCurves(tighterThan: 19, tolerance: 0.1) == circle)
    let chords = circle.flatteningCurves(tighterThan: 20.1, tolerance: 0.1)
    #expect(chords != circle && !chords.elements.contains(where: \.isCurveForTests))
    // Chords within the tolerance of the circle.
    for element in chords.elements {
      guard case .line(let p) = element else { continue }
      let r = ((p.x - 50) * (p.x - 50) + (p.y - 50) * (p.y - 50)).squareRoot()
      #expect(abs(r - 20) < 0.1)
    }
    // A loop bends tightest at its apex, wherever its ends are.
    var loop = Path()
    loop.move(to: Point(0, 0))
    loop.addCurve(to: Point(10, 0), control1: Point(10, 10), control2: Point(0, 10))
    #expect(loop.flatteningCurves(tighterThan: 5, tolerance: 0.1) != loop)
  }
}

extension Path.Element {
  fileprivate var isCurveForTests: Bool {
    switch self {
    case .quadCurve, .curve: return true
    default: return false
    }
  }
}
