import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

/// Pixel facts of blend modes (`compositingFilter`), mask modes and layer filters, checked
/// against the formulas of the compositing specification and lottie-web's effects.
@Suite struct CompositingRenderingTests {
  func render(_ size: Size, scale: Double = 1, _ build: (Scene) -> Void) throws -> Bitmap {
    let scene = Scene(size: size, scale: scale)
    build(scene)
    return try scene.makeFrame(at: 0).makeBitmap()
  }

  func square(_ color: Color, _ frame: Rect = Rect(0, 0, 20, 20)) -> Layer {
    let l = Layer()
    l.frame = frame
    l.backgroundColor = color
    return l
  }

  /// (1, 0.5, 0) below, (0.5, 0.5, 1) on top with the mode.
  func blended(_ mode: CompositingFilter) throws -> RGBA8 {
    let b = try render(Size(20, 20)) { scene in
      scene.addLayer(square(Color(red: 1, green: 0.5, blue: 0, alpha: 1)))
      let top = square(Color(red: 0.5, green: 0.5, blue: 1, alpha: 1))
      top.compositingFilter = mode
      scene.addLayer(top)
    }
    return b[10, 10]
  }

  @Test func separableBlendModesFollowTheirFormulas() throws {
    #expect(try blended(.normal) == RGBA8(128, 128, 255, 255))
    #expect(try blended(.multiply) == RGBA8(128, 64, 0, 255))  // a·b
    // 1 − (1−a)(1−b), with 0.5 stored as 128/255: 1 − (127/255)² = 0.752.
    #expect(try blended(.screen) == RGBA8(255, 192, 255, 255))
    #expect(try blended(.difference) == RGBA8(127, 0, 255, 255))  // |a − b|
    #expect(try blended(.darken) == RGBA8(128, 128, 0, 255))  // min
    #expect(try blended(.lighten) == RGBA8(255, 128, 255, 255))  // max
    #expect(try blended(.addition) == RGBA8(255, 255, 255, 255))  // clamped sum
  }

  @Test func porterDuffOperatorsCombineAlpha() throws {
    func alpha(_ mode: CompositingFilter, opacity: Double, overlap: Bool = true) throws -> UInt8 {
      let b = try render(Size(40, 20)) { scene in
        let group = Layer()
        group.frame = Rect(0, 0, 40, 20)
        group.compositingFilter = .sourceOver
        group.addSublayer(square(.red))
        let top = square(.blue, Rect(overlap ? 0 : 20, 0, 20, 20))
        top.compositingFilter = mode
        top.opacity = opacity
        group.addSublayer(top)
        scene.addLayer(group)
      }
      return b[10, 10].a
    }
    #expect(try alpha(.destinationOut, opacity: 1) == 0)
    #expect(try alpha(.destinationOut, opacity: 0.5) == 127)  // 255 · (1 − 0.5), rounded down
    #expect(try alpha(.destinationIn, opacity: 0.5) == 128)
    #expect(try alpha(.destinationIn, opacity: 1, overlap: false) == 0)  // cleared outside
    #expect(try alpha(.xor, opacity: 1) == 0)
  }

  @Test func sourceOverIsolatesDestinationOperatorsToTheLayer() throws {
    // A hole punched by a sublayer of an isolated layer does not reach what is below it.
    let b = try render(Size(20, 20)) { scene in
      scene.addLayer(square(.red))
      let isolated = square(.clear)
      isolated.compositingFilter = .sourceOver
      let hole = square(.black)
      hole.frame = Rect(0, 0, 20, 20)
      hole.compositingFilter = .destinationOut
      isolated.addSublayer(hole)
      scene.addLayer(isolated)
    }
    #expect(b[10, 10] == RGBA8(255, 0, 0, 255))
  }

  /// The alpha at (10, 10) of a blue layer whose mask is one layer of white shape sublayers,
  /// each given as (its rectangle, compositing filter, opacity): scene-format.md §4.4's
  /// mapping of Lottie's masks.
  func lottieMasked(_ shapes: [(Rect, CompositingFilter, Double)]) throws -> UInt8 {
    let b = try render(Size(20, 20)) { scene in
      let l = square(.blue)
      let mask = Layer()
      mask.frame = Rect(0, 0, 20, 20)
      for (rect, mode, opacity) in shapes {
        let shape = ShapeLayer()
        shape.frame = Rect(0, 0, 20, 20)
        shape.path = Path(rect: rect)
        shape.fillColor = .white
        shape.compositingFilter = mode
        shape.opacity = opacity
        mask.addSublayer(shape)
      }
      l.mask = mask
      scene.addLayer(l)
    }
    return b[10, 10].a
  }

  @Test func lottieMaskModesCombineAsDocumented() throws {
    let all = Rect(0, 0, 20, 20), hit = Rect(5, 5, 10, 10), miss = Rect(0, 0, 4, 4)
    // add: A + a − A·a
    // (Opacities are 8-bit in the canvas: within a level of the formula.)
    func near(_ a: UInt8, _ b: Double) -> Bool { abs(Double(a) - b) <= 1 }
    #expect(near(try lottieMasked([(hit, .normal, 0.5), (hit, .normal, 0.5)]), 191.25))
    // subtract, first mask: the white rectangle first, then A·(1 − a)
    #expect(try lottieMasked([(all, .normal, 1), (hit, .destinationOut, 0.5)]) == 127)
    #expect(try lottieMasked([(all, .normal, 1), (miss, .destinationOut, 1)]) == 255)
    // intersect: A·a·o (the shape's alpha times its opacity), as lottie-web's alpha mask
    #expect(try lottieMasked([(all, .normal, 1), (hit, .destinationIn, 1)]) == 255)
    #expect(try lottieMasked([(all, .normal, 1), (miss, .destinationIn, 1)]) == 0)
    #expect(near(try lottieMasked([(all, .normal, 1), (hit, .destinationIn, 0.25)]), 63.75))
    #expect(try lottieMasked([(all, .normal, 1), (miss, .destinationIn, 0.25)]) == 0)
    // difference: A + a − 2·A·a
    #expect(try lottieMasked([(hit, .normal, 1), (hit, .xor, 1)]) == 0)
    #expect(try lottieMasked([(miss, .normal, 1), (hit, .xor, 1)]) == 255)
  }

  /// A blue square masked by a mask of `maskColor` in `mode`; its alpha at the centre.
  func maskedAlpha(_ mode: MaskMode, maskColor: Color?) throws -> UInt8 {
    let b = try render(Size(20, 20)) { scene in
      let l = square(.blue)
      l.maskMode = mode
      if let maskColor {
        l.mask = square(maskColor)
      } else {
        l.mask = Layer()
      }
      scene.addLayer(l)
    }
    return b[10, 10].a
  }

  @Test func maskModesTurnTheMaskIntoCoverage() throws {
    let grey = Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
    #expect(try maskedAlpha(.alpha, maskColor: grey) == 255)
    #expect(try maskedAlpha(.luminance, maskColor: grey) == 128)
    #expect(try maskedAlpha(.luminanceInverted, maskColor: grey) == 127)
    #expect(try maskedAlpha(.luminance, maskColor: .white) == 255)
    // Red's BT.709 luminance: 0.2126.
    #expect(try maskedAlpha(.luminance, maskColor: .red) == 54)
    let halfClear = Color(red: 1, green: 1, blue: 1, alpha: 0.25)
    #expect(try maskedAlpha(.alphaInverted, maskColor: halfClear) == 191)
    // Where the mask draws nothing: inverted modes show everything.
    #expect(try maskedAlpha(.alphaInverted, maskColor: nil) == 255)
    #expect(try maskedAlpha(.luminanceInverted, maskColor: nil) == 255)
    #expect(try maskedAlpha(.luminance, maskColor: nil) == 0)
  }

  func filtered(_ filter: LayerFilter, color: Color = .red) throws -> RGBA8 {
    let b = try render(Size(20, 20)) { scene in
      let l = square(color)
      l.filters = [filter]
      scene.addLayer(l)
    }
    return b[10, 10]
  }

  @Test func colorMapsFollowLottieWebsEffects() throws {
    // Fill: the color, alpha times opacity.
    let green = Color(red: 0, green: 1, blue: 0, alpha: 1)
    #expect(try filtered(.fill(color: green, opacity: 0.5)) == RGBA8(0, 255, 0, 128))
    // Grey level of red: the mean of linear (1, 0, 0) is 1/3, 0.6125 in sRGB: 156.
    let bw = LayerFilter.tint(black: .black, white: .white, amount: 1)
    #expect(try filtered(bw) == RGBA8(156, 156, 156, 255))
    let half = LayerFilter.tint(black: .black, white: .white, amount: 0.5)
    // lottie-web's merge: grey (0.6125) at half over red, then the mapped grey at half over that.
    #expect(try filtered(half) == RGBA8(181, 117, 117, 255))
    let tritone = LayerFilter.tritone(bright: .white, midtone: .blue, dark: .black, amount: 1)
    #expect(try filtered(tritone, color: .white) == RGBA8(255, 255, 255, 255))
    #expect(try filtered(tritone, color: .black) == RGBA8(0, 0, 0, 255))
    // Red's level 0.6125 is 0.2249 of the way from the midtone (blue) to the bright (white).
    #expect(try filtered(tritone) == RGBA8(57, 57, 255, 255))
  }

  @Test(arguments: [1.0, 2.0])
  func blurSigmaIsRadiusInTheLayersPoints(scale: Double) throws {
    let radius = 3.0
    let b = try render(Size(100, 20), scale: scale) { scene in
      let l = square(.black, Rect(50, -50, 200, 200))
      l.filters = [.gaussianBlur(radius: radius)]
      scene.addLayer(l)
    }
    // Alpha across the edge at x = 50 points is Φ((x − 50) / σ), σ = radius · scale pixels.
    let sigma = radius * scale, edge = 50 * scale
    var worst = 0.0
    for x in Int(edge - 3 * sigma)..<Int(edge + 3 * sigma) {
      let expected = 0.5 * (1 + erf((Double(x) + 0.5 - edge) / sigma / 2.squareRoot())) * 255
      worst = max(worst, abs(Double(b[x, Int(10 * scale)].a) - expected))
    }
    #expect(worst <= 2, "largest difference from the Gaussian's edge: \(worst) levels")
  }

  /// Seventeenth pass: a layer more than 65,536 pixels off the canvas whose shadowOffset brings
  /// its shadow onto it (CSS's "shadow only" trick) lost its shadow. It is the shadow a layer
  /// beside the canvas casts the same way.
  @Test func aFarLayersShadowOffsetOntoTheCanvasIsDrawn() throws {
    func frame(_ away: Double) throws -> Bitmap {
      try render(Size(200, 200)) { scene in
        let l = square(.black, Rect(50 - away, 50, 100, 100))
        (l.shadowOpacity, l.shadowRadius) = (1, 4)
        l.shadowOffset = Size(width: away, height: 0)
        scene.addLayer(l)
      }
    }
    let near = try frame(1_000)
    #expect(near[100, 100].a == 255)
    for away in [66_000.0, 500_000] {
      let same = try frame(away) == near
      #expect(same, "\(away) points away")
    }
  }

  /// Seventeenth pass: below about 1e-161 a radius's square underflowed, the kernel's middle
  /// tap was 0/0, and the blurred layer (or shadow) vanished. A blur that small is no blur.
  @Test func aVanishinglySmallBlurIsNoBlur() throws {
    func frame(_ filters: [LayerFilter], shadowRadius: Double? = nil) throws -> Bitmap {
      try render(Size(100, 100)) { scene in
        let l = square(.black, Rect(20, 20, 40, 40))
        l.filters = filters
        if let shadowRadius {
          (l.shadowOpacity, l.shadowRadius) = (1, shadowRadius)
          l.shadowOffset = Size(width: 20, height: 20)
        }
        scene.addLayer(l)
      }
    }
    let plain = try frame([])
    for radius in [1e-162, 1e-300, Double.leastNonzeroMagnitude] {
      let blurred = try frame([.gaussianBlur(radius: radius)])
      let directional = try frame([.directionalBlur(radius: radius, axis: .horizontal)])
      let same = blurred == plain && directional == plain
      #expect(same, "radius \(radius)")
    }
    let shadow = try frame([], shadowRadius: 0)
    #expect(shadow[70, 70].a == 255)
    let tiny = try frame([], shadowRadius: 1e-162) == shadow
    #expect(tiny)
  }

  @Test(arguments: [BlurAxis.horizontal, .vertical], [3.0, 8.0])
  func directionalBlurBlursAlongItsAxisOnly(axis: BlurAxis, radius: Double) throws {
    // A black square whose top-left corner is at (50, 50): one edge of each direction. σ 3
    // is blurred by a kernel cut at 3σ (within 2 levels), σ 8 by the recursive Gaussian
    // (within rounding; the frame's edge 3.25σ away takes 0.15 levels).
    let b = try render(Size(100, 100)) { scene in
      let l = square(.black, Rect(50, 50, 200, 200))
      l.filters = [.directionalBlur(radius: radius, axis: axis)]
      scene.addLayer(l)
    }
    func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.squareRoot())) }
    var worst = 0.0
    for i in (50 - Int(3 * radius))..<(50 + Int(3 * radius)) {
      let expected = phi((Double(i) + 0.5 - 50) / radius) * 255
      let across = axis == .horizontal ? b[i, 75] : b[75, i]
      worst = max(worst, abs(Double(across.a) - expected))
    }
    #expect(
      worst <= (radius < 6 ? 2 : 1), "largest difference from the Gaussian's edge: \(worst) levels")
    // The other edge stays sharp.
    let outside = axis == .horizontal ? b[75, 49] : b[49, 75]
    let inside = axis == .horizontal ? b[75, 50] : b[50, 75]
    #expect(outside.a == 0 && inside.a == 255)
    // Interpolation keeps the axis; the two axes do not interpolate.
    let h = AnimationValue.filters([.directionalBlur(radius: 0, axis: .horizontal)])
    let v = AnimationValue.filters([.directionalBlur(radius: 4, axis: .vertical)])
    #expect(AnimationValue.interpolate(h, v, 0.25) == h)
  }

  @Test func filtersInterpolateParameterByParameter() {
    let a = AnimationValue.filters([.gaussianBlur(radius: 0), .fill(color: .black, opacity: 0)])
    let b = AnimationValue.filters([.gaussianBlur(radius: 6), .fill(color: .white, opacity: 1)])
    let gray = Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
    #expect(
      AnimationValue.interpolate(a, b, 0.5)
        == .filters([.gaussianBlur(radius: 3), .fill(color: gray, opacity: 0.5)]))
    // Different filters switch halfway.
    let c = AnimationValue.filters([.gaussianBlur(radius: 6)])
    #expect(AnimationValue.interpolate(a, c, 0.4) == a)
    #expect(AnimationValue.interpolate(a, c, 0.6) == c)
  }

  @Test func scenesReadBlendModesMaskModesAndFilters() throws {
    let json = """
      {"flipbook": 1, "size": [20, 20], "layers": [{"name": "a",
        "compositingFilter": "multiplyBlendMode", "maskMode": "luminanceInverted",
        "filters": [{"type": "gaussianBlur", "radius": 2},
          {"type": "tritone", "bright": "#ffffff", "midtone": "#ff0000", "dark": "#000000",
           "amount": 0.5}]}]}
      """
    let scene = try SceneFormat.decode(Array(json.utf8), file: "t.json")
    let layer = try #require(scene.layers.first)
    #expect(layer.compositingFilter == .multiply)
    #expect(layer.maskMode == .luminanceInverted)
    #expect(
      layer.filters == [
        .gaussianBlur(radius: 2),
        .tritone(bright: .white, midtone: .red, dark: .black, amount: 0.5),
      ])
    #expect(LayerProperty.compositingFilter.defaultValue == .choice("normal"))
    #expect(LayerProperty.maskMode.defaultValue == .choice("alpha"))
    #expect(LayerProperty.filters.defaultValue == .value(.filters([])))
  }
}
