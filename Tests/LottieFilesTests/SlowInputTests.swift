import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, sixth pass: Lottie files at the documented limits took minutes (a shape of
/// 100,000 vertices, a polystar of 10,000 points, 5,000 masks). The limits are now where a file
/// at them draws a frame in a few seconds: 10,000 vertices a shape, 1,000 polystar points, 100
/// masks a layer and 1,000 in all, and text documents of at most 100,000 characters.
@Suite struct SlowInputTests {
  static let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#

  static func shape(vertices n: Int) -> String {
    let v = (0..<n).map { "[\($0 % 100), \($0 / 100)]" }.joined(separator: ",")
    let z = Array(repeating: "[0,0]", count: n).joined(separator: ",")
    return
      #"{"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [\#(v)], "i": [\#(z)], "o": [\#(z)]}}}"#
  }

  @Test func aShapeOverTheVertexLimitIsRefusedByPlace() {
    let n = LottieFormat.maximumVertices
    #expect(n == 10_000)
    let over = LottieTest.document(
      layers: "["
        + LottieTest.shapeLayer("S", shapes: "[\(Self.shape(vertices: n + 1)), \(Self.fill)]")
        + "]")
    #expect(
      LottieTest.problems(over) == [
        "test.json: layers[0].shapes[0].ks.k.v: 10001 vertices exceed the limit of 10000"
      ])
    let at = LottieTest.document(
      layers: "[" + LottieTest.shapeLayer("S", shapes: "[\(Self.shape(vertices: n)), \(Self.fill)]")
        + "]")
    #expect(LottieTest.problems(at) == [])
  }

  static func masks(_ n: Int) -> String {
    let mask =
      #"{"mode": "a", "o": {"a": 0, "k": 100}, "pt": {"a": 0, "k": {"c": true, "#
      + #""v": [[0, 0], [50, 0], [50, 50]], "i": [[0, 0], [0, 0], [0, 0]], "#
      + #""o": [[0, 0], [0, 0], [0, 0]]}}}"#
    return #""hasMask": true, "masksProperties": ["#
      + Array(repeating: mask, count: n).joined(separator: ",") + "]"
  }

  @Test func masksOverTheLimitOfALayerAreRefusedByPlace() throws {
    let n = LottieFormat.maximumMasksPerLayer
    #expect(n == 100)
    let rect =
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [80, 80]}, "r": {"a": 0, "k": 0}}"#
    func document(_ masks: Int, layers: Int = 1) -> String {
      LottieTest.document(
        layers: "["
          + (0..<layers).map {
            LottieTest.shapeLayer(
              "M\($0)", ind: $0 + 1, shapes: "[\(rect), \(Self.fill)]", extra: Self.masks(masks))
          }.joined(separator: ",") + "]")
    }
    #expect(
      LottieTest.problems(document(n + 1)) == [
        "test.json: layers[0].masksProperties: 101 masks on one layer exceed the limit of 100"
      ])
    let read = try LottieTest.read(document(n))
    #expect(try read.scene.makeFrame(at: 0).makeBitmap()[25, 10].a == 255)
    // 11 layers of 100: the eleventh passes the 1,000 of the whole animation.
    #expect(
      LottieTest.problems(document(n, layers: 11)) == [
        "test.json: layers[10].masksProperties: the layers' masks exceed the limit of 1000 in one "
          + "animation (a precomposition's counted for every layer that shows it)"
      ])
  }

  @Test func aTextDocumentOverTheStringLimitIsRefusedByPlace() {
    let long = String(repeating: "x", count: TextLayer.maximumStringLength + 1)
    let text =
      #"{"ty": 5, "ind": 1, "nm": "T", "ip": 0, "op": 100, "st": 0, "ks": {}, "#
      + #""t": {"d": {"k": [{"t": 0, "s": {"t": "\#(long)", "s": 12, "f": "Helvetica"}}]}}}"#
    #expect(
      LottieTest.problems(LottieTest.document(layers: "[\(text)]")) == [
        "test.json: layers[0].t.d.k[0].s.t: a string of 100001 characters exceeds the limit of "
          + "100000"
      ])
  }

  @Test func aTextDocumentOfTooManyLinesIsRefusedByPlace() {
    // Lottie breaks lines with a carriage return.
    let lines = String(repeating: "x\\r", count: TextLayer.maximumParagraphCount)
    let text =
      #"{"ty": 5, "ind": 1, "nm": "T", "ip": 0, "op": 100, "st": 0, "ks": {}, "#
      + #""t": {"d": {"k": [{"t": 0, "s": {"t": "\#(lines)", "s": 12, "f": "Helvetica"}}]}}}"#
    #expect(
      LottieTest.problems(LottieTest.document(layers: "[\(text)]")) == [
        "test.json: layers[0].t.d.k[0].s.t: a string of 10001 lines (line breaks) exceeds the "
          + "limit of 10000"
      ])
  }
}
