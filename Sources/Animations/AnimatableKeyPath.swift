/// A key path an animation can target, parsed from Core Animation's dotted string
/// (`"transform.rotation.z"`), with the kind of value it takes.
public enum AnimatableKeyPath: Hashable, Sendable {
  case opacity, position, positionX, positionY, bounds, boundsSize, boundsWidth, boundsHeight
  case anchorPoint, zPosition, cornerRadius, borderWidth, borderColor, backgroundColor, hidden, contents
  case transform, sublayerTransform
  /// A component of `transform` (`isSublayer` false) or `sublayerTransform`.
  case transformComponent(TransformComponent, isSublayer: Bool)
  // Shape layers only:
  case path, fillColor, strokeColor, lineWidth, lineDashPhase, strokeStart, strokeEnd, miterLimit

  /// The parts of a transform's decomposition that `transform.*` key paths animate.
  public enum TransformComponent: String, Hashable, Sendable, CaseIterable {
    /// `transform.scale`: both scale factors.
    case scale
    /// `transform.scale.x`.
    case scaleX
    /// `transform.scale.y`.
    case scaleY
    /// `transform.rotation` and `transform.rotation.z`, in radians.
    case rotation
    /// `transform.translation.x`, in points.
    case translationX
    /// `transform.translation.y`, in points.
    case translationY
  }

  /// Parses a key path string; `nil` for a key path Flipbook does not animate.
  public init?(_ string: String) {
    switch string {
    case "opacity": self = .opacity
    case "position": self = .position
    case "position.x": self = .positionX
    case "position.y": self = .positionY
    case "bounds": self = .bounds
    case "bounds.size": self = .boundsSize
    case "bounds.size.width": self = .boundsWidth
    case "bounds.size.height": self = .boundsHeight
    case "anchorPoint": self = .anchorPoint
    case "zPosition": self = .zPosition
    case "cornerRadius": self = .cornerRadius
    case "borderWidth": self = .borderWidth
    case "borderColor": self = .borderColor
    case "backgroundColor": self = .backgroundColor
    case "hidden": self = .hidden
    case "contents": self = .contents
    case "transform": self = .transform
    case "sublayerTransform": self = .sublayerTransform
    case "path": self = .path
    case "fillColor": self = .fillColor
    case "strokeColor": self = .strokeColor
    case "lineWidth": self = .lineWidth
    case "lineDashPhase": self = .lineDashPhase
    case "strokeStart": self = .strokeStart
    case "strokeEnd": self = .strokeEnd
    case "miterLimit": self = .miterLimit
    default:
      for prefix in ["transform.", "sublayerTransform."] where string.hasPrefix(prefix) {
        let rest = string.dropFirst(prefix.count)
        let component: TransformComponent
        switch rest {
        case "scale": component = .scale
        case "scale.x": component = .scaleX
        case "scale.y": component = .scaleY
        case "rotation", "rotation.z": component = .rotation
        case "translation.x": component = .translationX
        case "translation.y": component = .translationY
        default: return nil
        }
        self = .transformComponent(component, isSublayer: prefix == "sublayerTransform.")
        return
      }
      return nil
    }
  }

  /// The kind of value the key path takes.
  public var valueKind: AnimationValueKind {
    switch self {
    case .position, .anchorPoint: return .point
    case .bounds: return .rect
    case .boundsSize: return .size
    case .borderColor, .backgroundColor, .fillColor, .strokeColor: return .color
    case .hidden: return .bool
    case .contents: return .image
    case .transform, .sublayerTransform: return .transform
    case .path: return .path
    default: return .scalar
    }
  }

  /// Whether only shape layers have the property.
  public var isShapeOnly: Bool {
    switch self {
    case .path, .fillColor, .strokeColor, .lineWidth, .lineDashPhase, .strokeStart, .strokeEnd, .miterLimit: return true
    default: return false
    }
  }

  /// Every key path string Flipbook animates, for messages.
  public static let allNames = [
    "opacity", "position", "position.x", "position.y", "bounds", "bounds.size", "bounds.size.width",
    "bounds.size.height", "anchorPoint", "zPosition", "cornerRadius", "borderWidth", "borderColor",
    "backgroundColor", "hidden", "contents", "transform", "transform.scale", "transform.scale.x",
    "transform.scale.y", "transform.rotation", "transform.rotation.z", "transform.translation.x",
    "transform.translation.y", "sublayerTransform", "sublayerTransform.scale", "sublayerTransform.scale.x",
    "sublayerTransform.scale.y", "sublayerTransform.rotation", "sublayerTransform.rotation.z",
    "sublayerTransform.translation.x", "sublayerTransform.translation.y", "path", "fillColor", "strokeColor",
    "lineWidth", "lineDashPhase", "strokeStart", "strokeEnd", "miterLimit",
  ]
}
