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
        "test.json: layers[0].shapes[0].ks.k.v[1]: expected [x, y], found 1 numbers"
      ])
  }
}
