/// Why the canvas could not do what was asked.
public enum CanvasError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The pixel size is outside what Flipbook renders (see `Canvas.maximumSide` and
  /// `Canvas.maximumPixelCount`), or not positive.
  case sizeOutOfRange(width: Int, height: Int)
  /// Cairo reported a failure; the text is Cairo's own status description.
  case cairo(String)
  /// A font name that resolves to no installed face (see `TextStyle.fontName`).
  case unknownFont(String)

  /// A one-line message.
  public var description: String {
    switch self {
    case .sizeOutOfRange(let w, let h):
      return
        "a frame of \(w) x \(h) pixels is outside the limits (1 to \(Canvas.maximumSide) pixels a side, "
        + "at most \(Canvas.maximumPixelCount / 1_000_000) megapixels)"
    case .cairo(let message): return "cairo: \(message)"
    case .unknownFont(let name):
      return
        "unknown font \"\(name)\" (no installed face has that family, PostScript or Family-Style name)"
    }
  }
}
