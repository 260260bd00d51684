import Flipbook

/// The JSON Lines report of `flipbook inspect` (docs/command-line.md, inspect).
enum Inspection {
  /// One line: `{"time": t, "layers": [...]}` with every layer in drawing order.
  static func line(for scene: Scene, at time: Double) throws -> String {
    var entries: [String] = []
    func visit(_ layer: Layer, dynamics: DynamicItemState? = nil) {
      entries.append(entry(for: layer, dynamics: dynamics))
      for sublayer in layer.sublayersInDrawingOrder { visit(sublayer) }
    }
    let tree = try scene.presentationTree(at: time)
    // Top-level layers that dynamics moves also report their velocities.
    var states: [ObjectIdentifier: DynamicItemState] = [:]
    for (model, shown) in zip(scene.layers, tree.sublayers) {
      if let state = scene.dynamicState(of: model) { states[ObjectIdentifier(shown)] = state }
    }
    for layer in tree.sublayersInDrawingOrder { visit(layer, dynamics: states[ObjectIdentifier(layer)]) }
    return "{\"time\": \(number(time)), \"layers\": [\(entries.joined(separator: ", "))]}"
  }

  /// The presentation values of one layer's animatable properties.
  static func entry(for layer: Layer, dynamics: DynamicItemState? = nil) -> String {
    var fields: [(String, String)] = [
      ("name", layer.name.map(string) ?? "null"),
      ("position", point(layer.position)),
      ("bounds", rect(layer.bounds)),
      ("anchorPoint", point(layer.anchorPoint)),
      ("opacity", number(layer.opacity)),
      ("transform", transform(layer.transform)),
      ("sublayerTransform", transform(layer.sublayerTransform)),
      ("zPosition", number(layer.zPosition)),
      ("hidden", layer.isHidden ? "true" : "false"),
      ("cornerRadius", number(layer.cornerRadius)),
      ("borderWidth", number(layer.borderWidth)),
      ("borderColor", color(layer.borderColor)),
      ("backgroundColor", color(layer.backgroundColor)),
      ("contents", layer.contents.map { $0.name.map(string) ?? "\"<image \($0.width)x\($0.height)>\"" } ?? "null"),
    ]
    if let shape = layer as? ShapeLayer {
      fields += [
        ("path", shape.path.map { string($0.svgPathData) } ?? "null"),
        ("fillColor", color(shape.fillColor)),
        ("strokeColor", color(shape.strokeColor)),
        ("lineWidth", number(shape.lineWidth)),
        ("lineDashPhase", number(shape.lineDashPhase)),
        ("strokeStart", number(shape.strokeStart)),
        ("strokeEnd", number(shape.strokeEnd)),
        ("miterLimit", number(shape.miterLimit)),
      ]
    }
    if let dynamics {
      fields += [("velocity", point(dynamics.velocity)), ("angularVelocity", number(dynamics.angularVelocity))]
    }
    if let dynamics {
      fields += [("velocity", point(dynamics.velocity)), ("angularVelocity", number(dynamics.angularVelocity))]
    }
    return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
  }

  static func number(_ x: Double) -> String { shortestNumber(x) }
  static func point(_ p: Point) -> String { "[\(number(p.x)), \(number(p.y))]" }
  static func rect(_ r: Rect) -> String {
    "[\(number(r.origin.x)), \(number(r.origin.y)), \(number(r.size.width)), \(number(r.size.height))]"
  }
  static func transform(_ t: Transform3D) -> String {
    [t.m11, t.m12, t.m21, t.m22, t.m41, t.m42].map(number).joined(separator: ", ").bracketed
  }
  static func color(_ c: Color?) -> String {
    guard let c else { return "null" }
    return [c.red, c.green, c.blue, c.alpha].map(number).joined(separator: ", ").bracketed
  }

  /// A JSON string literal.
  static func string(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where u.value < 0x20:
        let hex = String(u.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(u)
      }
    }
    return out + "\""
  }
}

extension String {
  fileprivate var bracketed: String { "[" + self + "]" }
}
