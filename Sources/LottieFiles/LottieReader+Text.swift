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
    /// How a justified paragraph's last line sits.
    var lastLine: TextLayer.AlignmentMode = .natural
    var isWrapped = false
    /// The distance between baselines (`lh`; `nil`: the font's line height).
    var lineSpacing: Double? = nil
    /// The space after each character, in points (`tr`, thousandths of the size).
    var tracking = 0.0
    /// The outline along the glyphs (`sc`, `sw`, `of`).
    var stroke: Canvas.TextStroke? = nil
    var position: Point
    var bounds: Rect
  }

  /// Builds a text layer's documents into `content`; text animators (`t.a`) are not read (a
  /// warning says so).
  func readText(_ f: Fields, entry: LayerEntry, into content: Layer) {
    guard let documents = textDocuments(f, layer: entry.label) else { return }
    if case .object(let te)? = f["t"],
      case .array(let animators)? = Fields(entries: te, place: "")["a"],
      !animators.isEmpty
    {
      warn(entry.label, "text animators (t.a): the text is drawn without them")
    }
    // Text on a path (`t.p.m` naming a mask, which lottie-web lays the characters along); the
    // empty `t.p` exporters write for every text layer asks for nothing.
    if case .object(let te)? = f["t"],
      case .object(let pe)? = Fields(entries: te, place: "")["p"],
      let m = Fields(entries: pe, place: "")["m"], m != .null
    {
      warn(
        entry.label,
        "text on a path (\(f.place("t.p.m"))): the text is drawn on its own baseline, not along "
          + "the mask", key: "text on a path")
    }
    let schedule = Self.textSchedule(documents.map(\.frame))
    let shown = schedule.map { documents[$0.index].fields }
    func string(_ s: Fields) -> String {
      capitalized(s, (s.string("t") ?? "").replacingCarriageReturns(), layer: entry.label)
    }
    // Sizes from 1 to 2,000 are drawn; another is drawn at the nearest, with a warning.
    func size(_ s: Fields) -> Double {
      let given = number(s, "s", default: 14)
      let drawn = Swift.max(1, Swift.min(2000, given))
      if drawn != given {
        warn(
          entry.label,
          "text size \(MessageText.number(given)) (\(s.place("s")): 1 to 2,000): drawn at "
            + MessageText.number(drawn),
          key: "text size")
      }
      return drawn
    }
    let withGlyphs = shown.map { glyphLines($0, text: string($0)) != nil }
    if withGlyphs.contains(false) && !glyphs.isEmpty {
      warn(entry.label, "text without glyph outlines for every character: drawn with the font")
    }
    // One text layer whose values change at the keyframes, when the font draws every document
    // in one face and justification.
    if !withGlyphs.contains(true) {
      let texts = shown.map { fontText($0, text: string($0), size: size($0), layer: entry.label) }
      if Set(texts.map(\.font)).count == 1, Set(texts.map(\.alignment)).count == 1,
        Set(texts.map(\.lastLine)).count == 1, Set(texts.map(\.isWrapped)).count == 1,
        Set(texts.map(\.lineSpacing)).count == 1, Set(texts.map(\.tracking)).count == 1,
        Set(texts.map(\.stroke)).count == 1
      {
        let layer = textLayer(texts[0], place: entry.place + ".t")
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
    // Otherwise one layer per document shown, each visible while its document is: from its
    // frame to the next document's (hidden on either side, so each layer's animation has at
    // most three values whatever the number of documents: with one value per document, 5,000
    // documents took 1.2 GB).
    let frames = schedule.map(\.frame)
    for (j, s) in shown.enumerated() {
      let holder = shown.count == 1 ? content : Layer()
      if holder !== content { holder.anchorPoint = .zero }
      if !withGlyphs[j]
        || !readGlyphText(s, text: string(s), size: size(s), layer: entry.label, into: holder)
      {
        holder.addSublayer(
          textLayer(
            fontText(s, text: string(s), size: size(s), layer: entry.label), place: s.place("t")))
      }
      guard holder !== content else { continue }
      holder.isHidden = j != 0
      let around = Swift.max(0, j - 1)...Swift.min(frames.count - 1, j + 1)
      addDiscrete(
        holder, "hidden", values: around.map { .bool($0 != j) }, frames: Array(frames[around]))
      content.addSublayer(holder)
    }
  }

  /// The text documents of a text layer (`t.d.k`), at least one; `nil` when it has none
  /// (reported). Keyframe frames never go back: a keyframe before the previous one is taken at
  /// the previous frame, as lottie-web shows it, with a warning naming it on `label`'s layer.
  func textDocuments(_ f: Fields, layer label: String) -> [TextDocument]? {
    guard case .object(let te)? = f["t"],
      case .object(let de)? = Fields(entries: te, place: "")["d"],
      case .array(let keyframes)? = Fields(entries: de, place: "")["k"],
      case .object(let ke)? = keyframes.first,
      case .object(let se)? = Fields(entries: ke, place: "")["s"]
    else {
      report(f.place("t"), "a text layer without a text document (t.d.k[0].s)")
      return nil
    }
    // A file's documents past its text budget are not read (it is refused).
    guard textCharacters <= LottieFormat.maximumTextCharacters else { return nil }
    let first = Fields(entries: ke, place: f.place("t.d.k[0]"))
    var out = [
      TextDocument(
        frame: number(first, "t", default: 0), fields: Fields(entries: se, place: first.place("s")))
    ]
    // Each document counts toward the file's text budget as it is met, its characters and
    // `LottieFormat.charactersPerTextDocument` for reading it: 500,000 one-character documents
    // stop at the 23,810th.
    var tooLong = !chargeDocument(out[0].fields)
    for (n, item) in keyframes.enumerated().dropFirst()
    where textCharacters <= LottieFormat.maximumTextCharacters {
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
      var frame = Swift.min(
        Self.maximumKeyframeFrame, Swift.max(-Self.maximumKeyframeFrame, number(k, "t", default: 0))
      )
      // lottie-web shows the first document whose next one's frame is still ahead, searching
      // from the first: a document before an earlier one's frame shows from that frame (the
      // first document's own frame plays no part), which taking the latest frame so far does.
      if out.count > 1, frame < out[out.count - 1].frame {
        warn(
          label,
          "text documents out of time order (\(k.place("t")) is \(MessageText.number(frame)), "
            + "before \(MessageText.number(out[out.count - 1].frame))): shown from the earlier "
            + "frame, as lottie-web does", key: "text documents out of time order")
        frame = out[out.count - 1].frame
      }
      out.append(TextDocument(frame: frame, fields: s))
      if !chargeDocument(s) { tooLong = true }
    }
    return tooLong ? nil : out
  }

  /// Counts a document toward the file's text budget: `false` when it is refused (its text
  /// past `TextLayer`'s limits, or the file's documents past `maximumTextCharacters`).
  func chargeDocument(_ document: Fields) -> Bool {
    // The text and the font's name are strings: a number was drawn as no text, or in the
    // default face, without a word.
    _ = string(document, "f")
    let given = string(document, "t")  // reported when of another kind
    if given == nil, let t = document["t"], t != .null { return false }
    let text = given ?? ""
    // Shaping and wrapping take time in a string's length: past the limit, refused.
    if let excess = TextLayer.limitExcess(of: text) {
      report(
        document.place("t"),
        TextLayer.limitMessage(characters: excess.characters, lines: excess.lines))
      return false
    }
    if let depth = TextLayer.isolateDepthExcess(of: text) {
      report(document.place("t"), TextLayer.isolateDepthMessage(depth))
      return false
    }
    // All the file's documents together (each box text is laid out when read, to size it).
    return chargeText(
      text.unicodeScalars.count + LottieFormat.charactersPerTextDocument,
      at: document.place("t"))
  }

  /// Counts `characters` of text toward the file's `LottieFormat.maximumTextCharacters`:
  /// `false` past it (reported at `place`, once).
  func chargeText(_ characters: Int, at place: String) -> Bool {
    guard textCharacters <= LottieFormat.maximumTextCharacters else { return false }
    textCharacters += characters
    guard textCharacters <= LottieFormat.maximumTextCharacters else {
      report(
        place,
        "text documents of more than \(LottieFormat.maximumTextCharacters) characters in all "
          + "(and \(LottieFormat.charactersPerTextDocument) for each document, and the work of box "
          + "text's lines, paragraphs, tabs, mixed directions and font sizes counted as "
          + "characters), the limit")
      return false
    }
    return true
  }

  /// `text` in the capitals the document's `ca` asks for: 0 as typed, 1 all caps (upper case),
  /// 2 small caps, drawn as all caps with a warning (After Effects sets lower-case letters as
  /// smaller capitals; lottie-web draws no caps at all). Another code is drawn as typed, with a
  /// warning.
  func capitalized(_ s: Fields, _ text: String, layer label: String) -> String {
    let caps = coded(s, "ca", "text caps", known: [0: 0, 1: 1, 2: 2], absent: 0, layer: label) {
      _ in (0, "drawn as 0 (as typed)")
    }
    if caps == 2 {
      warn(label, "small caps (\(s.place("ca")) is 2): drawn as all caps", key: "small caps")
    }
    return caps == 0 ? text : text.uppercased()
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
  /// `fc`, justification `j`, line height `lh`. Point text (no `sz`) has its first baseline at
  /// the layer's origin, left (0), right (1) or centre (2) aligned on it. Box text (`sz`: width
  /// and height; `ps`: the box's top left) wraps at the box's width, its first baseline the
  /// font's ascent below the top, as lottie-web places it; its lines flush left (0), right
  /// (1), centred (2), or justified as After Effects' paragraph modes: every line but a
  /// paragraph's last stretched to the width at its spaces, the last line left (3), right
  /// (4), centred (5) or stretched too (6).
  func fontText(_ s: Fields, text: String, size: Double, layer label: String) -> FontText {
    let font = fontName(s.string("f") ?? "Helvetica", layer: label)
    let color = textColour(s, default: TextProperties().foregroundColor, layer: label)
    let lines = Double(text.split(separator: "\n", omittingEmptySubsequences: false).count)
    let lineHeight = number(s, "lh", default: size * 1.2)
    // Lines `lh` apart, as lottie-web steps them (the font's own line height without it).
    let spacing: Double? = s["lh"] == nil ? nil : Swift.max(0, Swift.min(100_000, lineHeight))
    if lineHeight < 0, lines > 1 {
      // lottie-web steps them upward; the text engine lays lines out downward only.
      warn(
        label,
        "negative line heights for text drawn with a font (\(s.place("lh")) is "
          + "\(MessageText.number(lineHeight))): its lines are drawn on one another",
        key: "negative line height")
    }
    let j = justification(s, layer: label)
    let tracking = tracking(s, layer: label) * size / 1000
    let stroke = textStroke(s, layer: label)
    let shift = baselineShift(s, layer: label)
    if let box = textBox(s, layer: label) {
      let modes: [Int: (TextLayer.AlignmentMode, TextLayer.AlignmentMode)] = [
        1: (.right, .natural), 2: (.center, .natural), 3: (.justified, .left),
        4: (.justified, .right), 5: (.justified, .center), 6: (.justified, .justified),
      ]
      let (alignment, lastLine) = modes[j] ?? (.left, .natural)
      // The box's lines, however many the width makes, are drawn (lottie-web does not clip).
      let style = TextStyle(
        fontName: font, fontSize: size, width: box.width, alignment: .left, isWrapped: true,
        lineSpacing: spacing, tracking: tracking)
      // Its expected lines, tabs, mixed directions and font size are counted before it is
      // laid out (its characters were, with the documents).
      let work = boxText.add(text, style: style) - text.utf8.count
      let laidOut =
        chargeText(work, at: s.place("t"))
        ? (try? TextLayout.make(text, style: style))?.size.height ?? 0 : 0
      let height = Swift.min(100_000, Swift.max(box.height, laidOut + size))
      let ascent = (fontAscents[s.string("f") ?? ""] ?? 80) / 100 * size
      return FontText(
        string: text, size: size, font: font, color: color, alignment: alignment,
        lastLine: lastLine, isWrapped: true, lineSpacing: spacing, tracking: tracking,
        stroke: stroke,
        position: Point(x: box.origin.x, y: box.origin.y + ascent - size * 0.8 - shift),
        bounds: Rect(x: 0, y: 0, width: box.width, height: height))
    }
    let width = 4000.0
    let (alignment, x): (TextLayer.AlignmentMode, Double)
    switch j {
    case 1: (alignment, x) = (.right, -width)
    case 2: (alignment, x) = (.center, -width / 2)
    default: (alignment, x) = (.left, 0)
    }
    // Point text cannot be justified in After Effects; lottie-web draws modes 3 to 6 left.
    return FontText(
      string: text, size: size, font: font, color: color, alignment: alignment,
      lineSpacing: spacing, tracking: tracking, stroke: stroke,
      // Lottie places the first baseline at the layer's origin (lifted by the baseline shift).
      position: Point(x: x, y: -size * 0.8 - shift),
      bounds: Rect(x: 0, y: 0, width: width, height: Swift.max(0, lineHeight) * lines + size))
  }

  /// The largest baseline shift (`ls`, points) a document is drawn with either way: 100,000.
  static let maximumBaselineShift = 100_000.0

  /// The document's baseline shift `ls`, in points (0 when absent): lottie-web moves every line
  /// up by it (`TextAnimatorProperty` translates each character by (0, -ls)). Past
  /// `maximumBaselineShift` either way it is drawn at the nearest, with a warning naming
  /// `layer`.
  func baselineShift(_ s: Fields, layer label: String) -> Double {
    clampedNumber(
      s, "ls", within: Self.maximumBaselineShift, "-100,000 to 100,000",
      what: "text baseline shift",
      layer: label)
  }

  /// The document's number `key` (0 when absent) within ±`limit`: past it, the nearest, with a
  /// warning naming `layer`, the place, the `range` as the docs say it, and `what` it is.
  private func clampedNumber(
    _ s: Fields, _ key: String, within limit: Double, _ range: String, what: String,
    layer label: String
  ) -> Double {
    let given = number(s, key, default: 0)
    let drawn = Swift.max(-limit, Swift.min(limit, given))
    if drawn != given {
      warn(
        label,
        "\(what) \(MessageText.number(given)) (\(s.place(key)): \(range)): drawn at "
          + MessageText.number(drawn), key: what)
    }
    return drawn
  }

  /// The most tracking (`tr`, thousandths of the size) a document is drawn with either way:
  /// 10,000 (ten sizes after each character). Another is drawn at the nearest, with a warning.
  static let maximumTracking = 10_000.0

  /// The document's tracking `tr`, in thousandths of the size: the space lottie-web adds after
  /// each character (0 when absent). Past `maximumTracking` either way it is drawn at the
  /// nearest, with a warning naming `layer`.
  func tracking(_ s: Fields, layer label: String) -> Double {
    clampedNumber(
      s, "tr", within: Self.maximumTracking, "-10,000 to 10,000", what: "text tracking",
      layer: label)
  }

  /// The document's justification `j`: 0 left, 1 right, 2 centred, 3 to 6 After Effects'
  /// paragraph modes. Another code (a fraction too) is drawn left, as lottie-web draws it, with
  /// a warning naming `layer`.
  /// The justification codes (`j`), each itself.
  static let justifications = Dictionary(uniqueKeysWithValues: (0...6).map { ($0, $0) })

  func justification(_ s: Fields, layer label: String) -> Int {
    coded(
      s, "j", "text justification",
      known: Self.justifications, absent: 0, layer: label
    ) { _ in (0, "drawn left") }
  }

  /// The font a document's font name (`f`) draws with. A name in `fonts.list` is its family
  /// (`fFamily`) in the face nearest its style (`fStyle`: weight, slant and width words), as
  /// fontconfig matches them; else the name itself (`fName`, a PostScript name). When no face
  /// of the family is installed, the PostScript name if it resolves, else Helvetica (Liberation
  /// Sans) in the face nearest the style, with a warning that says which.
  func fontName(_ named: String, layer label: String) -> String {
    // Matched once a name: fontconfig's match and the style words took 0.2 ms, each document's
    // (5 layers of 100,000 one-character documents took 155 s).
    if let known = fontNames[named] { return known }
    let name = matchedFontName(named, layer: label)
    fontNames[named] = name
    return name
  }

  /// The font `named` draws with, matched (`fontName(_:layer:)`, which keeps it).
  private func matchedFontName(_ named: String, layer label: String) -> String {
    if let (family, style) = fontFamilies[named], !family.isEmpty {
      if let name = TextLayout.fontName(family: family, style: style) { return name }
      let fallback =
        TextLayout.resolvedFace(forFontNamed: named) != nil
        ? named : TextLayout.fontName(family: "Helvetica", style: style) ?? "Helvetica"
      let face = TextLayout.resolvedFace(forFontNamed: fallback) ?? fallback
      warn(
        label, "font family \"\(family)\" (not installed): \"\(named)\" drawn in \(face)",
        key: "font \(named)")
      return fallback
    }
    guard TextLayout.resolvedFace(forFontNamed: named) == nil else { return named }
    // After Effects names fonts the machine may not have: a metric-compatible face instead.
    let fallback =
      TextLayout.fontName(family: "Helvetica", style: Self.styleWords(of: named))
      ?? "Helvetica"
    let face = TextLayout.resolvedFace(forFontNamed: fallback) ?? fallback
    warn(label, "font \"\(named)\" (not installed): drawn in \(face)", key: "font \(named)")
    return fallback
  }

  /// The style part of a PostScript-style name (`"Foo-BoldItalic"`: `"BoldItalic"`), or the
  /// whole name when it has no dash.
  static func styleWords(of name: String) -> String {
    name.lastIndex(of: "-").map { String(name[name.index(after: $0)...]) } ?? name
  }

  /// A text layer showing `text`, read at `place` (named by errors found while drawing).
  func textLayer(_ text: FontText, place: String) -> TextLayer {
    let layer = TextLayer()
    layer.sourcePlace = place
    layer.anchorPoint = .zero
    layer.string = text.string
    layer.fontSize = text.size
    layer.font = text.font
    layer.foregroundColor = text.color
    layer.alignmentMode = text.alignment
    layer.justifiedLastLine = text.lastLine
    layer.isWrapped = text.isWrapped
    layer.lineSpacing = text.lineSpacing
    layer.tracking = text.tracking
    layer.strokeColor = text.stroke?.color
    layer.strokeWidth = text.stroke?.width ?? 0
    layer.strokesOverFill = text.stroke?.overFill ?? true
    // lottie-web draws every line and glyph, in the box or out of it.
    layer.clipsToBounds = false
    layer.position = text.position
    layer.bounds = text.bounds
    return layer
  }
}

extension String {
  /// The text with After Effects' carriage returns, and the ETX (U+0003) Bodymovin writes for
  /// some, as line breaks, as lottie-web breaks lines at both (ETX was drawn as a box).
  func replacingCarriageReturns() -> String {
    String(
      String.UnicodeScalarView(unicodeScalars.map { $0 == "\r" || $0 == "\u{3}" ? "\n" : $0 }))
  }
}
