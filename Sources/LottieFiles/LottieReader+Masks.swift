import Animations
import CairoCanvas
import Geometry
import LayerTree
import SceneFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Masks (`masksProperties`), effects (`ef`) and text layers.
extension LottieReader {
  /// Lottie's mask modes by letter, as warnings name them.
  static let maskModeNames = [
    "a": "add", "s": "subtract", "i": "intersect", "l": "lighten", "d": "darken",
    "f": "difference", "n": "none",
  ]

  /// A layer's masks as its content's mask: each add mask a filled shape (its opacity the
  /// mask's `o`), together their union; `none` masks are skipped.
  func readMasks(_ json: JSONValue, at place: String, layer label: String, onto content: Layer) {
    guard let list = array(json, at: place) else { return }
    let maskLayer = Layer()
    maskLayer.anchorPoint = .zero
    var masked = false
    for (i, item) in list.enumerated() {
      let p = "\(place)[\(i)]"
      guard let f = object(item, at: p, what: "a mask (an object)") else { continue }
      let mode = f.string("mode") ?? "a"
      if mode == "n" { continue }
      guard let pt = f["pt"] else {
        report(f.place("pt"), "missing required key (the mask's path)")
        continue
      }
      guard let path = shape(pt, at: f.place("pt"), layer: label),
        let o = vector(f, "o", default: [100], layer: label),
        let x = vector(f, "x", default: [0], layer: label)
      else { continue }
      if x.isAnimated || component(x.initial, 0) != 0 {
        warn(label, "mask expansion (x): drawn unexpanded")
      }
      guard mode == "a", !f.flag("inv") else {
        let name =
          f.flag("inv") ? "inverted masks (inv)" : "mask mode \(Self.maskModeNames[mode] ?? mode)"
        warn(label, "\(name): the mask is ignored")
        continue
      }
      let shape = ShapeLayer()
      shape.anchorPoint = .zero
      shape.name = f.string("nm")
      shape.fillColor = .black
      shape.path = path.initial.path(curvesOnly: path.isAnimated)
      animate(shape, "path", path)
      shape.opacity = unit(o.initial)
      animate(shape, "opacity", o) { .scalar(unit($0)) }
      maskLayer.addSublayer(shape)
      masked = true
    }
    if masked { content.mask = maskLayer }
  }

  /// Effects: a drop shadow (`ty: 25`) as the content's shadow; others warned.
  func readEffects(_ json: JSONValue, at place: String, layer label: String, onto content: Layer) {
    guard let list = array(json, at: place) else { return }
    for (i, item) in list.enumerated() {
      guard let f = object(item, at: "\(place)[\(i)]", what: "an effect (an object)") else {
        continue
      }
      if f["en"] != nil && !f.flag("en") { continue }  // switched off
      let type = code(f, "ty", default: -1)
      guard type == 25 else {
        let names = [29: "Gaussian blur", 21: "fill", 20: "tint", 23: "tritone"]
        let name = names[type] ?? f.string("nm").map { "\"\($0)\"" } ?? "type \(type)"
        warn(label, "effect \(name) (ty \(type)): not drawn")
        continue
      }
      // Drop shadow: colour, opacity 0...255, direction (degrees clockwise from up),
      // distance and softness, in that order.
      guard case .array(let values)? = f["ef"] else {
        report(f.place("ef"), "missing required key (the effect's values)")
        continue
      }
      var v: [[Double]] = []
      for (j, value) in values.prefix(5).enumerated() {
        let vp = f.place("ef") + "[\(j)]"
        guard let vf = object(value, at: vp, what: "an effect value (an object with v)"),
          let a = vector(vf, "v", default: [0], layer: label)
        else { return }
        if a.isAnimated { warn(label, "animated drop shadows: the first values are used") }
        v.append(a.initial)
      }
      guard v.count == 5 else {
        report(f.place("ef"), "a drop shadow needs 5 values, found \(v.count)")
        continue
      }
      let direction = radians(v[2]), distance = component(v[3], 0)
      content.shadowColor = Self.color(v[0])
      content.shadowOpacity = Swift.max(0, Swift.min(1, component(v[1], 0) / 255))
      content.shadowOffset = Size(
        width: sin(direction) * distance, height: -cos(direction) * distance)
      content.shadowRadius = Swift.max(0, component(v[4], 0) / 4)
    }
  }

  /// A text layer: the first text document (`t.d.k[0].s`) through a text layer, in the font
  /// the file names; glyph outlines (`chars`) are not used yet.
  func readText(_ f: Fields, entry: LayerEntry, into content: Layer) {
    guard case .object(let te)? = f["t"],
      case .object(let de)? = Fields(entries: te, place: "")["d"],
      case .array(let docs)? = Fields(entries: de, place: "")["k"],
      case .object(let ke)? = docs.first,
      case .object(let se)? = Fields(entries: ke, place: "")["s"]
    else {
      report(f.place("t"), "a text layer without a text document (t.d.k[0].s)")
      return
    }
    let s = Fields(entries: se, place: f.place("t.d.k[0].s"))
    if docs.count > 1 { warn(entry.label, "animated text documents: the first is used") }
    let text = TextLayer()
    text.anchorPoint = .zero
    text.string = (s.string("t") ?? "").replacingCarriageReturns()
    let size = Swift.max(1, Swift.min(2000, number(s, "s", default: 14)))
    text.fontSize = size
    let font = fontNames[s.string("f") ?? ""] ?? s.string("f") ?? "Helvetica"
    if TextLayout.resolvedFace(forFontNamed: font) != nil {
      text.font = font
    } else {
      // After Effects names fonts the machine may not have: a metric-compatible face instead.
      let bold = ["Bold", "Black", "Heavy", "Semibold", "SemiBold", "Medium"].contains {
        font.contains($0)
      }
      text.font = bold ? "Helvetica-Bold" : "Helvetica"
      warn(entry.label, "font \"\(font)\" (not installed): drawn in \(text.font)")
    }
    if case .array? = s["fc"], let fc = numbers(s["fc"]!, at: s.place("fc")) {
      text.foregroundColor = Self.color(fc)
    }
    let width = 4000.0
    let lines = Double(
      text.string?.split(separator: "\n", omittingEmptySubsequences: false).count ?? 1)
    let lineHeight = number(s, "lh", default: size * 1.2)
    switch code(s, "j", default: 0) {
    case 1: text.alignmentMode = .right; text.position = Point(x: -width, y: 0)
    case 2: text.alignmentMode = .center; text.position = Point(x: -width / 2, y: 0)
    default: text.alignmentMode = .left
    }
    // Lottie places the first baseline at the layer's origin.
    text.position.y = -size * 0.8
    text.bounds = Rect(x: 0, y: 0, width: width, height: lineHeight * lines + size)
    content.addSublayer(text)
  }
}

extension String {
  /// The text with After Effects' carriage returns as line breaks.
  func replacingCarriageReturns() -> String {
    String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\r" ? "\n" : $0 }))
  }
}
