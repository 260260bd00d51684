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
    if keyPath.isShapeOnly {
      return (self as? ShapeLayer)?.shapeProperties.value(for: keyPath)
    }
    return properties.value(for: keyPath)
  }

  /// Sets the layer's value for `keyPath`; a value of another kind, or a shape-layer property
  /// of a plain layer, is ignored. A `transform.*` component replaces that part of the
  /// transform's decomposition and composes the transform again.
  public func setValue(_ value: AnimationValue, for keyPath: AnimatableKeyPath) {
    if keyPath.isShapeOnly {
      (self as? ShapeLayer)?.shapeProperties.setValue(value, for: keyPath)
    } else {
      properties.setValue(value, for: keyPath)
    }
  }
}

extension LayerProperties {
  /// The value for a key path that every layer has; `nil` for shape-layer key paths.
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
    default: return nil
    }
  }

  /// Sets the value for a key path every layer has; values of another kind are ignored.
  public mutating func setValue(_ value: AnimationValue, for keyPath: AnimatableKeyPath) {
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
      if isSublayer {
        sublayerTransform = sublayerTransform.replacing(component, with: x)
      } else {
        transform = transform.replacing(component, with: x)
      }
    default: return
    }
  }
}

extension ShapeProperties {
  /// The value for a shape-layer key path; `nil` for the others.
  public func value(for keyPath: AnimatableKeyPath) -> AnimationValue? {
    switch keyPath {
    case .path: return .path(path)
    case .fillColor: return .color(fillColor)
    case .strokeColor: return .color(strokeColor)
    case .lineWidth: return .scalar(lineWidth)
    case .lineDashPhase: return .scalar(lineDashPhase)
    case .strokeStart: return .scalar(strokeStart)
    case .strokeEnd: return .scalar(strokeEnd)
    case .miterLimit: return .scalar(miterLimit)
    default: return nil
    }
  }

  /// Sets the value for a shape-layer key path; values of another kind are ignored.
  public mutating func setValue(_ value: AnimationValue, for keyPath: AnimatableKeyPath) {
    switch (keyPath, value) {
    case (.path, .path(let p)): path = p
    case (.fillColor, .color(let c)): fillColor = c
    case (.strokeColor, .color(let c)): strokeColor = c
    case (.lineWidth, .scalar(let x)): lineWidth = x
    case (.lineDashPhase, .scalar(let x)): lineDashPhase = x
    case (.strokeStart, .scalar(let x)): strokeStart = x
    case (.strokeEnd, .scalar(let x)): strokeEnd = x
    case (.miterLimit, .scalar(let x)): miterLimit = x
    default: return
    }
  }
}

extension Transform3D {
  /// The transform with one part of its decomposition replaced. On an identity transform (the
  /// common case) no trigonometry is needed.
  func replacing(_ component: AnimatableKeyPath.TransformComponent, with x: Double) -> Transform3D {
    if isIdentity {
      switch component {
      case .scale: return .scale(x: x, y: x)
      case .scaleX: return .scale(x: x, y: 1)
      case .scaleY: return .scale(x: 1, y: x)
      case .rotation: return .rotation(x)
      case .translationX: return .translation(x: x, y: 0)
      case .translationY: return .translation(x: 0, y: x)
      }
    }
    var parts = TransformDecomposition(self)
    parts[component] = x
    return parts.transform
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
