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
    // A clip of width 0 is none: the precomposition's 50 x 50 green solid draws.
    let frame = try read.scene.makeFrame(at: 0).makeBitmap()
    #expect(frame[25, 25] == RGBA8(0, 255, 0, 255))
  }
}
