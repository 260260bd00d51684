import Flipbook
import Glibc
import FlipbookTestSupport
import Testing

/// Issue 18, sixth pass: offscreen work was unbounded (10,000 blurred layers took over a
/// minute; a replicator of masked layers in a large frame, hours). A frame's groups and filters
/// are counted, at the size Cairo makes them, before each is made, and refused past
/// `LayerRenderer.maximumGroupPixelsPerFrame` and `maximumFilterPixelsPerFrame`.
@Suite struct OffscreenWorkTests {
  /// A white square of `side` points at the origin. Groups are made the size of what a layer
  /// draws: a square as large as the canvas makes a group of the whole canvas.
  func square(_ name: String, side: Double = 10) -> Layer {
    let layer = Layer()
    layer.name = name
    layer.frame = Rect(x: 0, y: 0, width: side, height: side)
    layer.backgroundColor = .white
    return layer
  }

  @Test func filtersPastTheFrameBudgetAreRefusedBeforeTheyRun() throws {
    #expect(LayerRenderer.maximumFilterPixelsPerFrame == 64_000_000)
    // 4096 x 4096 pixels a group: three filters fit (50 million), four do not (67 million).
    let canvas = try Canvas(pixelWidth: 4096, pixelHeight: 4096)
    let layer = square("blurred", side: 4096)
    layer.filters = Array(repeating: .gaussianBlur(radius: 0), count: 3)
    try LayerRenderer().draw(layer, in: canvas)
    layer.filters.append(.gaussianBlur(radius: 0))
    #expect(throws: RenderingError.tooMuchFilterWork(layer: "blurred")) {
      try LayerRenderer().draw(layer, in: canvas)
    }
  }

  @Test func groupsNestedPastTheMemoryLimitAreRefused() throws {
    #expect(LayerRenderer.maximumOpenGroupPixels == 256_000_000)
    // 8000 x 8000 pixels a group: four nested groups hold 256 million pixels, a fifth would
    // pass the limit (each layer of opacity 0.5 is a group the size of the frame).
    let canvas = try Canvas(pixelWidth: 8000, pixelHeight: 8000)
    func nested(_ depth: Int) -> Layer {
      let root = square("level 1", side: 8000)
      root.opacity = 0.5
      var inner = root
      for level in 2...depth {
        let next = square("level \(level)", side: 8000)
        next.opacity = 0.5
        inner.addSublayer(next)
        inner = next
      }
      return root
    }
    try LayerRenderer().draw(nested(4), in: canvas)
    #expect(throws: RenderingError.tooMuchOffscreenMemory(layer: "level 5")) {
      try LayerRenderer().draw(nested(5), in: canvas)
    }
  }

  /// The refusal names what is held: masks' contents and shadows' shapes too.
  @Test func theMemoryLimitSaysWhatIsHeld() {
    #expect(
      RenderingError.tooMuchOffscreenMemory(layer: "masked").description
        == "the frame would hold more than 256 million offscreen pixels at once, the limit, at "
        + "layer 'masked' (groups for opacity, blend mode, filters, masks (a content and its "
        + "mask) or shadows' shapes nested inside one another, each at its size in the frame)")
  }

  @Test func groupsPastTheFrameBudgetAreRefused() throws {
    #expect(LayerRenderer.maximumGroupPixelsPerFrame == 2_000_000_000)
    // A masked layer whose drawn box is not known (text may overflow its bounds) makes two
    // groups of the clip's size: 2 x 16.8 million pixels each, so the 60th instance passes two
    // billion.
    let canvas = try Canvas(pixelWidth: 4096, pixelHeight: 4096)
    let masked = square("masked")
    masked.addSublayer(TextLayer())
    masked.mask = square("mask")
    let copies = ReplicatorLayer()
    copies.addSublayer(masked)
    copies.instanceCount = 59
    try LayerRenderer().draw(copies, in: canvas)
    copies.instanceCount = 60
    #expect(throws: RenderingError.tooMuchOffscreenWork(layer: "masked")) {
      try LayerRenderer().draw(copies, in: canvas)
    }
    // A group clipped small counts its clip's pixels only.
    let clipped = Layer()
    clipped.frame = Rect(x: 0, y: 0, width: 10, height: 10)
    clipped.masksToBounds = true
    clipped.addSublayer(copies)
    copies.instanceCount = 10_000
    try LayerRenderer().draw(clipped, in: canvas)
  }

  /// Twenty-third hostile pass: groups were made the size of the clip, so 65 blurred icons of
  /// 20 points in a 1000 x 1000 frame spent the frame's filter budget as 65 full-frame layers
  /// (and as long). A group is the size of what its layer draws, on the pixel grid: 400 hue
  /// icons, blurred, fit the budgets many times over, and draw what they drew.
  @Test func groupsAreMadeTheSizeOfWhatTheirLayerDraws() throws {
    let canvas = try Canvas(pixelWidth: 1000, pixelHeight: 1000)
    let root = Layer()
    for i in 0..<400 {
      let icon = square("icon \(i)", side: 20)
      icon.position = Point(x: Double(i % 20) * 50 + 25, y: Double(i / 20) * 50 + 25)
      icon.filters = [.gaussianBlur(radius: 2)]
      icon.compositingFilter = .hue
      root.addSublayer(icon)
    }
    try LayerRenderer().draw(root, in: canvas)
    // 20 pixels, the blur's reach (4σ + 2 = 10) and 2 for antialiasing each side: 44 x 44.
    #expect(canvas.dashTally.filterPixels == 400 * 44 * 44)
    let drawn = canvas.makeBitmap()
    #expect(drawn[25, 25].a == 255 && drawn[3, 3].a == 0)  // an icon's middle, and far from it
    #expect(drawn[14, 25].a > 0 && drawn[14, 25].a < 255)  // its blurred edge
  }

  /// Thirty-first pass: a grouped layer whose drawn box reached 3e18 pixels left of the canvas
  /// (a sublayer far away) drew nothing: the box's near side was lost to rounding. The box is
  /// cut to the canvas first.
  @Test func aGroupWhoseBoxReachesFarAwayStillDraws() throws {
    let panel = square("panel", side: 200)
    panel.opacity = 0.999
    let far = square("far")
    far.position = Point(x: -3e18, y: 0)
    panel.addSublayer(far)
    let canvas = try Canvas(pixelWidth: 200, pixelHeight: 200)
    try LayerRenderer().draw(panel, in: canvas)
    #expect(canvas.makeBitmap()[100, 100].a > 250)
  }

  /// verify30: a blurred mask was cut to the masked layer's box before it was blurred, so the
  /// layer faded at the box's edges. A mask that filters is drawn whole.
  @Test func aBlurredMaskIsBlurredWhole() throws {
    let masked = square("masked", side: 20)
    masked.position = Point(x: 50, y: 50)
    let mask = square("mask", side: 100)
    mask.position = Point(x: 10, y: 10)  // reaching 40 points past the layer on every side
    mask.filters = [.gaussianBlur(radius: 6)]
    masked.mask = mask
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    try LayerRenderer().draw(masked, in: canvas)
    let drawn = canvas.makeBitmap()
    // 30 points (5 sigma) inside the mask's edge: opaque at the layer's corners and edges.
    for (x, y) in [(40, 40), (59, 59), (50, 40), (40, 50)] { #expect(drawn[x, y].a == 255) }
  }

  /// Twenty-third hostile pass: a blend mode's group is blended over every pixel of the clip
  /// (1,990 hue layers of 2 x 2 points in a 1000 x 1000 frame took 46 s, all within the
  /// budget). Each blend mode counts its measured cost: a hue layer 16 groups' work.
  @Test func blendModesCountTheirCostAgainstTheBudget() throws {
    #expect(LayerRenderer.compositingWeight(.hue) == 16)
    #expect(LayerRenderer.compositingWeight(.multiply) == 8)
    #expect(LayerRenderer.compositingWeight(.normal) == 1)
    // 4096 x 4096 (16.8 million pixels, 268 million at 16 times): the 8th hue layer's group
    // passes two billion, where 8 translucent ones do not.
    let canvas = try Canvas(pixelWidth: 4096, pixelHeight: 4096)
    let copies = ReplicatorLayer()
    let hue = square("hue", side: 4096)
    hue.compositingFilter = .hue
    copies.addSublayer(hue)
    copies.instanceCount = 7
    try LayerRenderer().draw(copies, in: canvas)
    copies.instanceCount = 8
    #expect(throws: RenderingError.tooMuchOffscreenWork(layer: "hue")) {
      try LayerRenderer().draw(copies, in: try Canvas(pixelWidth: 4096, pixelHeight: 4096))
    }
    hue.compositingFilter = .normal
    hue.opacity = 0.5
    try LayerRenderer().draw(copies, in: try Canvas(pixelWidth: 4096, pixelHeight: 4096))
  }

  @Test func aMaskDrawnAtALowerDensityComesBackToTheFramePixels() {
    // 2 x 2 opaque pixels at half density, its pixel (0, 0) at (1, 1) in those pixels: the
    // frame's pixels (2, 2) to (5, 5), with a bilinear edge around them.
    let low = AlphaMask(width: 2, height: 2, pixels: [255, 255, 255, 255])
    let mask = low.scaled(density: 0.5, origin: Point(x: 1, y: 1))
    #expect(mask.originX == 2 && mask.originY == 2)
    #expect(mask.width == 4 && mask.height == 4)
    #expect(mask[1, 1] == 255 && mask[2, 2] == 255 && mask[1, 2] == 255)
    #expect(mask[0, 0] == 143 && mask[3, 3] == 143)  // (0.75 x 0.75 of 255, rounded)
    #expect(mask[0, 1] == 191)  // 0.75 of 255
  }

  /// Issue 18, seventh pass: a shadow's blur was charged as a group only, so 10,000
  /// replicated full-frame shadows of radius 300 ran past a minute. Its blur is filter work
  /// over the shape's pixels, charged before it runs.
  @Test func aShadowsBlurIsChargedAsFilterWork() throws {
    // Three filters over a 4096 x 4096 group (50,331,648 pixels) and one over a group clipped
    // to 3600 x 3700 (13,320,000): 348,352 pixels left. A blur of σ 0.5 pixel reaches 2 pixels,
    // and its rows are a multiple of 4 long: a shadow's shape of 584 x 584 is blurred over
    // 588 x 588 (345,744 pixels) and still fits the 64 million, one of 585 x 585 (592 x 589,
    // 348,688) does not.
    let canvas = try Canvas(pixelWidth: 4096, pixelHeight: 4096)
    func frame(shadowSide side: Double) -> Layer {
      let root = Layer()
      let blurred = square("blurred", side: 4096)
      blurred.filters = Array(repeating: .gaussianBlur(radius: 0), count: 3)
      let clip = Layer()
      clip.frame = Rect(x: 0, y: 0, width: 3600, height: 3700)
      clip.masksToBounds = true
      let clipped = square("clipped", side: 4096)
      clipped.filters = [.gaussianBlur(radius: 0)]
      clip.addSublayer(clipped)
      let shadowed = square("shadowed")
      shadowed.frame = Rect(x: 0, y: 0, width: side, height: side)
      shadowed.shadowOpacity = 1
      shadowed.shadowRadius = 0.5
      shadowed.shadowOffset = Size(width: 10, height: 10)
      for layer in [blurred, clip, shadowed] { root.addSublayer(layer) }
      return root
    }
    let cache = ShadowCache()
    #expect(throws: RenderingError.tooMuchFilterWork(layer: "shadowed")) {
      try LayerRenderer(shadowCache: cache).draw(frame(shadowSide: 585), in: canvas)
    }
    try LayerRenderer(shadowCache: cache).draw(frame(shadowSide: 584), in: canvas)
    #expect(canvas.makeBitmap()[589, 589] == RGBA8(0, 0, 0, 255))  // the shadow, drawn
  }

  /// Session of 2026-11-25 (sixth): a shadow's shape was drawn in the frame grown by its
  /// offset on every side, so two layers larger than a 300 x 300 frame with shadows 5,000
  /// pixels down spent the frame's filter budget (one took 0.4 s and 340 MB). The shape is
  /// now drawn where its shadow falls: the frame grown by the blur's reach only.
  @Test func aShadowsShapeIsDrawnWhereTheShadowFalls() throws {
    let canvas = try Canvas(pixelWidth: 300, pixelHeight: 300)
    let root = Layer()
    for name in ["t0", "t1"] {
      let big = square(name, side: 100_000)
      big.position = Point(x: 150, y: 150)
      big.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
      big.shadowOpacity = 1
      big.shadowOffset = Size(width: 0, height: 5_000)
      root.addSublayer(big)
    }
    try LayerRenderer().draw(root, in: canvas)
    // Each layer and each shadow half covers: 1 - 0.5^4 of alpha.
    #expect((239...240).contains(canvas.makeBitmap()[150, 150].a))
    // A layer far off the frame whose shadow falls on it (CSS's "shadow only" trick).
    let small = try Canvas(pixelWidth: 300, pixelHeight: 300)
    let far = square("far", side: 100)
    far.frame = Rect(x: -4_900, y: 100, width: 100, height: 100)
    far.shadowOpacity = 1
    far.shadowRadius = 0
    far.shadowOffset = Size(width: 5_000, height: 0)
    try LayerRenderer().draw(far, in: small)
    let bitmap = small.makeBitmap()
    #expect(bitmap[150, 150] == RGBA8(0, 0, 0, 255))
    #expect(bitmap[100, 100] == RGBA8(0, 0, 0, 255) && bitmap[199, 199] == RGBA8(0, 0, 0, 255))
    #expect(bitmap[99, 150].a == 0 && bitmap[200, 150].a == 0 && bitmap[150, 99].a == 0)
  }

  /// A shadow found in the cache is not blurred again, but it is still placed over all its
  /// pixels: each copy counts its blurred shape as offscreen work.
  @Test func aCachedShadowIsChargedForItsPlacing() throws {
    // A 400 x 400 shape blurred with σ = 20 pixels: blurred once (a group of 160,000 pixels),
    // then placed by every instance.
    let canvas = try Canvas(pixelWidth: 400, pixelHeight: 400)
    let blurred = AlphaMask(width: 400, height: 400, pixels: Array(repeating: 255, count: 160_000))
      .blurred(sigma: 20)
    let placed = blurred.width * blurred.height
    let fits = (LayerRenderer.maximumGroupPixelsPerFrame - 160_000) / placed
    let shadowed = square("shadowed")
    shadowed.frame = Rect(x: 0, y: 0, width: 400, height: 400)
    shadowed.shadowOpacity = 1
    shadowed.shadowRadius = 20
    let copies = ReplicatorLayer()
    copies.addSublayer(shadowed)
    copies.instanceCount = fits
    let cache = ShadowCache()
    try LayerRenderer(shadowCache: cache).draw(copies, in: canvas)
    #expect(cache.statistics.misses == 1 && cache.statistics.hits == fits - 1)
    copies.instanceCount = fits + 1
    #expect(throws: RenderingError.tooMuchOffscreenWork(layer: "shadowed")) {
      try LayerRenderer(shadowCache: cache).draw(copies, in: canvas)
    }
  }

  /// Issue 18, tenth pass: a shadow's blur grew its shape by four times σ on every side, so
  /// `shadowRadius` 10,000 on a 60 x 60 layer asked for 25 GB and aborted (2,000 took 6 s and
  /// 1.3 GB). A blurred box over `ShadowCache.maximumWholeBlurPixels` is blurred only where
  /// the canvas can show it, with the same pixels there.
  @Test func aWideBlurCutToARegionHasTheWholeBlursPixelsThere() {
    var pixels = [UInt8](repeating: 0, count: 30 * 20)
    for y in 4..<16 { for x in 3..<25 { pixels[y * 30 + x] = UInt8(40 + x * 7) } }
    let shape = AlphaMask(width: 30, height: 20, originX: 5, originY: -7, pixels: pixels)
    for (sx, sy) in [(2.0, 2.0), (3.0, 9.0), (40.0, 40.0), (25.0, 0.0)] {
      let whole = shape.blurred(sigmaX: sx, sigmaY: sy)
      let region = (x0: -60, y0: 10, x1: 3, y1: 31)
      let crop = shape.blurCrop(sigmaX: sx, sigmaY: sy, within: region)!
      let part = shape.blurred(sigmaX: sx, sigmaY: sy, in: crop)
      #expect(part.width % 4 == 0)
      #expect(part.height == crop.output.y1 - crop.output.y0)
      // The buffer holds the shape and the kept part, nothing more.
      #expect(crop.buffer.x1 == 30 && crop.buffer.y0 == 0)
      for y in 0..<part.height {
        for x in 0..<part.width {
          let wx = part.originX + x - whole.originX, wy = part.originY + y - whole.originY
          #expect(part[x, y] == whole[wx, wy], "σ \(sx), \(sy) at \(x), \(y)")
        }
      }
    }
    // Past the blurred box on every side: nothing.
    #expect(shape.blurCrop(sigmaX: 2, sigmaY: 2, within: (100, 0, 120, 10)) == nil)
  }

  /// The alpha, 0...1, that a Gaussian of σ `sigma` gives pixel `p`'s centre from an opaque
  /// span `from` ..< `to` along one axis.
  static func gaussianCover(_ p: Int, sigma: Double, from: Double, to: Double) -> Double {
    let scale: Double = sigma * 2.0.squareRoot()
    let near: Double = erf((Double(p) + 0.5 - from) / scale)
    let far: Double = erf((Double(p) + 0.5 - to) / scale)
    return (near - far) / 2
  }

  /// A shadow whose blur runs at a lower density has its shape drawn there: a 60 x 60 layer
  /// scaled 100 times along x and turned, of radius 3,000 (σ about 290,000 pixels along x),
  /// drew a shape of 10 million pixels at the frame's density, averaged it down and took
  /// 0.13 s (100 of them 13 s); it is now drawn at 16,384 / 290,000 of the density.
  @Test func aWideShadowsShapeIsDrawnAtItsBlursDensity() throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    let layer = square("wide")
    layer.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
    layer.position = Point(x: 50, y: 50)
    layer.transform = Transform3D(AffineTransform.scale(x: 100, y: 1).concatenating(.rotation(0.3)))
    layer.shadowOpacity = 1
    layer.shadowRadius = 3_000
    try LayerRenderer(shadowCache: ShadowCache()).draw(layer, in: canvas)
    // Its shape's canvas and its placement over the frame: at the frame's density the shape
    // alone was 5,750 x 1,830 pixels (10.5 million).
    #expect(canvas.dashTally.groupPixels == 75_479)
    #expect(canvas.dashTally.filterPixels == 34_545)
  }

  /// A shadow of any radius is drawn within the canvas's pixels: its blur is charged over the
  /// box around the shape and the frame, and the pixels are the Gaussian's.
  @Test func aShadowOfAnyRadiusIsBlurredWithinTheFrame() throws {
    // 10,000 aborted allocating 25 GB; 1e6 draws nothing (no shadow reaches past any canvas).
    for radius in [600.0, 10_000, 300_000] {
      let canvas = try Canvas(pixelWidth: 320, pixelHeight: 200)
      let layer = square("shadowed")
      layer.frame = Rect(x: 20, y: 20, width: 300, height: 300)
      layer.backgroundColor = nil
      layer.shadowPath = Path(rect: Rect(x: 0, y: 0, width: 300, height: 300))
      layer.shadowOpacity = 1
      layer.shadowRadius = radius
      try LayerRenderer(shadowCache: ShadowCache()).draw(layer, in: canvas)
      // The box blurred: the shape (300 x 300 at 20, 20) and the frame moved by the default
      // offset (0, −3), grown by 2 pixels for the resampling: 324 x 319, no more. σ 300,000
      // is drawn and blurred at 16,384 / 300,000 of the frame's density (σ 16,367 there):
      // 24 x 20.
      let blurred = radius < 100_000 ? 324 * 319 : 24 * 20
      #expect(canvas.dashTally.filterPixels == Double(blurred), "radius \(radius)")
      let along = Self.gaussianCover(100, sigma: radius, from: 20, to: 320)
      let drawn = Double(canvas.makeBitmap()[100, 100].a)
      #expect(abs(drawn - along * along * 255) <= 1, "radius \(radius): \(drawn)")
    }
  }

  /// A shape wider than a canvas under a blur whose box passes the canvas limits is blurred at
  /// a lower density, within them, and scaled back.
  @Test func aShadowWiderThanACanvasIsBlurredAtALowerDensity() throws {
    let canvas = try Canvas(pixelWidth: 200, pixelHeight: 200)
    let layer = square("wide")
    let shape = Rect(x: -60_000, y: -1_000, width: 59_000, height: 2_200)
    layer.frame = shape
    layer.backgroundColor = nil
    layer.shadowPath = Path(rect: Rect(x: 0, y: 0, width: shape.width, height: shape.height))
    layer.shadowOpacity = 1
    layer.shadowRadius = 20_000
    try LayerRenderer(shadowCache: ShadowCache()).draw(layer, in: canvas)
    // Drawn at 0.28 of the frame's density (16,384 pixels across), then halved again so the
    // box around it and the frame fits 16,384 a side.
    #expect(canvas.dashTally.filterPixels > 0)
    #expect(canvas.dashTally.filterPixels < 8_300 * 400)
    let x = Self.gaussianCover(100, sigma: 20_000, from: shape.minX, to: shape.maxX)
    let y = Self.gaussianCover(100, sigma: 20_000, from: shape.minY, to: shape.maxY)
    let drawn = Double(canvas.makeBitmap()[100, 100].a)
    #expect(abs(drawn - x * y * 255) <= 1, "\(drawn), not \(x * y * 255)")
  }

  /// Issue 18, tenth pass: a luminance mask's pass over the mask's pixels was not counted, so
  /// Lottie's luma track mattes in an 8000 x 8000 frame reached the offscreen limit after 16 s
  /// (alpha mattes, 5.6 s). A mask counts its groups by its mode's cost: two for alpha, three
  /// inverted, six for luminance.
  @Test func masksCountTheirModesCost() throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 50)
    let expected: [MaskMode: Double] = [
      .alpha: 2, .alphaInverted: 3, .luminance: 6, .luminanceInverted: 6,
    ]
    for (mode, groups) in expected {
      let masked = square("masked", side: 100)
      masked.mask = square("mask")
      masked.maskMode = mode
      try LayerRenderer().draw(masked, in: canvas)
      #expect(canvas.dashTally.groupPixels == groups * 5_000, "\(mode)")
    }
  }
}

/// Errors found while drawing name the layer's place cut as the readers cut theirs: 250 nested
/// masks named a 1,250-character place in one line.
@Suite struct LayerLabelTests {
  @Test func aLongPlaceIsCutInItsMiddleBetweenKeys() {
    let place = "layers[0]" + String(repeating: ".mask", count: 250)
    let text = LayerLabel(name: nil, place: place).description
    #expect(text.utf8.count <= 220)
    #expect(text.hasPrefix("layer layers[0].mask.mask.") && text.hasSuffix(".mask.mask"))
    #expect(text.contains(".…") && text.contains(" more…."))
    #expect(LayerLabel(name: "a", place: "layers[2]").description == "layer 'a' (layers[2])")
  }

  /// Nineteenth hostile pass: a name was printed whole and raw, so a newline split the message
  /// in two, an escape sequence coloured the terminal and 1,000 characters made one line of
  /// 1,400. It is quoted as the readers quote values: escaped, cut to 40 characters.
  @Test func aNameIsEscapedAndCut() {
    #expect(
      LayerLabel(name: "evil\nnext\u{1B}[31mred").description
        == "layer 'evil\\u000Anext\\u001B[31mred'")
    let long = LayerLabel(name: String(repeating: "N", count: 1000) + "\u{202E}").description
    #expect(long == "layer '" + String(repeating: "N", count: 40) + "…'")
  }
}
