import Geometry
import LayerTree
import SceneFiles

/// Text drawn from the glyph outlines a file carries (`chars`), as lottie-web does when it has
/// them: each character's shapes, at size 100 with the baseline at 0, scaled to the text's size,
/// advanced by the glyph's width, filled with the text's colour.
extension LottieReader {
  /// One glyph: its advance width at size 100 and its shape items.
  struct Glyph {
    var width: Double
    var shapes: JSONValue
    var place: String
  }

  /// Reads `chars` into `glyphs`, keyed by character, family and style.
  func readGlyphs(_ json: JSONValue) {
    guard case .array(let list) = json else {
      _ = array(json, at: "chars")
      return
    }
    for (i, item) in list.enumerated() {
      guard let f = object(item, at: "chars[\(i)]", what: "a glyph (an object)") else { continue }
      guard let ch = f.string("ch") else { continue }
      let key = Self.glyphKey(ch, f.string("fFamily") ?? "", f.string("style") ?? "")
      var shapes = JSONValue.array([])
      if case .object(let data)? = f["data"],
        let s = Fields(entries: data, place: f.place("data"))["shapes"]
      {
        shapes = s
      }
      glyphs[key] =
        glyphs[key]
        ?? Glyph(width: number(f, "w", default: 0), shapes: shapes, place: f.place("data.shapes"))
    }
  }

  static func glyphKey(_ ch: String, _ family: String, _ style: String) -> String {
    "\(ch)\u{0}\(family)\u{0}\(style)"
  }

  /// The glyphs of each line of `text` in the document's font (`s.f`), or `nil` when a
  /// character has none (then the font draws the text).
  func glyphLines(_ s: Fields, text: String) -> [[Glyph]]? {
    guard !glyphs.isEmpty, let fontName = s.string("f"), let font = fontFamilies[fontName] else {
      return nil
    }
    var found: [[Glyph]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var row: [Glyph] = []
      for ch in line {
        guard let glyph = glyphs[Self.glyphKey(String(ch), font.family, font.style)] else {
          return nil
        }
        row.append(glyph)
      }
      found.append(row)
    }
    return found
  }

  /// The text drawn from glyphs into `content`, or false when a character has no glyph in the
  /// document's font (then the font draws it).
  func readGlyphText(
    _ s: Fields, text: String, size: Double, layer label: String, into content: Layer
  ) -> Bool {
    guard let found = glyphLines(s, text: text) else { return false }
    let scale = size / 100
    let tracking = number(s, "tr", default: 0) * size / 1000
    let lineHeight = number(s, "lh", default: size * 1.2)
    let justification = code(s, "j", default: 0)
    let color = s["fc"].flatMap { numbers($0, at: s.place("fc")) }.map(Self.color) ?? .black
    for (row, glyphsInLine) in found.enumerated() {
      let advances = glyphsInLine.map { $0.width * scale + tracking }
      let lineWidth = advances.reduce(0, +)
      var x = justification == 1 ? -lineWidth : justification == 2 ? -lineWidth / 2 : 0
      for (glyph, advance) in zip(glyphsInLine, advances) {
        defer { x += advance }
        let p = problems.count
        guard case .array(let list) = glyph.shapes else { continue }
        let items = list.enumerated().map {
          readShapeItem($1, at: glyph.place + "[\($0)]", layer: label)
        }
        let sources = collectSources(items[...], layer: label)
        if problems.count > p { dropProblems(after: p) }
        guard !sources.isEmpty else { continue }
        var path = Path()
        for source in sources { path.addPath(source.path(0)) }
        let shape = ShapeLayer()
        shape.anchorPoint = .zero
        shape.path = path
        shape.fillColor = color
        shape.position = Point(x: x, y: Double(row) * lineHeight)
        shape.transform = .scale(x: scale, y: scale)
        content.addSublayer(shape)
      }
    }
    return true
  }
}
