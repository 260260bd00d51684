import Batch
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
    // What the frame would refuse is refused here too, not printed at its model values.
    if let problem = RenderingError.firstPresentationProblem(in: tree) { throw problem }
    // Top-level layers that dynamics moves also report their velocities.
    var states: [ObjectIdentifier: DynamicItemState] = [:]
    for (model, shown) in zip(scene.layers, tree.sublayers) {
      if let state = scene.dynamicState(of: model) { states[ObjectIdentifier(shown)] = state }
    }
    for layer in tree.sublayersInDrawingOrder {
      visit(layer, dynamics: states[ObjectIdentifier(layer)])
    }
    return "{\"time\": \(number(time)), \"layers\": [\(entries.joined(separator: ", "))]}"
  }

  /// The presentation values of one layer's inspected properties (`LayerProperty.isInspected`),
  /// in the table's order; for a layer that dynamics moves, its velocities after them.
  ///
  /// A mask is not among the tree's layers, so its entry holds its own subtree: its sublayers'
  /// entries, in drawing order, under `"sublayers"`.
  static func entry(
    for layer: Layer, dynamics: DynamicItemState? = nil, isMask: Bool = false
  ) -> String {
    var fields: [(String, String)] = []
    for property in LayerProperty.all where property.isInspected {
      guard let value = property.value(of: layer) else { continue }
      fields.append((property.name, json(value)))
    }
    if let mask = layer.mask {
      fields.append(("mask", entry(for: mask, isMask: true)))
    }
    if isMask, !layer.sublayers.isEmpty {
      let sublayers = layer.sublayersInDrawingOrder.map { entry(for: $0, isMask: true) }
      fields.append(("sublayers", sublayers.joined(separator: ", ").bracketed))
    }
    if let dynamics {
      fields += [
        ("velocity", point(dynamics.velocity)),
        ("angularVelocity", number(dynamics.angularVelocity)),
      ]
    }
    return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
  }

  /// A property value in the report's form: numbers in shortest round-trip form, points and
  /// rectangles as lists, transforms as `[a, b, c, d, tx, ty]` (16 numbers with 3D terms),
  /// colors as `[r, g, b, a]`, paths as
  /// SVG path data, images by name.
  static func json(_ value: PropertyValue) -> String {
    switch value {
    case .value(.scalar(let x)): return number(x)
    case .value(.point(let p)): return point(p)
    case .value(.size(let s)):
      return [s.width, s.height].map(number).joined(separator: ", ").bracketed
    case .value(.rect(let r)): return rect(r)
    case .value(.color(let c)): return color(c)
    case .value(.transform(let t)): return transform(t)
    case .value(.path(let p)): return p.map { string($0.svgPathData) } ?? "null"
    case .value(.image(let i)):
      return i.map { $0.name.map(string) ?? "\"<image \($0.width)x\($0.height)>\"" } ?? "null"
    case .value(.bool(let b)): return b ? "true" : "false"
    case .value(.colors(let list)):
      return list.map { $0.map(color).joined(separator: ", ").bracketed } ?? "null"
    case .value(.numbers(let list)):
      return list.map { $0.map(number).joined(separator: ", ").bracketed } ?? "null"
    case .value(.filters(let list)): return list.map(filter).joined(separator: ", ").bracketed
    case .value(.text(let s)): return s.map(string) ?? "null"
    case .choice(let name): return string(name)
    case .text(let s): return s.map(string) ?? "null"
    }
  }

  /// About how much `entry(for:)` prints for `layer` at any time, in units
  /// (`InspectCommand.maximumPrintedUnits`): one for the entry and each key, and for each value
  /// one a number, a character of text or a name, and a path element (its numbers and its
  /// command); a value that animates counts its largest, the model's or any animation's
  /// (a path animated between 100,000-element keyframes prints them at every time). Masks count
  /// with their layer, sublayers on their own (`scenePrintedUnits`).
  static func printedUnits(of layer: Layer) -> Int {
    // The largest value each key path's animations give (groups looked into).
    var animated: [String: Int] = [:]
    func look(at animation: any Animation) {
      if let group = animation as? AnimationGroup {
        for inner in group.animations { look(at: inner) }
        return
      }
      var values: [AnimationValue?] = []
      var keyPath = ""
      if let a = animation as? BasicAnimation {
        (keyPath, values) = (a.keyPath, [a.fromValue, a.toValue, a.byValue])
      } else if let a = animation as? SpringAnimation {
        (keyPath, values) = (a.keyPath, [a.fromValue, a.toValue, a.byValue])
      } else if let a = animation as? KeyframeAnimation {
        (keyPath, values) = (a.keyPath, a.values)
      }
      for case let value? in values {
        animated[keyPath] = Swift.max(animated[keyPath] ?? 0, units(of: .value(value)))
      }
    }
    for (_, animation) in layer.animations { look(at: animation) }
    var total = 1
    for property in LayerProperty.all where property.isInspected {
      guard let value = property.value(of: layer) else { continue }
      total += 1 + Swift.max(units(of: value), animated[property.name] ?? 0)
    }
    if let mask = layer.mask { total += 1 + subtreeUnits(mask) }
    return total + 4  // a dynamic item's velocities
  }

  /// `printedUnits(of:)` of `layer` and every layer below it.
  static func subtreeUnits(_ layer: Layer) -> Int {
    layer.sublayers.reduce(printedUnits(of: layer)) { $0 + subtreeUnits($1) }
  }

  /// About how much one line of `scene` prints, in `printedUnits(of:)`'s units: every layer's,
  /// sublayers and masks included, at its largest.
  static func scenePrintedUnits(_ scene: Scene) -> Int {
    scene.layers.reduce(2) { $0 + subtreeUnits($1) }
  }

  /// How much `json(value)` prints, in `printedUnits(of:)`'s units: one a number, a character
  /// (of text or a name) or a list's item; a path one for each element and each number in it;
  /// a transform as 16 numbers (its 3D form, whichever it shows).
  static func units(of value: PropertyValue) -> Int {
    switch value {
    case .value(.scalar), .value(.bool), .value(.color(nil)), .choice: return 1
    case .value(.point), .value(.size): return 2
    case .value(.rect), .value(.color): return 4
    case .value(.transform): return 16
    case .value(.path(let path)):
      return 1
        + (path?.elements.reduce(0) { total, element in
          switch element {
          case .move, .line: return total + 3
          case .quadCurve: return total + 5
          case .curve: return total + 7
          case .closeSubpath: return total + 1
          }
        } ?? 0)
    case .value(.image(let image)): return 1 + (image?.name?.unicodeScalars.count ?? 2)
    case .value(.colors(let list)): return 1 + 5 * (list?.count ?? 0)
    case .value(.numbers(let list)): return 1 + (list?.count ?? 0)
    case .value(.filters(let list)): return 1 + 16 * list.count  // a tritone's 13 numbers, keys
    case .value(.text(let s)), .text(let s): return 1 + (s?.unicodeScalars.count ?? 0)
    }
  }

  /// A filter as the scene file writes it: `{"type": "gaussianBlur", "radius": 4}`.
  static func filter(_ f: LayerFilter) -> String {
    let fields: [(String, String)]
    switch f {
    case .gaussianBlur(let r): fields = [("radius", number(r))]
    case .directionalBlur(let r, let axis):
      fields = [("radius", number(r)), ("axis", string(axis.rawValue))]
    case .fill(let c, let o): fields = [("color", color(c)), ("opacity", number(o))]
    case .tint(let b, let w, let a):
      fields = [("black", color(b)), ("white", color(w)), ("amount", number(a))]
    case .tritone(let b, let m, let d, let a):
      fields = [
        ("bright", color(b)), ("midtone", color(m)), ("dark", color(d)), ("amount", number(a)),
      ]
    }
    let entries = [("type", string(f.name))] + fields
    return "{" + entries.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
  }

  /// A number in shortest round-trip form; `null` for one that is not finite (a value an
  /// animation overflowed), so that every line stays JSON.
  static func number(_ x: Double) -> String { x.isFinite ? shortestNumber(x) : "null" }
  static func point(_ p: Point) -> String { "[\(number(p.x)), \(number(p.y))]" }
  static func rect(_ r: Rect) -> String {
    "[\(number(r.origin.x)), \(number(r.origin.y)), \(number(r.size.width)), \(number(r.size.height))]"
  }
  /// `[a, b, c, d, tx, ty]` for a transform of the plane, the sixteen entries `[m11, ..., m44]`
  /// for one with any 3D term (visual-effects.md §7).
  static func transform(_ t: Transform3D) -> String {
    let entries = t.has3DTerms ? t.entries : [t.m11, t.m12, t.m21, t.m22, t.m41, t.m42]
    return entries.map(number).joined(separator: ", ").bracketed
  }
  static func color(_ c: Color?) -> String {
    guard let c else { return "null" }
    return [c.red, c.green, c.blue, c.alpha].map(number).joined(separator: ", ").bracketed
  }

  /// A JSON string literal.
  static func string(_ s: String) -> String { JSONValue.quoted(s) }
}

extension String {
  fileprivate var bracketed: String { "[" + self + "]" }
}
