/// Why a layer tree could not be drawn.
public enum RenderingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A layer's `transform` or `sublayerTransform` has perspective terms (`m14`, `m24`, `m34`
  /// non-zero or `m44` not 1), which Flipbook does not draw yet. Carries the layer's name, if any.
  case perspectiveUnsupported(layer: String?)

  /// A one-line message.
  public var description: String {
    switch self {
    case .perspectiveUnsupported(let name):
      return "layer \(name.map { "'\($0)'" } ?? "(unnamed)") has a transform with perspective terms "
        + "(m14, m24, m34 or m44), which Flipbook does not render yet"
    }
  }
}
