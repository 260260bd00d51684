import CPangoCairo
import Geometry

/// A string laid out and shaped in a style: lines, their places, and the positioned glyphs a
/// canvas draws (`Canvas.draw(_:at:color:)`).
///
/// Coordinates are points with the origin at the top-left of the layout box and y down: the
/// first line's top is at y = 0, lines follow at the font's line height (Pango's: the line's
/// tallest ascent plus its deepest descent). Layouts are immutable and may be drawn from any
/// thread; `make(_:style:)` lays a string out once per style and then returns the same layout.
///
/// ```swift
/// let style = TextStyle(fontSize: 24, width: 80, alignment: .center)
/// let layout = try TextLayout.make("75%", style: style)
/// canvas.draw(layout, at: Point(10, 10), color: .white)
/// ```
public final class TextLayout: Sendable {
  /// The string laid out.
  public let string: String
  /// The style it was laid out in.
  public let style: TextStyle
  /// The lines, top to bottom.
  public let lines: [Line]
  /// The logical size: the layout width (`style.width`, or the widest line) by the lines'
  /// total height, in points.
  public let size: Size
  /// The rectangle the glyphs' ink covers, in points (`.zero` when nothing is drawn).
  public let inkBounds: Rect
  /// Whether truncation replaced some of the text with "…".
  public let isTruncated: Bool
  /// The glyph runs to draw, each in one font.
  let runs: [GlyphRun]
  /// Addresses of the Cairo scaled fonts the runs use, each referenced once by this layout.
  /// (Cairo's scaled fonts are immutable and thread-safe; an address is kept so that the layout
  /// stays a plain value Swift can share between threads.)
  private let fontAddresses: [UInt]

  /// One line of a layout.
  public struct Line: Hashable, Sendable {
    /// The characters the line shows, in visual order, with "…" where truncation removed text.
    public let text: String
    /// The line's logical rectangle (its advance width by its line height), in points.
    public let frame: Rect
    /// The y of the line's baseline, in points.
    public let baseline: Double
    /// The rectangle the line's ink covers, in points.
    public let inkBounds: Rect
    /// Whether the line's paragraph runs right to left (Arabic, Hebrew).
    public let isRightToLeft: Bool
  }

  struct GlyphRun: Sendable {
    let font: UInt
    let glyphs: [cairo_glyph_t]
  }

  init(
    string: String, style: TextStyle, lines: [Line], size: Size, inkBounds: Rect, runs: [GlyphRun],
    fontAddresses: [UInt], isTruncated: Bool
  ) {
    (self.string, self.style, self.lines, self.size) = (string, style, lines, size)
    (self.inkBounds, self.runs, self.fontAddresses) = (inkBounds, runs, fontAddresses)
    self.isTruncated = isTruncated
  }

  deinit {
    for address in fontAddresses { cairo_scaled_font_destroy(OpaquePointer(bitPattern: address)) }
  }

  /// The largest font size text is laid out at, in points: 10,000 (a larger size is laid out
  /// at it; scene files refuse one, naming the place).
  public static let maximumFontSize = 10_000.0

  /// The most characters (UTF-8 bytes) the text layers of one frame may draw, all together:
  /// 4,000,000 (about three seconds of laying out when none is cached; each replicator
  /// instance counted; each line wrapped text is expected to make counted as
  /// `charactersPerWrappedLine` more, see `layoutCost(of:style:)`; stroked text as many times
  /// more as `Canvas.TextStroke.costFactor(fontSize:)` says). The layouts of a frame within it
  /// stay cached for the next.
  public static let maximumCharactersPerFrame = 4_000_000

  /// What each line of wrapped text counts for against the text limits, in characters: 20.
  /// Pango shapes each line it breaks again, some 14 µs a line where a character costs under
  /// 1 µs: 100,000 characters wrapped in a box 1 point wide (a line each) took 1.4 s, 40 of
  /// them a frame would take a minute.
  public static let charactersPerWrappedLine = 20

  /// The lines wrapped text is expected to make, found before laying it out: for a string
  /// wrapped in a width, one for every width of its characters (UTF-8 bytes) at half the
  /// font size each (Latin text's usual advance), at most one a character; 0 for text not
  /// wrapped.
  public static func expectedWrappedLines(of string: String, style: TextStyle) -> Int {
    guard style.isWrapped, let width = style.width else { return 0 }
    let characters = Double(string.utf8.count)
    let size =
      style.fontSize.isFinite
      ? Swift.min(Swift.max(style.fontSize, 0), TextLayout.maximumFontSize) : 0
    guard width.isFinite, width > 0 else { return Int(characters) }
    return Int(Swift.min(characters, (characters * size / 2 / width).rounded(.up)))
  }

  /// What laying `string` out in `style` counts for against the text limits
  /// (`maximumCharactersPerFrame`, and a Lottie file's text), in characters: its UTF-8 bytes,
  /// `charactersPerWrappedLine` for each line it is expected to wrap to
  /// (`expectedWrappedLines(of:style:)`), its tabs' and mixed directions' work
  /// (`tabAndDirectionCost(of:style:)`). Found before any layout is made.
  public static func layoutCost(of string: String, style: TextStyle) -> Int {
    string.utf8.count + charactersPerWrappedLine * expectedWrappedLines(of: string, style: style)
      + tabAndDirectionCost(of: string, style: style) + paragraphCost(of: string)
  }

  /// How many characters before a paragraph count as one character against the text limits:
  /// 150. Pango goes over the text before each paragraph as it lays the paragraph out, so the
  /// work grows with the square of a string's paragraphs: 10,000 lines of 10 characters took
  /// 1.7 s of CPU for one layer, and 40 such layers (4,000,000 characters, within the frame's
  /// limit) 120 s, where the same letters without line breaks took 0.2 s (some 3.4 ns a
  /// character before a paragraph, where a character is counted for 0.75 µs).
  public static let charactersBeforeParagraphPerCharacter = 150

  /// The work of a string's paragraphs, in characters (added to its `layoutCost(of:style:)`):
  /// the characters (UTF-8 bytes) before each paragraph after the first (one begins after each
  /// `\n`, `\r` not followed by `\n`, and U+2029), over `charactersBeforeParagraphPerCharacter`.
  /// 0 for a string of one paragraph.
  public static func paragraphCost(of string: String) -> Int {
    var before = 0
    var previous: UInt8 = 0, secondPrevious: UInt8 = 0
    for (offset, byte) in string.utf8.enumerated() {
      defer { (secondPrevious, previous) = (previous, byte) }
      if previous == 0x0A || (previous == 0x0D && byte != 0x0A) {
        before += offset  // a paragraph begins here, after a line feed or a lone return
      } else if secondPrevious == 0xE2 && previous == 0x80 && byte == 0xA9 {
        before += offset + 1  // after U+2029, the paragraph separator
      }
    }
    return before / charactersBeforeParagraphPerCharacter
  }

  /// How many characters before a tab in its paragraph count as one character against the
  /// text limits, when Pango lays the paragraph out without a width to wrap in (text not
  /// wrapped, or truncated): 50. Pango measures the line so far for each tab it places, over
  /// every run before it (a tab is a run of its own), so a line's tabs take time in the square
  /// of their number: 100,000 tabs unwrapped took 89 s for a frame, 20,000 about 1 s (some 7
  /// to 18 ns a run measured, where a character is counted for 0.75 µs). Wrapped text keeps its
  /// line's width as it goes and does not.
  public static let charactersBeforeTabPerCharacter = 50

  /// How many character pairs of a line that mixes directions count as one character against
  /// the text limits: 1,000. Pango puts the runs of a line that has both left-to-right and
  /// right-to-left runs in visual order by appending each to a list it walks to its end, in
  /// time in the square of the runs (each character may be a run of its own): 100,000
  /// characters alternating Latin and Arabic took 6.5 s unwrapped (some 1.3 ns a pair), and
  /// 0.6 s wrapped in a box 180 points wide.
  public static let characterPairsPerCharacter = 1_000

  /// The work of a string's tabs and mixed directions, in characters (added to its
  /// `layoutCost(of:style:)`): for each paragraph (ended by `\n`, `\r` or U+2029) laid out
  /// without a width to wrap in, the characters before each of its tabs over
  /// `charactersBeforeTabPerCharacter`; and for each paragraph whose bidirectional levels
  /// (Pango's, found as it finds them) are both left-to-right and right-to-left, its characters
  /// times the characters expected on a line (all of them unless wrapped; wrapped, a line for
  /// every width of characters at half the font size) over `characterPairsPerCharacter`;
  /// isolates, embeddings and overrides as runs changing direction at each, and a paragraph
  /// of default-ignorable characters only (`isDefaultIgnorable`) as one whose every character
  /// changes direction, twice. 0 for text with none of these.
  public static func tabAndDirectionCost(of string: String, style: TextStyle) -> Int {
    var bytes = string
    return bytes.withUTF8 { text in
      // Tabs, right-to-left scripts and controls (from U+00AD, the soft hyphen, on) only.
      guard
        text.contains(where: { $0 == 0x09 || $0 >= 0xC2 }), text.count <= Int(Int32.max),
        let base = text.baseAddress
      else { return 0 }
      // Pango keeps the line's width as it fills it only when it wraps and does not truncate.
      let tracksWidth = style.isWrapped && style.width != nil && style.truncation == .none
      var lineCharacters: Int? = nil
      if style.isWrapped, let width = style.width {
        let size =
          style.fontSize.isFinite
          ? Swift.min(Swift.max(style.fontSize, 0), TextLayout.maximumFontSize) : 0
        let perLine = width.isFinite && width > 0 ? (width / Swift.max(size / 2, 1e-9)) : 1
        lineCharacters = Int(Swift.min(Swift.max(perLine.rounded(.up), 1), 1e9))
      }
      var tabWork = 0, pairs = 0
      var start = 0, byte = 0, characters = 0, mayMix = false, isolates = 0, visible = false
      func endParagraph() {
        guard characters > 1 else { return }
        // A paragraph of default-ignorable characters only (joiners, marks, controls, soft
        // hyphens, byte-order marks: nothing to show) is shaped by HarfBuzz in time in the
        // square of its length: 99,999 zero-width joiners took 17 s, one letter among them
        // 0.08 s, some 1.7 ns a pair. Counted as a line of runs changing direction at each,
        // twice (Pango orders mixed runs at 1.3 ns a pair; 44,000 joiners, which now fit the
        // frame, take 3.3 s).
        if !visible {
          pairs += 2 * characters * Swift.min(characters, lineCharacters ?? characters)
          return
        }
        guard mayMix else { return }
        // Isolates (LRI, RLI, FSI) make runs of their own whatever the levels, up to three each
        // (before, within, after): 33,333 isolated letters took 6 to 7.5 s to lay out; so do
        // embeddings and overrides (LRE, RLE, PDF, LRO, RLO): a paragraph of 99,999 RLOs took
        // 17 s, in the square of their number. Counted as a line whose runs change direction
        // at each.
        if isolates > 0 {
          let runs = Swift.min(characters, 3 * isolates)
          pairs += runs * Swift.min(runs, lineCharacters ?? runs)
          return
        }
        var direction = PANGO_DIRECTION_NEUTRAL
        guard
          let levels = pango_log2vis_get_embedding_levels(
            UnsafeRawPointer(base + start).assumingMemoryBound(to: CChar.self),
            Int32(byte - start), &direction)
        else { return }
        defer { g_free(levels) }
        var odd = false, even = false
        for i in 0..<characters {
          if levels[i] & 1 == 1 { odd = true } else { even = true }
          if odd && even { break }
        }
        if odd && even { pairs += characters * Swift.min(characters, lineCharacters ?? characters) }
      }
      for scalar in string.unicodeScalars {
        let value = scalar.value
        if value == 0x0A || value == 0x0D || value == 0x2029 {
          endParagraph()
          byte += scalar.utf8.count
          (start, characters, mayMix, isolates, visible) = (byte, 0, false, 0, false)
          continue
        }
        if !visible, !Self.isDefaultIgnorable(value) { visible = true }
        if value == 0x09, !tracksWidth { tabWork += characters }
        if !mayMix, Self.mayBeRightToLeft(value) { mayMix = true }
        if (0x2066...0x2068).contains(value) || (0x202A...0x202E).contains(value) {
          isolates += 1
        }
        characters += 1
        byte += scalar.utf8.count
      }
      endParagraph()
      return tabWork / charactersBeforeTabPerCharacter + pairs / characterPairsPerCharacter
    }
  }

  /// What each font and size counts for against the text limits the first time a frame (or a
  /// Lottie file) lays text out in it, in characters: 1,500. Pango finds and loads the font's
  /// faces (and those its characters fall back to) again for every size, some 0.75 ms: 10,000
  /// labels of two letters, each at its own size, took 11 s for a frame, at one size 0.1 s
  /// (about 7 s once Pango's font map forgets its fonts every `TextEngine.fontSizeLimit`
  /// sizes; refused at the 2,600th label, about 2 s in).
  public static let charactersPerFontSize = 1_500

  /// What each character counts for against the text limits the first time a frame (or a
  /// Lottie file) lays it out in a font and size, in characters: 20. Its glyph is loaded and
  /// measured again at every size, some 5 µs for a Latin letter and 15 µs for a Chinese
  /// character: 10,000 labels of 100 Chinese characters, each at its own size, took 136 s for
  /// a frame (at one size 2.3 s), and are refused at about the 1,000th.
  public static let charactersPerGlyphAtSize = 20

  /// The text laid out for one frame (or read from one Lottie file), counted against its
  /// limit in characters before each layout is made: each layout's `layoutCost(of:style:)`,
  /// `charactersPerFontSize` for each font and size first laid out, and
  /// `charactersPerGlyphAtSize` for each character first laid out in a font and size.
  public struct Tally: Sendable {
    /// The characters counted so far.
    public private(set) var characters = 0
    /// The characters laid out so far in each font and size.
    private var glyphs: [Size: Glyphs] = [:]

    private struct Size: Hashable {
      let fontName: String
      let fontSize: Double
    }

    /// A set of characters: ASCII ones as bits.
    private struct Glyphs {
      var ascii: (UInt64, UInt64) = (0, 0)
      var others: Set<UInt32> = []
    }

    /// An empty tally.
    public init() {}

    /// Counts laying `string` out in `style`; returns the characters it added.
    @discardableResult
    public mutating func add(_ string: String, style: TextStyle) -> Int {
      let key = Size(fontName: style.fontName, fontSize: style.fontSize)
      var new = Glyphs()
      var ascii = true
      for byte in string.utf8 {
        if byte < 64 {
          new.ascii.0 |= 1 << UInt64(byte)
        } else if byte < 128 {
          new.ascii.1 |= 1 << UInt64(byte - 64)
        } else {
          ascii = false
        }
      }
      if !ascii {
        for scalar in string.unicodeScalars where scalar.value >= 128 {
          new.others.insert(scalar.value)
        }
      }
      var cost = TextLayout.layoutCost(of: string, style: style)
      var known = glyphs[key] ?? Glyphs()
      if glyphs[key] == nil { cost += TextLayout.charactersPerFontSize }
      let fresh =
        (new.ascii.0 & ~known.ascii.0).nonzeroBitCount
        + (new.ascii.1 & ~known.ascii.1).nonzeroBitCount
        + new.others.subtracting(known.others).count
      cost += fresh * TextLayout.charactersPerGlyphAtSize
      if fresh > 0 {
        known.ascii = (known.ascii.0 | new.ascii.0, known.ascii.1 | new.ascii.1)
        known.others.formUnion(new.others)
      }
      glyphs[key] = known
      characters += cost
      return cost
    }

    /// Counts `characters` more for work beyond laying the text out: a stroke's outlines, as
    /// many times the layout's cost as they cost more than a fill.
    public mutating func addOutlineWork(_ characters: Int) { self.characters += characters }
  }

  /// Whether a character is default-ignorable (Unicode's `Default_Ignorable_Code_Point`):
  /// drawn as nothing, neither glyph nor width (joiners, directional marks and controls, soft
  /// hyphens, variation selectors, byte-order marks, tags).
  static func isDefaultIgnorable(_ value: UInt32) -> Bool {
    switch value {
    case 0x00AD, 0x034F, 0x061C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F,
      0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF,
      0xFFA0, 0xFFF0...0xFFF8, 0x1_BCA0...0x1_BCA3, 0x1_D173...0x1_D17A, 0xE_0000...0xE_0FFF:
      true
    default: false
    }
  }

  /// Whether a character may start a right-to-left run: Hebrew, Arabic and the other
  /// right-to-left scripts' blocks, and the marks, embeddings and isolates that set a direction.
  static func mayBeRightToLeft(_ value: UInt32) -> Bool {
    switch value {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x1_0800...0x1_0FFF,
      0x1_E800...0x1_EFFF, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
      true
    default: false
    }
  }

  /// `string` laid out in `style`: made once, then returned from the engine's cache for the
  /// same string and style (so a label that only moves or fades is never shaped again).
  ///
  /// - Throws: `CanvasError.unknownFont` when `style.fontName` resolves to no installed face.
  public static func make(_ string: String, style: TextStyle) throws(CanvasError) -> TextLayout {
    let key = TextEngine.LayoutKey(string: string, style: style.layoutKey)
    return try withTextEngine { engine throws(CanvasError) in
      if let known = engine.layouts[key] { return known }
      let layout = try engine.layOut(string, style: key.style)
      let characters = string.utf8.count
      if engine.layouts.count >= TextEngine.cacheLimit
        || engine.cachedCharacters + characters > TextEngine.cacheCharacterLimit
      {
        engine.layouts.removeAll()
        engine.cachedCharacters = 0
      }
      engine.layouts[key] = layout
      engine.cachedCharacters += characters
      return layout
    }
  }

  /// The face `fontName` resolves to, as `"Family Style"` (`"Liberation Sans Bold"` for
  /// `"Helvetica-Bold"`), or `nil` when it resolves to none.
  public static func resolvedFace(forFontNamed fontName: String) -> String? {
    try? withTextEngine { engine in
      engine.face(named: fontName).map { "\($0.families.first ?? "") \($0.style)" }
    }
  }

  /// The PostScript name of the face of font family `family` (`"Helvetica Neue"`, which is
  /// Liberation Sans here) nearest the weight, slant and width `style`'s words name (`"Bold"`,
  /// `"Light Italic"`, `"Semibold Condensed"`), as fontconfig matches them: a name that
  /// `TextStyle.fontName` takes. `nil` when no installed face is of that family.
  public static func fontName(family: String, style: String) -> String? {
    try? withTextEngine { engine in engine.face(family: family, style: style)?.postScriptName }
  }

  /// The glyph indices drawn, in visual order (for tests of shaping).
  package var glyphIndices: [UInt] { runs.flatMap { $0.glyphs.map(\.index) } }
}

extension TextEngine {
  /// Lays `string` out with Pango and copies out lines and glyphs.
  func layOut(_ string: String, style: TextStyle) throws(CanvasError) -> TextLayout {
    // Pango reads text up to its first NUL (the rest was dropped without a word): each is
    // shown as the control picture for it, ␀ (U+2400), as Pango shows other control
    // characters as boxes.
    let string =
      string.utf8.contains(0)
      ? String(String.UnicodeScalarView(string.unicodeScalars.map { $0 == "\0" ? "\u{2400}" : $0 }))
      : string
    guard let base = description(named: style.fontName) else { throw .unknownFont(style.fontName) }
    let scale = Double(PANGO_SCALE)
    let layout = pango_layout_new(context)!
    defer { flipbook_object_unref(UnsafeMutableRawPointer(layout)) }
    let description = pango_font_description_copy(base)
    defer { pango_font_description_free(description) }
    let size =
      style.fontSize.isFinite
      ? Swift.min(Swift.max(style.fontSize, 0), TextLayout.maximumFontSize) : 0
    forgetFontsPastSizeLimit(adding: FontSize(fontName: style.fontName, fontSize: size))
    pango_font_description_set_absolute_size(description, size * scale)
    pango_layout_set_font_description(layout, description)
    pango_layout_set_text(layout, string, -1)

    // Tracking: Pango's letter spacing over the whole string (Pango removes it before a line's
    // first and after its last character).
    let letterSpacing = Int32((style.tracking * scale).rounded())
    let attributes = pango_attr_list_new()!
    defer { pango_attr_list_unref(attributes) }
    if letterSpacing != 0, let spacing = pango_attr_letter_spacing_new(letterSpacing) {
      spacing.pointee.start_index = 0
      spacing.pointee.end_index = UInt32.max  // PANGO_ATTR_INDEX_TO_TEXT_END
      pango_attr_list_insert(attributes, spacing)
    }

    let width = style.width.map { $0.isFinite ? Swift.max(0, $0) : 0 }
    // Pango aligns, wraps and truncates within a width; unwrapped, untruncated text is laid
    // out unbounded and aligned here.
    let pangoWidth = width != nil && (style.isWrapped || style.truncation != .none)
    if pangoWidth, let width {
      pango_layout_set_width(layout, Int32(Swift.min(width * scale, Double(Int32.max))))
      pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
      // Pango's alignment for lines it does not stretch; left and right are absolute (not
      // flipped for right-to-left text, as `.natural` is).
      func align(_ alignment: TextAlignment) {
        switch alignment {
        case .natural: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .left, .justified:
          pango_layout_set_auto_dir(layout, 0)
          pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .right:
          pango_layout_set_auto_dir(layout, 0)
          pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        }
      }
      if style.alignment == .justified {
        // Pango aligns the lines it does not stretch (a paragraph's last) by the alignment; a
        // stretched last line is widened at its spaces below.
        pango_layout_set_justify(layout, 1)
        align(style.lastLineAlignment)
      } else {
        align(style.alignment)
      }
      if style.isWrapped {
        Self.splitLongRuns(of: string, into: attributes, letterSpacing: letterSpacing)
        // A word broken across lines gets no hyphen, as Core Text and lottie-web break it
        // (Pango added one, and shaped the line again for it).
        if let hyphens = pango_attr_insert_hyphens_new(0) {
          hyphens.pointee.start_index = 0
          hyphens.pointee.end_index = UInt32.max  // PANGO_ATTR_INDEX_TO_TEXT_END
          pango_attr_list_insert(attributes, hyphens)
        }
      }
      switch style.truncation {
      case .none: break
      case .start: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_START)
      case .middle: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE)
      case .end: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
      }
      if style.isWrapped, style.truncation != .none, let height = style.height {
        pango_layout_set_height(
          layout, Int32(Swift.min(Swift.max(0, height) * scale, Double(Int32.max))))
      }
    }

    pango_layout_set_attributes(layout, attributes)

    var logicalExtents = PangoRectangle()
    pango_layout_get_extents(layout, nil, &logicalExtents)
    let layoutWidth = width ?? Double(logicalExtents.width) / scale

    let text = Array(string.utf8)
    var lines: [TextLayout.Line] = []
    var runs: [TextLayout.GlyphRun] = []
    var fonts: [UInt] = []
    var ink: Rect? = nil
    let iter = pango_layout_get_iter(layout)
    defer { pango_layout_iter_free(iter) }
    repeat {
      guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
      var lineInk = PangoRectangle(), lineLogical = PangoRectangle()
      pango_layout_iter_get_line_extents(iter, &lineInk, &lineLogical)
      let pangoBaseline = Double(pango_layout_iter_get_baseline(iter)) / scale
      // A line spacing places baselines that far apart from the first; the line's boxes move
      // with it.
      let firstBaseline = lines.first?.baseline ?? pangoBaseline
      let baseline =
        style.lineSpacing.map { firstBaseline + Double(lines.count) * $0 } ?? pangoBaseline
      let dy = baseline - pangoBaseline
      let lineWidth = Double(lineLogical.width) / scale
      let rtl = line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
      var x = Double(lineLogical.x) / scale
      if !pangoWidth {
        switch style.alignment {
        case .left: x = 0
        case .right: x = layoutWidth - lineWidth
        case .center: x = (layoutWidth - lineWidth) / 2
        case .natural: x = rtl ? layoutWidth - lineWidth : 0
        case .justified:
          // Unwrapped, every line is its paragraph's last.
          switch style.lastLineAlignment {
          case .left: x = 0
          case .right: x = layoutWidth - lineWidth
          case .center: x = (layoutWidth - lineWidth) / 2
          case .natural, .justified: x = rtl ? layoutWidth - lineWidth : 0
          }
        }
      }
      let shift = x - Double(lineLogical.x) / scale
      // A paragraph's last line stretched too: its spaces (not trailing ones) share the room
      // left, letters keep their spacing (After Effects' "justify all"); a line without spaces
      // stays as it is. Pango would spread the letters of such a line instead.
      var stretch = (spaces: Set<Int>(), each: 0.0)
      if pangoWidth, style.alignment == .justified, style.lastLineAlignment == .justified {
        let start = Int(line.pointee.start_index)
        let end = Swift.min(text.count, start + Int(line.pointee.length))
        let breaks: Set<UInt8> = [0x0A, 0x0D]
        let endsParagraph =
          end >= text.count || breaks.contains(text[end])
          || (end > start && breaks.contains(text[end - 1]))
        if endsParagraph, start < end {
          let last = (start..<end).last { text[$0] != 0x20 && !breaks.contains(text[$0]) }
          let spaces = (start..<end).filter { text[$0] == 0x20 && $0 < (last ?? start) }
          let room = (layoutWidth - lineWidth) * scale
          if !spaces.isEmpty, room > 0 { stretch = (Set(spaces), room / Double(spaces.count)) }
        }
      }
      var lineText = ""
      var pen = x * scale
      var node = line.pointee.runs
      while let current = node {
        node = current.pointee.next
        guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) else {
          continue
        }
        let item = run.pointee.item.pointee
        if flipbook_is_ellipsis(run) != 0 {
          lineText += "…"
        } else {
          let start = Int(item.offset), end = Swift.min(text.count, start + Int(item.length))
          if start < end { lineText += String(decoding: text[start..<end], as: UTF8.self) }
        }
        let glyphString = run.pointee.glyphs.pointee
        var glyphs: [cairo_glyph_t] = []
        glyphs.reserveCapacity(Int(glyphString.num_glyphs))
        for i in 0..<Int(glyphString.num_glyphs) {
          let info = glyphString.glyphs[i]
          // A character no installed face has (Pango's unknown glyph) is drawn as its font's
          // missing-glyph box (glyph 0, `.notdef`), as Core Text draws such a character:
          // drawn as nothing, emoji and rare CJK vanished from their text without a word.
          var g = info.glyph
          if g != PANGO_GLYPH_EMPTY && g & PANGO_GLYPH_UNKNOWN_FLAG != 0 { g = 0 }
          if g != PANGO_GLYPH_EMPTY {
            glyphs.append(
              cairo_glyph_t(
                index: UInt(g), x: (pen + Double(info.geometry.x_offset)) / scale,
                y: baseline + Double(info.geometry.y_offset) / scale))
          }
          pen += Double(info.geometry.width)
          if !stretch.spaces.isEmpty,
            stretch.spaces.contains(Int(item.offset) + Int(glyphString.log_clusters[i]))
          {
            pen += stretch.each
          }
        }
        if !glyphs.isEmpty, let font = item.analysis.font, let scaled = flipbook_scaled_font(font) {
          let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(scaled)))
          if !fonts.contains(address) {
            cairo_scaled_font_reference(scaled)
            fonts.append(address)
          }
          runs.append(TextLayout.GlyphRun(font: address, glyphs: glyphs))
        }
      }
      let lineInkRect = Rect(
        x: Double(lineInk.x) / scale + shift, y: Double(lineInk.y) / scale + dy,
        width: Double(lineInk.width) / scale, height: Double(lineInk.height) / scale)
      if lineInk.width > 0 && lineInk.height > 0 {
        ink = ink.map { union($0, lineInkRect) } ?? lineInkRect
      }
      lines.append(
        TextLayout.Line(
          text: lineText,
          frame: Rect(
            x: x, y: Double(lineLogical.y) / scale + dy,
            width: lineWidth + stretch.each * Double(stretch.spaces.count) / scale,
            height: Double(lineLogical.height) / scale),
          baseline: baseline, inkBounds: lineInkRect, isRightToLeft: rtl))
    } while pango_layout_iter_next_line(iter) != 0

    return TextLayout(
      string: string, style: style, lines: lines,
      size: Size(
        width: layoutWidth,
        height: style.lineSpacing == nil
          ? Double(logicalExtents.height) / scale : lines.last.map(\.frame.maxY) ?? 0),
      inkBounds: ink ?? .zero, runs: runs, fontAddresses: fonts,
      isTruncated: pango_layout_is_ellipsized(layout) != 0)
  }
}

extension TextEngine {
  /// The most characters Pango shapes as one piece when it wraps: 1,000 (a piece reaches the
  /// first place a line may break at past it, or is cut there inside a word).
  static let wrappedWordPiece = 1_000

  /// Cuts the string into pieces of about `wrappedWordPiece` characters that Pango shapes
  /// apart: at the first place a line may break once a piece has that many characters, and
  /// every `wrappedWordPiece` characters inside a word with no such place. Every other piece
  /// gets a letter spacing, added to `list`, of `letterSpacing` (Pango units): the whole
  /// string's, so no advance changes.
  ///
  /// Pango measures the rest of the piece it is in for every line it starts, so text shaped as
  /// one piece of n characters wrapped in time in n² over the characters a line holds: a word
  /// of 120,000 characters took 15 s, and 100,000 characters of short words in a box 1 point
  /// wide (a line each) 4.4 s; cut into pieces, each line measures at most a piece. Only
  /// words longer than a piece change: where a line breaks inside one may move by a character
  /// at a piece's edge, and kerning between two pieces' characters is not applied.
  static func splitLongRuns(
    of string: String, into list: OpaquePointer, letterSpacing: Int32
  ) {
    let bytes = string.utf8.count
    guard bytes > wrappedWordPiece, bytes <= Int(Int32.max) else { return }
    let scalars = string.unicodeScalars
    var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: scalars.count + 1)
    pango_get_log_attrs(
      string, Int32(bytes), -1, pango_language_from_string("en-us"), &attributes,
      Int32(attributes.count))
    // Where each piece after the first starts (bytes).
    var cuts: [Int] = []
    var byte = 0, inWord = 0, inPiece = 0
    for (i, scalar) in scalars.enumerated() {
      if attributes[i].is_line_break != 0 {
        inWord = 0
        if inPiece >= wrappedWordPiece {
          cuts.append(byte)
          inPiece = 0
        }
      } else if inWord > 0, inWord % wrappedWordPiece == 0 {
        cuts.append(byte)
        inPiece = 0
      }
      inWord += 1
      inPiece += 1
      byte += scalar.utf8.count
    }
    for n in stride(from: 0, to: cuts.count, by: 2) {
      guard let attribute = pango_attr_letter_spacing_new(letterSpacing) else { continue }
      attribute.pointee.start_index = UInt32(cuts[n])
      attribute.pointee.end_index = UInt32(n + 1 < cuts.count ? cuts[n + 1] : bytes)
      pango_attr_list_insert(list, attribute)
    }
  }
}

/// The smallest rectangle holding `a` and `b`.
private func union(_ a: Rect, _ b: Rect) -> Rect {
  let minX = Swift.min(a.minX, b.minX), minY = Swift.min(a.minY, b.minY)
  return Rect(
    x: minX, y: minY, width: Swift.max(a.maxX, b.maxX) - minX,
    height: Swift.max(a.maxY, b.maxY) - minY)
}
