import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

/// Pixel facts of shadows, masks, gradients and replicators (visual-effects.md §1, §2, §4, §6),
/// checked against hand-computed values.
@Suite struct EffectsRenderingTests {
  func render(_ size: Size, scale: Double = 1, _ build: (Scene) -> Void) throws -> Bitmap {
    let scene = Scene(size: size, scale: scale)
    build(scene)
    return try scene.makeFrame(at: 0).makeBitmap()
  }

  /// The Gaussian's cumulative distribution: the profile of a blurred straight edge.
  func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.squareRoot())) }

  @Test(arguments: [1.5, 4.0, 10.0])
  func shadowSigmaIsShadowRadiusMeasuredFromItsEdge(radius: Double) throws {
    // A shadow-only layer: a shadow path far larger than the blur, nothing else drawn.
    let b = try render(Size(200, 40)) { scene in
      let l = Layer()
      l.frame = Rect(0, 0, 200, 40)
      l.shadowOpacity = 1
      l.shadowRadius = radius
      l.shadowOffset = Size(0, 0)
      l.shadowPath = Path(rect: Rect(100, -100, 400, 300))
      scene.addLayer(l)
    }
    // Alpha across the edge at x = 100 is Φ((x + 0.5 − 100) / σ) for pixel centres.
    var worst = 0.0
    for x in 60..<140 {
      let expected = phi((Double(x) + 0.5 - 100) / radius) * 255
      worst = max(worst, abs(Double(b[x, 20].a) - expected))
    }
    #expect(worst <= 3, "largest difference from the Gaussian's edge: \(worst) levels")
    // σ from the profile: the 15.87 % and 84.13 % crossings are 2σ apart.
    func crossing(_ level: Double) -> Double {
      for x in 60..<140 where Double(b[x, 20].a) >= level * 255 {
        let a0 = Double(b[x - 1, 20].a), a1 = Double(b[x, 20].a)
        return Double(x) - 1 + (level * 255 - a0) / (a1 - a0) + 0.5
      }
      return .nan
    }
    let sigma = (crossing(0.8413) - crossing(0.1587)) / 2
    #expect(abs(sigma - radius) < 0.1 * radius + 0.15, "measured σ \(sigma)")
  }

  /// σ measured from the profile `alpha(t)` of a blurred edge at `edge` (pixel centres at
  /// t + 0.5): the 15.87 % and 84.13 % crossings are 2σ apart.
  func sigma(of alpha: (Int) -> UInt8, across range: Range<Int>) -> Double {
    func crossing(_ level: Double) -> Double {
      for t in range where Double(alpha(t)) >= level * 255 {
        let a0 = Double(alpha(t - 1)), a1 = Double(alpha(t))
        return Double(t) - 1 + (level * 255 - a0) / (a1 - a0) + 0.5
      }
      return .nan
    }
    return (crossing(0.8413) - crossing(0.1587)) / 2
  }

  @Test(arguments: [(3.0, 1.0), (1.0, 2.5), (-2.0, 1.5)])
  func shadowBlurScalesAlongEachAxisOfTheLayer(sx: Double, sy: Double) throws {
    // A layer scaled by (sx, sy): its shadow's blur of σ = 4 points in its own space is
    // 4·|sx| pixels across a vertical edge and 4·|sy| down a horizontal one (where the round
    // blur of σ = 4·√|sx·sy| was drawn before).
    let radius = 4.0
    let b = try render(Size(600, 300)) { scene in
      let l = Layer()
      l.bounds = Rect(0, 0, 100, 100)
      l.position = Point(200, 100)
      l.transform = .scale(x: sx, y: sy)
      l.shadowOpacity = 1
      l.shadowRadius = radius
      l.shadowOffset = Size(0, 0)
      // Corner at the layer's centre (device (200, 100)), reaching far right and down (a
      // negative sx flips the layer, so the path then reaches left in the layer's space).
      l.shadowPath = Path(rect: Rect(sx < 0 ? -950 : 50, 50, 1000, 1000))
      scene.addLayer(l)
    }
    let sigmaX = radius * abs(sx), sigmaY = radius * abs(sy)
    // Across the vertical edge at x = 200, on a row 5σy below the horizontal edge; down the
    // horizontal edge at y = 100, on a column 5σx inside.
    let row = 100 + Int(5 * sigmaY), column = 200 + Int(5 * sigmaX)
    let reachX = Int(4 * sigmaX), reachY = Int(4 * sigmaY)
    let alongX: (Int) -> UInt8 = { b[$0, row].a }
    let measuredX = sigma(of: alongX, across: (200 - reachX)..<(200 + reachX))
    let measuredY = sigma(of: { b[column, $0].a }, across: (100 - reachY)..<(100 + reachY))
    #expect(abs(measuredX - sigmaX) < 0.05 * sigmaX + 0.15, "σ across x: \(measuredX)")
    #expect(abs(measuredY - sigmaY) < 0.05 * sigmaY + 0.15, "σ down y: \(measuredY)")
    // The whole profile is the Gaussian's Φ along each axis.
    var worst = 0.0
    for x in (200 - reachX)..<(200 + reachX) {
      worst = max(worst, abs(Double(alongX(x)) - phi((Double(x) + 0.5 - 200) / sigmaX) * 255))
    }
    for y in (100 - reachY)..<(100 + reachY) {
      worst = max(worst, abs(Double(b[column, y].a) - phi((Double(y) + 0.5 - 100) / sigmaY) * 255))
    }
    #expect(worst <= 3, "largest difference from Φ: \(worst) levels")
  }

  @Test func deviceSigmasKeepTheBlursSpreadAlongEachDeviceAxis() {
    // An axis-aligned scale: the radius times each scale; turned a quarter, the axes swap; a
    // uniform scale turned any angle: round. A non-uniform scale turned 30°: each device axis
    // gets the spread of the layer-space blur along it, √(sx² cos² + sy² sin²) and so on.
    let r = 2.0
    typealias Affine = Geometry.AffineTransform
    func sigmas(_ t: Affine) -> (x: Double, y: Double) {
      ShadowCache.deviceSigmas(radius: r, transform: t)
    }
    let stretched = sigmas(.scale(x: 3, y: 1)), flipped = sigmas(.scale(x: -3, y: 0.5))
    #expect(stretched.x == 6 && stretched.y == 2)
    #expect(flipped.x == 6 && flipped.y == 1)
    let quarter = Affine.scale(x: 3, y: 1).concatenating(.rotation(.pi / 2))
    #expect(abs(sigmas(quarter).x - 2) < 1e-12 && abs(sigmas(quarter).y - 6) < 1e-12)
    let round = Affine.scale(x: 2, y: 2).concatenating(.rotation(0.7))
    #expect(abs(sigmas(round).x - 4) < 1e-12 && abs(sigmas(round).y - 4) < 1e-12)
    let turned = Affine.scale(x: 3, y: 1).concatenating(.rotation(.pi / 6))
    let (c, s) = (cos(Double.pi / 6), sin(Double.pi / 6))
    #expect(abs(sigmas(turned).x - r * (9 * c * c + s * s).squareRoot()) < 1e-12)
    #expect(abs(sigmas(turned).y - r * (9 * s * s + c * c).squareRoot()) < 1e-12)
  }

  @Test(arguments: [2.0, 3.3, 5.9, 6.0, 7.0, 20.0, 40.0, 100.0])
  func blurMatchesTheGaussianWithinALevel(sigma: Double) {
    // A vertical edge in a mask wide and tall enough that the samples (4σ either side of it,
    // on the middle row) are 5σ from every other edge: the blurred profile is Φ at every pixel
    // centre. Below σ 6 a kernel cut at 3σ (within a level); above, Deriche's recursive
    // Gaussian, whose error is the rounding to whole levels (half a level) and a tenth more.
    let width = Swift.max(600, Int(18 * sigma)), height = Swift.max(440, Int(10 * sigma))
    let edge = width / 2
    let mask = AlphaMask(
      width: width, height: height,
      pixels: (0..<(width * height)).map { $0 % width < edge ? 0 : 255 })
    let blurred = mask.blurred(sigma: sigma)
    var worst = 0.0
    for x in (edge - Int(4 * sigma))..<(edge + Int(4 * sigma)) {
      let expected = phi((Double(x) + 0.5 - Double(edge)) / sigma) * 255
      worst = max(
        worst,
        abs(Double(blurred[x - blurred.originX, height / 2 - blurred.originY]) - expected))
    }
    #expect(worst <= (sigma < 6 ? 1 : 0.6), "σ \(sigma): \(worst) levels from the Gaussian")
  }

  @Test func shadowMovesWithOffsetAndUsesColorTimesOpacity() throws {
    let b = try render(Size(60, 60)) { scene in
      let l = Layer()
      l.frame = Rect(10, 10, 20, 20)
      l.shadowOpacity = 0.5
      l.shadowColor = Color(red: 0, green: 0, blue: 1, alpha: 1)
      l.shadowRadius = 0
      l.shadowOffset = Size(20, 20)
      l.shadowPath = Path(rect: Rect(0, 0, 20, 20))
      scene.addLayer(l)
    }
    #expect(b[40, 40] == RGBA8(0, 0, 255, 128))
    #expect(b[20, 20].a == 0)
    #expect(b[55, 55].a == 0)
  }

  @Test func masksToBoundsClipsTheShadow() throws {
    let b = try render(Size(60, 60)) { scene in
      let l = Layer()
      l.frame = Rect(10, 10, 20, 20)
      l.backgroundColor = .white
      l.masksToBounds = true
      l.shadowOpacity = 1
      l.shadowRadius = 0
      l.shadowOffset = Size(10, 10)
      scene.addLayer(l)
    }
    #expect(b[35, 35].a == 0)
    #expect(b[20, 20] == RGBA8(255, 255, 255, 255))
  }

  @Test func cachedShadowsGiveTheSamePixelsAsFreshOnes() throws {
    let cache = ShadowCache()
    func frame(x: Double, cache: ShadowCache) throws -> Bitmap {
      let canvas = try Canvas(size: Size(120, 60))
      let card = Layer()
      card.frame = Rect(x, 10, 40, 30)
      card.cornerRadius = 6
      card.backgroundColor = .white
      card.shadowOpacity = 0.7
      card.shadowRadius = 4
      try LayerRenderer(shadowCache: cache).draw(card, in: canvas)
      return canvas.makeBitmap()
    }
    _ = try frame(x: 10, cache: cache)
    let moved = try frame(x: 37.3, cache: cache)
    #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
    #expect(moved == (try frame(x: 37.3, cache: ShadowCache())))
  }

  /// Shadowed layers nested `depth` deep, each larger than the frame (so every shape is cut by
  /// the edge of its region and depends on its place), each holding the next.
  func nestedShadows(depth: Int) -> Layer {
    var inner = Layer()
    inner.frame = Rect(-190, -190, 400, 400)
    inner.backgroundColor = .white
    inner.shadowOpacity = 0.5
    inner.shadowRadius = 3
    for _ in 0..<depth {
      let outer = Layer()
      outer.frame = Rect(-140, -140, 400, 400)
      outer.shadowOpacity = 0.5
      outer.shadowRadius = 2
      outer.addSublayer(inner)
      inner = outer
    }
    return inner
  }

  @Test func nestedShadowsAreEachShapedOncePerFrame() throws {
    // Each shadow's shape holds the inner shadowed layers: drawn in the frame's pixel grid, the
    // inner shadows made for it are found again when the frame draws them (one miss per
    // shadowed layer; the k-th level's shape finds the k - 1 inside it), where they used to be
    // made again at every level (2^depth passes).
    let cache = ShadowCache()
    let canvas = try Canvas(size: Size(200, 200))
    try LayerRenderer(shadowCache: cache).draw(nestedShadows(depth: 20), in: canvas)
    #expect(cache.statistics.misses == 21)
    #expect(cache.statistics.hits == 20 * 21 / 2)
    let fresh = try Canvas(size: Size(200, 200))
    try LayerRenderer(shadowCache: ShadowCache()).draw(nestedShadows(depth: 20), in: fresh)
    let again = try Canvas(size: Size(200, 200))
    try LayerRenderer(shadowCache: cache).draw(nestedShadows(depth: 20), in: again)
    #expect(again.makeBitmap() == fresh.makeBitmap())
  }

  @Test func shadowsNestedPastTheLimitAreRefusedByName() throws {
    let canvas = try Canvas(size: Size(200, 200))
    let renderer = LayerRenderer(shadowCache: ShadowCache())
    try renderer.draw(nestedShadows(depth: LayerRenderer.maximumNestedShadows), in: canvas)
    let tooDeep = nestedShadows(depth: LayerRenderer.maximumNestedShadows + 1)
    #expect(throws: RenderingError.shadowsNestedTooDeep(layer: nil)) {
      try renderer.draw(tooDeep, in: canvas)
    }
  }

  /// A shadow's shape is drawn in the frame grown by the blur's reach: on a frame 16384
  /// pixels wide that region is over a canvas's limits, and the shadow used to be left out
  /// without a word. The region is now cut to what the layer draws.
  @Test func aShadowOnAFrameAtTheSizeLimitIsDrawn() throws {
    let canvas = try Canvas(size: Size(Double(Canvas.maximumSide), 40))
    canvas.fill(Rect(0, 0, Double(Canvas.maximumSide), 40), with: .white)
    let l = Layer()
    l.frame = Rect(100, 10, 20, 20)
    l.backgroundColor = .white
    l.shadowOpacity = 1
    l.shadowRadius = 3
    try LayerRenderer(shadowCache: ShadowCache()).draw(l, in: canvas)
    let b = canvas.makeBitmap()
    #expect(b[98, 20].r < 200)  // the shadow, 2 px left of the layer
    #expect(b[110, 20] == RGBA8(255, 255, 255, 255))
    #expect(b[60, 20] == RGBA8(255, 255, 255, 255))
  }

  @Test func maskMultipliesByItsAlphaAndIgnoresItsColor() throws {
    let b = try render(Size(40, 20)) { scene in
      let l = Layer()
      l.frame = Rect(0, 0, 40, 20)
      l.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
      let mask = Layer()
      mask.frame = Rect(0, 0, 20, 20)
      mask.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 0.5)
      l.mask = mask
      scene.addLayer(l)
    }
    #expect(b[10, 10] == RGBA8(255, 0, 0, 128))
    #expect(b[30, 10].a == 0)
  }

  @Test func maskIsInTheMaskedLayersSpaceAndTime() throws {
    let scene = Scene(size: Size(100, 20))
    let l = Layer()
    l.frame = Rect(50, 0, 50, 20)
    l.backgroundColor = .black
    l.timing.beginTime = 1
    let mask = Layer()
    mask.frame = Rect(0, 0, 10, 20)
    mask.backgroundColor = .black
    var move = BasicAnimation(keyPath: "position.x")
    move.fromValue = 5
    move.toValue = 45
    move.duration = 1
    mask.add(move, forKey: nil)
    l.mask = mask
    scene.addLayer(l)
    // At scene time 1.5 the layer's local time is 0.5: the mask is centred at x = 25 in the
    // layer, 75 in the scene.
    let b = try scene.makeFrame(at: 1.5).makeBitmap()
    #expect(b[75, 10].a == 255)
    #expect(b[65, 10].a == 0 && b[85, 10].a == 0)
    #expect(b[55, 10].a == 0)
  }

  @Test func clearToWhiteShowsGrayInBetween() throws {
    let b = try render(Size(101, 10)) { scene in
      let g = GradientLayer()
      g.frame = Rect(0, 0, 101, 10)
      g.colors = [.clear, .white]
      g.startPoint = Point(0, 0.5)
      g.endPoint = Point(1, 0.5)
      scene.addLayer(g)
    }
    // Straight alpha: half way is (0.5, 0.5, 0.5) at alpha 0.5, not white at alpha 0.5.
    let mid = b[50, 5]
    #expect(abs(Int(mid.a) - 128) <= 1)
    #expect(abs(Int(mid.r) - 128) <= 2 && mid.r == mid.g && mid.g == mid.b)
    let quarter = b[25, 5]  // (0.252, 0.252, 0.252) at alpha 0.252
    #expect(abs(Int(quarter.r) - 64) <= 2 && abs(Int(quarter.a) - 64) <= 2)
  }

  @Test func axialLocationsAndRadialEllipse() throws {
    let b = try render(Size(100, 100)) { scene in
      let axial = GradientLayer()
      axial.frame = Rect(0, 0, 100, 50)
      axial.colors = [.black, .white, .black]
      axial.locations = [0, 0.25, 1]
      axial.startPoint = Point(0, 0)
      axial.endPoint = Point(1, 0)
      let radial = GradientLayer()
      radial.frame = Rect(0, 50, 100, 50)
      radial.type = .radial
      radial.colors = [.white, .black]
      radial.startPoint = Point(0.5, 0.5)
      radial.endPoint = Point(1, 1)  // an ellipse of half-axes 50 x 25 points
      scene.addLayer(axial)
      scene.addLayer(radial)
    }
    #expect(b[25, 10].r >= 250)  // location 0.25 at x = 25
    #expect(abs(Int(b[62, 10].r) - 128) <= 3)  // half way from 0.25 to 1
    #expect(abs(Int(b[75, 75].r) - 128) <= 3)  // half way out along x (25 of 50)
    #expect(abs(Int(b[50, 87].r) - 128) <= 6)  // half way out along y (12.5 of 25)
    #expect(b[50, 99].r <= 5 && b[99, 75].r <= 5)
  }

  @Test func conicStartsTowardEndPointAndTurnsClockwise() throws {
    let b = try render(Size(100, 100)) { scene in
      let g = GradientLayer()
      g.frame = Rect(0, 0, 100, 100)
      g.type = .conic
      g.colors = [.black, .white]
      g.startPoint = Point(0.5, 0.5)
      g.endPoint = Point(0.5, 0)  // angle 0 points up
      scene.addLayer(g)
    }
    // A quarter turn clockwise from up is right: location 0.25; down 0.5; left 0.75.
    #expect(abs(Int(b[90, 50].r) - 64) <= 2)
    #expect(abs(Int(b[50, 90].r) - 128) <= 2)
    #expect(abs(Int(b[10, 50].r) - 191) <= 2)
    // The seam is straight up: just right of it is near black, just left near white, and the
    // pixel it runs through is anti-aliased in between.
    #expect(b[53, 10].r < 10 && b[46, 10].r > 245)
    #expect((100...155).contains(Int(b[49, 10].r) + Int(b[50, 10].r) - 127))
  }

  func spinner() -> ReplicatorLayer {
    let r = ReplicatorLayer()
    r.frame = Rect(0, 0, 80, 80)
    r.instanceCount = 12
    r.instanceTransform = Transform3D.identity.rotated(.pi / 6)
    r.instanceDelay = 0.1
    let dot = Layer()
    dot.frame = Rect(36, 4, 8, 8)
    dot.backgroundColor = .black
    var fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 0
    fade.duration = 2
    dot.add(fade, forKey: nil)
    r.addSublayer(dot)
    return r
  }

  @Test func replicatorInstancesTurnAboutTheCentre() throws {
    let r = spinner()
    // Instance 3 is a quarter turn clockwise: the dot's centre (40, 8) goes to (72, 40).
    let p = Point(40, 8).applying(try #require(r.instancePlacement(at: 3).affineTransform))
    #expect(abs(p.x - 72) < 1e-9 && abs(p.y - 40) < 1e-9)
    let b = try render(Size(80, 80)) { $0.addLayer(r) }
    #expect(b[72, 40].a == 255 && b[8, 40].a == 255 && b[40, 72].a == 255)
    #expect(b[40, 40].a == 0)
  }

  @Test func replicatorInstancesAreDelayed() throws {
    let shown = spinner().presentation(at: 1) as! ReplicatorLayer
    // Instance k shows the dot at time 1 − 0.1 k: opacity 1 − (1 − 0.1 k) / 2; instance 11's
    // time is −0.1, before the fade begins, so it shows the model opacity.
    for k in 0..<11 {
      let opacity = shown.instanceSublayers(at: k)[0].opacity
      #expect(abs(opacity - (1 - (1 - 0.1 * Double(k)) / 2)) < 1e-9, "instance \(k)")
    }
    #expect(shown.instanceSublayers(at: 11)[0].opacity == 1)
  }

  @Test func replicatorInstanceColorsAddTheirOffsetsAndClamp() throws {
    let r = ReplicatorLayer()
    r.frame = Rect(0, 0, 40, 10)
    r.instanceCount = 4
    r.instanceTransform = Transform3D.identity.translated(x: 10, y: 0)
    r.instanceColor = Color(red: 1, green: 0.5, blue: 1, alpha: 1)
    r.instanceRedOffset = -0.25
    r.instanceGreenOffset = 0.3
    r.instanceAlphaOffset = -0.25
    #expect(r.instanceColor(at: 2) == Color(red: 0.5, green: 1, blue: 1, alpha: 0.5))
    let dot = Layer()
    dot.frame = Rect(0, 0, 10, 10)
    dot.backgroundColor = .white
    r.addSublayer(dot)
    let b = try render(Size(40, 10)) { $0.addLayer(r) }
    #expect(b[5, 5] == RGBA8(255, 128, 255, 255))
    #expect(b[15, 5] == RGBA8(191, 204, 255, 191))
    #expect(b[25, 5] == RGBA8(128, 255, 255, 128))
  }

  @Test func contentsRectShowsPartOfTheImageAndContentsCenterKeepsCorners() throws {
    // quadrants.png is 24 x 16: red, blue / green, yellow quadrants around a dark disc.
    let scene = try SceneFormat.load(
      contentsOf: FixtureFiles.root + "/scenes/effects-contents.json")
    let b = try scene.makeFrame(at: 0).makeBitmap()
    let red = RGBA8(229, 57, 53, 255), blue = RGBA8(30, 136, 229, 255)
    let green = RGBA8(67, 160, 71, 255), yellow = RGBA8(253, 216, 53, 255)
    // The sprite (60 x 40 at 10...70, 20...60) shows only the top-right quadrant, stretched 5x.
    #expect(b[60, 25] == blue && b[20, 25] == blue)
    let later = try scene.makeFrame(at: 0.6).makeBitmap()
    #expect(later[20, 55] == green)
    // Nine parts (120 x 60 at 90...210, 10...70): the 6 x 4 corners keep their size, so the
    // colors sit at the corners and the pixels just inside the corner size still show them.
    #expect(b[91, 11] == red && b[94, 12] == red && b[209, 11] == blue)
    #expect(b[91, 69] == green && b[209, 69] == yellow)
    // The centre (the disc) stretches over the middle.
    #expect(b[150, 40] == RGBA8(34, 34, 34, 255))
  }

  /// Hostile pass 33: a `contentsCenter` of zero width or height drew the four corners alone,
  /// the edges and centre left empty. The line of pixels at its place stretches over them.
  @Test func aZeroSizedContentsCenterStretchesTheLineAtItsPlace() throws {
    // A 24 x 24 button: a red border 4 pixels wide around blue.
    var button = Bitmap(width: 24, height: 24, fill: RGBA8(255, 0, 0, 255))
    for y in 4..<20 { for x in 4..<20 { button[x, y] = RGBA8(0, 0, 255, 255) } }
    for center in [Rect(0.5, 0.5, 0, 0), Rect(0.5, 0.25, 0, 0.5), Rect(0.5, 0.5, 1.0 / 24, 0)] {
      let b = try render(Size(160, 60)) { scene in
        let layer = Layer()
        layer.frame = Rect(0, 0, 160, 60)
        layer.contents = Image(button)
        layer.contentsCenter = center
        scene.addLayer(layer)
      }
      #expect(b[80, 30] == RGBA8(0, 0, 255, 255), "centre, \(center)")
      #expect(b[80, 1] == RGBA8(255, 0, 0, 255) && b[1, 30] == RGBA8(255, 0, 0, 255))
      #expect(b[158, 58] == RGBA8(255, 0, 0, 255))
    }
  }
}
