import Geometry

// A layer's `filters` in scene files (docs/scene-format.md, "Filters"): a list of objects, each
// with a `type` and that filter's parameters, all required:
//   {"type": "gaussianBlur", "radius": 4}
//   {"type": "directionalBlur", "radius": 4, "axis": "horizontal"}
//   {"type": "fill", "color": "#ff0000", "opacity": 1}
//   {"type": "tint", "black": "#000000", "white": "#ffffff", "amount": 1}
//   {"type": "tritone", "bright": "#ffffff", "midtone": "#808080", "dark": "#000000", "amount": 1}

extension SceneReader {
  /// The keys each filter type takes, besides `type`.
  static let filterKeys: [String: [String]] = [
    "gaussianBlur": ["radius"], "directionalBlur": ["radius", "axis"],
    "fill": ["color", "opacity"],
    "tint": ["black", "white", "amount"], "tritone": ["bright", "midtone", "dark", "amount"],
  ]

  /// The filter types, quoted, in messages.
  static let filterTypeNames = ["gaussianBlur", "directionalBlur", "fill", "tint", "tritone"]
    .map { "\"\($0)\"" }.joined(separator: ", ")

  /// A list of filters; `nil` when any is wrong (each problem reported). `offsets`: the list is
  /// an animation's offsets from the model value (`byValue`, an additive animation's values),
  /// whose radii and amounts may be of any sign or size, as other offsets' (scene-format.md
  /// §7.3): drawing clamps what they add up to.
  func filterList(_ json: JSONValue, at place: String, offsets: Bool = false) -> [LayerFilter]? {
    guard let items = array(json, at: place) else { return nil }
    guard items.count <= SceneFormat.maximumFilters else {
      report(
        place,
        "a list of \(items.count) filters exceeds the limit of \(SceneFormat.maximumFilters)")
      return nil
    }
    var out: [LayerFilter] = []
    var failed = false
    for (i, item) in items.enumerated() {
      if let filter = layerFilter(item, at: "\(place)[\(i)]", offsets: offsets) {
        out.append(filter)
      } else {
        failed = true
      }
    }
    return failed ? nil : out
  }

  /// One filter object; `nil` when wrong (reported).
  private func layerFilter(_ json: JSONValue, at place: String, offsets: Bool) -> LayerFilter? {
    guard case .object(let entries) = json else {
      report(place, "expected a filter (an object with a \"type\"), found \(json.kindDescription)")
      return nil
    }
    guard let typeValue = entries.first(where: { $0.key == "type" })?.value else {
      report(place, "missing \"type\" (one of \(SceneReader.filterTypeNames))")
      return nil
    }
    guard let type = string(typeValue, at: place + ".type") else { return nil }
    guard let keys = SceneReader.filterKeys[type] else {
      report(
        place + ".type",
        "unknown filter \"\(type)\" (expected one of \(SceneReader.filterTypeNames))")
      return nil
    }
    guard let f = fields(json, at: place, allowed: ["type"] + keys, what: "a filter") else {
      return nil
    }
    var missing = false
    func value(_ key: String) -> JSONValue? {
      guard let v = f[key] else {
        report(place, "missing \"\(key)\" (a \(type) filter needs \(keys.joined(separator: ", ")))")
        missing = true
        return nil
      }
      return v
    }
    func amount(_ key: String) -> Double? {
      value(key).flatMap { offsets ? number($0, at: f.place(key)) : unit($0, at: f.place(key)) }
    }
    func radius() -> Double? {
      value("radius").flatMap {
        offsets ? number($0, at: f.place("radius")) : nonNegative($0, at: f.place("radius"))
      }
    }
    func solid(_ key: String) -> Color? {
      guard let v = value(key), let c = color(v, at: f.place(key)) else { return nil }
      guard let c else {
        report(f.place(key), "expected a color, found null")
        return nil
      }
      return c
    }
    switch type {
    case "gaussianBlur":
      guard let r = radius() else { return nil }
      return .gaussianBlur(radius: r)
    case "directionalBlur":
      let r = radius()
      let axis = value("axis").flatMap { choice($0, at: f.place("axis"), BlurAxis.self) }
      guard let r, let axis else { return nil }
      return .directionalBlur(radius: r, axis: axis)
    case "fill":
      let color = solid("color"), opacity = amount("opacity")
      guard let color, let opacity, !missing else { return nil }
      return .fill(color: color, opacity: opacity)
    case "tint":
      let black = solid("black"), white = solid("white"), a = amount("amount")
      guard let black, let white, let a, !missing else { return nil }
      return .tint(black: black, white: white, amount: a)
    default:
      let bright = solid("bright"), mid = solid("midtone"), dark = solid("dark")
      let a = amount("amount")
      guard let bright, let mid, let dark, let a, !missing else { return nil }
      return .tritone(bright: bright, midtone: mid, dark: dark, amount: a)
    }
  }
}
