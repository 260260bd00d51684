import Geometry
import Testing

@testable import CairoCanvas

/// Issue 18, hostile pass 31: glyphs whose em on the canvas passes `Canvas.largestOutlineEm`
/// (FreeType sizes glyphs in 16-bit pixels per em) take their outlines at that size and are
/// scaled up. Asked under the canvas's transform, Cairo put the context in an error state and
/// the rest of the frame came out blank.
@Suite struct HugeGlyphTests {
  /// The outline taken at `largestOutlineEm` and scaled matches the one Cairo makes under the
  /// canvas's transform, where both can be made.
  @Test func theScaledOutlineMatchesCairos() throws {
    let layout = try TextLayout.make("a漢g", style: TextStyle(fontSize: 50))
    var bitmaps: [Bitmap] = []
    for large in [false, true] {
      let canvas = try Canvas(pixelWidth: 600, pixelHeight: 300)
      canvas.scaleBy(x: 3, y: 3)
      let outlines: Path
      if large {
        outlines = canvas.largeGlyphOutlines(of: layout)
      } else {
        var direct = Path()
        canvas.withGlyphOutlines(of: layout, at: .zero) { direct = $0 }
        outlines = direct
      }
      #expect(!outlines.isEmpty)
      canvas.fill(outlines, with: .black)
      bitmaps.append(canvas.makeBitmap())
    }
    var largest = 0
    var inked = 0
    var differing = 0
    for y in 0..<300 {
      for x in 0..<600 {
        let (a, b) = (Int(bitmaps[0][x, y].a), Int(bitmaps[1][x, y].a))
        largest = max(largest, abs(a - b))
        if abs(a - b) > 4 { differing += 1 }
        if a > 128 { inked += 1 }
      }
    }
    #expect(inked > 10_000)
    // FreeType rounds outlines to 1/64 pixel at the size it makes them: at 150 pixels an em
    // edges move by a few hundredths of a pixel (18 levels of alpha at most, on under 1% of
    // the glyphs' pixels).
    #expect(largest <= 32 && differing * 100 < inked, "largest \(largest), \(differing) pixels")
  }

  /// Text at 20,000 pixels an em is drawn, and so is what comes after it in the frame.
  @Test(arguments: [20_000.0, 1e6])
  func hugeTextDrawsAndLeavesTheFrameDrawing(em: Double) throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    // DejaVu's full block covers the em box from below the ascent to the descent; the canvas
    // looks at a 100-pixel window well inside it.
    let layout = try TextLayout.make("█", style: TextStyle(fontName: "DejaVu Sans", fontSize: 10))
    let ink = layout.inkBounds
    let scale = em / 10
    canvas.save()
    canvas.scaleBy(x: scale, y: scale)
    canvas.translateBy(x: -(ink.midX), y: -(ink.midY))
    canvas.draw(layout, at: .zero, color: Color(red: 0, green: 0, blue: 1))
    canvas.restore()
    canvas.fill(Rect(0, 0, 10, 10), with: Color(red: 1, green: 0, blue: 0))
    let b = canvas.makeBitmap()
    #expect(b[50, 50] == RGBA8(0, 0, 255, 255))
    #expect(b[99, 99] == RGBA8(0, 0, 255, 255))
    #expect(b[5, 5] == RGBA8(255, 0, 0, 255))
  }

  /// Stroked text (a Lottie document's outline) takes the same outlines.
  @Test func hugeStrokedTextDraws() throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    let layout = try TextLayout.make("█", style: TextStyle(fontName: "DejaVu Sans", fontSize: 10))
    let ink = layout.inkBounds
    canvas.save()
    canvas.scaleBy(x: 3_000, y: 3_000)
    canvas.translateBy(x: -(ink.midX), y: -(ink.midY))
    canvas.draw(
      layout, at: .zero, color: Color(red: 0, green: 0, blue: 1),
      stroke: Canvas.TextStroke(color: .black, width: 0.001, overFill: true))
    canvas.restore()
    canvas.fill(Rect(0, 0, 10, 10), with: Color(red: 1, green: 0, blue: 0))
    let b = canvas.makeBitmap()
    #expect(b[50, 50] == RGBA8(0, 0, 255, 255))
    #expect(b[5, 5] == RGBA8(255, 0, 0, 255))
  }
}

/// Hostile pass 36: a picture over `ImageSurfaceCache.maxBytes` was premultiplied for each draw
/// (200 small layers of one 8000 x 8000 picture took 35 s a frame). One copy is made for the
/// whole process and shared by every canvas.
@Suite struct SharedLargeImageTests {
  @Test func aLargePictureIsPremultipliedOnceForEveryCanvas() throws {
    let bitmap = Bitmap(width: 4_200, height: 4_100, fill: RGBA8(255, 0, 0, 128))
    #expect(bitmap.width * bitmap.height * 4 > ImageSurfaceCache.maxBytes)
    let first = try #require(SharedPremultipliedPixels.pixels(for: bitmap))
    let again = try #require(SharedPremultipliedPixels.pixels(for: bitmap))
    #expect(first === again)
    var drawn: [RGBA8] = []
    for _ in 0..<2 {
      let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20)
      for k in 0..<3 { canvas.draw(bitmap, in: Rect(Double(k), 0, 10, 10)) }
      drawn.append(canvas.makeBitmap()[5, 5])
    }
    // Three half-opaque reds over one another: 1 - 0.5^3 of red.
    #expect(drawn[0] == drawn[1] && abs(Int(drawn[0].a) - 224) <= 1 && drawn[0].r == 255)
  }
}

/// Hostile pass 37: a square-capped stroke of a segment under 1/256 of a pixel (`M 50 50
/// L 50.001 50`) drew nothing: Cairo's fixed point lost its direction. It draws its square.
@Suite struct TinySquareCapTests {
  @Test(arguments: [0.001, 0.0001, 1e-9])
  func aTinySegmentDrawsItsSquareCaps(length: Double) throws {
    func covered(_ cap: LineCap) throws -> Int {
      let canvas = try Canvas(pixelWidth: 200, pixelHeight: 200)
      var path = Path()
      path.move(to: Point(50, 50))
      path.addLine(to: Point(50 + length, 50))
      canvas.stroke(
        path, with: .black,
        style: StrokeStyle(lineWidth: 120, lineCap: cap, lineJoin: .miter, miterLimit: 10))
      let b = canvas.makeBitmap()
      return b.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 128 }.count
    }
    // A 120 x 120 square about the segment, cut by the canvas at 0 on the left and top.
    #expect(try covered(.square) == 110 * 110)
    #expect(try covered(.butt) == 0)
  }

  /// Hostile pass 39: the lengthening was measured with one stretch for the whole transform,
  /// so a vertical segment under a scale of (1, 0.05) stayed under 1/256 of a pixel along
  /// itself and drew no square; and closed sub-paths (joins) and open ones with joins were
  /// not lengthened at all: a 0.001 x 0.001 square stroked 20 wide drew nothing where 0.005
  /// drew a 20 x 20 square. Sub-paths are measured in device pixels and magnified.
  @Test func tinySubpathsAreMeasuredInDevicePixelsAndKeepTheirJoins() throws {
    func covered(
      _ path: Path, width: Double, cap: LineCap = .butt, join: LineJoin = .miter,
      scaleY: Double = 1
    ) throws -> Int {
      let canvas = try Canvas(pixelWidth: 200, pixelHeight: 200)
      canvas.concatenate(AffineTransform(a: 1, b: 0, c: 0, d: scaleY, tx: 0, ty: 0))
      canvas.stroke(
        path, with: .black,
        style: StrokeStyle(lineWidth: width, lineCap: cap, lineJoin: join, miterLimit: 10))
      let b = canvas.makeBitmap()
      return b.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 128 }.count
    }
    var vertical = Path()
    vertical.move(to: Point(50, 1000))
    vertical.addLine(to: Point(50, 1000.0001))
    // 60 wide and 60 x 0.05 = 3 tall, about (50, 50).
    #expect(try covered(vertical, width: 60, cap: .square, scaleY: 0.05) == 60 * 3)
    let square = Path(rect: Rect(50, 50, 0.001, 0.001))
    #expect(try covered(square, width: 20) == 20 * 20)
    var triangle = Path()
    triangle.move(to: Point(50, 50))
    triangle.addLine(to: Point(50.001, 50))
    triangle.addLine(to: Point(50, 50.001))
    triangle.closeSubpath()
    // A disc of radius 10: about 314 pixels.
    let disc = try covered(triangle, width: 20, join: .round)
    #expect(abs(disc - 314) <= 12, "\(disc)")
    // A lone butt-capped segment draws nothing, as before.
    var segment = Path()
    segment.move(to: Point(50, 50))
    segment.addLine(to: Point(50.001, 50))
    #expect(try covered(segment, width: 20) == 0)
  }
}
