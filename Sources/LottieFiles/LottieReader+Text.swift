import Animations
import CairoCanvas
import Geometry
import LayerTree
import SceneFiles

/// Text layers (`ty: 5`): their text documents (`t.d.k`), drawn from the glyph outlines the file
/// carries (`chars`) or with the font the document names.
///
/// A document keyframe holds until the next one, as lottie-web shows them: the first document
/// until the second keyframe's frame, then each from its own frame on (of several at one frame,
/// the last). Text drawn with the font is one text layer whose `string` (and size, colour and
/// placement, where they change) animate discretely; text drawn from glyphs, or whose font or
/// justification changes, is one layer per document, shown by a discrete `hidden` animation.
extension LottieReader {
  /// One text document keyframe: the frame it starts at (`t`) and the document (`s`).
  struct TextDocument {
    var frame: Double
    var fields: Fields
  }

  /// What a document drawn with the font becomes: a text layer's values.
  struct FontText: Equatable {
    var string: String
    var size: Double
    var font: String
    var color: Color?
    var alignment: TextLayer.AlignmentMode
    var position: Point
    var bounds: Rect
  }

  /// Builds a text layer's documents into `content`; text animators (`t.a`) are not read (a
  /// warning says so).
  func readText(_ f: Fields, entry: LayerEntry, into content: Layer) {
    guard let documents = textDocuments(f) else { return }
    if case .object(let te)? = f["t"],
      case .array(let animators)? = Fields(entries: te, place: "")["a"],
      !animators.isEmpty
    {
      warn(entry.label, "text animators (t.a): the text is drawn without them")
    }
    let schedule = Self.textSchedule(documents.map(\.frame))
    let shown = schedule.map { documents[$0.index].fields }
    func string(_ s: Fields) -> String { (s.string("t") ?? "").replacingCarriageReturns() }
    func size(_ s: Fields) -> Double { Swift.max(1, Swift.min(2000, number(s, "s", default: 14))) }
    let withGlyphs = shown.map { glyphLines($0, text: string($0)) != nil }
    if withGlyphs.contains(false) && !glyphs.isEmpty {
      warn(entry.label, "text without glyph outlines for every character: drawn with the font")
    }
    // One text layer whose values change at the keyframes, when the font draws every document
    // in one face and justification.
    if !withGlyphs.contains(true) {
      let texts = shown.map { fontText($0, text: string($0), size: size($0), layer: entry.label) }
      if Set(texts.map(\.font)).count == 1, Set(texts.map(\.alignment)).count == 1 {
        let layer = textLayer(texts[0])
        if texts.count > 1 {
          let frames = schedule.map(\.frame)
          func animate(_ key: String, _ value: (FontText) -> AnimationValue) {
            let values = texts.map(value)
            if values.contains(where: { $0 != values[0] }) {
              addDiscrete(layer, key, values: values, frames: frames)
            }
          }
          animate("string") { .text($0.string) }
          animate("fontSize") { .scalar($0.size) }
          animate("foregroundColor") { .color($0.color) }
          animate("position") { .point($0.position) }
          animate("bounds") { .rect($0.bounds) }
        }
        content.addSublayer(layer)
        return
      }
    }
    // Otherwise one layer per document shown, each visible while its document is.
    for (j, s) in shown.enumerated() {
      let holder = shown.count == 1 ? content : Layer()
      if holder !== content { holder.anchorPoint = .zero }
      if !withGlyphs[j]
        || !readGlyphText(s, text: string(s), size: size(s), layer: entry.label, into: holder)
      {
        holder.addSublayer(
          textLayer(fontText(s, text: string(s), size: size(s), layer: entry.label)))
      }
      guard holder !== content else { continue }
      holder.isHidden = j != 0
      addDiscrete(
        holder, "hidden", values: shown.indices.map { .bool($0 != j) },
        frames: schedule.map(\.frame))
      content.addSublayer(holder)
    }
  }

  /// The text documents of a text layer (`t.d.k`), at least one; `nil` when it has none
  /// (reported). Keyframe frames never go back (a keyframe before the previous one is taken at
  /// the previous frame).
  func textDocuments(_ f: Fields) -> [TextDocument]? {
    guard case .object(let te)? = f["t"],
      case .object(let de)? = Fields(entries: te, place: "")["d"],
      case .array(let keyframes)? = Fields(entries: de, place: "")["k"],
      case .object(let ke)? = keyframes.first,
      case .object(let se)? = Fields(entries: ke, place: "")["s"]
    else {
      report(f.place("t"), "a text layer without a text document (t.d.k[0].s)")
      return nil
    }
    let first = Fields(entries: ke, place: f.place("t.d.k[0]"))
    var out = [
      TextDocument(
        frame: number(first, "t", default: 0), fields: Fields(entries: se, place: first.place("s")))
    ]
    for (n, item) in keyframes.enumerated().dropFirst() {
      let place = f.place("t.d.k[\(n)]")
      guard let k = object(item, at: place, what: "a text document keyframe (an object)") else {
        continue
      }
      guard let sj = k["s"] else {
        report(k.place("s"), "missing required key (the text document)")
        continue
      }
      guard let s = object(sj, at: k.place("s"), what: "a text document (an object)") else {
        continue
      }
      let frame = Swift.min(
        Self.maximumKeyframeFrame, Swift.max(-Self.maximumKeyframeFrame, number(k, "t", default: 0))
      )
      out.append(TextDocument(frame: Swift.max(frame, out[out.count - 1].frame), fields: s))
    }
    // Shaping and wrapping take time in a string's length: past the limit, refused.
    var tooLong = false
    for document in out {
      guard let text = document.fields.string("t") else { continue }
      let length = text.unicodeScalars.count
      if length > TextLayer.maximumStringLength {
        report(
          document.fields.place("t"),
          "a string of \(length) characters exceeds the limit of \(TextLayer.maximumStringLength)"
        )
        tooLong = true
      }
    }
    return tooLong ? nil : out
  }

  /// When each document shows, from keyframe frames in order: the first document, then each
  /// later one from its frame (of several at one frame, the last), as `(frame, index)` pairs in
  /// order. The first pair's frame is a frame before the second's (the first document shows
  /// before every keyframe).
  static func textSchedule(_ frames: [Double]) -> [(frame: Double, index: Int)] {
    var out: [(frame: Double, index: Int)] = [
      (frame: frames.count > 1 ? frames[1] - 1 : frames[0], index: 0)
    ]
    for i in frames.indices.dropFirst() {
      if out.count > 1, out[out.count - 1].frame == frames[i] {
        out[out.count - 1].index = i
      } else {
        out.append((frame: frames[i], index: i))
      }
    }
    return out
  }

  /// A document drawn with the font it names (`f`, through `fonts.list`): size `s`, colour
  /// `fc`, justification `j` (left, right, centre), line height `lh`, the first baseline at the
  /// layer's origin.
  func fontText(_ s: Fields, text: String, size: Double, layer label: String) -> FontText {
    let named = fontNames[s.string("f") ?? ""] ?? s.string("f") ?? "Helvetica"
    var font = named
    if TextLayout.resolvedFace(forFontNamed: named) == nil {
      // After Effects names fonts the machine may not have: a metric-compatible face instead.
      let bold = ["Bold", "Black", "Heavy", "Semibold", "SemiBold", "Medium"].contains {
        named.contains($0)
      }
      font = bold ? "Helvetica-Bold" : "Helvetica"
      warn(label, "font \"\(named)\" (not installed): drawn in \(font)")
    }
    var color: Color? = TextProperties().foregroundColor
    if case .array? = s["fc"], let fc = numbers(s["fc"]!, at: s.place("fc")) {
      color = Self.color(fc)
    }
    let width = 4000.0
    let lines = Double(text.split(separator: "\n", omittingEmptySubsequences: false).count)
    let lineHeight = number(s, "lh", default: size * 1.2)
    let (alignment, x): (TextLayer.AlignmentMode, Double)
    switch code(s, "j", default: 0) {
    case 1: (alignment, x) = (.right, -width)
    case 2: (alignment, x) = (.center, -width / 2)
    default: (alignment, x) = (.left, 0)
    }
    return FontText(
      string: text, size: size, font: font, color: color, alignment: alignment,
      // Lottie places the first baseline at the layer's origin.
      position: Point(x: x, y: -size * 0.8),
      bounds: Rect(x: 0, y: 0, width: width, height: lineHeight * lines + size))
  }

  /// A text layer showing `text`.
  func textLayer(_ text: FontText) -> TextLayer {
    let layer = TextLayer()
    layer.anchorPoint = .zero
    layer.string = text.string
    layer.fontSize = text.size
    layer.font = text.font
    layer.foregroundColor = text.color
    layer.alignmentMode = text.alignment
    layer.position = text.position
    layer.bounds = text.bounds
    return layer
  }
}

extension String {
  /// The text with After Effects' carriage returns as line breaks.
  func replacingCarriageReturns() -> String {
    String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\r" ? "\n" : $0 }))
  }
}
