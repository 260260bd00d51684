import Animations
import Geometry

extension AnimatableKeyPath {
  /// Every whole property (no `transform.*` components), for comparing layers property by
  /// property.
  public static let properties: [AnimatableKeyPath] = [
    .opacity, .position, .bounds, .anchorPoint, .zPosition, .cornerRadius, .borderWidth, .borderColor,
    .backgroundColor, .hidden, .contents, .transform, .sublayerTransform, .path, .fillColor, .strokeColor,
    .lineWidth, .lineDashPhase, .strokeStart, .strokeEnd, .miterLimit,
  ]
}

extension Layer {
  /// The layer's value for `keyPath`; `nil` for a shape-layer property of a plain layer.
  public func value(for keyPath: AnimatableKeyPath) -> AnimationValue? {
    switch keyPath {
    case .opacity: return .scalar(opacity)
    case .position: return .point(position)
    case .positionX: return .scalar(position.x)
    case .positionY: return .scalar(position.y)
    case .bounds: return .rect(bounds)
    case .boundsSize: return .size(bounds.size)
    case .boundsWidth: return .scalar(bounds.size.width)
    case .boundsHeight: return .scalar(bounds.size.height)
    case .anchorPoint: return .point(anchorPoint)
    case .zPosition: return .scalar(zPosition)
    case .cornerRadius: return .scalar(cornerRadius)
    case .borderWidth: return .scalar(borderWidth)
    case .borderColor: return .color(borderColor)
    case .backgroundColor: return .color(backgroundColor)
    case .hidden: return .bool(isHidden)
    case .contents: return .image(contents)
    case .transform: return .transform(transform)
    case .sublayerTransform: return .transform(sublayerTransform)
    case .transformComponent(let component, let isSublayer):
      return .scalar(TransformDecomposition(isSublayer ? sublayerTransform : transform)[component])
    default:
      guard let shape = self as? ShapeLayer else { return nil }
      switch keyPath {
      case .path: return .path(shape.path)
      case .fillColor: return .color(shape.fillColor)
      case .strokeColor: return .color(shape.strokeColor)
      case .lineWidth: return .scalar(shape.lineWidth)
      case .lineDashPhase: return .scalar(shape.lineDashPhase)
      case .strokeStart: return .scalar(shape.strokeStart)
      case .strokeEnd: return .scalar(shape.strokeEnd)
      case .miterLimit: return .scalar(shape.miterLimit)
      default: return nil
      }
    }
  }

  /// Sets the layer's value for `keyPath`; a value of another kind, or a shape-layer property
  /// of a plain layer, is ignored. A `transform.*` component replaces that part of the
  /// transform's decomposition and composes the transform again.
  public func setValue(_ value: AnimationValue, for keyPath: AnimatableKeyPath) {
    switch (keyPath, value) {
    case (.opacity, .scalar(let x)): opacity = x
    case (.position, .point(let p)): position = p
    case (.positionX, .scalar(let x)): position.x = x
    case (.positionY, .scalar(let y)): position.y = y
    case (.bounds, .rect(let r)): bounds = r
    case (.boundsSize, .size(let s)): bounds.size = s
    case (.boundsWidth, .scalar(let w)): bounds.size.width = w
    case (.boundsHeight, .scalar(let h)): bounds.size.height = h
    case (.anchorPoint, .point(let p)): anchorPoint = p
    case (.zPosition, .scalar(let z)): zPosition = z
    case (.cornerRadius, .scalar(let r)): cornerRadius = r
    case (.borderWidth, .scalar(let w)): borderWidth = w
    case (.borderColor, .color(let c)): borderColor = c
    case (.backgroundColor, .color(let c)): backgroundColor = c
    case (.hidden, .bool(let b)): isHidden = b
    case (.contents, .image(let i)): contents = i
    case (.transform, .transform(let t)): transform = t
    case (.sublayerTransform, .transform(let t)): sublayerTransform = t
    case (.transformComponent(let component, let isSublayer), .scalar(let x)):
      var parts = TransformDecomposition(isSublayer ? sublayerTransform : transform)
      parts[component] = x
      if isSublayer { sublayerTransform = parts.transform } else { transform = parts.transform }
    default:
      guard let shape = self as? ShapeLayer else { return }
      switch (keyPath, value) {
      case (.path, .path(let p)): shape.path = p
      case (.fillColor, .color(let c)): shape.fillColor = c
      case (.strokeColor, .color(let c)): shape.strokeColor = c
      case (.lineWidth, .scalar(let x)): shape.lineWidth = x
      case (.lineDashPhase, .scalar(let x)): shape.lineDashPhase = x
      case (.strokeStart, .scalar(let x)): shape.strokeStart = x
      case (.strokeEnd, .scalar(let x)): shape.strokeEnd = x
      case (.miterLimit, .scalar(let x)): shape.miterLimit = x
      default: return
      }
    }
  }
}

extension TransformDecomposition {
  /// The part a `transform.*` key path animates; reading `.scale` gives the mean of the two
  /// scale factors, writing it sets both.
  public subscript(component: AnimatableKeyPath.TransformComponent) -> Double {
    get {
      switch component {
      case .scale: return (scaleX + scaleY) / 2
      case .scaleX: return scaleX
      case .scaleY: return scaleY
      case .rotation: return rotation
      case .translationX: return translationX
      case .translationY: return translationY
      }
    }
    set {
      switch component {
      case .scale: (scaleX, scaleY) = (newValue, newValue)
      case .scaleX: scaleX = newValue
      case .scaleY: scaleY = newValue
      case .rotation: rotation = newValue
      case .translationX: translationX = newValue
      case .translationY: translationY = newValue
      }
    }
  }
}
