import Flipbook
import FlipbookTestSupport
import Testing

/// Parenting (`parent`) builds each parent's transform once for layers drawn one after the
/// other: a chain of n parented layers is n copies, not n² / 2 (issue 18: 140 took 44 s).
@Suite struct ParentChainTests {
  /// `count` layers, each the parent of the next, each moved 0.5 right of its parent.
  static func chain(_ count: Int) -> String {
    let layers = (1...count).map { i in
      LottieTest.shapeLayer(
        "L\(i)", ind: i, ks: #"{"p": {"a": 0, "k": [0.5, 0]}}"#,
        extra: i > 1 ? "\"parent\": \(i - 1)" : "")
    }
    return LottieTest.document(layers: "[" + layers.joined(separator: ", ") + "]")
  }

  static func layerCount(_ layer: Layer) -> Int {
    1 + layer.sublayers.map(layerCount).reduce(0, +)
  }

  @Test func aLongChainBuildsEachParentOnceAndPlacesEveryLayer() throws {
    let read = try LottieTest.read(Self.chain(140))
    // Each Lottie layer: its own three transform layers and one copy of three; the composition.
    #expect(read.scene.layers.map(Self.layerCount).reduce(0, +) <= 140 * 6 + 1)
    // The deepest layer sits inside all 139 parents: 140 x 0.5 right of the origin.
    let deepest = try LottieTest.scenePoint(.zero, in: "L140", of: read.scene, at: 0)
    #expect(abs(deepest.point.x - 70) < 1e-9)
    let first = try LottieTest.scenePoint(.zero, in: "L1", of: read.scene, at: 0)
    #expect(first.point.x == 0.5)
  }

  @Test func layersSharingParentsKeepTheirDrawingOrder() throws {
    // Two children of one parent, the first listed drawn on top, then one unparented between.
    let layers = [
      LottieTest.shapeLayer("P", ind: 1, ks: #"{"p": {"a": 0, "k": [10, 0]}}"#),
      LottieTest.shapeLayer("A", ind: 2, extra: "\"parent\": 1"),
      LottieTest.shapeLayer("B", ind: 3, extra: "\"parent\": 1"),
      LottieTest.shapeLayer("C", ind: 4),
      LottieTest.shapeLayer("D", ind: 5, extra: "\"parent\": 1"),
    ]
    let read = try LottieTest.read(
      LottieTest.document(layers: "[" + layers.joined(separator: ", ") + "]"))
    let tree = try read.scene.presentationTree(at: 0)
    var order: [String] = []
    func walk(_ l: Layer) {
      if let name = l.name, name.count == 1 { order.append(name) }
      l.sublayers.forEach(walk)
    }
    walk(tree)
    // Bottom first: D, C, then B below A in one shared copy of P, then P.
    #expect(order == ["D", "C", "B", "A", "P"])
    for name in ["A", "B", "D"] {
      #expect(try LottieTest.scenePoint(.zero, in: name, of: read.scene, at: 0).point.x == 10)
    }
  }
}
