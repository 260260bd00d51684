/// Why a layer tree could not be drawn.
public enum RenderingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A layer's `transform` or `sublayerTransform` has perspective terms (`m14`, `m24`, `m34`
  /// non-zero or `m44` not 1), which Flipbook does not draw yet. Carries the layer's name, if any.
  case perspectiveUnsupported(layer: String?)
  /// A text layer's `font` resolves to no installed face. Carries the layer's name, if any, and
  /// the font's name.
  case unknownFont(layer: String?, font: String)
  /// A shadowed layer lies inside more than `LayerRenderer.maximumNestedShadows` shadowed
  /// layers (each shadow's shape is drawn from its whole subtree, so the work grows with the
  /// nesting). Carries the innermost layer's name, if any.
  case shadowsNestedTooDeep(layer: String?)

  /// A one-line message.
  public var description: String {
    switch self {
    case .perspectiveUnsupported(let name):
      return
        "layer \(name.map { "'\($0)'" } ?? "(unnamed)") has a transform with perspective terms "
        + "(m14, m24, m34 or m44), which Flipbook does not render yet"
    case .unknownFont(let name, let font):
      return "layer \(name.map { "'\($0)'" } ?? "(unnamed)") uses the font \"\(font)\", "
        + "which resolves to no installed face (scripts/setup installs Liberation, DejaVu and WenQuanYi Micro Hei)"
    case .shadowsNestedTooDeep(let name):
      return
        "layer \(name.map { "'\($0)'" } ?? "(unnamed)") has a shadow inside more than "
        + "\(LayerRenderer.maximumNestedShadows) other shadowed layers, past the limit"
    }
  }
}
