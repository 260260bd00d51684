import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, tenth pass: replicators whose `instanceCount` is animated are not counted by the
/// scene reader, so two nested ones animated to 10,000 copies each drew 100 million layers
/// (past a minute). A frame draws at most `LayerRenderer.maximumDrawnLayersPerFrame` layers,
/// counted as they are drawn, and presenting delayed copies stops past as many.
@Suite struct DrawnLayerLimitTests {
  /// Two replicators, one inside the other, animated from 1 to `count` copies (fill both),
  /// around a 1 x 1 square; `delay` between copies.
  func nested(_ count: Double, delay: Double = 0) -> Layer {
    let leaf = Layer()
    leaf.name = "dot"
    leaf.frame = Rect(x: 0, y: 0, width: 1, height: 1)
    leaf.backgroundColor = .white
    var inner: Layer = leaf
    for name in ["inner", "outer"] {
      let replicator = ReplicatorLayer()
      replicator.name = name
      replicator.frame = Rect(x: 0, y: 0, width: 4, height: 4)
      replicator.instanceDelay = delay
      replicator.addSublayer(inner)
      var grow = BasicAnimation(keyPath: "instanceCount")
      grow.fromValue = .scalar(count)
      grow.toValue = .scalar(count)
      grow.duration = 1
      grow.fillMode = .both
      replicator.add(grow, forKey: nil)
      inner = replicator
    }
    return inner
  }

  @Test func animatedNestedCopiesAreCountedWhenDrawn() throws {
    #expect(LayerRenderer.maximumDrawnLayersPerFrame == 100_000)
    let canvas = try Canvas(pixelWidth: 4, pixelHeight: 4)
    // 315 x 315 squares, 315 inner replicators and the outer one: 99,541 layers.
    try LayerRenderer().draw(nested(315).drawablePresentation(at: 0.5), in: canvas)
    #expect(canvas.dashTally.drawnLayers == 99_541)
    // 316: 100,173, refused at the square that passes 100,000, before the rest are drawn.
    #expect(throws: RenderingError.tooManyLayersInFrame(layer: "dot")) {
      try LayerRenderer().draw(nested(316).drawablePresentation(at: 0.5), in: canvas)
    }
    #expect(canvas.dashTally.drawnLayers == 100_001)
    #expect(
      RenderingError.tooManyLayersInFrame(layer: "dot").description
        == "the frame would draw more than 100000 layers, the limit, at layer 'dot' (each layer "
        + "once for every replicator instance that draws it, as its count is at the frame's "
        + "time)")
  }

  @Test func delayedCopiesStopBeingBuiltPastTheLimit() throws {
    #expect(ReplicatorLayer.maximumDelayedLayers == 100_000)
    // 10,000 delayed copies of 10,000 delayed copies: 100 million layers to present. Each of
    // the outer's copies is an inner replicator with its 10,000 squares (10,001 layers): the
    // outer stops after the tenth, past 100,000.
    let shown = nested(10_000, delay: 0.001).drawablePresentation(at: 0.5)
    let outer = try #require(shown as? ReplicatorLayer)
    #expect(outer.delayedInstancesCut)
    #expect(outer.delayedInstances.count == 10)
    let inner = try #require(outer.sublayers.first as? ReplicatorLayer)
    #expect(!inner.delayedInstancesCut && inner.delayedInstances.count == 9_999)
    let canvas = try Canvas(pixelWidth: 4, pixelHeight: 4)
    #expect(throws: RenderingError.tooManyLayersInFrame(layer: "dot")) {
      try LayerRenderer().draw(shown, in: canvas)
    }
  }
}
