import Animations
import Geometry
import LayerTree
import Testing

/// Layer.presentation(at:): the time tree of docs/timing.md §1 and §3, and how animated values land
/// on layer properties.
@Suite struct PresentationTests {
  func opacityRamp(_ configure: (inout BasicAnimation) -> Void = { _ in }) -> BasicAnimation {
    var a = BasicAnimation(keyPath: "opacity")
    (a.fromValue, a.toValue, a.duration) = (0, 1, 1)
    configure(&a)
    return a
  }

  @Test func theModelIsNeverChanged() {
    let layer = Layer()
    layer.add(opacityRamp(), forKey: "fade")
    let shown = layer.presentation(at: 0.25)
    #expect(shown.opacity == 0.25)
    #expect(layer.opacity == 1)
    #expect(layer.presentation(at: 0.75).opacity == 0.75)
    #expect(layer.presentation(at: 0.25).opacity == 0.25)  // any order
  }

  /// The renders' presentation: what draws, with the values `presentation(at:)` gives; the
  /// subtrees of layers that draw nothing are left out, and, when sharing, a subtree with no
  /// animations is the model's own.
  @Test func drawablePresentationKeepsWhatDrawsAndSharesWhatIsStatic() {
    let root = Layer()
    let hidden = Layer()
    hidden.isHidden = true
    hidden.addSublayer(Layer())
    let fading = Layer()  // opacity 0 at time 0, 0.5 at 0.5
    fading.add(opacityRamp(), forKey: "fade")
    fading.addSublayer(Layer())
    let still = Layer()
    still.addSublayer(Layer())
    let moving = Layer()
    let child = Layer()
    child.add(opacityRamp(), forKey: "fade")
    moving.addSublayer(child)
    for layer in [hidden, fading, still, moving] { root.addSublayer(layer) }

    let full = root.presentation(at: 0)
    #expect(full.sublayers.map(\.sublayers.count) == [1, 1, 1, 1])
    #expect(full.sublayers[0].superlayer === full)

    let early = root.drawablePresentation(at: 0)
    #expect(early.sublayers.map(\.sublayers.count) == [0, 0, 1, 1])
    #expect(early.sublayers[0].isHidden && early.sublayers[1].opacity == 0)
    #expect(early.sublayers.allSatisfy { $0.superlayer == nil })
    #expect(!early.sublayers.contains { $0 === hidden || $0 === still })  // all copies

    let shared = root.drawablePresentation(at: 0.5, sharingStaticLayers: true)
    #expect(shared !== root)  // something below is animated
    #expect(shared.sublayers[0] === hidden)  // draws nothing: the model, untouched
    #expect(shared.sublayers[1] !== fading && shared.sublayers[1].opacity == 0.5)
    #expect(shared.sublayers[1].sublayers[0] === fading.sublayers[0])
    #expect(shared.sublayers[2] === still && still.sublayers.count == 1)
    #expect(shared.sublayers[3] !== moving && shared.sublayers[3].sublayers[0].opacity == 0.5)
    #expect(child.opacity == 1 && fading.opacity == 1)  // the model is not changed
    let alone = Layer()
    alone.addSublayer(Layer())
    #expect(alone.drawablePresentation(at: 0, sharingStaticLayers: true) === alone)
  }

  @Test func addingUnderAKeyReplacesAndRemovingRestoresTheModel() {
    let layer = Layer()
    layer.add(opacityRamp(), forKey: "fade")
    layer.add(opacityRamp { $0.toValue = 0.5 }, forKey: "fade")
    #expect(layer.animationKeys == ["fade"])
    #expect(layer.presentation(at: 0.5).opacity == 0.25)
    layer.removeAnimation(forKey: "fade")
    #expect(layer.presentation(at: 0.5).opacity == 1)
  }

  @Test func layerTimingMapsTimeForAnimationsAndSublayers() {
    let parent = Layer()
    parent.timing = LayerTiming(beginTime: 1, speed: 2)
    let child = Layer()
    child.timing = LayerTiming(speed: 2)
    child.add(opacityRamp(), forKey: nil)
    parent.addSublayer(child)
    // Scene time 1.1 -> parent 0.2 -> child 0.4: speeds compose multiplicatively.
    #expect(abs(parent.presentation(at: 1.1).sublayers[0].opacity - 0.4) < 1e-12)
  }

  @Test func speedZeroWithAnOffsetPausesASubtree() {
    let paused = Layer()
    paused.timing = LayerTiming(speed: 0, timeOffset: 0.3)
    let child = Layer()
    child.add(opacityRamp(), forKey: nil)
    paused.addSublayer(child)
    for t in [0.0, 0.5, 7] {
      #expect(abs(paused.presentation(at: t).sublayers[0].opacity - 0.3) < 1e-12)
    }
  }

  @Test func transformComponentsReplaceTheirPartOfTheModelTransform() {
    let layer = Layer()
    layer.transform = Transform3D.rotation(0.5).concatenating(.translation(x: 10, y: 0))
    var scale = BasicAnimation(keyPath: "transform.scale")
    (scale.fromValue, scale.toValue, scale.duration) = (0, 2, 1)
    layer.add(scale, forKey: nil)
    let parts = TransformDecomposition(layer.presentation(at: 0.5).transform)
    #expect(abs(parts.scaleX - 1) < 1e-12 && abs(parts.scaleY - 1) < 1e-12)
    #expect(abs(parts.rotation - 0.5) < 1e-12 && abs(parts.translationX - 10) < 1e-12)
    // On an identity model transform the component is exactly the animated scalar.
    let plain = Layer()
    plain.add(scale, forKey: nil)
    #expect(plain.presentation(at: 0.25).transform == .scale(x: 0.5, y: 0.5))
  }

  @Test func rotationKeyPathsInterpolateTheScalarSoFourPiTurnsTwice() {
    let layer = Layer()
    var spin = BasicAnimation(keyPath: "transform.rotation.z")
    (spin.fromValue, spin.toValue, spin.duration) = (0, .scalar(4 * .pi), 1)
    layer.add(spin, forKey: nil)
    let quarter = layer.presentation(at: 0.0625).transform  // π/4
    #expect(abs(quarter.m12 - (0.5 as Double).squareRoot()) < 1e-12)
    let oneAndAHalfTurns = layer.presentation(at: 0.375).transform  // 3π/2: +x points to -y
    #expect(abs(oneAndAHalfTurns.m11) < 1e-12 && abs(oneAndAHalfTurns.m12 + 1) < 1e-12)
  }

  @Test func additiveByValuesOnPositionAndBounds() {
    let layer = Layer()
    layer.position = Point(100, 100)
    layer.bounds = Rect(0, 0, 10, 10)
    var nudge = BasicAnimation(keyPath: "position")
    (nudge.fromValue, nudge.toValue, nudge.isAdditive, nudge.duration) = (
      .point(0, 0), .point(20, -10), true, 1
    )
    layer.add(nudge, forKey: nil)
    var grow = BasicAnimation(keyPath: "bounds.size.width")
    (grow.byValue, grow.duration) = (30, 1)
    layer.add(grow, forKey: nil)
    let shown = layer.presentation(at: 0.5)
    #expect(shown.position == Point(110, 95))
    #expect(shown.bounds.size.width == 25)
  }

  @Test func shapePathsAndColorsAnimate() throws {
    let shape = ShapeLayer()
    var morph = BasicAnimation(keyPath: "path")
    morph.fromValue = .path(Path(rect: Rect(0, 0, 10, 10)))
    morph.toValue = .path(Path(rect: Rect(0, 0, 20, 30)))
    morph.duration = 1
    var tint = BasicAnimation(keyPath: "fillColor")
    (tint.toValue, tint.duration) = (.color(Color(red: 1, green: 1, blue: 1)), 1)
    shape.add(morph, forKey: nil)
    shape.add(tint, forKey: nil)
    let shown = try #require(shape.presentation(at: 0.5) as? ShapeLayer)
    #expect(shown.path == Path(rect: Rect(0, 0, 15, 20)))
    #expect(shown.fillColor == Color(white: 0.5))
    // A shape key path on a plain layer has no effect.
    let plain = Layer()
    plain.add(tint, forKey: nil)
    #expect(plain.presentation(at: 0.5).backgroundColor == nil)
  }

  @Test func contentsChangeDiscretely() {
    let frames = (0..<4).map { Image(Bitmap(width: 1, height: 1), name: "frame-\($0)") }
    var spin = KeyframeAnimation(keyPath: "contents")
    spin.values = frames.map { .image($0) }
    spin.calculationMode = .discrete
    spin.duration = 0.8
    spin.repeatCount = .infinity
    let layer = Layer()
    layer.add(spin, forKey: nil)
    #expect(layer.presentation(at: 0).contents?.name == "frame-0")
    #expect(layer.presentation(at: 0.2).contents?.name == "frame-1")
    #expect(layer.presentation(at: 0.79).contents?.name == "frame-3")
    #expect(layer.presentation(at: 0.8).contents?.name == "frame-0")
  }

  @Test func dashPatternsAnimateElementByElementAndSwitchWhenTheCountsDiffer() throws {
    // A Flipbook extension: Core Animation's lineDashPattern is not animatable.
    let shape = ShapeLayer()
    var grow = BasicAnimation(keyPath: "lineDashPattern")
    (grow.fromValue, grow.toValue, grow.duration) = (.numbers([2, 4]), .numbers([6, 0]), 1)
    shape.add(grow, forKey: "grow")
    let half = try #require(shape.presentation(at: 0.5) as? ShapeLayer)
    #expect(half.lineDashPattern == [4, 2])
    var change = BasicAnimation(keyPath: "lineDashPattern")
    (change.fromValue, change.toValue, change.duration) = (.numbers([2, 4]), .numbers([1]), 1)
    shape.add(change, forKey: "grow")
    let before = try #require(shape.presentation(at: 0.49) as? ShapeLayer)
    let after = try #require(shape.presentation(at: 0.5) as? ShapeLayer)
    #expect(before.lineDashPattern == [2, 4] && after.lineDashPattern == [1])
  }

  @Test func textStringsChangeDiscretely() throws {
    // A Flipbook extension: Core Animation's string is not animatable.
    let text = TextLayer()
    text.string = "model"
    var count = KeyframeAnimation(keyPath: "string")
    count.values = [.text("1"), .text("2"), .text(nil)]
    count.calculationMode = .discrete
    count.duration = 0.9
    text.add(count, forKey: nil)
    // Three values, each a third of the duration.
    let shown = [0, 0.29, 0.31, 0.59, 0.61, 0.89].map {
      (text.presentation(at: $0) as? TextLayer)?.string
    }
    #expect(shown == ["1", "1", "2", "2", nil, nil])
    #expect((text.presentation(at: 2) as? TextLayer)?.string == "model")
  }

  @Test func pathAnimationTurnsTheLayer() throws {
    let layer = Layer()
    var along = KeyframeAnimation(keyPath: "position")
    along.path = try Path(svgPathData: "M 0 0 L 100 0 L 100 100")
    along.rotationMode = .auto
    along.duration = 1
    layer.add(along, forKey: nil)
    let shown = layer.presentation(at: 0.75)
    #expect(shown.position == Point(100, 50))
    #expect(abs(shown.transform.m12 - 1) < 1e-12)  // turned a quarter, clockwise on screen
  }

  @Test func animateChangesTurnsModelChangesIntoAnimations() {
    let root = Layer()
    let item = Layer()
    item.opacity = 0
    root.addSublayer(item)
    root.animateChanges(at: 2, withDuration: 1) { item.opacity = 1 }
    #expect(item.opacity == 1)
    #expect(root.presentation(at: 1.9).sublayers[0].opacity == 1)  // not begun: the model
    #expect(root.presentation(at: 2).sublayers[0].opacity == 0)
    let expected = TimingFunction.default.value(at: 0.5)
    #expect(abs(root.presentation(at: 2.5).sublayers[0].opacity - expected) < 1e-12)
    #expect(root.presentation(at: 3).sublayers[0].opacity == 1)
  }

  @Test func animateChangesStartsFromWhatIsShowing() {
    let root = Layer()
    let item = Layer()
    root.addSublayer(item)
    item.add(
      opacityRamp {
        $0.fromValue = 0.2; $0.toValue = 0.2; $0.duration = 10
      }, forKey: "held")
    root.animateChanges(at: 1, withDuration: 1) { item.opacity = 0.5 }
    // The new animation starts from the 0.2 showing at time 1 and is added after "held".
    #expect(abs(root.presentation(at: 1).sublayers[0].opacity - 0.2) < 1e-12)
  }
}
