import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

/// Issue 18, third pass: Lottie values at the ends of the number line draw what the format
/// means instead of turning NaN and silently drawing nothing.
@Suite struct ExtremeValueTests {
  static let square = LottieTest.shapeLayer(
    "Square", ks: "KS",
    shapes: #"[{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 40]}, "#
      + #""r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "#
      + #""o": {"a": 0, "k": 100}}]"#)

  static func document(ks: String) -> String {
    LottieTest.document(layers: "[" + square.replacingOccurrences(of: "KS", with: ks) + "]")
  }

  @Test func keyframesAtPlusAndMinus1e308AreTakenAt1e12() throws {
    // The span between them overflowed: every key time was NaN.
    let read = try LottieTest.read(
      Self.document(
        ks: #"{"p": {"a": 1, "k": [{"t": -1e308, "s": [0, 0]}, {"t": 1e308, "s": [100, 100]}]}}"#))
    let p = try LottieTest.scenePoint(.zero, in: "Square", of: read.scene, at: 1).point
    #expect(abs(p.x - 50) < 1e-6 && abs(p.y - 50) < 1e-6)
    let frame = try read.scene.makeFrame(at: 1).makeBitmap()
    #expect(frame[50, 50].a == 255)
  }

  @Test func aRotationTooLargeToConvertTurnsModuloATurn() throws {
    // 1e308 degrees times pi overflowed to infinity, and the transform to NaN.
    let read = try LottieTest.read(Self.document(ks: #"{"r": {"a": 0, "k": 1e308}}"#))
    let layer = try LottieTest.layer("Square", in: read.scene, at: 0)
    let t = try #require(layer.transform.affineTransform)
    let degrees = 1e308.truncatingRemainder(dividingBy: 360)
    #expect(abs(t.a - cos(degrees * .pi / 180)) < 1e-12)
    let frame = try read.scene.makeFrame(at: 0).makeBitmap()
    // The square, centred on the origin, covers (5, 5) at any angle.
    #expect(frame[5, 5].a == 255)
  }

  @Test func aLargePathMorphReadsEachVertexWithoutMakingItsPlace() throws {
    // 2,000 vertices in 30 keyframes: reading made a JSON path string per number (a 10,000
    // vertex morph took 22 s to render, 7 s now); the shape still reads exactly.
    let vertices = (0..<2000).map { i in "[\(i % 100), \(i / 100)]" }.joined(separator: ", ")
    let zeros = Array(repeating: "[0, 0]", count: 2000).joined(separator: ", ")
    let shape = #"{"c": true, "v": [\#(vertices)], "i": [\#(zeros)], "o": [\#(zeros)]}"#
    let keyframes = (0..<30).map { #"{"t": \#($0), "s": [\#(shape)]}"# }.joined(separator: ", ")
    let layer = LottieTest.shapeLayer(
      "Morph",
      shapes: #"[{"ty": "sh", "ks": {"a": 1, "k": [\#(keyframes)]}}, "#
        + #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]"#)
    let start = Date()
    let read = try LottieTest.read(LottieTest.document(layers: "[\(layer)]"))
    #expect(Date().timeIntervalSince(start) < 20)
    _ = try read.scene.makeFrame(at: 1)
    // A vertex that is not [x, y] is still refused by its place.
    let bad = LottieTest.document(
      layers: "["
        + LottieTest.shapeLayer(
          "Bad",
          shapes: #"[{"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [[0, 0], [1]], "#
            + #""i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]]}}}]"#) + "]")
    #expect(
      LottieTest.problems(bad) == [
        "test.json: layers[0].shapes[0].ks.k.v[1]: expected [x, y], found 1 number"
      ])
  }

  static let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
  static let rect =
    #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [4, 4]}, "#
    + #""r": {"a": 0, "k": 0}}"#

  /// The features of the warnings reading one shape layer of `shapes` gives.
  func warnings(_ shapes: String) throws -> [String] {
    let layer = LottieTest.shapeLayer("Shape", shapes: shapes)
    return try LottieTest.read(LottieTest.document(layers: "[\(layer)]")).warnings.map(\.feature)
  }

  /// Issue 18, fifth pass: merge modes other than 1 to 5 were drawn as mode 1 without a word.
  @Test func anUnknownMergeModeIsWarnedAboutByPlace() throws {
    for mode in ["0", "6", "7", "-1", "2.5"] {
      #expect(
        try warnings(#"[\#(Self.rect), {"ty": "mm", "mm": \#(mode)}, \#(Self.fill)]"#) == [
          "merge mode \(mode) (layers[0].shapes[1].mm: 1 to 5): drawn as mode 1 (merge)"
        ])
    }
    for mode in 1...5 {
      #expect(try warnings(#"[\#(Self.rect), {"ty": "mm", "mm": \#(mode)}, \#(Self.fill)]"#) == [])
    }
  }

  static func polystar(type: String, points: String) -> String {
    #"{"ty": "sr", "sy": \#(type), "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}, "#
      + #""pt": \#(points), "or": {"a": 0, "k": 20}, "ir": {"a": 0, "k": 10}, "#
      + #""os": {"a": 0, "k": 0}, "is": {"a": 0, "k": 0}}"#
  }

  /// An unknown polystar type (`sy`) was drawn as a star without a word (now as the polygon
  /// lottie-web draws, said so), and more than 10,000 points as
  /// 10,000 (also when only a keyframe asks for them), without a word. (The limit is 1,000
  /// since a rounded star of 10,000 points turned inside out took 13 s to stroke.)
  @Test func polystarTypesAndPointsPastTheLimitAreWarnedAboutByPlace() throws {
    let star = Self.polystar(type: "7", points: #"{"a": 0, "k": 5}"#)
    #expect(
      try warnings("[\(star), \(Self.fill)]") == [
        "polystar type 7 (layers[0].shapes[0].sy: 1 or 2): drawn as a polygon (type 2), as "
          + "lottie-web draws it"
      ])
    let many = Self.polystar(
      type: "2", points: #"{"a": 1, "k": [{"t": 0, "s": [5]}, {"t": 10, "s": [20000]}]}"#)
    #expect(
      try warnings("[\(many), \(Self.fill)]") == [
        "polystar points over 1000 (layers[0].shapes[0].pt reaches 20000): 1000 are drawn"
      ])
    let fine = Self.polystar(type: "2", points: #"{"a": 0, "k": 1000}"#)
    #expect(try warnings("[\(fine), \(Self.fill)]") == [])
  }

  /// A repeater of more than 1,000 copies drew 1,000 without a word.
  @Test func repeaterCopiesPastTheLimitAreWarnedAboutByPlace() throws {
    let repeater = #"{"ty": "rp", "c": {"a": 0, "k": 5000}, "o": {"a": 0, "k": 0}, "m": 1}"#
    #expect(
      try warnings("[\(Self.rect), \(Self.fill), \(repeater)]") == [
        "repeater copies over 1000 (layers[0].shapes[2].c is 5000): 1000 are drawn"
      ])
    let layer = LottieTest.shapeLayer("Shape", shapes: "[\(Self.rect), \(Self.fill), \(repeater)]")
    let scene = try LottieTest.read(LottieTest.document(layers: "[\(layer)]")).scene
    // The repeater's copies are layers of their own, side by side in one layer (the stack).
    func mostSublayers(in layer: Layer) -> Int {
      layer.sublayers.map(mostSublayers(in:)).reduce(layer.sublayers.count, Swift.max)
    }
    #expect(mostSublayers(in: try scene.presentationTree(at: 0)) == 1000)
  }

  /// A closed flag written as a string (`"c": "yes"`) was read as open; flags must be booleans
  /// or numbers.
  @Test func aFlagThatIsNotABooleanOrANumberIsRefusedByPlace() {
    let shape =
      #"{"ty": "sh", "ks": {"a": 0, "k": {"c": "yes", "v": [[0, 0], [9, 0], [9, 9]], "#
      + #""i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]]}}}"#
    let hidden = #"{"ty": "rc", "hd": [1], "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [4, 4]}}"#
    let layer = LottieTest.shapeLayer("Shape", shapes: "[\(shape), \(hidden), \(Self.fill)]")
    #expect(
      LottieTest.problems(LottieTest.document(layers: "[\(layer)]")) == [
        "test.json: layers[0].shapes[0].ks.k.c: expected a flag (true, false, 0 or 1), found a string",
        "test.json: layers[0].shapes[1].hd: expected a flag (true, false, 0 or 1), found a list",
      ])
  }

  /// A missing size was reported twice: missing, and then "a size of 0 x 0 is not drawable".
  @Test func aMissingSizeIsReportedOnce() {
    let document = #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "layers": []}"#
    #expect(
      LottieTest.problems(document) == [
        "test.json: w: missing required key", "test.json: h: missing required key",
      ])
  }
}
