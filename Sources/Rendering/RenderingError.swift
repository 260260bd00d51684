import Geometry

/// Why a layer tree could not be drawn.
public enum RenderingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A text layer's `font` resolves to no installed face. Carries the layer's name, if any, and
  /// the font's name.
  case unknownFont(layer: String?, font: String)
  /// A shadowed layer lies inside more than `LayerRenderer.maximumNestedShadows` shadowed
  /// layers (each shadow's shape is drawn from its whole subtree, so the work grows with the
  /// nesting). Carries the innermost layer's name, if any.
  case shadowsNestedTooDeep(layer: String?)
  /// A layer drawn offscreen in perspective lies inside more than
  /// `LayerRenderer.maximumShadowsAroundPlanes` shadowed layers: each of them draws the plane
  /// again for its shadow's shape, and a plane's offscreen pixels are not shared between those
  /// passes, so the work doubles with every level. Carries the plane's name, if any.
  case planeInsideTooManyShadows(layer: String?)
  /// An offscreen canvas the layer needs (its plane in perspective, or its shadow's shape)
  /// could not be made: more pixels than a canvas may have even at the least density, or no
  /// memory for it. Carries the layer's name, if any, and the canvas's reason.
  case offscreenUnavailable(layer: String?, reason: String)
  /// A shape layer's stroke would draw more than `StrokeStyle.maximumDashCount` dashes (its
  /// path's length over its dash pattern's, animated to that or built in Swift; a scene file
  /// or Lottie file with such a static stroke is refused when read). Carries the layer's name,
  /// if any, and about how many dashes.
  case tooManyDashes(layer: String?, count: Double)
  /// The strokes of one frame would draw more than `StrokeStyle.maximumDashCountPerFrame`
  /// dashes together. Carries the name, if any, of the layer whose stroke passes the limit.
  case tooManyDashesInFrame(layer: String?)

  /// The frame's offscreen groups (opacity, blend modes, filters, masks, replicator tints,
  /// shadows' shapes) would hold more than `LayerRenderer.maximumGroupPixelsPerFrame` pixels
  /// together. Carries the name, if any, of the layer whose group passes the limit.
  case tooMuchOffscreenWork(layer: String?)
  /// The frame's filters would go over more than `LayerRenderer.maximumFilterPixelsPerFrame`
  /// pixels together (each filter over its group's pixels). Carries the name, if any, of the
  /// layer whose filters pass the limit.
  case tooMuchFilterWork(layer: String?)

  /// A one-line message.
  public var description: String {
    switch self {
    case .unknownFont(let name, let font):
      return "layer \(name.map { "'\($0)'" } ?? "(unnamed)") uses the font \"\(font)\", "
        + "which resolves to no installed face (scripts/setup installs Liberation, DejaVu and WenQuanYi Micro Hei)"
    case .shadowsNestedTooDeep(let name):
      return
        "layer \(name.map { "'\($0)'" } ?? "(unnamed)") has a shadow inside more than "
        + "\(LayerRenderer.maximumNestedShadows) other shadowed layers, past the limit"
    case .planeInsideTooManyShadows(let name):
      return
        "layer \(name.map { "'\($0)'" } ?? "(unnamed)") is drawn in perspective inside more than "
        + "\(LayerRenderer.maximumShadowsAroundPlanes) shadowed layers, past the limit (each "
        + "shadow draws the plane again, so the work doubles with each one)"
    case .tooManyDashes(let name, let count):
      let about = count < 1e15 ? String(Int(count.rounded())) : String(describing: count)
      return
        "layer \(name.map { "'\($0)'" } ?? "(unnamed)") would stroke about \(about) dashes "
        + "(its path's length over its dash pattern's), over the limit of "
        + "\(StrokeStyle.maximumDashCount)"
    case .tooManyDashesInFrame(let name):
      return
        "the frame would stroke more than \(StrokeStyle.maximumDashCountPerFrame) dashes, the "
        + "limit, at layer \(name.map { "'\($0)'" } ?? "(unnamed)") (every stroke's dashes "
        + "counted, for each replicator instance and shadow)"
    case .tooMuchOffscreenWork(let name):
      return
        "the frame would composite more than \(LayerRenderer.maximumGroupPixelsPerFrame / 1_000_000) "
        + "million offscreen pixels, the limit, at layer \(name.map { "'\($0)'" } ?? "(unnamed)") "
        + "(each group for opacity, blend mode, filters, mask, replicator color or shadow counted "
        + "at its size in the frame, for each replicator instance)"
    case .tooMuchFilterWork(let name):
      return
        "the frame's filters would go over more than "
        + "\(LayerRenderer.maximumFilterPixelsPerFrame / 1_000_000) million pixels, the limit, at "
        + "layer \(name.map { "'\($0)'" } ?? "(unnamed)") (each filter over its layer's group at "
        + "its size in the frame, for each replicator instance)"
    case .offscreenUnavailable(let name, let reason):
      return
        "layer \(name.map { "'\($0)'" } ?? "(unnamed)") needs an offscreen canvas that cannot "
        + "be made: \(reason)"
    }
  }
}
