import CairoCanvas
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

  /// The glyphs of each line of `text` in the document's font (`s.f`), with their characters,
  /// or `nil` when a character has none (then the font draws the text).
  func glyphLines(_ s: Fields, text: String) -> [[(ch: Character, glyph: Glyph)]]? {
    guard !glyphs.isEmpty, let fontName = s.string("f"), let font = fontFamilies[fontName] else {
      return nil
    }
    var found: [[(ch: Character, glyph: Glyph)]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var row: [(ch: Character, glyph: Glyph)] = []
      for ch in line {
        guard let glyph = glyphs[Self.glyphKey(String(ch), font.family, font.style)] else {
          return nil
        }
        row.append((ch, glyph))
      }
      found.append(row)
    }
    return found
  }

  /// The document's box (`sz`: width and height, `ps`: its top left), when it is box text. A
  /// `sz` that is no box (not two numbers, or a width not in 0 < w <= 100,000) is drawn as
  /// point text, with a warning naming `layer`.
  func textBox(_ s: Fields, layer label: String) -> (width: Double, height: Double, origin: Point)?
  {
    guard let given = s["sz"] else { return nil }
    var sz: [Double] = []
    if case .array = given, let n = numbers(given, at: s.place("sz")) { sz = n }
    guard sz.count == 2, sz[0].isFinite, sz[0] > 0, sz[0] <= 100_000 else {
      warn(
        label,
        "text box size (\(s.place("sz")): two numbers, the width above 0 and at most 100,000): "
          + "drawn as point text",
        key: "text box")
      return nil
    }
    // The height sizes the text layer's bounds only (lottie-web neither clips to it nor places
    // lines by it): one outside 0 to 100,000 is taken at the nearest, with a warning.
    let height = Swift.max(0, Swift.min(100_000, sz[1]))
    if height != sz[1] {
      warn(
        label,
        "text box height \(MessageText.number(sz[1])) (\(s.place("sz"))[1]: 0 to 100,000): "
          + "drawn as \(MessageText.number(height))", key: "text box height")
    }
    var origin = Point.zero
    switch s["ps"] {
    case nil, .null?: break
    case .array(let items)? where items.count < 2:
      report(
        s.place("ps"),
        "expected the box's top left [x, y], found \(items.count) number"
          + (items.count == 1 ? "" : "s"))
    case .array(let items)?:
      // A number of the wrong kind is reported by `numbers`.
      if let p = numbers(.array(items), at: s.place("ps")) { origin = Point(x: p[0], y: p[1]) }
    case let other?:
      report(s.place("ps"), "expected the box's top left [x, y], found \(other.kindDescription)")
    }
    return (sz[0], height, origin)
  }

  /// The document's fill colour `fc` (`fallback` when absent or null): `[r, g, b]` or
  /// `[r, g, b, a]` in 0...1, reported when it is no colour (`"#ff0000"` drew white without a
  /// word); a component outside 0...1 is drawn at the nearest, with a warning naming `layer`.
  func textColour(_ s: Fields, default fallback: Color?, layer label: String) -> Color? {
    guard let given = s["fc"], given != .null else { return fallback }
    guard let fc = colour(given, at: s.place("fc")) else { return fallback }
    if let far = fc.prefix(3).first(where: { !(0...1).contains($0) }) {
      warn(
        label,
        "text colour component \(MessageText.number(far)) (\(s.place("fc")): 0 to 1): drawn at "
          + "the nearest", key: "text colour out of range")
    }
    return Self.color(fc)
  }

  /// The widest text stroke drawn (`sw`), in points: 1,000. A wider one is drawn at it, with a
  /// warning.
  static let maximumTextStrokeWidth = 1_000.0

  /// The document's stroke along its glyphs, as lottie-web draws it when the document has a
  /// stroke colour `sc` (`nil` without one): `sw` points wide (1 when absent, SVG's initial
  /// width; within 0 to `maximumTextStrokeWidth`, another drawn at the nearest with a warning),
  /// centred on the glyphs' edges, over the fill unless `of` is false (lottie-web draws it over
  /// the fill whatever `of` says; After Effects, lottie-ios and Skottie draw it under the fill
  /// for `of` false). The colour is read as `fc` is.
  func textStroke(_ s: Fields, layer label: String) -> Canvas.TextStroke? {
    guard let given = s["sc"], given != .null, let sc = colour(given, at: s.place("sc")) else {
      return nil
    }
    if let far = sc.prefix(3).first(where: { !(0...1).contains($0) }) {
      warn(
        label,
        "text colour component \(MessageText.number(far)) (\(s.place("sc")): 0 to 1): drawn at "
          + "the nearest", key: "text colour out of range")
    }
    let width = number(s, "sw", default: 1)
    let drawn = Swift.max(0, Swift.min(Self.maximumTextStrokeWidth, width))
    if drawn != width {
      warn(
        label,
        "text stroke width \(MessageText.number(width)) (\(s.place("sw")): 0 to 1,000): drawn at "
          + MessageText.number(drawn), key: "text stroke width")
    }
    let over = s["of"].map { $0 == .null || flag(s, "of") } ?? true
    return Canvas.TextStroke(color: Self.color(sc), width: drawn, overFill: over)
  }

  /// `lines` broken to fit `width` as lottie-web breaks box text: a character that would pass
  /// the width (a space never does) moves to a new line with the word it is in, from the
  /// word's space on (the space dropped), or alone when the line has no space.
  static func wrapped(
    _ lines: [[(ch: Character, glyph: Glyph)]], width: Double, advance: (Glyph) -> Double
  ) -> [[(ch: Character, glyph: Glyph)]] {
    var out: [[(ch: Character, glyph: Glyph)]] = []
    for line in lines {
      var row: [(ch: Character, glyph: Glyph)] = []
      var lineWidth = 0.0
      var lastSpace: Int? = nil
      for item in line {
        let w = advance(item.glyph)
        if item.ch != " ", lineWidth + w > width, !row.isEmpty {
          if let space = lastSpace {
            out.append(Array(row[..<space]))
            row = Array(row[(space + 1)...])
          } else {
            out.append(row)
            row = []
          }
          lastSpace = nil
          lineWidth = row.map { advance($0.glyph) }.reduce(0, +)
        }
        if item.ch == " " { lastSpace = row.count }
        row.append(item)
        lineWidth += w
      }
      out.append(row)
    }
    return out
  }

  /// The path `glyph`'s shapes draw at frame 0 (`nil` when none), read once per glyph.
  func glyphPath(_ glyph: Glyph, layer label: String) -> Path? {
    if let known = glyphPaths[glyph.place] { return known }
    var path: Path? = nil
    let p = problems.count
    if case .array(let list) = glyph.shapes {
      let items = list.enumerated().map {
        readShapeItem($1, at: glyph.place + "[\($0)]", layer: label)
      }
      let sources = collectSources(items[...], layer: label)
      if !sources.isEmpty {
        var joined = Path()
        for source in sources { joined.addPath(source.path(0)) }
        path = joined
      }
    }
    if problems.count > p { dropProblems(after: p) }
    glyphPaths[glyph.place] = .some(path)
    return path
  }

  /// The text drawn from glyphs into `content`, or false when a character has no glyph in the
  /// document's font (then the font draws it). Box text (`sz`) wraps at the box's width and
  /// is placed in the box (first baseline the font's ascent below its top), its lines aligned
  /// in it, justified ones (`j` 3 to 6) stretched at their spaces as `fontText` says.
  func readGlyphText(
    _ s: Fields, text: String, size: Double, layer label: String, into content: Layer
  ) -> Bool {
    guard var found = glyphLines(s, text: text) else { return false }
    // The characters' path elements, counted with repeaters' copies before any is built (once
    // over the limit, said once).
    guard repeatedPathElements <= Self.maximumRepeatedPathElements else { return true }
    let characters = found.reduce(0) { $0 + $1.count }
    let elements = found.joined().reduce(0) {
      $0 + (glyphPath($1.glyph, layer: label)?.elements.count ?? 0)
    }
    repeatedPathElements += elements
    guard repeatedPathElements <= Self.maximumRepeatedPathElements else {
      report(
        s.place("t"),
        "glyph text and repeaters make more than \(Self.maximumRepeatedPathElements) path "
          + "elements in all, the limit (the \(characters) characters here make \(elements))")
      return true
    }
    let scale = size / 100
    let tracking = tracking(s, layer: label) * size / 1000
    let lineHeight = number(s, "lh", default: size * 1.2)
    let justification = justification(s, layer: label)
    let color = textColour(s, default: .black, layer: label) ?? .black
    let stroke = textStroke(s, layer: label)
    let box = textBox(s, layer: label)
    let shift = baselineShift(s, layer: label)
    var paragraphEnds = Set(found.indices)
    if let box {
      var ends: Set<Int> = []
      var wrapped: [[(ch: Character, glyph: Glyph)]] = []
      for line in found {
        wrapped += Self.wrapped([line], width: box.width) { $0.width * scale + tracking }
        ends.insert(wrapped.count - 1)
      }
      (found, paragraphEnds) = (wrapped, ends)
    }
    let top = box.map {
      Point(x: $0.origin.x, y: $0.origin.y + (fontAscents[s.string("f") ?? ""] ?? 80) / 100 * size)
    }
    for (row, line) in found.enumerated() {
      let glyphsInLine = line.map(\.glyph)
      var advances = glyphsInLine.map { $0.width * scale + tracking }
      // In a box, trailing spaces take no room in the line's width.
      let kept = box == nil ? line.count : (line.lastIndex { $0.ch != " " }).map { $0 + 1 } ?? 0
      var lineWidth = advances[..<kept].reduce(0, +)
      var x: Double
      if let box, let top {
        let last = paragraphEnds.contains(row)
        // j 3-6: every line but a paragraph's last stretched at its spaces; the last as the
        // mode says (6 stretched too).
        let stretches = justification == 6 || (3...5).contains(justification) && !last
        let spaces = line[..<kept].indices.filter { line[$0].ch == " " }
        if stretches, !spaces.isEmpty, box.width > lineWidth {
          let each = (box.width - lineWidth) / Double(spaces.count)
          for i in spaces { advances[i] += each }
          lineWidth = box.width
        }
        let lastMode = [4: 1, 5: 2][justification] ?? 0
        let mode = last && justification > 2 ? lastMode : justification
        x =
          top.x + (mode == 1 ? box.width - lineWidth : mode == 2 ? (box.width - lineWidth) / 2 : 0)
      } else {
        x = justification == 1 ? -lineWidth : justification == 2 ? -lineWidth / 2 : 0
      }
      let y = (top?.y ?? 0) + Double(row) * lineHeight - shift
      for (glyph, advance) in zip(glyphsInLine, advances) {
        defer { x += advance }
        guard let path = glyphPath(glyph, layer: label) else { continue }
        func glyphShape(fill: Color?, stroke: Canvas.TextStroke?) -> ShapeLayer {
          let shape = ShapeLayer()
          shape.sourcePlace = glyph.place
          shape.anchorPoint = .zero
          shape.path = path
          shape.fillColor = fill
          shape.position = Point(x: x, y: y)
          shape.transform = .scale(x: scale, y: scale)
          if let stroke {
            // The width in the layer's points, on a glyph drawn at size 100 and scaled.
            shape.strokeColor = stroke.color
            shape.lineWidth = scale > 0 ? stroke.width / scale : 0
            shape.lineCap = .butt
            shape.lineJoin = .round
            shape.miterLimit = 4
          }
          return shape
        }
        // Each character's fill and stroke in turn, as lottie-web draws them: a shape layer
        // strokes over its fill, so a stroke under the fill is a layer of its own below it.
        if let stroke, !stroke.overFill {
          content.addSublayer(glyphShape(fill: nil, stroke: stroke))
          content.addSublayer(glyphShape(fill: color, stroke: nil))
        } else {
          content.addSublayer(glyphShape(fill: color, stroke: stroke))
        }
      }
    }
    return true
  }
}
