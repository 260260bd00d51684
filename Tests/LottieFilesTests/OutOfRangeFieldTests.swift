import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, eleventh pass: Lottie values the reader took silently. Keyframe values whose span
/// overflows are refused (`AnimationValue.maximumMagnitude`); sizes, text colours and box
/// heights out of range are drawn at the nearest, with the warnings the fixtures in
/// `Fixtures/invalid-lottie/` pin; here, what is drawn.
@Suite struct OutOfRangeFieldTests {
  static let folder = FixtureFiles.root + "/invalid-lottie"

  static func fixture(_ name: String) throws -> LottieFormat.Document {
    let bytes = try AtomicFile.read("\(folder)/\(name).json")
    return try LottieFormat.decode(bytes, file: "\(name).json", baseDirectory: folder)
  }

  /// The first layer under `layer` (itself included) that `match` accepts.
  static func first(under layer: Layer, _ match: (Layer) -> Bool) -> Layer? {
    if match(layer) { return layer }
    for sublayer in layer.sublayers {
      if let found = first(under: sublayer, match) { return found }
    }
    return nil
  }

  @Test func keyframeValuesWithinTheLimitMoveAndPastItAreRefused() throws {
    func position(_ from: String, _ to: String) -> String {
      LottieTest.document(
        layers: "["
          + LottieTest.shapeLayer(
            "Square",
            ks: #"{"p": {"a": 1, "k": [{"t": 0, "s": \#(from)}, {"t": 20, "s": \#(to)}]}}"#)
          + "]")
    }
    // -1e15 to 1e15 passes 0 halfway (frame 10 of 20, 1 s at 10 fps).
    let read = try LottieTest.read(position("[-1e15, 0]", "[1e15, 0]"))
    let p = try LottieTest.scenePoint(.zero, in: "Square", of: read.scene, at: 1).point
    #expect(p.x.isFinite && abs(p.x) < 1 && p.y == 0)
    #expect(
      LottieTest.problems(position("[-1e308, 0]", "[1e308, 0]")) == [
        "test.json: layers[0].ks.p.k[0].s: -1e+308 is past the limit of 10^15 in magnitude for "
          + "keyframe values and tangents (the span between keyframes overflows)"
      ])
    // Twentieth pass: a literal past a double was "expected a number, found a number".
    #expect(
      LottieTest.problems(position("[1e400, 0]", "[0, 0]")) == [
        "test.json: layers[0].ks.p.k[0].s[0]: expected a number, found a number beyond "
          + "±1.8e308 (what a double holds)"
      ])
  }

  @Test func outOfRangeTextFieldsDrawAtTheNearest() throws {
    let read = try Self.fixture("text-document-out-of-range")
    let tree = try read.scene.presentationTree(at: 0)
    // fc [2, -1, 1e308] is drawn magenta.
    let bright = try #require(tree.layer(named: "Bright"))
    let text = try #require(Self.first(under: bright) { $0 is TextLayer } as? TextLayer)
    #expect(text.foregroundColor == Color(red: 1, green: 0, blue: 1, alpha: 1))
    // sz [100, -100]: a 100-point-wide box, its height what its line takes (not -100).
    let negative = try #require(tree.layer(named: "Negative height"))
    let box = try #require(Self.first(under: negative) { $0 is TextLayer } as? TextLayer)
    #expect(box.bounds.width == 100 && box.bounds.height > 0 && box.isWrapped)
    // sz [100, 100, 5] is point text: not wrapped.
    let three = try #require(tree.layer(named: "Three-number box"))
    let point = try #require(Self.first(under: three) { $0 is TextLayer } as? TextLayer)
    #expect(!point.isWrapped)
  }

  @Test func outOfRangeSizesDrawAtTheNearest() throws {
    let read = try Self.fixture("sizes-out-of-range")
    let tree = try read.scene.presentationTree(at: 0)
    let image = try #require(tree.layer(named: "Far image"))
    let picture = try #require(Self.first(under: image) { $0.contents != nil })
    #expect(picture.bounds == Rect(x: 0, y: 0, width: 100_000, height: 0))
    let solid = try #require(tree.layer(named: "Negative solid"))
    let filled = try #require(Self.first(under: solid) { $0.backgroundColor != nil })
    #expect(filled.bounds == Rect(x: 0, y: 0, width: 0, height: 40))
    // A clip of width 0 (a negative one drawn at 0) shows nothing, as lottie-web clips to it
    // (hostile pass 36: it was taken as no clip, and the 50 x 50 green solid drew).
    let frame = try read.scene.makeFrame(at: 0).makeBitmap()
    #expect(frame[25, 25] == RGBA8(0, 0, 0, 0))
  }

  /// Nested stretches multiply: 25 precompositions each `sr` 1e15 made the inner layer vanish,
  /// each 1e-15 showed its first keyframe, without a word. Their product is held to one
  /// stretch's range, 2.9e-39 to 7.1e44: the layer past it is drawn unstretched, with a warning
  /// (`nested-stretch-overflow.expected` pins its text).
  @Test func nestedStretchesPastOneStretchsRangeAreDrawnUnstretched() throws {
    /// `levels` precompositions, each stretched `sr`, around a 50 x 50 red solid "S" that moves
    /// from x 0 to 200 over frames 0 to 30.
    func nested(_ levels: Int, sr: String) -> String {
      let ks = #""ks": {"p": {"a": 0, "k": [0, 0]}}"#
      var assets = [
        #"{"id": "c0", "layers": [{"ty": 1, "ind": 1, "nm": "S", "ip": 0, "op": 1e12, "#
          + #""ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 30, "s": [200, 0]}]}}, "#
          + ##""sc": "#ff0000", "sw": 50, "sh": 50}]}"##
      ]
      for i in 1..<levels {
        assets.append(
          #"{"id": "c\#(i)", "layers": [{"ty": 0, "ind": 1, "refId": "c\#(i - 1)", "#
            + #""sr": \#(sr), "ip": 0, "op": 1e12, \#(ks), "w": 100, "h": 100}]}"#)
      }
      return #"{"v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [{"#
        + #""ty": 0, "ind": 1, "refId": "c\#(levels - 1)", "sr": \#(sr), "ip": 0, "op": 30, "#
        + #"\#(ks), "w": 100, "h": 100}], "assets": [\#(assets.joined(separator: ", "))]}"#
    }
    // Slowed 10^15 times at each level: at 0.5 s the solid is at x 0 (it was not drawn).
    let slow = try LottieTest.read(nested(25, sr: "1e15"))
    #expect(slow.warnings.count == 1)
    let s = try #require(try slow.scene.presentationTree(at: 0.5).layer(named: "S"))
    #expect(!s.isHidden && s.position.x >= 0 && s.position.x < 1e-40)
    #expect(try slow.scene.makeFrame(at: 0.5).makeBitmap()[25, 25] == RGBA8(255, 0, 0, 255))
    // Sped up 10^15 times: past its last keyframe (x 200), not at its first.
    let fast = try LottieTest.read(nested(25, sr: "1e-15"))
    #expect(fast.warnings.count == 1)
    let f = try #require(try fast.scene.presentationTree(at: 0.5).layer(named: "S"))
    #expect(f.position.x == 200)
    // Two levels stay within the range: no warning.
    #expect(try LottieTest.read(nested(2, sr: "1e-15")).warnings.isEmpty)
    // One stretch of 1e50 has a speed that is 0 as a Float (it froze the layer): warned.
    #expect(
      try LottieTest.read(nested(1, sr: "1e50")).warnings.map(\.description) == [
        #"test.json: layers[0]: unsupported layer stretch (layers[0].sr is 1e+50): drawn "#
          + "unstretched"
      ])
  }
}
