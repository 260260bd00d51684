import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, seventh pass: Cairo's fills and strokes take time in their paths' lengths and in
/// the places their edges cross (a 99,000-line scribble stroked took 35 s, 100 copies of a
/// 20,000-line one over two minutes, 1,600 subtracted squares 8.5 s). A frame's path work is
/// counted before each path is drawn and refused past `LayerRenderer.maximumPathWorkPerFrame`.
@Suite struct PathWorkTests {
  /// A stroked shape layer named `name` whose path is `count` elements at one point: no
  /// length, so its work is its elements squared over 32.
  func scribble(_ name: String, elements count: Int) -> ShapeLayer {
    var path = Path()
    path.move(to: Point(x: 5, y: 5))
    for _ in 1..<count { path.addLine(to: Point(x: 5, y: 5)) }
    let layer = ShapeLayer()
    layer.name = name
    layer.path = path
    layer.fillColor = nil
    layer.strokeColor = .black
    return layer
  }

  @Test func aPathsWorkIsItsLengthInPixelsAndItsElementsSquared() throws {
    let square = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(square.elements.count == 5)
    let canvas = try Canvas(pixelWidth: 200, pixelHeight: 100)
    #expect(LayerRenderer.pathWork(of: square, on: canvas) == 400 + 25.0 / 32)
    let doubled = try Canvas(pixelWidth: 200, pixelHeight: 100, scale: 2)
    #expect(LayerRenderer.pathWork(of: square, on: doubled) == 800 + 25.0 / 32)
    // A line far longer than the canvas sweeps its rows once: counted as width plus height.
    var far = Path()
    far.move(to: Point(x: 0, y: 0))
    far.addLine(to: Point(x: 1e300, y: 1e300))
    #expect(LayerRenderer.pathWork(of: far, on: canvas) == 300 + 4.0 / 32)
  }

  @Test func pathsPastTheFrameBudgetAreRefusedBeforeTheyAreDrawn() throws {
    #expect(LayerRenderer.maximumPathWorkPerFrame == 10_000_000)
    let canvas = try Canvas(pixelWidth: 10, pixelHeight: 10)
    // 17,888 elements: 9,999,392 units; 17,889 make 10,000,510.
    try LayerRenderer().draw(scribble("scribble", elements: 17_888), in: canvas)
    let over = scribble("scribble", elements: 17_889)
    #expect(throws: RenderingError.tooMuchPathWork(layer: "scribble")) {
      try LayerRenderer().draw(over, in: canvas)
    }
    #expect(
      RenderingError.tooMuchPathWork(layer: "scribble").description
        == "the frame's paths would take more than 10 million units of work to fill and stroke, "
        + "the limit, at layer 'scribble' (each fill and stroke counts its path's length in "
        + "pixels and its elements squared over 32, for each replicator instance, shadow and "
        + "path operand)")
  }

  @Test func everyReplicatorInstanceAndShadowPassCounts() throws {
    let canvas = try Canvas(pixelWidth: 10, pixelHeight: 10)
    // 1,000 elements: 31,250 units a copy; 320 copies make ten million, 321 pass it.
    let copies = ReplicatorLayer()
    copies.addSublayer(scribble("copy", elements: 1_000))
    copies.instanceCount = 320
    try LayerRenderer().draw(copies, in: canvas)
    copies.instanceCount = 321
    #expect(throws: RenderingError.tooMuchPathWork(layer: "copy")) {
      try LayerRenderer().draw(copies, in: canvas)
    }
    // A shadow's shape draws the path again: 12,700 elements are 5,040,312 units a pass, two
    // passes pass the limit.
    let shadowed = scribble("shadowed", elements: 12_700)
    try LayerRenderer(shadowCache: ShadowCache()).draw(shadowed, in: canvas)
    shadowed.shadowOpacity = 1
    #expect(throws: RenderingError.tooMuchPathWork(layer: "shadowed")) {
      try LayerRenderer(shadowCache: ShadowCache()).draw(shadowed, in: canvas)
    }
  }

  @Test func combinedOperandsAreCountedBeforeAnyIsDrawn() throws {
    // Squares combined and stroked: each piece's stroke with the operands near it over it.
    func squares(_ n: Int, spread: Bool) -> ShapeLayer {
      var path = Path()
      for i in 0..<n {
        let (x, y) = spread ? (Double(i * 37 % 960), Double(i * 91 % 960)) : (0, 0)
        path.addPath(Path(rect: Rect(x: x, y: y, width: 40, height: 40)))
      }
      let layer = ShapeLayer()
      layer.name = "merged"
      layer.path = path
      layer.pathOperation = .subtract
      layer.fillColor = .white
      layer.strokeColor = .black
      layer.lineWidth = 2
      return layer
    }
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    // 300 squares over one another: every piece with all the others over it, about 161 x 300²
    // units (14.5 million), refused before anything is drawn.
    let piled = squares(300, spread: false)
    piled.pathOperation = .union
    #expect(throws: RenderingError.tooMuchPathWork(layer: "merged")) {
      try LayerRenderer().draw(piled, in: canvas)
    }
    #expect(canvas.makeBitmap()[20, 20].a == 0)  // nothing drawn
    // 900 squares spread out: each piece meets a few others (these all took 8.5 s for 1,600).
    try LayerRenderer().draw(squares(900, spread: true), in: canvas)
    let bitmap = canvas.makeBitmap()
    #expect(bitmap[20, 20] == RGBA8(255, 255, 255, 255))  // the first square, filled
    #expect(bitmap[39, 20] == RGBA8(0, 0, 0, 255) && bitmap[40, 20] == RGBA8(0, 0, 0, 255))
  }
}
