import Geometry

/// A layer that draws a string, as Core Animation's `CATextLayer`: laid out from the top of its
/// bounds, aligned within their width, optionally wrapped at word boundaries and truncated with
/// an ellipsis, drawn above the background and contents and below the sublayers and border,
/// clipped to the bounds.
///
/// Defaults are Core Animation's: no string, Helvetica (which resolves to Liberation Sans, its
/// metric-compatible face), 36 points, opaque white. `fontSize` and `foregroundColor` animate.
/// The text is drawn at the frame's resolution whatever `contentsScale` says (Core Animation
/// rasterises at `contentsScale`, which apps set to the screen's scale; Flipbook always does).
///
/// ```swift
/// let label = TextLayer()
/// label.string = "75%"
/// label.fontSize = 24
/// label.alignmentMode = .center
/// label.frame = Rect(0, 0, 120, 30)
/// ```
public final class TextLayer: Layer {
  /// The most characters (Unicode scalars) a string read from a scene or Lottie file may have:
  /// 100,000, several times what a frame of the largest size shows at a legible size (a
  /// 16384-pixel frame holds about 400 lines of 300 characters at 40 pixels a line). Shaping and
  /// wrapping take time in the string's length, so a longer one is refused when read (and when
  /// drawn, set from Swift: `RenderingError.textTooLong`).
  public static let maximumStringLength = 100_000

  /// The most paragraphs (the text between line breaks: `\n`, `\r`, `\r\n` or U+2029) a
  /// string read from a scene or Lottie file may have: 10,000, many times the lines a frame of
  /// the largest size shows. Pango finds each paragraph's start by counting the characters
  /// before it, so laying out takes time in the square of the paragraphs: 10,000 take 0.4 s,
  /// 40,000 took 9 s. A longer one is refused when read, and when drawn
  /// (`RenderingError.textTooLong`).
  public static let maximumParagraphCount = 10_000

  /// The paragraphs of `string` as Pango splits it: one more than its line breaks (`\r\n`
  /// counted once).
  public static func paragraphCount(of string: String) -> Int {
    var count = 1
    var afterReturn = false
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\r": count += 1
      case "\n": if !afterReturn { count += 1 }
      case "\u{2029}": count += 1
      default: break
      }
      afterReturn = scalar == "\r"
    }
    return count
  }

  /// How far `string` passes the limits a text layer's string is held to, as its characters
  /// (Unicode scalars) and paragraphs; `nil` within `maximumStringLength` and
  /// `maximumParagraphCount`. A string of fewer UTF-8 bytes than the paragraph limit is within
  /// both without being counted (drawing checks every string on every frame).
  public static func limitExcess(of string: String) -> (characters: Int, lines: Int)? {
    guard string.utf8.count >= maximumParagraphCount else { return nil }
    let characters = string.unicodeScalars.count, lines = paragraphCount(of: string)
    guard characters > maximumStringLength || lines > maximumParagraphCount else { return nil }
    return (characters, lines)
  }

  /// The deepest bidirectional isolates (LRI, RLI, FSI, each closed by PDI) a text layer's
  /// string may nest in one paragraph: 16, far more than text uses. The bidi library Pango
  /// lays text out with (libfribidi) crashed on two runs of isolates nested 67 deep.
  public static let maximumIsolateDepth = 16

  /// How deep `string`'s bidirectional isolates nest within a paragraph, when that is past
  /// `maximumIsolateDepth`; `nil` otherwise (a string without them is passed over at once).
  public static func isolateDepthExcess(of string: String) -> Int? {
    var bytes = string
    return bytes.withUTF8 { text -> Int? in
      guard text.contains(0xE2) else { return nil }
      var depth = 0, deepest = 0, i = 0
      while i < text.count {
        let byte = text[i]
        if byte == 0x0A || byte == 0x0D {
          depth = 0
        } else if byte == 0xE2, i + 2 < text.count, text[i + 1] == 0x81 {
          switch text[i + 2] {
          case 0xA6, 0xA7, 0xA8:  // LRI, RLI, FSI
            depth += 1
            deepest = Swift.max(deepest, depth)
          case 0xA9: depth = Swift.max(0, depth - 1)  // PDI
          default: break
          }
        } else if byte == 0xE2, i + 2 < text.count, text[i + 1] == 0x80, text[i + 2] == 0xA9 {
          depth = 0  // U+2029, a paragraph separator
        }
        i += 1
      }
      return deepest > maximumIsolateDepth ? deepest : nil
    }
  }

  /// What a reader says of isolates nested past `maximumIsolateDepth`.
  public static func isolateDepthMessage(_ depth: Int) -> String {
    "bidirectional isolates (LRI, RLI, FSI) nested \(depth) deep, past the limit of "
      + "\(maximumIsolateDepth)"
  }

  /// What a reader says of a string past the limits (`limitExcess`): its characters when those
  /// pass, else its lines.
  public static func limitMessage(characters: Int, lines: Int) -> String {
    characters > maximumStringLength
      ? "a string of \(characters) characters exceeds the limit of \(maximumStringLength)"
      : "a string of \(lines) lines (line breaks) exceeds the limit of \(maximumParagraphCount)"
  }

  /// The text to draw (default `nil`: nothing).
  public var string: String? {
    get { storage.text.string }
    set { storage.text.string = newValue }
  }
  /// The font's name (default `"Helvetica"`): a family (`"DejaVu Sans"`), a PostScript name
  /// (`"Helvetica-Bold"`, `"LiberationSerif-Italic"`) or `Family-Style`; resolved through the
  /// fonts `scripts/setup` installs. A name that resolves to no face makes rendering fail.
  public var font: String {
    get { storage.text.font }
    set { storage.text.font = newValue }
  }
  /// The largest font size drawn as given, in points: 10,000 (a scene file's `fontSize`, or
  /// an animation value of it, past it is refused; a size set from Swift, or reached by an
  /// animation's overshoot, past it is drawn at it).
  public static let maximumFontSize = 10_000.0

  /// The font's size, in points (default 36; at most `maximumFontSize` drawn). Animatable.
  public var fontSize: Double {
    get { storage.text.fontSize }
    set { storage.text.fontSize = newValue }
  }
  /// The text's color (default opaque white; `nil` draws no text). Animatable.
  public var foregroundColor: Color? {
    get { storage.text.foregroundColor }
    set { storage.text.foregroundColor = newValue }
  }
  /// Whether lines wrap at word boundaries to fit the bounds' width (default `false`).
  public var isWrapped: Bool {
    get { storage.text.isWrapped }
    set { storage.text.isWrapped = newValue }
  }
  /// Where an ellipsis replaces text that does not fit (default `.none`).
  public var truncationMode: TruncationMode {
    get { storage.text.truncationMode }
    set { storage.text.truncationMode = newValue }
  }
  /// Where lines sit within the bounds' width (default `.natural`).
  public var alignmentMode: AlignmentMode {
    get { storage.text.alignmentMode }
    set { storage.text.alignmentMode = newValue }
  }
  /// How `.justified` sets each paragraph's last line (default `.natural`, Core Animation's
  /// convention; `.justified` stretches it too). Not a `CATextLayer` property: the Lottie reader
  /// sets it for After Effects' paragraph justifications; scene files cannot.
  package var justifiedLastLine: AlignmentMode {
    get { storage.text.justifiedLastLine }
    set { storage.text.justifiedLastLine = newValue }
  }
  /// The distance between baselines (default `nil`: the font's line height). Not a
  /// `CATextLayer` property: the Lottie reader sets it to the document's line height (`lh`).
  package var lineSpacing: Double? {
    get { storage.text.lineSpacing }
    set { storage.text.lineSpacing = newValue }
  }
  /// The space added after each character, in points (default 0; negative draws characters
  /// closer). Not a `CATextLayer` property: the Lottie reader sets it to the document's tracking
  /// (`tr`, thousandths of the size), which After Effects and lottie-web add after each
  /// character.
  package var tracking: Double {
    get { storage.text.tracking }
    set { storage.text.tracking = newValue }
  }
  /// The colour of an outline drawn along the glyphs (default `nil`: none). Not a `CATextLayer`
  /// property (`NSAttributedString`'s `strokeColor`): the Lottie reader sets it to a text
  /// document's stroke colour (`sc`), which lottie-web draws.
  package var strokeColor: Color? {
    get { storage.text.strokeColor }
    set { storage.text.strokeColor = newValue }
  }
  /// The width of the outline along the glyphs, in points, centred on their edges (default 0:
  /// none). The Lottie reader sets it to a text document's stroke width (`sw`).
  package var strokeWidth: Double {
    get { storage.text.strokeWidth }
    set { storage.text.strokeWidth = newValue }
  }
  /// Whether the outline is drawn over the glyphs' fill (default `true`) or under it, where the
  /// fill covers its inner half. The Lottie reader sets it from a text document's `of`.
  package var strokesOverFill: Bool {
    get { storage.text.strokesOverFill }
    set { storage.text.strokesOverFill = newValue }
  }
  /// Whether the text is clipped to the bounds (default `true`, as `CATextLayer` draws into a
  /// backing store of the bounds' size). Not a `CATextLayer` property: the Lottie reader clears
  /// it, as lottie-web draws a document's every line and glyph, inside its box or not.
  package var clipsToBounds: Bool {
    get { storage.text.clipsToBounds }
    set { storage.text.clipsToBounds = newValue }
  }

  /// Creates a text layer with Core Animation's defaults.
  public override init() {
    super.init()
    storage.typed = .text(TextProperties())
  }

  required init(copying layer: Layer) {
    super.init(copying: layer)
    if case .text = storage.typed {} else { storage.typed = .text(TextProperties()) }
  }

  /// Where lines sit within the bounds' width (`CATextLayerAlignmentMode`).
  public enum AlignmentMode: String, Hashable, Sendable, CaseIterable {
    /// Left for left-to-right text, right for right-to-left text.
    case natural
    /// Flush left.
    case left
    /// Flush right.
    case right
    /// Centred.
    case center
    /// Every line of a paragraph but its last stretched to the width.
    case justified
  }

  /// Where an ellipsis ("…") replaces text that does not fit (`CATextLayerTruncationMode`):
  /// on the last line that fits the bounds' height, or on an unwrapped line wider than them.
  public enum TruncationMode: String, Hashable, Sendable, CaseIterable {
    /// No ellipsis; the bounds clip what does not fit.
    case none
    /// The start of the line is replaced.
    case start
    /// The middle of the line is replaced.
    case middle
    /// The end of the line is replaced.
    case end
  }
}

/// The properties only text layers have, as one value (see `TextLayer` for what each means).
package struct TextProperties: Hashable, Sendable {
  /// The text to draw (default `nil`).
  public var string: String? = nil
  /// The font's name (default `"Helvetica"`).
  public var font: String = "Helvetica"
  /// The font's size, in points (default 36).
  public var fontSize: Double = 36
  /// The text's color (default opaque white).
  public var foregroundColor: Color? = .white
  /// Whether lines wrap (default `false`).
  public var isWrapped: Bool = false
  /// Where an ellipsis goes (default `.none`).
  public var truncationMode: TextLayer.TruncationMode = .none
  /// Where lines sit (default `.natural`).
  public var alignmentMode: TextLayer.AlignmentMode = .natural
  /// How a justified paragraph's last line sits (default `.natural`).
  public var justifiedLastLine: TextLayer.AlignmentMode = .natural
  /// The distance between baselines (default `nil`: the font's line height).
  public var lineSpacing: Double? = nil
  /// The space added after each character, in points (default 0).
  public var tracking: Double = 0
  /// Whether the text is clipped to the bounds (default `true`).
  public var clipsToBounds: Bool = true
  /// The colour of the outline along the glyphs (default `nil`: none).
  public var strokeColor: Color? = nil
  /// The outline's width, in points (default 0).
  public var strokeWidth: Double = 0
  /// Whether the outline is drawn over the fill (default `true`).
  public var strokesOverFill: Bool = true

  /// Creates text properties with Core Animation's defaults.
  public init() {}
}
