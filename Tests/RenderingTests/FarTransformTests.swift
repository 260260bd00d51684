import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, twelfth pass: Cairo takes no transform whose determinant is not a finite nonzero
/// number, and one it refuses stops the canvas for good. A layer scaled by 1e155 (whose area
/// scale, 1e310, is past a `Double`) drew nothing, without a word; scaled further, the frame
/// went blank. The canvas never gives Cairo such a transform, and the renderer refuses the
/// layer by name.
@Suite struct FarTransformTests {
  /// The 10 x 10 square of `square` under `transform`, drawn in a 40 x 40 frame.
  func drawn(_ transform: Transform3D) throws -> Bitmap {
    let layer = square("square", scale: 1)
    layer.transform = transform
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
    try LayerRenderer().draw(layer, in: canvas)
    return canvas.makeBitmap()
  }

  /// A 10 x 10 square of `color` named `name` at the centre of a 40 x 40 frame.
  func square(_ name: String, scale: Double, color: Color = .blue) -> Layer {
    let layer = Layer()
    layer.name = name
    layer.bounds = Rect(0, 0, 10, 10)
    layer.position = Point(20, 20)
    layer.backgroundColor = color
    layer.transform = .scale(x: scale, y: scale)
    return layer
  }

  @Test func aLayerScaledPastCairosRangeIsRefusedByName() throws {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
    let error = RenderingError.transformTooLarge(layer: "huge")
    #expect(throws: error) { try LayerRenderer().draw(square("huge", scale: 1e155), in: canvas) }
    #expect(
      error.description
        == "layer 'huge' is scaled past what can be drawn: its transform in the frame stretches "
        + "by more than about 1.3e154 or multiplies areas by more than 1.8e308, the most Cairo's "
        + "transforms hold")
    // Two layers each scaled 1e100: the product is past the range, the inner one is named.
    let outer = square("outer", scale: 1e100)
    outer.addSublayer(square("inner", scale: 1e100))
    #expect(throws: RenderingError.transformTooLarge(layer: "inner")) {
      try LayerRenderer().draw(outer, in: try Canvas(pixelWidth: 40, pixelHeight: 40))
    }
  }

  /// Twenty-eighth pass: a layer of 5e51 points scaled by 1e-50 into a 50-point square was
  /// left out without a word (its transform shrinks areas below what Cairo holds, 1e-100).
  /// Refused by name when what it draws still spans a pixel; under a pixel it is left out.
  @Test func aHugeLayerScaledDownPastCairosRangeIsRefusedByName() throws {
    let big = Layer()
    big.name = "huge"
    big.bounds = Rect(0, 0, 5e51, 5e51)
    big.anchorPoint = .zero
    big.backgroundColor = .red
    big.transform = .scale(x: 1e-51, y: 1e-51)
    #expect(throws: RenderingError.transformTooSmall(layer: "huge")) {
      try LayerRenderer().draw(big, in: try Canvas(pixelWidth: 40, pixelHeight: 40))
    }
    // Within the range it draws: scaled by 1e-49, 5e50 points are a 5-pixel square.
    big.bounds = Rect(0, 0, 5e49, 5e49)
    big.transform = .scale(x: 1e-49, y: 1e-49)
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
    try LayerRenderer().draw(big, in: canvas)
    #expect(canvas.makeBitmap()[2, 2] == RGBA8(255, 0, 0, 255))
    // A plain square shrunk past the range is far under a pixel: left out.
    try LayerRenderer().draw(square("tiny", scale: 1e-60), in: canvas)
    // Through a sublayerTransform, the layer holding the sublayers is named.
    let holder = Layer()
    holder.name = "holder"
    holder.bounds = Rect(0, 0, 40, 40)
    holder.anchorPoint = .zero
    holder.sublayerTransform = .scale(x: 1e-51, y: 1e-51)
    big.bounds = Rect(0, 0, 5e51, 5e51)
    big.transform = .identity
    holder.addSublayer(big)
    #expect(throws: RenderingError.transformTooSmall(layer: "holder")) {
      try LayerRenderer().draw(holder, in: try Canvas(pixelWidth: 40, pixelHeight: 40))
    }
    // verify30: and through a replicator's instance transform (instance 1 was left out).
    big.removeFromSuperlayer()
    let copies = ReplicatorLayer()
    copies.name = "copies"
    copies.instanceCount = 2
    copies.instanceTransform = .scale(x: 1e-51, y: 1e-51)
    copies.addSublayer(big)
    #expect(throws: RenderingError.transformTooSmall(layer: "copies")) {
      try LayerRenderer().draw(copies, in: try Canvas(pixelWidth: 40, pixelHeight: 40))
    }
  }

  /// Twenty-first hostile pass: `[1e300, 0, 1e15, 1e-300]` has determinant 1, so Cairo took
  /// it, and a blur or an intersection drawn under it aborted the process in an assertion
  /// (Cairo's scale factors, the columns' lengths, overflow). An entry past 1.3e154 is refused
  /// as a scale past the range is.
  @Test func aSkewWhoseEntriesOverflowIsRefusedNotAborted() throws {
    let layer = square("skewed", scale: 1)
    layer.transform = Transform3D(AffineTransform(a: 1e300, b: 0, c: 1e15, d: 1e-300, tx: 0, ty: 0))
    layer.filters = [.gaussianBlur(radius: 1)]
    #expect(throws: RenderingError.transformTooLarge(layer: "skewed")) {
      try LayerRenderer().draw(layer, in: try Canvas(pixelWidth: 40, pixelHeight: 40))
    }
  }

  @Test func aLayerScaledJustWithinTheRangeCoversTheFrame() throws {
    let root = Layer()
    root.frame = Rect(0, 0, 40, 40)
    root.addSublayer(square("huge", scale: 1e154))
    // Far under a pixel: nothing shows, and what is drawn after it still draws.
    root.addSublayer(square("tiny", scale: 1e-160, color: .red))
    let later = square("later", scale: 1, color: .red)
    later.position = Point(5, 5)
    root.addSublayer(later)
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
    try LayerRenderer().draw(root, in: canvas)
    let bitmap = canvas.makeBitmap()
    #expect(bitmap[35, 35] == RGBA8(0, 0, 255, 255))
    #expect(bitmap[5, 5] == RGBA8(255, 0, 0, 255))
  }

  /// An m44 other than 1 (without perspective terms) scales the plane by its inverse, drawn as
  /// in 2D: 10^-18 lost the part that shows to the plane coordinates' precision, and drew
  /// nothing; 0.5 draws the same pixels as a scale of 2.
  @Test func anM44ScalesThePlaneAsIn2D() throws {
    func pixels(_ transform: Transform3D) throws -> Bitmap { try drawn(transform) }
    var tiny = Transform3D.identity
    tiny.m44 = 1e-18
    let covered = try pixels(tiny)
    #expect(covered[0, 0] == RGBA8(0, 0, 255, 255) && covered[39, 39] == RGBA8(0, 0, 255, 255))
    var half = Transform3D.identity
    half.m44 = 0.5
    #expect(try pixels(half) == (try pixels(.scale(x: 2, y: 2))))
  }

  /// Hostile pass 39: a `contentsScale` of 1e-306 made a 200-pixel picture's natural size
  /// infinite, and it vanished, even under the gravities that only take its proportions; and
  /// at 1e-16 under `bottomRight` its far edge's place lost the layer's size. Its size is kept
  /// within a billion times the layer's, where the layer shows the same pixels.
  @Test func aTinyContentsScaleKeepsThePictureFinite() throws {
    var pixels = Bitmap(width: 200, height: 100, fill: RGBA8(255, 0, 0, 255))
    for y in 0..<100 { for x in 100..<200 { pixels[x, y] = RGBA8(0, 0, 255, 255) } }
    func drawn(_ scale: Double, _ gravity: ContentsGravity) throws -> Bitmap {
      let layer = Layer()
      layer.bounds = Rect(0, 0, 40, 40)
      layer.position = Point(20, 20)
      layer.contents = Image(pixels)
      layer.contentsScale = scale
      layer.contentsGravity = gravity
      let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
      try LayerRenderer().draw(layer, in: canvas)
      return canvas.makeBitmap()
    }
    for gravity in [ContentsGravity.center, .resizeAspect, .resizeAspectFill, .bottomRight] {
      let tiny = try drawn(1e-306, gravity)
      #expect(tiny == (try drawn(1e-16, gravity)), "\(gravity)")
      #expect(tiny[20, 20].a == 255, "\(gravity)")
    }
    // The proportions still decide the aspect: red on the left half, blue on the right.
    let aspect = try drawn(1e-306, .resizeAspect)
    #expect(aspect[5, 20] == RGBA8(255, 0, 0, 255) && aspect[35, 20] == RGBA8(0, 0, 255, 255))
    #expect(aspect[20, 5].a == 0)
  }

  /// Hostile pass 42: a subnormal turn or shear (a rotation of 1e-310, a matrix term of
  /// 1e-310, a Lottie skew of 1e-306) made the canvas refuse the transform, and the layer
  /// vanished without a word. Such terms move nothing by a pixel: they are taken as 0.
  @Test func aSubnormalTurnOrShearDrawsAsNone() throws {
    let plain = try drawn(.identity)
    #expect(plain[20, 20].a == 255)
    #expect(try drawn(.rotation(1e-310)) == plain)
    #expect(
      try drawn(Transform3D(AffineTransform(a: 1, b: 1e-310, c: 0, d: 1, tx: 0, ty: 0))) == plain)
  }

  /// Hostile pass 43: a layer scaled 1e307 about its centre (its translation 20 - 20 × 1e307
  /// past a double), an m44 of 1e-310, and a sublayerTransform or instanceTransform of 1e307
  /// made their layers vanish without a word, where 1e300 was refused by name. Each is refused
  /// by name now; a layer placed off at infinity by the layers above it is still not drawn.
  @Test func aPlacementPastADoubleIsRefusedByName() throws {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
    let scaled = square("huge", scale: 1e307)
    #expect(throws: RenderingError.transformTooLarge(layer: "huge")) {
      try LayerRenderer().draw(scaled, in: canvas)
    }
    var tiny = Transform3D.identity
    tiny.m44 = 1e-310
    let divided = square("m44", scale: 1)
    divided.transform = tiny
    #expect(throws: RenderingError.transformTooLarge(layer: "m44")) {
      try LayerRenderer().draw(divided, in: canvas)
    }
    let parent = square("parent", scale: 1)
    parent.sublayerTransform = .scale(x: 1e307, y: 1e307)
    parent.addSublayer(square("child", scale: 1))
    #expect(throws: RenderingError.transformTooLarge(layer: "parent")) {
      try LayerRenderer().draw(parent, in: canvas)
    }
    // Off at infinity: a sublayer at 1e10 in a layer stretched 1e300 along x.
    let stretched = square("stretched", scale: 1)
    stretched.transform = .scale(x: 1e300, y: 1)
    let far = square("far", scale: 1)
    far.position = Point(x: 1e10, y: 20)
    stretched.addSublayer(far)
    try LayerRenderer().draw(stretched, in: canvas)
  }

  /// Hostile pass 45: a layer shrunk until its area scale underflows to 0 (bounds of 1e302
  /// scaled 1e-301, a 10-point square) never reached Cairo, and the shrink check looked at the
  /// transform before it: the layer vanished without a word, where 1e-160 was refused.
  @Test func aShrinkWhoseAreaUnderflowsIsRefusedByName() throws {
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20)
    let layer = Layer()
    layer.name = "tiny"
    layer.anchorPoint = .zero
    layer.bounds = Rect(0, 0, 1e302, 1e302)
    layer.backgroundColor = .white
    layer.transform = .scale(x: 1e-301, y: 1e-301)
    #expect(throws: RenderingError.transformTooSmall(layer: "tiny")) {
      try LayerRenderer().draw(layer, in: canvas)
    }
  }
}
