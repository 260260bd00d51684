import Animations
import Geometry

/// A part of a property's value that a key path can name after the property: `x` of a point,
/// `size.width` of a rectangle, `rotation.z` of a transform.
///
/// Transform components act on the transform's decomposition (`TransformDecomposition`): reading
/// `scale` gives the mean of the two scale factors, writing it sets both; writing a component
/// composes the transform again from its parts.
public enum ValueComponent: String, Hashable, Sendable, CaseIterable {
  /// A point's x.
  case x
  /// A point's y.
  case y
  /// A size's width.
  case width
  /// A size's height.
  case height
  /// A rectangle's origin (a point).
  case origin
  /// A rectangle's origin x.
  case originX = "origin.x"
  /// A rectangle's origin y.
  case originY = "origin.y"
  /// A rectangle's size.
  case size
  /// A rectangle's width.
  case sizeWidth = "size.width"
  /// A rectangle's height.
  case sizeHeight = "size.height"
  /// A transform's scale, both factors.
  case scale
  /// A transform's x scale factor.
  case scaleX = "scale.x"
  /// A transform's y scale factor.
  case scaleY = "scale.y"
  /// A transform's z scale factor.
  case scaleZ = "scale.z"
  /// A transform's rotation about x, in radians (applied before those about y and z).
  case rotationX = "rotation.x"
  /// A transform's rotation about y, in radians (applied before the one about z).
  case rotationY = "rotation.y"
  /// A transform's rotation about z, in radians (also spelled `rotation`).
  case rotation = "rotation.z"
  /// A transform's x translation, in points.
  case translationX = "translation.x"
  /// A transform's y translation, in points.
  case translationY = "translation.y"
  /// A transform's z translation, in points.
  case translationZ = "translation.z"

  /// Every component in declaration order, computed once (`allCases` builds a new array on each
  /// use, and presentation looks components up per animation sample).
  static let ordered = allCases

  /// The kind of value the component belongs to.
  public var parentKind: AnimationValueKind {
    switch self {
    case .x, .y: return .point
    case .width, .height: return .size
    case .origin, .originX, .originY, .size, .sizeWidth, .sizeHeight: return .rect
    case .scale, .scaleX, .scaleY, .scaleZ, .rotationX, .rotationY, .rotation, .translationX,
      .translationY, .translationZ:
      return .transform
    }
  }

  /// The kind of value the component holds.
  public var valueKind: AnimationValueKind {
    switch self {
    case .origin: return .point
    case .size: return .size
    default: return .scalar
    }
  }

  /// The component called `name` of a value of `kind` (`"rotation"` is `"rotation.z"`).
  init?(name: String, of kind: AnimationValueKind) {
    guard let c = ValueComponent(rawValue: name == "rotation" ? "rotation.z" : name),
      c.parentKind == kind
    else { return nil }
    self = c
  }

  /// The names of the components of a value of `kind`, in declaration order.
  static func names(of kind: AnimationValueKind) -> [String] {
    allCases.filter { $0.parentKind == kind }.flatMap {
      $0 == .rotation ? ["rotation", $0.rawValue] : [$0.rawValue]
    }
  }

  /// The component's value in `whole`.
  func value(in whole: AnimationValue) -> AnimationValue? {
    switch (self, whole) {
    case (.x, .point(let p)): return .scalar(p.x)
    case (.y, .point(let p)): return .scalar(p.y)
    case (.width, .size(let s)): return .scalar(s.width)
    case (.height, .size(let s)): return .scalar(s.height)
    case (.origin, .rect(let r)): return .point(r.origin)
    case (.originX, .rect(let r)): return .scalar(r.origin.x)
    case (.originY, .rect(let r)): return .scalar(r.origin.y)
    case (.size, .rect(let r)): return .size(r.size)
    case (.sizeWidth, .rect(let r)): return .scalar(r.size.width)
    case (.sizeHeight, .rect(let r)): return .scalar(r.size.height)
    case (_, .transform(let t)): return .scalar(TransformDecomposition(t)[self])
    default: return nil
    }
  }

  /// `whole` with the component replaced by `part`; `nil` when either is of the wrong kind.
  func replacing(in whole: AnimationValue, with part: AnimationValue) -> AnimationValue? {
    switch whole {
    case .point(let p): return replacing(in: p, with: part).map { .point($0) }
    case .size(let s): return replacing(in: s, with: part).map { .size($0) }
    case .rect(let r): return replacing(in: r, with: part).map { .rect($0) }
    case .transform(let t): return replacing(in: t, with: part).map { .transform($0) }
    default: return nil
    }
  }

  /// `p` with the component replaced by `part`; `nil` when either is of the wrong kind.
  func replacing(in p: Point, with part: AnimationValue) -> Point? {
    var p = p
    switch (self, part) {
    case (.x, .scalar(let v)): p.x = v
    case (.y, .scalar(let v)): p.y = v
    default: return nil
    }
    return p
  }

  /// `s` with the component replaced by `part`; `nil` when either is of the wrong kind.
  func replacing(in s: Size, with part: AnimationValue) -> Size? {
    var s = s
    switch (self, part) {
    case (.width, .scalar(let v)): s.width = v
    case (.height, .scalar(let v)): s.height = v
    default: return nil
    }
    return s
  }

  /// `r` with the component replaced by `part`; `nil` when either is of the wrong kind.
  func replacing(in r: Rect, with part: AnimationValue) -> Rect? {
    var r = r
    switch (self, part) {
    case (.origin, .point(let p)): r.origin = p
    case (.originX, .scalar(let v)): r.origin.x = v
    case (.originY, .scalar(let v)): r.origin.y = v
    case (.size, .size(let s)): r.size = s
    case (.sizeWidth, .scalar(let v)): r.size.width = v
    case (.sizeHeight, .scalar(let v)): r.size.height = v
    default: return nil
    }
    return r
  }

  /// `t` with the component replaced by `part`; `nil` when either is of the wrong kind.
  func replacing(in t: Transform3D, with part: AnimationValue) -> Transform3D? {
    guard parentKind == .transform, case .scalar(let v) = part else { return nil }
    return t.replacing(self, with: v)
  }
}

extension Transform3D {
  /// The transform with one part of its decomposition replaced. On an identity transform (the
  /// common case) no trigonometry is needed.
  func replacing(_ component: ValueComponent, with x: Double) -> Transform3D {
    if isIdentity {
      switch component {
      case .scale: return .scale(x: x, y: x)
      case .scaleX: return .scale(x: x, y: 1)
      case .scaleY: return .scale(x: 1, y: x)
      case .scaleZ: return .scale(x: 1, y: 1, z: x)
      case .rotationX: return .rotation(x, x: 1, y: 0, z: 0)
      case .rotationY: return .rotation(x, x: 0, y: 1, z: 0)
      case .rotation: return .rotation(x)
      case .translationX: return .translation(x: x, y: 0)
      case .translationY: return .translation(x: 0, y: x)
      case .translationZ: return .translation(x: 0, y: 0, z: x)
      default: return self
      }
    }
    var parts = TransformDecomposition(self)
    parts[component] = x
    return parts.transform
  }
}

extension TransformDecomposition {
  /// The part a `transform.*` key path animates; reading `.scale` gives the mean of the x and y
  /// scale factors, writing it sets both (z is left alone, so a flat layer's transform stays
  /// flat). Components of other kinds read 0 and write nothing.
  subscript(component: ValueComponent) -> Double {
    get {
      switch component {
      case .scale: return (scaleX + scaleY) / 2
      case .scaleX: return scaleX
      case .scaleY: return scaleY
      case .scaleZ: return scaleZ
      case .rotationX: return rotationX
      case .rotationY: return rotationY
      case .translationZ: return translationZ
      case .rotation: return rotation
      case .translationX: return translationX
      case .translationY: return translationY
      default: return 0
      }
    }
    set {
      switch component {
      case .scale: (scaleX, scaleY) = (newValue, newValue)
      case .scaleX: scaleX = newValue
      case .scaleY: scaleY = newValue
      case .scaleZ: scaleZ = newValue
      case .rotationX: rotationX = newValue
      case .rotationY: rotationY = newValue
      case .translationZ: translationZ = newValue
      case .rotation: rotation = newValue
      case .translationX: translationX = newValue
      case .translationY: translationY = newValue
      default: break
      }
    }
  }
}
