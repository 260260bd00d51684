import Flipbook
import FlipbookTestSupport
import Testing

/// Pixel facts of Core Animation's drawing order, checked exactly.
@Suite struct LayerRenderingTests {
  func render(
    _ build: (Scene) -> Void, size: Size = Size(20, 20), scale: Double = 1
  ) throws -> Bitmap {
    let scene = Scene(size: size, scale: scale)
    build(scene)
    return try scene.makeFrame(at: 0).makeBitmap()
  }

  func square(_ frame: Rect, _ color: Color) -> Layer {
    let l = Layer()
    l.frame = frame
    l.backgroundColor = color
    return l
  }

  @Test func borderIsDrawnOverSublayers() throws {
    let b = try render { scene in
      let parent = square(Rect(0, 0, 20, 20), .white)
      parent.borderWidth = 4
      parent.borderColor = .blue
      parent.addSublayer(square(Rect(0, 0, 20, 20), .red))
      scene.addLayer(parent)
    }
    #expect(b[1, 10] == RGBA8(0, 0, 255, 255))
    #expect(b[10, 10] == RGBA8(255, 0, 0, 255))
  }

  @Test func groupOpacityDoesNotShowOverlaps() throws {
    let b = try render { scene in
      let parent = Layer()
      parent.frame = Rect(0, 0, 20, 20)
      parent.opacity = 0.5
      parent.addSublayer(square(Rect(0, 0, 15, 20), .red))
      parent.addSublayer(square(Rect(5, 0, 15, 20), .blue))
      scene.addLayer(parent)
    }
    #expect(b[10, 10] == RGBA8(0, 0, 255, 128))
    #expect(b[2, 10] == RGBA8(255, 0, 0, 128))
  }

  @Test func masksToBoundsClipsSublayersButNotTheBorder() throws {
    let b = try render { scene in
      let parent = Layer()
      parent.frame = Rect(5, 5, 10, 10)
      parent.masksToBounds = true
      parent.addSublayer(square(Rect(-5, -5, 20, 20), .green))
      scene.addLayer(parent)
    }
    #expect(b[2, 2] == RGBA8(0, 0, 0, 0))
    #expect(b[10, 10] == RGBA8(0, 255, 0, 255))
  }

  @Test func hiddenAndZeroOpacityLayersDrawNothing() throws {
    let b = try render { scene in
      let hidden = square(Rect(0, 0, 20, 20), .red)
      hidden.isHidden = true
      let clear = square(Rect(0, 0, 20, 20), .red)
      clear.opacity = 0
      scene.addLayer(hidden)
      scene.addLayer(clear)
    }
    #expect(b.pixels.allSatisfy { $0 == 0 })
  }

  @Test func zPositionOrdersSiblings() throws {
    let b = try render { scene in
      let top = square(Rect(0, 0, 20, 20), .red)
      top.zPosition = 1
      scene.addLayer(top)
      scene.addLayer(square(Rect(0, 0, 20, 20), .blue))
    }
    #expect(b[10, 10] == RGBA8(255, 0, 0, 255))
  }

  @Test func sceneScaleMultipliesPixels() throws {
    let b = try render({ scene in scene.addLayer(square(Rect(5, 5, 5, 5), .red)) }, scale: 3)
    #expect(b.width == 60)
    #expect(
      b[15, 15] == RGBA8(255, 0, 0, 255) && b[29, 29] == RGBA8(255, 0, 0, 255) && b[30, 30].a == 0)
  }

  @Test func shapeIsDrawnBetweenContentsAndSublayers() throws {
    let b = try render { scene in
      let shape = ShapeLayer()
      shape.frame = Rect(0, 0, 20, 20)
      shape.backgroundColor = .red
      shape.path = Path(rect: Rect(0, 0, 10, 20))
      shape.fillColor = .green
      shape.addSublayer(square(Rect(0, 0, 5, 20), .blue))
      scene.addLayer(shape)
    }
    #expect(b[2, 10] == RGBA8(0, 0, 255, 255))
    #expect(b[7, 10] == RGBA8(0, 255, 0, 255))
    #expect(b[15, 10] == RGBA8(255, 0, 0, 255))
  }

  /// Issue 18: a stroke of millions of dashes took a minute and a gigabyte a frame. Past
  /// `StrokeStyle.maximumDashCount` (its path's length over its pattern's, times the dashes in
  /// one pattern) the renderer refuses it by the layer's name, before drawing a dash, and so
  /// past `StrokeStyle.maximumDashCountPerFrame` for all of a frame's strokes; an animation that
  /// lengthens the path reaches these checks at the frame where it passes.
  /// Issue 18: an estimate past 10^15 (infinite for an overflowing length) said "about inf".
  @Test func aDashEstimatePastTenToTheFifteenIsABound() {
    #expect(
      RenderingError.tooManyDashes(layer: "dashed", count: .infinity).description
        == "layer 'dashed' would stroke more than 10^15 dashes (its path's length over its dash "
        + "pattern's), over the limit of 100000")
    #expect(
      RenderingError.tooManyDashes(layer: nil, count: 500_000.4).description
        == "layer (unnamed) would stroke about 500000 dashes (its path's length over its dash "
        + "pattern's), over the limit of 100000")
  }

  @Test func aStrokeOfTooManyDashesIsRefusedByName() throws {
    func dashed(length: Double) -> ShapeLayer {
      let shape = ShapeLayer()
      shape.name = "dashed"
      var line = Path()
      line.move(to: Point(0, 10))
      line.addLine(to: Point(length, 10))
      shape.path = line
      shape.fillColor = nil
      shape.strokeColor = .black
      shape.lineDashPattern = [1, 1]
      return shape
    }
    let canvas = try Canvas(size: Size(20, 20))
    try LayerRenderer().draw(dashed(length: 200_000), in: canvas)  // 100,000 dashes
    do {
      try LayerRenderer().draw(dashed(length: 1_000_000), in: canvas)
      Issue.record("a million points of 1-point dashes were drawn")
    } catch .tooManyDashes(let name, let count) {
      #expect(name == "dashed" && abs(count - 500_000) < 1)
    } catch {
      Issue.record("unexpected \(error)")
    }
    // Trimmed to a tenth, the same path draws 50,000 dashes.
    let trimmed = dashed(length: 1_000_000)
    trimmed.strokeEnd = 0.1
    try LayerRenderer().draw(trimmed, in: canvas)
    // Every stroke of a frame together: eleven copies of 100,000 dashes pass the million (ten
    // do not, and each drawing counts from zero).
    let copies = ReplicatorLayer()
    copies.instanceCount = 10
    copies.addSublayer(dashed(length: 200_000))
    try LayerRenderer().draw(copies, in: canvas)
    try LayerRenderer().draw(copies, in: canvas)
    copies.instanceCount = 11
    #expect(throws: RenderingError.tooManyDashesInFrame(layer: "dashed")) {
      try LayerRenderer().draw(copies, in: canvas)
    }
  }
}
