import CairoCanvas
import FlipbookTestSupport
import Glibc
import Testing

@Suite struct CanvasTests {
  @Test func pixelSizeIsSizeTimesScale() throws {
    let canvas = try Canvas(size: Size(40, 30), scale: 2)
    #expect(canvas.pixelWidth == 80 && canvas.pixelHeight == 60)
    #expect(canvas.size == Size(40, 30))
  }

  @Test func limitsAreEnforced() {
    #expect(throws: CanvasError.sizeOutOfRange(width: 16385, height: 1)) {
      try Canvas(pixelWidth: 16385, pixelHeight: 1)
    }
    #expect(throws: CanvasError.sizeOutOfRange(width: 8001, height: 8000)) {
      try Canvas(pixelWidth: 8001, pixelHeight: 8000)
    }
    #expect(throws: CanvasError.sizeOutOfRange(width: 0, height: 10)) {
      try Canvas(pixelWidth: 0, pixelHeight: 10)
    }
    #expect(throws: CanvasError.self) { try Canvas(size: Size(10_000, 10), scale: 2) }
  }

  @Test func pixelAlignedFillIsExactAndScaled() throws {
    let canvas = try Canvas(size: Size(10, 10), scale: 2)
    canvas.fill(Rect(2, 2, 3, 3), with: Color(red: 1, green: 0, blue: 0))
    let b = canvas.makeBitmap()
    #expect(b[4, 4] == RGBA8(255, 0, 0, 255))
    #expect(b[9, 9] == RGBA8(255, 0, 0, 255))
    #expect(b[10, 10] == RGBA8(0, 0, 0, 0))
    #expect(b[3, 3] == RGBA8(0, 0, 0, 0))
  }

  @Test func translucentColorsReadBackStraight() throws {
    let canvas = try Canvas(pixelWidth: 4, pixelHeight: 4)
    canvas.fill(Rect(0, 0, 4, 4), with: Color(red: 1, green: 0.5, blue: 0, alpha: 0.5))
    let p = canvas.makeBitmap()[1, 1]
    #expect(p.a == 128)
    #expect(p.r == 255 && abs(Int(p.g) - 128) <= 1 && p.b == 0)
  }

  @Test func transparencyGroupCompositesOverlapsOnce() throws {
    let canvas = try Canvas(pixelWidth: 30, pixelHeight: 10)
    canvas.drawInTransparencyGroup(opacity: 0.5) {
      canvas.fill(Rect(0, 0, 20, 10), with: .black)
      canvas.fill(Rect(10, 0, 20, 10), with: .black)
    }
    let b = canvas.makeBitmap()
    #expect(b[5, 5].a == 128)
    #expect(b[15, 5].a == 128)  // the overlap is not darker
    #expect(b[25, 5].a == 128)
  }

  @Test func clipLimitsDrawing() throws {
    let canvas = try Canvas(pixelWidth: 10, pixelHeight: 10)
    canvas.save()
    canvas.clip(to: Path(rect: Rect(0, 0, 5, 10)))
    canvas.fill(Rect(0, 0, 10, 10), with: .white)
    canvas.restore()
    let b = canvas.makeBitmap()
    #expect(b[2, 5] == RGBA8(255, 255, 255, 255))
    #expect(b[7, 5] == RGBA8(0, 0, 0, 0))
  }

  @Test func evenOddAndNonZeroRules() throws {
    var ring = Path(rect: Rect(0, 0, 10, 10))
    ring.addPath(Path(rect: Rect(3, 3, 4, 4)))  // same direction: non-zero fills the hole
    let a = try Canvas(pixelWidth: 10, pixelHeight: 10)
    a.fill(ring, with: .black, rule: .nonZero)
    #expect(a.makeBitmap()[5, 5].a == 255)
    let b = try Canvas(pixelWidth: 10, pixelHeight: 10)
    b.fill(ring, with: .black, rule: .evenOdd)
    #expect(b.makeBitmap()[5, 5].a == 0)
    #expect(b.makeBitmap()[1, 1].a == 255)
  }

  @Test func strokeWidthCapsAndDashes() throws {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 10)
    var line = Path()
    line.move(to: Point(5, 5))
    line.addLine(to: Point(35, 5))
    canvas.stroke(
      line, with: .black, style: StrokeStyle(lineWidth: 4, lineCap: .square, dashPattern: [10, 10]))
    let b = canvas.makeBitmap()
    #expect(b[4, 5].a == 255)  // square cap extends 2 before the start
    #expect(b[10, 3].a == 255 && b[10, 7].a == 0)  // width 4: rows 3...6
    #expect(b[20, 5].a == 0)  // a gap (15...25 minus the caps' 2 each side)
    #expect(b[28, 5].a == 255)
  }

  @Test func imagesAreSampledWithExtendedEdges() throws {
    var bitmap = Bitmap(width: 2, height: 2)
    bitmap[0, 0] = RGBA8(255, 0, 0, 255)
    bitmap[1, 0] = RGBA8(0, 255, 0, 255)
    bitmap[0, 1] = RGBA8(0, 0, 255, 255)
    bitmap[1, 1] = RGBA8(255, 255, 255, 255)
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20)
    canvas.draw(bitmap, in: Rect(0, 0, 20, 20))
    let b = canvas.makeBitmap()
    // Corners keep their color exactly: no fade into transparency at the border.
    #expect(b[0, 0] == RGBA8(255, 0, 0, 255))
    #expect(b[19, 0] == RGBA8(0, 255, 0, 255))
    #expect(b[0, 19] == RGBA8(0, 0, 255, 255))
    #expect(b[19, 19] == RGBA8(255, 255, 255, 255))
    // Bilinear in between.
    #expect(b[10, 0].r > 60 && b[10, 0].g > 60)
  }

  @Test func canvasesDrawIntoCanvases() throws {
    let offscreen = try Canvas(pixelWidth: 4, pixelHeight: 4)
    offscreen.fill(Rect(0, 0, 4, 4), with: .red)
    let canvas = try Canvas(pixelWidth: 8, pixelHeight: 8)
    canvas.draw(offscreen, in: Rect(4, 4, 4, 4))
    #expect(canvas.makeBitmap()[6, 6] == RGBA8(255, 0, 0, 255))
    #expect(canvas.makeBitmap()[2, 2] == RGBA8(0, 0, 0, 0))
  }
}

@Suite struct OffscreenCanvasTests {
  @Test func anOffscreenCanvasBecomesLayerContents() throws {
    // As the spinner article draws its frames: arcs stroked into an image at the screen scale.
    let canvas = try Canvas(size: Size(40, 40), scale: 2)
    canvas.strokeColor = Color(white: 0.5)
    canvas.strokeStyle.lineWidth = 6
    canvas.stroke(
      Path(arcCenter: Point(20, 20), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true))
    let image = canvas.makeImage(name: "frame-1")
    #expect(image.width == 80 && image.height == 80 && image.name == "frame-1")
    #expect(image.bitmap[2 * 30, 2 * 20].a == 255)  // on the arc, 10 pt right of the center
    #expect(image.bitmap[2 * 10, 2 * 20].a == 0)  // the left side is not drawn
  }
}
