import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, sixth pass: offscreen work was unbounded (10,000 blurred layers took over a
/// minute; a replicator of masked layers in a large frame, hours). A frame's groups and filters
/// are counted, at the size Cairo makes them, before each is made, and refused past
/// `LayerRenderer.maximumGroupPixelsPerFrame` and `maximumFilterPixelsPerFrame`.
@Suite struct OffscreenWorkTests {
  func square(_ name: String) -> Layer {
    let layer = Layer()
    layer.name = name
    layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
    layer.backgroundColor = .white
    return layer
  }

  @Test func filtersPastTheFrameBudgetAreRefusedBeforeTheyRun() throws {
    #expect(LayerRenderer.maximumFilterPixelsPerFrame == 64_000_000)
    // 4096 x 4096 pixels a group: three filters fit (50 million), four do not (67 million).
    let canvas = try Canvas(pixelWidth: 4096, pixelHeight: 4096)
    let layer = square("blurred")
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
      let root = square("level 1")
      root.opacity = 0.5
      var inner = root
      for level in 2...depth {
        let next = square("level \(level)")
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

  @Test func groupsPastTheFrameBudgetAreRefused() throws {
    #expect(LayerRenderer.maximumGroupPixelsPerFrame == 2_000_000_000)
    // A masked layer makes two groups of the clip's size: 2 x 16.8 million pixels each, so the
    // 60th instance passes two billion.
    let canvas = try Canvas(pixelWidth: 4096, pixelHeight: 4096)
    let masked = square("masked")
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
    // to 3600 x 3700 (13,320,000): 348,352 pixels left, so a shadow's shape of 590 x 590
    // (348,100 pixels) still fits the 64 million, one of 591 x 591 does not.
    let canvas = try Canvas(pixelWidth: 4096, pixelHeight: 4096)
    func frame(shadowSide side: Double) -> Layer {
      let root = Layer()
      let blurred = square("blurred")
      blurred.filters = Array(repeating: .gaussianBlur(radius: 0), count: 3)
      let clip = Layer()
      clip.frame = Rect(x: 0, y: 0, width: 3600, height: 3700)
      clip.masksToBounds = true
      let clipped = square("clipped")
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
      try LayerRenderer(shadowCache: cache).draw(frame(shadowSide: 591), in: canvas)
    }
    try LayerRenderer(shadowCache: cache).draw(frame(shadowSide: 590), in: canvas)
    #expect(canvas.makeBitmap()[595, 595] == RGBA8(0, 0, 0, 255))  // the shadow, drawn
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
}
