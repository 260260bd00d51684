import Flipbook
import Foundation
import FlipbookTestSupport
import Testing

/// Issue 18, seventh pass: Cairo's fills and strokes take time in their paths' lengths and in
/// the places their edges cross (a 99,000-line scribble stroked took 35 s, 100 copies of a
/// 20,000-line one over two minutes, 1,600 subtracted squares 8.5 s). A frame's path work is
/// counted before each path is drawn and refused past `LayerRenderer.maximumPathWorkPerFrame`.
@Suite struct PathWorkTests {
  /// A stroked shape layer named `name` whose path is `count` elements going back and forth
  /// over one 10-pixel line: `count - 1` lines of 10 pixels in a box of 11 x 1 pixels, so
  /// dense that its crossings are counted as its elements squared over 32.
  func scribble(_ name: String, elements count: Int) -> ShapeLayer {
    var path = Path()
    path.move(to: Point(x: 0, y: 5))
    for k in 1..<count { path.addLine(to: Point(x: k % 2 == 1 ? 10 : 0, y: 5)) }
    let layer = ShapeLayer()
    layer.name = name
    layer.path = path
    layer.fillColor = nil
    layer.strokeColor = .black
    return layer
  }

  @Test func aPathsWorkIsItsElementsItsLengthInPixelsAndItsCrossings() throws {
    // Elements, length, and crossings: at most the elements squared over 32 (here 25/32 of a
    // unit, under the length squared over eight times the box, 160,000 / (8 x 101²)).
    let square = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(square.elements.count == 5)
    let canvas = try Canvas(pixelWidth: 200, pixelHeight: 100)
    #expect(LayerRenderer.pathWork(of: square, on: canvas) == 5 + 400 + 25.0 / 32)
    let doubled = try Canvas(pixelWidth: 200, pixelHeight: 100, scale: 2)
    // At twice the density its bottom edge (y = 200 pixels) lies beyond the 100-pixel canvas
    // grown by half its height: three sides sweep rows.
    #expect(LayerRenderer.pathWork(of: square, on: doubled) == 5 + 600 + 25.0 / 32)
    // A line far longer than the canvas sweeps its rows once: counted as width plus height.
    var far = Path()
    far.move(to: Point(x: 0, y: 0))
    far.addLine(to: Point(x: 1e300, y: 1e300))
    #expect(LayerRenderer.pathWork(of: far, on: canvas) == 2 + 300 + 4.0 / 32)
    // A smooth curve of many elements crosses itself nowhere: 100,000 elements on a circle of
    // radius 40 cost their elements and length (about 251 pixels), and crossings under one
    // unit (the length squared over eight times its 81 x 81 box), not 100,000² / 32.
    var circle = Path()
    for k in 0..<100_000 {
      let angle = Double(k) / 100_000 * 2 * Double.pi
      let p = Point(x: 50 + 40 * cos(angle), y: 50 + 40 * sin(angle))
      if k == 0 { circle.move(to: p) } else { circle.addLine(to: p) }
    }
    let work = LayerRenderer.pathWork(of: circle, on: canvas)
    #expect(work > 100_000 + 251 && work < 100_000 + 252 + 1)
    // A path whose lines all lie beyond the canvas grown by half its size sweeps nothing
    // there: its elements alone.
    var away = Path()
    away.move(to: Point(x: 1000, y: 0))
    away.addLine(to: Point(x: 1010, y: 0))
    away.addLine(to: Point(x: 1000, y: 0))
    #expect(LayerRenderer.pathWork(of: away, on: canvas) == 3)
  }

  /// Seventeenth pass: a chart line 40,000 points long scrolled through a 1000 x 200 frame,
  /// about 100 of its segments on screen, was refused for the length and crossings of all of
  /// them. Lines beyond the canvas grown by half its size count their elements only.
  @Test func aLongPathMostlyOffTheCanvasCountsTheLinesNearIt() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 200)
    func zigzag(from x0: Double) -> Path {
      var path = Path()
      path.move(to: Point(x: x0, y: 0))
      for k in 1..<40_000 {
        path.addLine(to: Point(x: x0 + Double(k) * 10, y: k % 2 == 0 ? 0 : 200))
      }
      return path
    }
    let scrolled = LayerRenderer.pathWork(of: zigzag(from: -200_000), on: canvas)
    // 40,000 elements; the 200 lines within x -500...1500, each about 200 pixels long.
    #expect(scrolled > 40_000 + 200 * 200 && scrolled < 40_000 + 202 * 201 + 20_000)
    #expect(scrolled < Double(LayerRenderer.maximumPathWorkPerFrame) / 100)
  }

  /// Verification pass after the seventeenth: a stroke sweeps its outline's rows, so lines
  /// beyond the canvas still count when their stroke reaches it (99,998 lines 100 pixels past
  /// the region stroked 4,000 wide ran past two minutes), and every line of a wide stroke
  /// counts its width (a circle of 99,999 lines stroked 4,000 wide took 29 s, admitted).
  @Test func wideStrokesCountTheirWidthAndReach() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    var beyond = Path()
    beyond.move(to: Point(x: 1600, y: 0))
    beyond.addLine(to: Point(x: 1700, y: 1000))
    var wide = StrokeStyle(lineWidth: 4000)
    wide.lineJoin = .round
    // Unstroked (a fill's outline) it is beyond the region; stroked 4,000 wide it reaches in,
    // and sweeps 2,000 rows (the canvas's width plus height) beside its length.
    #expect(LayerRenderer.pathWork(of: beyond, on: canvas) == 2)
    let stroked = LayerRenderer.pathWork(of: beyond, on: canvas, stroke: wide)
    #expect(stroked > 2 + 1000 + 2000 && stroked < 2 + 1005 + 2000 + 100)
    // A narrow stroke counts its length only, as before.
    var line = Path()
    line.move(to: Point(x: 0, y: 0))
    line.addLine(to: Point(x: 100, y: 0))
    #expect(
      LayerRenderer.pathWork(of: line, on: canvas, stroke: StrokeStyle(lineWidth: 4))
        == LayerRenderer.pathWork(of: line, on: canvas))
    #expect(LayerRenderer.strokeSweep(StrokeStyle(lineWidth: 10), on: canvas) == 6)
    // Each dash sweeps the width, and round or square caps 8 times as much (5,600 round-capped
    // dashes 1,000 wide took 7.4 s, admitted).
    func dashWork(_ cap: LineCap) throws -> Double {
      let layer = ShapeLayer()
      layer.name = "dashed"
      layer.path = line
      layer.fillColor = nil
      layer.strokeColor = .black
      layer.lineWidth = 104
      layer.lineDashPattern = [5, 5]
      layer.lineCap = cap
      let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
      try LayerRenderer().draw(layer, in: canvas)
      return canvas.dashTally.pathWork
    }
    let butt = try dashWork(.butt), round = try dashWork(.round)
    #expect(round - butt == 10 * 100 * 7)  // 10 dashes, 100 rows past 4 each, 7 more times
  }

  /// Twenty-second hostile pass: a path wound 37 times round a circle of radius 8 (10,000
  /// lines of 0.2 pixels), stroked 50 wide, took a second to stroke and counted about 500,000
  /// units, so 20 of them (20 s) fit a frame. A wide stroke's crossings are its outline's:
  /// such a path counts its pairs (elements squared over 32), and the third is refused.
  @Test func aWideStrokeWoundOverItselfCountsItsOutlinesCrossings() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    var wound = Path()
    for i in 0..<10_000 {
      let a = 2 * Double.pi * Double(i) / 10_000 * 37
      let p = Point(x: 50 + 8 * cos(a), y: 50 + 8 * sin(a))
      if i == 0 { wound.move(to: p) } else { wound.addLine(to: p) }
    }
    wound.closeSubpath()
    var wide = StrokeStyle(lineWidth: 50)
    wide.lineJoin = .round
    let work = LayerRenderer.pathWork(of: wound, on: canvas, stroke: wide)
    #expect(work > 3_000_000 && work < 4_000_000, "\(work)")
    #expect(3 * work > Double(LayerRenderer.maximumPathWorkPerFrame))
    // Narrow, or unwound (a circle once round), it counts about its length and widths.
    #expect(
      LayerRenderer.pathWork(of: wound, on: canvas, stroke: StrokeStyle(lineWidth: 2)) < 20_000)
    var circle = Path()
    for i in 0..<10_000 {
      let a = 2 * Double.pi * Double(i) / 10_000
      let p = Point(x: 500 + 300 * cos(a), y: 500 + 300 * sin(a))
      if i == 0 { circle.move(to: p) } else { circle.addLine(to: p) }
    }
    #expect(LayerRenderer.pathWork(of: circle, on: canvas, stroke: wide) < 1_000_000)
  }

  @Test func pathsPastTheFrameBudgetAreRefusedBeforeTheyAreDrawn() throws {
    #expect(LayerRenderer.maximumPathWorkPerFrame == 10_000_000)
    let canvas = try Canvas(pixelWidth: 10, pixelHeight: 10)
    // 17,713 elements: 9,999,532 units; 17,714 make 10,000,650.
    try LayerRenderer().draw(scribble("scribble", elements: 17_713), in: canvas)
    let over = scribble("scribble", elements: 17_714)
    #expect(throws: RenderingError.tooMuchPathWork(layer: "scribble")) {
      try LayerRenderer().draw(over, in: canvas)
    }
    #expect(
      RenderingError.tooMuchPathWork(layer: "scribble").description
        == "the frame's paths and pictures would take more than 10 million units of work to "
        + "fill, stroke and draw, the limit, at layer 'scribble' (each fill and stroke counts its "
        + "path's elements, its length in pixels, the places its lines can cross and the pixels a "
        + "fill covers, and each picture, background and border the pixels it covers, for each "
        + "replicator instance, shadow and path operand)")
  }

  /// A fill counts the pixels it covers too, one unit for every 512, and so do a layer's
  /// background, gradient and contents (2,000 translucent full-frame backgrounds in an
  /// 8000 x 8000 frame took 68 s, counted by nothing; found by an independent hostile pass).
  @Test func fillsCountThePixelsTheyCover() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    #expect(
      LayerRenderer.fillWork(of: Rect(x: 0, y: 0, width: 1000, height: 1000), on: canvas)
        == 1_953.125)
    // Cut to the canvas: 500 x 5 pixels.
    let cut = LayerRenderer.fillWork(of: Rect(x: 500, y: -5, width: 1e9, height: 10), on: canvas)
    #expect(cut == 2_500.0 / 512)
    let square = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(
      LayerRenderer.pathWork(of: square, on: canvas, filled: true)
        == LayerRenderer.pathWork(of: square, on: canvas) + 10_000.0 / 512)
    func frame(_ elements: Int) -> Layer {
      let root = Layer()
      root.frame = Rect(0, 0, 1000, 1000)
      root.anchorPoint = .zero
      let backdrop = Layer()
      backdrop.name = "backdrop"
      backdrop.frame = Rect(0, 0, 1000, 1000)
      backdrop.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
      root.addSublayer(scribble("scribble", elements: elements))
      root.addSublayer(backdrop)
      return root
    }
    // 17,500 elements (9,762,802 units) and the backdrop's 1,953 fit; 17,713 (9,999,532) do not.
    try LayerRenderer().draw(frame(17_500), in: canvas)
    #expect(throws: RenderingError.tooMuchPathWork(layer: "backdrop")) {
      try LayerRenderer().draw(frame(17_713), in: canvas)
    }
  }

  /// Twenty-sixth pass: a shadow path is hashed and compared each time its shadow is looked
  /// up, once per replicator instance: 100,000 elements in 90,000 instances took 93 s, counted
  /// by nothing. Each lookup counts the path's elements, a unit each.
  @Test func aShadowPathCountsItsElementsEachTimeItsShadowIsPlaced() throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    // A circle of 10,000 sides (it crosses nothing).
    var circle = Path()
    circle.move(to: Point(10, 5))
    for i in 1..<10_000 {
      let angle = Double(i) / 10_000 * 2 * Double.pi
      circle.addLine(to: Point(5 + 5 * cos(angle), 5 + 5 * sin(angle)))
    }
    func copies(_ count: Int) -> Layer {
      let shadowed = Layer()
      shadowed.name = "shadowed"
      shadowed.frame = Rect(0, 0, 10, 10)
      shadowed.shadowOpacity = 1
      shadowed.shadowPath = circle
      let replicator = ReplicatorLayer()
      replicator.instanceCount = count
      replicator.addSublayer(shadowed)
      return replicator
    }
    // 10,000 elements an instance: 900 instances (and the first one's fill) fit the 10 million
    // units, 1,001 do not.
    try LayerRenderer().draw(copies(900), in: canvas)
    #expect(throws: RenderingError.tooMuchPathWork(layer: "shadowed")) {
      try LayerRenderer().draw(copies(1_001), in: canvas)
    }
  }

  /// Issue 18, tenth pass: gradients counted as plain fills, so 100 translucent full-frame
  /// axial gradients in an 8000 x 8000 frame were refused after 56 s (radial 138 s, and 10
  /// conic ones drew for 69 s). Each kind counts its measured cost per pixel, and its colors.
  @Test func gradientsCountTheirCostPerPixel() throws {
    #expect(LayerRenderer.gradientWeight(.axial, stops: 2) == 25.1)
    #expect(LayerRenderer.gradientWeight(.radial, stops: 2) == 45.1)
    #expect(LayerRenderer.gradientWeight(.conic, stops: 2) == 170.1)
    // Hostile pass 40: Pixman searches the stops again wherever a pixel passes one (a
    // diagonal gradient of 10,000 translucent colors took 17 s over a 1000 x 1000 frame,
    // counted a tenth of the budget): axial and radial gradients count half a unit a stop past
    // 64; conic ones look colors up in a table.
    #expect(LayerRenderer.gradientWeight(.axial, stops: 1_000) == 25 + 50 + 468)
    #expect(LayerRenderer.gradientWeight(.radial, stops: 64) == 45 + 3.2)
    #expect(LayerRenderer.gradientWeight(.conic, stops: 1_000) == 170 + 50)
    // Stops are counted as drawn: a pair whose alpha and color change is split into pieces.
    let translucent = [
      GradientStop(location: 0, color: Color(red: 1, green: 0, blue: 0, alpha: 0.1)),
      GradientStop(location: 1, color: .clear),
    ]
    #expect(Canvas.drawnStopCount(translucent) == 7)
    // Hostile pass 41: Cairo inserts stops one by one, going over those before: the set-up
    // counts the stops squared over 1,000, whatever the pixels.
    #expect(LayerRenderer.gradientSetupWork(stops: 10_000) == 100_000)
    // A 1000 x 1000 frame: 1,953.125 units a plain fill over it.
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    for type in GradientLayer.GradientType.allCases {
      let gradient = GradientLayer()
      gradient.name = "gradient"
      gradient.type = type
      gradient.frame = Rect(0, 0, 1000, 1000)
      gradient.colors = [Color(red: 1, green: 0, blue: 0, alpha: 0.1), .clear]
      try LayerRenderer().draw(gradient, in: canvas)
      let weight = LayerRenderer.gradientWeight(type, stops: 7)
      #expect(canvas.dashTally.pathWork == 1_953.125 * weight + 49.0 / 1_000, "\(type)")
    }
    // One conic gradient over an 8000 x 8000 frame (9 s) is 21 million units: refused before
    // it is drawn.
    let large = try Canvas(pixelWidth: 8000, pixelHeight: 8000)
    let conic = GradientLayer()
    conic.name = "conic"
    conic.type = .conic
    conic.frame = Rect(0, 0, 8000, 8000)
    conic.colors = [.white, .clear]
    #expect(throws: RenderingError.tooMuchPathWork(layer: "conic")) {
      try LayerRenderer().draw(conic, in: large)
    }
    #expect(large.makeBitmap()[4000, 4000] == RGBA8(0, 0, 0, 0))
  }

  /// Hostile pass 39: round caps counted nothing of their own, so 8,000 dots (one segment of
  /// 1e-6 each) stroked 1,000 wide with round caps, whose outlines cross one another, took
  /// 19 s within the limit. Each cap counts half its width in rows and its half disc's
  /// outline among the lines that can cross: 2,000 such dots (2 s) fit, 3,000 do not.
  @Test func roundCapsCountTheirOutlines() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    let stroke = StrokeStyle(lineWidth: 1000, lineCap: .round)
    func dots(_ count: Int) -> Path {
      var path = Path()
      var seed: UInt64 = 2
      func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53) * 1000
      }
      for _ in 0..<count {
        let (x, y) = (next(), next())
        path.move(to: Point(x: x, y: y))
        path.addLine(to: Point(x: x + 1e-6, y: y))
      }
      return path
    }
    #expect(LayerRenderer.openSubpathCount(of: dots(3)) == 3)
    var closed = Path(rect: Rect(0, 0, 10, 10))
    closed.addLine(to: Point(x: 5, y: 5))
    #expect(LayerRenderer.openSubpathCount(of: closed) == 1)
    let limit = Double(LayerRenderer.maximumPathWorkPerFrame)
    #expect(LayerRenderer.pathWork(of: dots(2_000), on: canvas, stroke: stroke) < limit)
    #expect(LayerRenderer.pathWork(of: dots(3_000), on: canvas, stroke: stroke) > limit)
    // Butt caps draw nothing beyond the segments: not counted.
    let butt = StrokeStyle(lineWidth: 1000, lineCap: .butt)
    #expect(LayerRenderer.pathWork(of: dots(3_000), on: canvas, stroke: butt) < limit / 2)
  }

  /// A stroke filled as the region it sweeps (an open curve tighter than half the width)
  /// counts that region's fill: its pieces overlap one another (100 full-turn arcs of radius 1
  /// stroked 1,000 wide took 10 s, counted as their arcs); 10 such arcs fit, 30 do not.
  @Test func aSweptStrokeCountsItsOutline() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    let stroke = StrokeStyle(lineWidth: 1000)
    func arcs(_ count: Int) -> Path {
      var path = Path()
      for i in 0..<count {
        let centre = Point(x: Double(i * 97 % 1000), y: Double(i * 389 % 1000))
        path.move(to: Point(x: centre.x + 1, y: centre.y))
        path.addArc(center: centre, radius: 1, startAngle: 0, endAngle: 6.2, clockwise: true)
      }
      return path
    }
    #expect(canvas.sweptStroke(of: arcs(1), style: stroke)?.outline != nil)
    let limit = Double(LayerRenderer.maximumPathWorkPerFrame)
    #expect(LayerRenderer.pathWork(of: arcs(10), on: canvas, stroke: stroke) < limit)
    #expect(LayerRenderer.pathWork(of: arcs(30), on: canvas, stroke: stroke) > limit)
  }

  @Test func everyReplicatorInstanceAndShadowPassCounts() throws {
    let canvas = try Canvas(pixelWidth: 10, pixelHeight: 10)
    // 1,000 elements: 42,240 units a copy; 236 copies stay under ten million, 237 pass it.
    let copies = ReplicatorLayer()
    copies.addSublayer(scribble("copy", elements: 1_000))
    copies.instanceCount = 236
    try LayerRenderer().draw(copies, in: canvas)
    copies.instanceCount = 237
    #expect(throws: RenderingError.tooMuchPathWork(layer: "copy")) {
      try LayerRenderer().draw(copies, in: canvas)
    }
    // A shadow's shape draws the path again: 12,700 elements are 5,180,002 units a pass, two
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
    // 300 squares over one another: every piece with all the others over it, about 166 x 300²
    // units (14.9 million), refused before anything is drawn.
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

  /// Issue 18, tenth pass: an intersected operand is filled with an unbounded operator
  /// (destination in) over its whole group, but was counted by its outline only: 8,000 random
  /// circles intersected in a 1000 x 1000 frame took 7.3 s. It counts the group's pixels.
  @Test func intersectedOperandsCountTheirGroupsPixels() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    func work(_ operation: PathOperation) throws -> Double {
      let layer = ShapeLayer()
      var path = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
      path.addPath(Path(rect: Rect(x: 50, y: 50, width: 100, height: 100)))
      layer.path = path
      layer.pathOperation = operation
      layer.fillColor = .white
      try LayerRenderer().draw(layer, in: canvas)
      return canvas.dashTally.pathWork
    }
    // The second square: the frame's 1,000,000 pixels over 512, not its own 10,000.
    #expect(try work(.intersect) - work(.union) == (1_000_000 - 10_000) / 512)
    #expect(try work(.subtract) == work(.union))
    #expect(canvas.makeBitmap()[120, 120] == RGBA8(255, 255, 255, 255))
  }
}

/// Fifteenth pass: pictures turned or in perspective counted as an unturned one, so 20 turned
/// full-frame copies of an 8000 x 8000 frame took 14 s and 20 planes 18 s within the budget.
@Suite struct PictureWorkTests {
  @Test func aTurnedPictureCountsItsGeneralSampling() throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    #expect(LayerRenderer.imageWeight(on: canvas) == 4)
    canvas.scaleBy(x: 3, y: 0.5)
    #expect(LayerRenderer.imageWeight(on: canvas) == 4)
    canvas.rotate(byRadians: 0.3)
    #expect(LayerRenderer.imageWeight(on: canvas) == 16)
  }

  /// A card in perspective drawn offscreen and warped counts the warp over the pixels it
  /// covers, 20 times a fill's, besides its picture drawn offscreen.
  @Test func aPlaneCountsItsWarpOverThePixelsItCovers() throws {
    let card = Layer()
    card.bounds = Rect(0, 0, 200, 120)
    card.position = Point(150, 100)
    card.contents = Image(Bitmap(width: 2, height: 2, fill: RGBA8(255, 0, 0, 255)))
    card.transform = Transform3D.perspective(distance: 500).rotated(0.6, x: 0, y: 1, z: 0)
    let flat = try Canvas(size: Size(300, 200))
    var renderer = LayerRenderer()
    renderer.drawsPlanesStraight = false
    try renderer.draw(card, in: flat)
    let drawn = flat.makeBitmap()
    let covered = Double(
      drawn.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 0 }.count)
    // The warp (20 a unit of 512 pixels) and the picture offscreen (4 a unit, at about the
    // plane's density): at least the warp, within a few percent at the card's edges.
    let work = flat.dashTally.pathWork
    #expect(work >= 20 * covered / 512 * 0.97)
    #expect(work <= 20 * covered / 512 * 1.03 + 4 * 4 * covered / 512)
  }
}

/// Fifteenth pass: a layer's border and glyphs filled as outlines were counted by nothing:
/// 2,000 frame-wide rounded borders took 16.6 s, and 10,000 copies of one CJK character at
/// 3,000 points 93 s for a frame.
@Suite struct BorderAndOutlineWorkTests {
  @Test func aBorderCountsAsTheFillItIs() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    let layer = Layer()
    layer.frame = Rect(0, 0, 1000, 1000)
    layer.borderWidth = 100
    layer.borderColor = .black
    try LayerRenderer().draw(layer, in: canvas)
    // The band's box covers the frame: 1,000,000 pixels, 1,953 units, and its elements.
    #expect(canvas.dashTally.pathWork >= 1_953)
  }

  @Test func glyphsFilledAsOutlinesCountTheirBoxes() throws {
    func work(fontSize: Double) throws -> Double {
      let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
      let text = TextLayer()
      text.frame = Rect(0, 0, 1000, 1000)
      text.string = "WW"
      text.fontSize = fontSize
      text.foregroundColor = .black
      try LayerRenderer().draw(text, in: canvas)
      return canvas.dashTally.pathWork
    }
    // Drawn from glyph images at 200 points: nothing; as outlines at 400: two boxes of 400².
    #expect(try work(fontSize: 200) == 0)
    #expect(try work(fontSize: 400) == 2 * 2 * 160_000 / 512)
  }
}
