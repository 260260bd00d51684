import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, eleventh pass: animation values that are each finite but whose span is not
/// (-1e308 to 1e308) became NaN and drew nothing, without a word. The readers refuse values
/// past `AnimationValue.maximumMagnitude`; values built in Swift are refused when drawn,
/// naming the layer and the key path.
@Suite struct NonFiniteAnimationTests {
  /// A 10 x 10 white square at (5, 5) named "square", animated by `animation`.
  func square(_ animation: any Animation) -> Layer {
    let layer = Layer()
    layer.name = "square"
    layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
    layer.backgroundColor = .white
    layer.add(animation, forKey: nil)
    return layer
  }

  /// position.x from 0 to 10 in 1 s, repeating forever, filling both ways.
  static func repeatingMove() -> BasicAnimation {
    var move = BasicAnimation(keyPath: "position.x")
    (move.fromValue, move.toValue, move.duration) = (0, 10, 1)
    move.repeatCount = .infinity
    move.fillMode = .both
    return move
  }

  @Test func anOverflowingSpanIsRefusedNamingTheLayerAndKeyPath() throws {
    #expect(AnimationValue.maximumMagnitude == 1e15)
    var move = BasicAnimation(keyPath: "position.x")
    (move.fromValue, move.toValue, move.duration) = (-1e308, 1e308, 1)
    let layer = square(move)
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20)
    // At 0.3 the value is -1e308 + 2e308 * 0.3: the span is infinite, the value NaN.
    let error = RenderingError.animationNotFinite(layer: "square", keyPath: "position.x")
    #expect(throws: error) {
      try LayerRenderer().draw(layer.drawablePresentation(at: 0.3), in: canvas)
    }
    #expect(
      error.description
        == "the animation of \"position.x\" at layer 'square' gives a value that is not finite "
        + "at this time (the span between its values overflows; values within 10^15 in "
        + "magnitude keep it finite)")
    // The presentation keeps the model value (5), not NaN.
    #expect(layer.presentation(at: 0.3).position.x == 5)
  }

  @Test func anOverflowingScaleAndOpacityAreRefusedToo() throws {
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20)
    for keyPath in ["transform.scale", "opacity"] {
      var a = BasicAnimation(keyPath: keyPath)
      (a.fromValue, a.toValue, a.duration) = (-1e308, 1e308, 1)
      #expect(throws: RenderingError.animationNotFinite(layer: "square", keyPath: keyPath)) {
        try LayerRenderer().draw(square(a).drawablePresentation(at: 0.3), in: canvas)
      }
    }
  }

  @Test func finiteLargeValuesStillDraw() throws {
    // Within the limit: 0 to 1e15 at 0 draws the square where it was.
    var move = BasicAnimation(keyPath: "position.x")
    (move.fromValue, move.toValue, move.duration) = (5, 1e15, 1)
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20)
    try LayerRenderer().draw(square(move).drawablePresentation(at: 0), in: canvas)
    #expect(canvas.makeBitmap()[5, 5] == RGBA8(255, 255, 255, 255))
  }

  /// Nine nested speeds of 3.4e38 (each a Float) multiply past a Double: the layer's time was
  /// infinite and its animation, repeating forever, silently showed the model value.
  @Test func anOverflowingLayerTimeIsRefusedNamingTheLayer() throws {
    var top = square(Self.repeatingMove())
    for _ in 0..<9 {
      let outer = Layer()
      outer.timing.speed = 3.4e38
      outer.addSublayer(top)
      top = outer
    }
    let error = RenderingError.layerTimeNotFinite(layer: "square")
    #expect(throws: error) {
      try LayerRenderer().draw(
        top.drawablePresentation(at: 0.3), in: try Canvas(pixelWidth: 20, pixelHeight: 20))
    }
    #expect(
      error.description
        == "layer 'square' has animations but no finite time at this instant: its and its "
        + "superlayers' speed, beginTime and timeOffset together overflow")
  }

  /// Thirteenth pass: two runs of isolates nested 67 deep crashed the bidi library (SIGSEGV)
  /// in every command that laid them out; a string set from Swift is refused when drawn.
  @Test func isolatesNestedTooDeepAreRefusedBeforeLayout() throws {
    let deep =
      String(repeating: "\u{2067}", count: 70) + "a" + String(repeating: "\u{2069}", count: 70)
    let text = TextLayer()
    text.name = "deep"
    text.frame = Rect(x: 0, y: 0, width: 20, height: 20)
    text.string = deep + deep
    #expect(TextLayer.isolateDepthExcess(of: deep + deep) == 70)
    #expect(
      TextLayer.isolateDepthExcess(of: String(repeating: "\u{2066}a\u{2069}", count: 500)) == nil)
    let error = RenderingError.isolatesTooDeep(layer: "deep", depth: 70)
    #expect(throws: error) {
      try LayerRenderer().draw(text, in: try Canvas(pixelWidth: 20, pixelHeight: 20))
    }
    #expect(
      error.description
        == "layer 'deep' has bidirectional isolates (LRI, RLI, FSI) nested 70 deep, past the "
        + "limit of 16")
  }

  /// An animation's own time overflowing (a beginTime of -1e308 at a speed of 3.4e38,
  /// repeating forever) silently showed the model value; nine groups of speed 3.4e38 gave NaN,
  /// said as a value overflow. Both are refused naming the layer, the key path and the cause.
  @Test func anOverflowingAnimationTimeIsRefusedNamingTheKeyPath() throws {
    var move = Self.repeatingMove()
    var grouped: any Animation = move
    for _ in 0..<9 {
      var group = AnimationGroup([grouped])
      (group.duration, group.speed, group.repeatCount) = (1e300, 3.4e38, .infinity)
      group.fillMode = .both
      grouped = group
    }
    move.beginTime = -1e308
    move.speed = 3.4e38
    let error = RenderingError.animationTimeNotFinite(layer: "square", keyPath: "position.x")
    for animation in [move, grouped] as [any Animation] {
      let layer = square(animation)
      #expect(throws: error) {
        try LayerRenderer().draw(
          layer.drawablePresentation(at: 0.3), in: try Canvas(pixelWidth: 20, pixelHeight: 20))
      }
      // The presentation keeps the model value (5).
      #expect(layer.presentation(at: 0.3).position.x == 5)
    }
    #expect(
      error.description
        == "the animation of \"position.x\" at layer 'square' has no finite time at this "
        + "instant: its and its groups' beginTime, speed and timeOffset together overflow, or, "
        + "for a cumulative animation, its cycle count (the time over its duration) does")
  }

  /// Seventeenth hostile pass: a replicator of 10,000 instances delayed 1e305 s each blamed its
  /// sublayer's speed, beginTime and timeOffset, none of them set: what overflows is instance
  /// 1798's delay, 1798 x 1e305. The error names the replicator, the instance and its delay.
  @Test func anOverflowingInstanceDelayNamesTheReplicator() throws {
    let replicator = ReplicatorLayer()
    replicator.name = "r"
    replicator.instanceDelay = 1e305
    replicator.addSublayer(square(Self.repeatingMove()))
    replicator.instanceCount = 1798
    let drawn = replicator.drawablePresentation(at: 0.5)
    #expect(RenderingError.firstPresentationProblem(in: drawn) == nil)
    replicator.instanceCount = 10_000
    let error = RenderingError.instanceTimeNotFinite(
      layer: "square", replicator: "r", instance: 1798, instanceDelay: 1e305)
    let tree = replicator.drawablePresentation(at: 0.5)
    #expect(RenderingError.firstPresentationProblem(in: tree) == error)
    #expect(throws: error) {
      try LayerRenderer().draw(tree, in: try Canvas(pixelWidth: 20, pixelHeight: 20))
    }
    #expect(
      error.description
        == "layer 'square' has animations but no finite time at this instant: it is in "
        + "instance 1798 of the replicator layer 'r', shown 1798 x its instanceDelay of 1e305 "
        + "s earlier, past the largest time a Double holds (1.8e308 s)")
  }

  /// `inspect` refuses what drawing refuses (`RenderingError.firstPresentationProblem`),
  /// delayed replicator instances included: here only the delayed copy's time overflows
  /// ((0.3 - 1e308) x 3.4e38), the undelayed one's is 1.02e38.
  @Test func aProblemOnlyADelayedReplicatorInstanceHasIsFound() throws {
    let layer = square(Self.repeatingMove())
    layer.timing.speed = 3.4e38
    let replicator = ReplicatorLayer()
    replicator.instanceDelay = 1e308
    replicator.addSublayer(layer)
    replicator.instanceCount = 1
    #expect(
      RenderingError.firstPresentationProblem(in: replicator.drawablePresentation(at: 0.3)) == nil)
    replicator.instanceCount = 2
    let error = RenderingError.layerTimeNotFinite(layer: "square")
    let tree = replicator.drawablePresentation(at: 0.3)
    #expect(RenderingError.firstPresentationProblem(in: tree) == error)
    #expect(throws: error) {
      try LayerRenderer().draw(tree, in: try Canvas(pixelWidth: 20, pixelHeight: 20))
    }
  }

  /// Fourteenth pass: a `fontSize` past 10,000 was drawn at 10,000 without a word. Scene files
  /// refuse it (`Fixtures/invalid/font-size-too-large.json`); the layer's bound is the one text
  /// is laid out at.
  @Test func theLargestFontSizeIsTheOneTextIsLaidOutAt() {
    #expect(TextLayer.maximumFontSize == TextLayout.maximumFontSize)
    #expect(TextLayer.maximumFontSize == 10_000)
  }
}
