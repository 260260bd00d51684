import CairoCanvas
import FlipbookTestSupport
import Glibc
import Testing

/// Issue 18, fifth pass: Cairo keeps coordinates in 24.8 fixed point, which wraps past about 8
/// million device pixels, and its stroker fails on lines over about half a million pixels wide.
/// Extreme but finite geometry is cut to a box round the canvas before Cairo sees it, so what
/// shows on the canvas is what the numbers say.
@Suite struct FarGeometryTests {
  let black = RGBA8(0, 0, 0, 255), clear = RGBA8(0, 0, 0, 0)

  func canvas(_ draw: (Canvas) -> Void) throws -> Bitmap {
    let canvas = try Canvas(size: Size(200, 200))
    draw(canvas)
    return canvas.makeBitmap()
  }

  func line(_ points: [Point]) -> Path {
    var path = Path()
    path.move(to: points[0])
    for p in points.dropFirst() { path.addLine(to: p) }
    return path
  }

  /// It was drawn as a short horizontal line.
  @Test func aLineToTenMillionPassesThroughTheCanvasAlongItsDirection() throws {
    let b = try canvas { c in
      c.stroke(
        line([Point(50, 50), Point(1e7, 1e7)]), with: .black, style: StrokeStyle(lineWidth: 4))
    }
    #expect(b[100, 100] == black && b[180, 180] == black && b[199, 199] == black)
    #expect(b[100, 60].a == 0 && b[40, 40].a == 0 && b[150, 50].a == 0)
  }

  /// Seventeenth pass: a line from 10^23 pixels away to the canvas, or from -10^300 to 10^300
  /// across it, was not drawn: its crossing of the box, reckoned from its far end, rounded onto
  /// its near end. Every such line draws what a line from just outside the canvas draws.
  @Test func linesFromAstronomicallyFarAwayAreDrawnWhereTheyCrossTheCanvas() throws {
    let down = try canvas { c in
      c.stroke(
        line([Point(50, 300), Point(50, 0)]), with: .black, style: StrokeStyle(lineWidth: 4))
    }
    for far in [1e22, 1e23, 1e100, 1e300] {
      let b = try canvas { c in
        c.stroke(
          line([Point(50, far), Point(50, 0)]), with: .black, style: StrokeStyle(lineWidth: 4))
      }
      let same = b == down
      #expect(same, "from \(far)")
    }
    let across = try canvas { c in
      c.stroke(
        line([Point(-1e300, 100), Point(1e300, 100)]), with: .black,
        style: StrokeStyle(lineWidth: 4))
    }
    #expect(across[0, 100] == black && across[100, 100] == black && across[199, 100] == black)
    // A triangle reaching 10^300 away keeps both its edges along the canvas's sides.
    var triangle = line([Point(0, 0), Point(1e300, 0), Point(0, 1e300)])
    triangle.closeSubpath()
    let t = try canvas { c in c.stroke(triangle, with: .black, style: StrokeStyle(lineWidth: 4)) }
    #expect(t[100, 0] == black && t[0, 100] == black && t[100, 100].a == 0)
    // Under a transform that scales 10^23 times, a unit line is as long as the canvas.
    let scaled = try canvas { c in
      c.concatenate(AffineTransform(a: 1e23, b: 0, c: 0, d: 1e23, tx: 100, ty: 0))
      c.stroke(
        line([Point(0, 1), Point(0, 0)]), with: .black, style: StrokeStyle(lineWidth: 4e-23))
    }
    #expect(scaled[100, 100] == black && scaled[100, 199] == black)
  }

  /// Seventeenth pass: Pixman samples images in 16.16 fixed point, and a source 32,768 pixels
  /// from the image (a `contentsRect` of `[8.1, 0, 1, 1]` on a 4,000-pixel sprite sheet) drew
  /// nothing. Beyond its edges an image's edge pixels repeat, however far.
  @Test func anImageSampledFarPastItsEdgesShowsItsEdgePixels() throws {
    let red = RGBA8(255, 0, 0, 255), green = RGBA8(0, 255, 0, 255)
    var picture = Bitmap(width: 4, height: 4, fill: green)
    for y in 0..<4 { picture[0, y] = red }
    func draw(_ source: Rect) throws -> Bitmap {
      try canvas { c in c.draw(picture, from: source, in: Rect(0, 0, 200, 200)) }
    }
    // Wholly past the right edge: the right column, green, however far.
    for x in [8.0, 32_768, 1e6, 1e300] {
      let b = try draw(Rect(x, 0, 4, 4))
      #expect(b[0, 0] == green && b[199, 199] == green && b[100, 100] == green, "at \(x)")
    }
    // 10^16 widths away (where minX + width - minX loses the width), and a source narrower
    // than a millionth of a pixel: the edge, and the pixel at its place.
    #expect(try draw(Rect(4e16, 0, 4, 4))[100, 100] == green)
    #expect(try draw(Rect(0, 0, 5e-324, 5e-324))[100, 100] == red)
    #expect(try draw(Rect(3.999, 0, 1e-17, 4))[100, 100] == green)
    // Wholly past the left edge: the left column, red.
    let left = try draw(Rect(-40_000, 0, 4, 4))
    #expect(left[0, 0] == red && left[199, 199] == red)
    // The image squeezed into the first 1/9,000 of the width, its right column repeated over
    // the rest, with no seam where the parts meet.
    let squeezed = try draw(Rect(0, 0, 36_000, 4))
    #expect((1..<200).allSatisfy { squeezed[$0, 100] == green })
    // Translucent pixels added up, not composited twice, where the parts meet.
    let half = Bitmap(width: 1, height: 1, fill: RGBA8(0, 0, 255, 128))
    let b = try canvas { c in
      c.draw(half, from: Rect(-20_000.5, 0, 40_002, 1), in: Rect(0, 0, 200, 200))
    }
    #expect((0..<200).allSatisfy { b[$0, 100] == b[0, 0] } && b[0, 0].a == 128)
  }

  /// Twenty-sixth pass: a part painted far wider than any canvas (a natural-size picture whose
  /// `contentsRect` is 10^6 to 10^15 images wide, its left end on the canvas) showed a blend,
  /// the image's other edge, or nothing: its rectangle and pattern passed Cairo's fixed point.
  /// The part is cut to the clip first.
  @Test func aPartPaintedFarWiderThanTheCanvasShowsItsNearEnd() throws {
    let red = RGBA8(255, 0, 0, 255), green = RGBA8(0, 255, 0, 255)
    var picture = Bitmap(width: 4, height: 4, fill: green)
    for y in 0..<4 { picture[0, y] = red }
    for e in [3.0, 6, 9, 12, 15] {
      let w = pow(10, e)
      // The source spans w images either side of this one, painted at one point a pixel.
      let b = try canvas { c in
        c.draw(picture, from: Rect(-w * 4, 0, 2 * w * 4 + 4, 4), in: Rect(0, 0, 8 * w + 4, 200))
      }
      #expect(b[0, 100] == red && b[199, 100] == red, "10^\(e)")
      let right = try canvas { c in
        c.draw(
          picture, from: Rect(-w * 4, 0, 2 * w * 4 + 4, 4),
          in: Rect(200 - (8 * w + 4), 0, 8 * w + 4, 200))
      }
      #expect(right[0, 100] == green && right[199, 100] == green, "10^\(e)")
    }
  }

  /// Lines 10^6 and 10^7 wide drew nothing and a band; any width past the canvas covers the
  /// same pixels (the butt caps still end the line where it ends).
  @Test func linesMillionsWideCoverWhatAnyVeryWideLineCovers() throws {
    func stroke(_ width: Double) throws -> Bitmap {
      try canvas { c in
        c.stroke(
          line([Point(10, 10), Point(190, 150), Point(120, 190)]), with: .black,
          style: StrokeStyle(lineWidth: width))
      }
    }
    let reference = try stroke(10_000)
    #expect(reference[100, 100] == black && reference[5, 5].a == 0)
    for width in [1e6, 1e7, 1e300] {
      let same = try stroke(width) == reference  // a Bool: a failing comparison prints no pixels
      #expect(same, "width \(width)")
    }
  }

  /// Fifteenth pass: Cairo bounds a mitered stroke by its width times its miter limit, in fixed
  /// point that wraps: a stroke of width 10 vanished at limits of 1e6, 1e9 and 1e20 (but not
  /// 1e7). Every limit past the join's miter ratio (about 2.1 here) draws the same stroke.
  @Test func aMiterLimitOfAnySizeDrawsTheSameStroke() throws {
    for width in [10.0, 50] {
      func stroke(_ limit: Double) throws -> Bitmap {
        try canvas { c in
          c.stroke(
            line([Point(20, 20), Point(120, 120), Point(20, 140)]), with: .black,
            style: StrokeStyle(lineWidth: width, lineJoin: .miter, miterLimit: limit))
        }
      }
      let reference = try stroke(100)
      #expect(reference[70, 70] == black)
      for limit in [1e5, 4e5, 1e6, 1e9, 1e10, 1e20, 1e300] {
        let same = try stroke(limit) == reference
        #expect(same, "width \(width), miter limit \(limit)")
      }
    }
  }

  /// A circle of radius 10^308 round the canvas, and a rectangle 10^308 wide, drew nothing.
  @Test func shapesOfAstronomicalSizeCoverTheCanvas() throws {
    let circle = try canvas { c in
      c.fill(
        Path(
          arcCenter: Point(100, 100), radius: 1e308, startAngle: 0, endAngle: 7, clockwise: true),
        with: .black)
    }
    #expect(circle[0, 0] == black && circle[100, 100] == black && circle[199, 199] == black)
    let rect = try canvas { c in
      c.translateBy(x: 100 - 5e307, y: 100 - 5e307)
      c.fill(Rect(0, 0, 1e308, 1e308), with: .black)
    }
    #expect(rect[0, 0] == black && rect[199, 199] == black)
    // A ring between radii 10^300 and 10^307: even-odd leaves the canvas (inside both) clear.
    var ring = Path(
      arcCenter: Point(100, 100), radius: 1e307, startAngle: 0, endAngle: 7, clockwise: true)
    ring.addPath(
      Path(arcCenter: Point(100, 100), radius: 1e300, startAngle: 0, endAngle: 7, clockwise: true))
    let evenOdd = try canvas { c in c.fill(ring, with: .black, rule: .evenOdd) }
    #expect(evenOdd[100, 100] == clear && evenOdd[0, 0] == clear)
    let nonZero = try canvas { c in c.fill(ring, with: .black) }
    #expect(nonZero[100, 100] == black)
  }

  /// A curve whose control points are at ±10^308 runs through the canvas along y = 100.
  @Test func aCurveWithFarControlPointsIsDrawnWhereItPasses() throws {
    var path = Path()
    path.move(to: Point(0, 100))
    path.addCurve(to: Point(200, 100), control1: Point(1e308, 100), control2: Point(-1e308, 100))
    let b = try canvas { c in c.stroke(path, with: .black, style: StrokeStyle(lineWidth: 4)) }
    #expect(b[5, 100] == black && b[100, 100] == black && b[195, 100] == black)
    #expect(b[100, 90].a == 0)
  }

  /// A dashed path that comes into the canvas from ten million points away keeps its dashes
  /// where they are when it comes from a hundred thousand (the distances differ by whole
  /// patterns), also where it leaves and comes back.
  @Test func dashesKeepTheirPlaceWhenAFarPathComesBack() throws {
    let pattern = Array(repeating: 5.0, count: 20) + [1000, 900]
    func stroke(from x: Double) throws -> Bitmap {
      try canvas { c in
        c.stroke(
          line([
            Point(x, 100), Point(150, 100), Point(150, 190), Point(x, 190), Point(x, 150),
            Point(100, 150),
          ]), with: .black, style: StrokeStyle(lineWidth: 4, dashPattern: pattern, dashPhase: 30))
      }
    }
    let near = try stroke(from: -100_000)
    #expect(near[2, 100] == black && near[8, 100].a == 0)  // the dashes are there
    let same = try stroke(from: -100_000 - 2_200 * 2_000) == near
    #expect(same)
  }

  /// A clip to a huge rectangle clips nothing; to one far away, everything.
  @Test func clipsToFarRectanglesAreRight() throws {
    let all = try canvas { c in
      c.clip(to: Path(rect: Rect(-1e12, -1e12, 2e12, 2e12)))
      c.fill(Rect(0, 0, 200, 200), with: .black)
    }
    #expect(all[0, 0] == black && all[199, 199] == black)
    let none = try canvas { c in
      c.clip(to: Path(rect: Rect(1e12, 1e12, 1, 1)))
      c.fill(Rect(0, 0, 200, 200), with: .black)
    }
    #expect(none[0, 0].a == 0 && none[199, 199].a == 0)
  }

  /// Radial gradient points at ±10^308 drew nothing: a radius of 10^308 about a point of the
  /// canvas shows the first color all over it, an axial gradient from -10^300 to 10^300 the
  /// middle, and an infinite radius (a unit point of 10^308 times a layer's size) its limit.
  @Test func gradientsOfAstronomicalSizeShowTheirColors() throws {
    let stops = [
      GradientStop(location: 0, color: .red), GradientStop(location: 1, color: .blue),
    ]
    let square = Path(rect: Rect(0, 0, 200, 200))
    for radius in [1e308, Double.infinity] {
      let radial = try canvas { c in
        c.fill(
          square, gradient: .radial(center: Point(100, 100), radii: Size(radius, radius)),
          stops: stops)
      }
      #expect(radial[0, 0] == RGBA8(255, 0, 0, 255) && radial[199, 100] == RGBA8(255, 0, 0, 255))
    }
    let axial = try canvas { c in
      c.fill(
        square, gradient: .axial(start: Point(-1e300, 100), end: Point(1e300, 100)), stops: stops)
    }
    #expect(axial[0, 0] == RGBA8(128, 0, 128, 255) || axial[0, 0] == RGBA8(127, 0, 128, 255))
    // Thirty-first pass: an axial span of 1e-8 to 1e-300 of a pixel drew all red, or all
    // purple; past its start every pixel is past its end, so it is a hard step there.
    for span in [1e-8, 1e-12] {
      let step = try canvas { c in
        c.fill(
          square, gradient: .axial(start: Point(100, 0), end: Point(100 + span, 0)), stops: stops)
      }
      #expect(step[50, 100] == RGBA8(255, 0, 0, 255) && step[150, 100] == RGBA8(0, 0, 255, 255))
    }
    let tiny = try canvas { c in
      c.fill(square, gradient: .axial(start: Point(0, 0), end: Point(1e-300, 0)), stops: stops)
    }
    #expect(tiny[50, 100] == RGBA8(0, 0, 255, 255) && tiny[150, 100] == RGBA8(0, 0, 255, 255))
  }

  /// Thirty-first pass: a radial gradient whose radius is a millionth of a pixel or less drew
  /// nothing (Pixman could not place the canvas's pixels in its unit circle). Every pixel but
  /// the center's is past the ellipse: the last color.
  @Test(arguments: [1e-6, 1e-8, 1e-12, 1e-300])
  func aTinyRadialGradientShowsItsLastColor(radius: Double) throws {
    let stops = [
      GradientStop(location: 0, color: .red), GradientStop(location: 1, color: .blue),
    ]
    let b = try canvas { c in
      c.fill(
        Path(rect: Rect(0, 0, 200, 200)),
        gradient: .radial(center: Point(100, 100), radii: Size(radius, radius * 3)), stops: stops)
    }
    for (x, y) in [(0, 0), (50, 100), (99, 99), (100, 101), (199, 199)] {
      #expect(b[x, y] == RGBA8(0, 0, 255, 255), "\(x), \(y)")
    }
  }

  /// A small radial gradient far from the canvas's corners is drawn pixel by pixel about its
  /// center and in its last color elsewhere: the same pixels as where Pixman draws it.
  @Test func aSmallRadialGradientOnAWideCanvasMatchesPixmans() throws {
    let stops = [
      GradientStop(location: 0, color: .red), GradientStop(location: 1, color: .blue),
    ]
    func draw(width: Int, center: Double) throws -> Bitmap {
      let canvas = try Canvas(pixelWidth: width, pixelHeight: 40)
      canvas.fill(
        Path(rect: Rect(0, 0, Double(width), 40)),
        gradient: .radial(center: Point(center, 20.5), radii: Size(3, 0.2)), stops: stops)
      return canvas.makeBitmap()
    }
    // 4,000 pixels wide, the farthest corner is 10,000 radii of 0.2 away: drawn by pixels.
    let wide = try draw(width: 4_000, center: 2_000.5)
    let narrow = try draw(width: 40, center: 20.5)
    var largest = 0
    for y in 15..<25 {
      for x in -8..<8 {
        let (p, q) = (wide[2_000 + x, y], narrow[20 + x, y])
        largest = max(
          largest, abs(Int(p.r) - Int(q.r)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
      }
    }
    #expect(largest <= 2)
    #expect(narrow[20, 20].r > 200 && narrow[21, 20].r > 0 && narrow[20, 21].r == 0)
    #expect(wide[100, 20] == RGBA8(0, 0, 255, 255) && wide[3_990, 5] == RGBA8(0, 0, 255, 255))
  }

  /// Geometry within reach of Cairo is given to it as it always was: the same pixels with or
  /// without the far part of a path that the canvas cannot show.
  @Test func nearGeometryIsUnchanged() throws {
    let near = try canvas { c in
      c.fill(line([Point(10, 10), Point(190, 30), Point(60, 170)]), with: .black)
    }
    let cut = try canvas { c in
      var path = line([Point(10, 10), Point(190, 30), Point(60, 170)])
      path.move(to: Point(1e9, 1e9))
      path.addLine(to: Point(1e9 + 1, 1e9))
      path.addLine(to: Point(1e9, 1e9 + 1))
      c.fill(path, with: .black)
    }
    let same = cut == near
    #expect(same)
  }
}
