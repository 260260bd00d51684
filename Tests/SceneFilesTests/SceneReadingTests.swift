import Flipbook
import FlipbookTestSupport
import Testing

/// Valid scene files become the layers, values and defaults docs/scene-format.md states.
@Suite struct SceneReadingTests {
  func decode(_ text: String) throws -> Scene {
    try SceneFormat.decode(Array(text.utf8), file: "test.json")
  }

  @Test func sceneDefaults() throws {
    let scene = try decode(#"{"flipbook": 1, "size": [320, 240]}"#)
    #expect(scene.size == Size(320, 240))
    #expect(scene.scale == 1 && scene.duration == 1 && scene.fps == 30)
    #expect(scene.backgroundColor == nil && scene.loopCount == 0)
    #expect(scene.layers.isEmpty)
  }

  /// Issue 18: a number too small to hold reads as 0, as JSON parsers read it; one too large
  /// is refused (docs/scene-format.md, "Numbers").
  @Test func underflowingNumbersReadAsZeroAndOverflowingOnesAreRefused() throws {
    for literal in ["1e-400", "1e-99999999999999999999", "-1e-99999999999999999999"] {
      let scene = try decode(
        #"{"flipbook": 1, "size": [10, 10], "layers": [{"opacity": "# + literal + "}]}")
      #expect(scene.layers[0].opacity == 0, "\(literal)")
    }
    for literal in ["1e999", "1e99999999999999999999"] {
      let text = #"{"flipbook": 1, "size": [10, 10], "layers": [{"opacity": "# + literal + "}]}"
      do {
        _ = try decode(text)
        Issue.record("\(literal) was read")
      } catch {
        #expect("\(error)" == "test.json: layers[0].opacity: number is out of range")
      }
    }
  }

  /// `speed`, `repeatCount` and timing-function control points are `Float` (docs/timing.md
  /// §12): a speed of 1e39 became infinite and the animation vanished, a timing function's y of
  /// 1e100 made the curve linear, a speed of 1e-50 became 0, all without a word (found by an
  /// independent hostile pass; Fixtures/invalid/float-range.json has the refusals). Values at
  /// Float's edges are taken and honoured.
  @Test func floatValuesAtFloatsEdgesAreTakenAndHonoured() throws {
    let scene = try decode(
      #"""
      {"flipbook": 1, "size": [10, 10], "layers": [
        {"speed": -3.4e38, "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0,
          "toValue": 1, "speed": 1e-45, "repeatCount": 3.4e38}]},
        {"animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 0,
          "toValue": 1, "duration": 1, "timingFunction": [0.5, 3.4e38, 0.5, 3.4e38]}]}]}
      """#)
    #expect(scene.layers[0].timing.speed == Float(-3.4e38))
    let timing = try #require(scene.layers[0].animations.first?.animation.timing)
    #expect(timing.speed == .leastNonzeroMagnitude)
    #expect(timing.repeatCount == Float(3.4e38))
    // The curve is honoured, not replaced by a line: at half time it is 3/4 of 3.4e38 (x(1/2) is
    // 1/2 at these control points, and y(1/2) = 3/8 (c1y + c2y) + 1/8).
    let x = try scene.presentationTree(at: 0.5).sublayers[1].position.x
    #expect(abs(x - 0.75 * Double(Float(3.4e38))) < 1e33, "\(x)")
  }

  @Test func layerDefaultsAreCoreAnimations() throws {
    let scene = try decode(#"{"flipbook": 1, "size": [10, 10], "layers": [{}]}"#)
    let l = scene.layers[0]
    #expect(l.bounds == .zero && l.position == .zero && l.anchorPoint == Point(0.5, 0.5))
    #expect(l.transform == .identity && l.opacity == 1 && !l.isHidden)
    #expect(l.backgroundColor == nil && l.borderColor == .black && l.borderWidth == 0)
    #expect(l.cornerRadius == 0 && !l.masksToBounds && l.contentsGravity == .resize)
    #expect(l.timing == LayerTiming())
  }

  @Test func shapeDefaultsAreCoreAnimations() throws {
    let scene = try decode(#"{"flipbook": 1, "size": [10, 10], "layers": [{"type": "shape"}]}"#)
    let s = try #require(scene.layers[0] as? ShapeLayer)
    #expect(s.path == nil && s.fillColor == .black && s.strokeColor == nil && s.lineWidth == 1)
    #expect(
      s.lineCap == .butt && s.lineJoin == .miter && s.miterLimit == 10 && s.lineDashPattern == nil)
    #expect(s.strokeStart == 0 && s.strokeEnd == 1 && s.fillRule == .nonZero)
  }

  @Test func transformListsReadLikeSuccessiveCATransform3DCalls() throws {
    let scene = try decode(
      #"""
      {"flipbook": 1, "size": [10, 10], "layers": [
        {"transform": [{"scale": [1, 3]}, {"rotate": 0.5}]},
        {"transform": [{"translate": [10, 0]}, {"matrix": [1, 0, 0, 1, 0, 5]}]}
      ]}
      """#)
    #expect(scene.layers[0].transform == Transform3D.identity.scaled(x: 1, y: 3).rotated(0.5))
    // The matrix acts before what the list built so far: CATransform3DConcat(M, current).
    let expected = Transform3D(AffineTransform.translation(x: 0, y: 5)).concatenating(
      .translation(x: 10, y: 0))
    #expect(scene.layers[1].transform == expected)
  }

  @Test func colorsPathsAndTiming() throws {
    let scene = try decode(
      #"""
      {"flipbook": 1, "size": [10, 10], "background": [0, 0.5, 1, 1], "layers": [
        {"type": "shape", "name": "s", "path": {"roundedRect": [0, 0, 10, 10], "cornerRadius": 2},
         "fillColor": null, "strokeColor": "#ff0000", "lineDashPattern": [1, 2],
         "beginTime": 1, "speed": 0.3, "timeOffset": 2}
      ]}
      """#)
    #expect(scene.backgroundColor == Color(red: 0, green: 0.5, blue: 1))
    let s = try #require(scene.layer(named: "s") as? ShapeLayer)
    #expect(s.path == Path(roundedRect: Rect(0, 0, 10, 10), cornerRadius: 2))
    #expect(s.fillColor == nil && s.strokeColor == .red && s.lineDashPattern == [1, 2])
    #expect(s.timing == LayerTiming(beginTime: 1, speed: Float(0.3), timeOffset: 2))
    #expect(Double(s.timing.speed) == 0.30000001192092896)
  }

  @Test func dashPatternsAndStringsAnimateFromSceneFiles() throws {
    // Flipbook extensions: lineDashPattern interpolates element by element, string switches.
    let scene = try decode(
      #"""
      {"flipbook": 1, "size": [10, 10], "layers": [
        {"type": "shape", "name": "s", "lineDashPattern": [1, 1], "animations": [
          {"type": "basic", "keyPath": "lineDashPattern", "fromValue": [2, 4], "toValue": [4, 8],
           "duration": 1}]},
        {"type": "text", "name": "t", "animations": [
          {"type": "keyframe", "keyPath": "string", "values": ["3", "2", null],
           "calculationMode": "discrete", "duration": 3}]}
      ]}
      """#)
    let tree = try scene.presentationTree(at: 1.5)
    #expect(
      (try scene.presentationTree(at: 0.5).layer(named: "s") as? ShapeLayer)?.lineDashPattern == [
        3, 6,
      ])
    #expect((tree.layer(named: "s") as? ShapeLayer)?.lineDashPattern == [1, 1])
    #expect((tree.layer(named: "t") as? TextLayer)?.string == "2")
    #expect((try scene.presentationTree(at: 2.5).layer(named: "t") as? TextLayer)?.string == nil)
  }

  /// Nineteenth hostile pass: a filter list's `byValue` and additive values were checked as
  /// filter values (a blur offset of -50 "must not be negative"), where every other offset may
  /// go down (§7.3). They are offsets; the sum is what is drawn, clamped as drawing clamps it.
  /// A list's own values (from, to, keyframes) are still checked.
  @Test func filterOffsetsMayGoDownAndPastOne() throws {
    func scene(_ animation: String) throws -> Scene {
      try decode(
        #"{"flipbook": 1, "size": [10, 10], "layers": [{"name": "b", "filters": "#
          + #"[{"type": "gaussianBlur", "radius": 5}], "animations": [\#(animation)]}]}"#)
    }
    let by = try scene(
      #"{"type": "basic", "keyPath": "filters", "byValue": [{"type": "gaussianBlur", "radius": -4}], "duration": 1}"#
    )
    #expect(
      try by.presentationTree(at: 0.5).layer(named: "b")?.filters == [.gaussianBlur(radius: 3)])
    let additive = try scene(
      #"{"type": "basic", "keyPath": "filters", "additive": true, "fromValue": [{"type": "gaussianBlur", "radius": 0}], "toValue": [{"type": "gaussianBlur", "radius": -50}], "duration": 1}"#
    )
    #expect(
      try additive.presentationTree(at: 1).layer(named: "b")?.filters == [.gaussianBlur(radius: 5)])
    _ = try additive.makeFrame(at: 0.5)  // -20 in all: drawn unblurred
    #expect(throws: SceneFormat.DecodingError.self) {
      try scene(
        #"{"type": "basic", "keyPath": "filters", "toValue": [{"type": "gaussianBlur", "radius": -50}], "duration": 1}"#
      )
    }
  }

  @Test func imagesResolveAgainstTheSceneFolder() throws {
    let scene = try SceneFormat.load(
      contentsOf: FixtureFiles.root + "/scenes/contents-gravity.json")
    let image = try #require(scene.layers[0].contents)
    #expect(image.width == 24 && image.height == 16 && image.name == "../images/quadrants.png")
  }
}
