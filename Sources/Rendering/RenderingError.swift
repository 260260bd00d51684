/// Why a layer tree could not be drawn.
public enum RenderingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A text layer's `font` resolves to no installed face. Carries the layer's name, if any, and
  /// the font's name.
  case unknownFont(layer: String?, font: String)

  /// A one-line message.
  public var description: String {
    switch self {
    case .unknownFont(let name, let font):
      return "layer \(name.map { "'\($0)'" } ?? "(unnamed)") uses the font \"\(font)\", "
        + "which resolves to no installed face (scripts/setup installs Liberation, DejaVu and WenQuanYi Micro Hei)"
    }
  }
}
