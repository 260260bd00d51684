/// How a string is set: its font, size, the box it is laid out in, alignment, wrapping and
/// truncation (Core Animation's `CATextLayer` properties, as the text engine takes them).
///
/// Two equal styles with the same string give the same `TextLayout`, which the engine lays out
/// once and keeps (see `TextLayout.make(_:style:)`).
public struct TextStyle: Hashable, Sendable {
  /// The font's name, found through the engine's fontconfig set (default `"Helvetica"`, which
  /// resolves to Liberation Sans): a family (`"DejaVu Sans"`), a PostScript name
  /// (`"LiberationSans-Bold"`) or `Family-Style` (`"Liberation Serif-Italic"`).
  public var fontName: String
  /// The font's size: its em, in points (default 36, `CATextLayer`'s).
  public var fontSize: Double
  /// The width lines are aligned, wrapped and truncated in, in points; `nil` for the widest
  /// line's width (default `nil`).
  public var width: Double?
  /// The height wrapped lines are truncated to, in points; `nil` for no limit (default `nil`).
  /// Only wrapped text with a truncation mode uses it.
  public var height: Double?
  /// Where each line sits within `width` (default `.natural`).
  public var alignment: TextAlignment
  /// Whether lines break at word boundaries to fit `width` (default `false`).
  public var isWrapped: Bool
  /// Where the ellipsis goes when text does not fit (default `.none`: cut by the clip only).
  public var truncation: TextTruncation
  /// How `.justified` sets each paragraph's last line: `.natural` (default, Core Animation's
  /// convention), `.left`, `.right`, `.center`, or `.justified` (stretched like the others), as
  /// After Effects' paragraph justifications do. Other alignments ignore it.
  public var lastLineAlignment: TextAlignment
  /// The distance from one line's baseline to the next, in points; `nil` (default) for the
  /// font's line height, as Core Animation sets lines. After Effects' leading (Lottie's `lh`).
  public var lineSpacing: Double?
  /// The space added after each character, in points (default 0; negative sets characters
  /// closer): After Effects' tracking (Lottie's `tr`, in thousandths of the size), which
  /// lottie-web adds after each character. Lines wrap and align with it; the first character
  /// of a line stays where it was, and the last character's space is not part of the line's
  /// width. Taken within ±`maximumTracking`.
  public var tracking: Double

  /// The most tracking a style takes either way, in points: 100,000 (larger is taken as that).
  public static let maximumTracking = 100_000.0

  /// Creates a style; the defaults are `CATextLayer`'s.
  public init(
    fontName: String = "Helvetica", fontSize: Double = 36, width: Double? = nil,
    height: Double? = nil, alignment: TextAlignment = .natural, isWrapped: Bool = false,
    truncation: TextTruncation = .none, lastLineAlignment: TextAlignment = .natural,
    lineSpacing: Double? = nil, tracking: Double = 0
  ) {
    (self.fontName, self.fontSize, self.width, self.height) = (fontName, fontSize, width, height)
    (self.alignment, self.isWrapped, self.truncation) = (alignment, isWrapped, truncation)
    self.lastLineAlignment = lastLineAlignment
    self.lineSpacing = lineSpacing.map { $0.isFinite ? Swift.min(Swift.max($0, 0), 100_000) : 0 }
    self.tracking =
      tracking.isFinite
      ? Swift.min(Swift.max(tracking, -Self.maximumTracking), Self.maximumTracking) : 0
  }

  /// The style with what cannot change the layout removed: `height` unless wrapped text is
  /// truncated. Layouts are cached under this key.
  var layoutKey: TextStyle {
    var key = self
    if !(isWrapped && truncation != .none) { key.height = nil }
    if alignment != .justified { key.lastLineAlignment = .natural }
    return key
  }
}

/// Where lines sit within the layout's width (`CATextLayerAlignmentMode`).
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
  /// Left for left-to-right paragraphs, right for right-to-left ones.
  case natural
  /// Flush left.
  case left
  /// Flush right.
  case right
  /// Centred.
  case center
  /// Every line but a paragraph's last stretched to the width (the last is natural).
  case justified
}

/// Where the ellipsis ("…") replaces text that does not fit (`CATextLayerTruncationMode`).
public enum TextTruncation: String, Hashable, Sendable, CaseIterable {
  /// No ellipsis: what does not fit is clipped.
  case none
  /// The line's start is replaced.
  case start
  /// The line's middle is replaced.
  case middle
  /// The line's end is replaced.
  case end
}
