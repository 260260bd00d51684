import Flipbook
import FlipbookTestSupport

/// Builds small Lottie documents for the tests and reads values out of what they become.
enum LottieTest {
  /// A Lottie document of `w` x `h` at `fr`, frames `ip` to `op`, with these layers and assets
  /// (JSON text).
  static func document(
    layers: String, assets: String = "[]", fr: Double = 10, ip: Double = 0, op: Double = 40,
    w: Double = 100, h: Double = 100
  ) -> String {
    """
    {"v": "5.7.0", "fr": \(fr), "ip": \(ip), "op": \(op), "w": \(w), "h": \(h), "nm": "test",
     "assets": \(assets), "layers": \(layers)}
    """
  }

  /// A shape layer named `name` with a transform `ks` (JSON) and shapes.
  static func shapeLayer(
    _ name: String, ind: Int = 1, ks: String = "{}", shapes: String = "[]", extra: String = ""
  ) -> String {
    """
    {"ty": 4, "ind": \(ind), "nm": "\(name)", "ip": 0, "op": 1000, "st": 0, "ks": \(ks),
     "shapes": \(shapes)\(extra.isEmpty ? "" : ", " + extra)}
    """
  }

  /// Reads a document.
  static func read(_ json: String, strict: Bool = false) throws -> LottieFormat.Document {
    try LottieFormat.decode(Array(json.utf8), file: "test.json", strict: strict)
  }

  /// The problems reading `json` gives, one line each.
  static func problems(_ json: String) -> [String] {
    do {
      _ = try LottieFormat.decode(Array(json.utf8), file: "test.json")
      return []
    } catch {
      return error.description.split(separator: "\n").map(String.init)
    }
  }

  /// The presentation layer named `name` at `time`.
  static func layer(_ name: String, in scene: Scene, at time: Double) throws -> Layer {
    let tree = try scene.presentationTree(at: time)
    guard let layer = tree.layer(named: name) else { throw Missing(name: name) }
    return layer
  }

  struct Missing: Error { var name: String }

  /// Where `point` in the coordinates of the layer named `name` (or of its content) lands in the
  /// scene at `time`, and the product of the opacities on the way.
  static func scenePoint(
    _ point: Point, in name: String, of scene: Scene, at time: Double, content: Bool = false
  ) throws -> (point: Point, opacity: Double) {
    let tree = try scene.presentationTree(at: time)
    guard var layer = tree.layer(named: name) else { throw Missing(name: name) }
    // `content`: the layer's content space (under its transform's nested layers).
    while content, let inner = layer.sublayers.first { layer = inner }
    var p = point
    var opacity = 1.0
    var current: Layer? = layer
    while let l = current, l.superlayer != nil {
      p = p.applying(l.transformToSuperlayer.affineTransform ?? .identity)
      opacity *= l.opacity
      current = l.superlayer
    }
    return (p, opacity)
  }
}
