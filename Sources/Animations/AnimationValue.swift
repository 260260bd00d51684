import Geometry

/// A value an animation moves a property through: the `fromValue`, `toValue`, `byValue` and
/// `values` of Core Animation, typed.
///
/// Numbers and booleans can be written as literals: `scale.fromValue = 0`, `opacity.values =
/// [1, 0.7, 0]`.
public enum AnimationValue: Hashable, Sendable {
  /// A number (opacity, `position.x`, `transform.rotation.z`, ...).
  case scalar(Double)
  /// A point (`position`, `anchorPoint`).
  case point(Point)
  /// A size (`bounds.size`).
  case size(Size)
  /// A rectangle (`bounds`).
  case rect(Rect)
  /// A color, or none (`backgroundColor`, `borderColor`, `fillColor`, `strokeColor`).
  case color(Color?)
  /// A transform (`transform`, `sublayerTransform`). Boxed, so that every other value stays
  /// small to copy.
  indirect case transform(Transform3D)
  /// A path, or none (`path`).
  indirect case path(Path?)
  /// An image, or none (`contents`); changes discretely.
  indirect case image(Image?)
  /// A flag (`hidden`); changes discretely.
  case bool(Bool)
  /// A list of colors, or none (a gradient's `colors`); lists of the same length interpolate
  /// element by element, others switch halfway.
  indirect case colors([Color]?)
  /// A list of numbers, or none (a gradient's `locations`); lists of the same length interpolate
  /// element by element, others switch halfway.
  indirect case numbers([Double]?)
  /// A list of layer filters (`filters`); lists with the same filters in the same order
  /// interpolate parameter by parameter, others switch halfway.
  indirect case filters([LayerFilter])
  /// A string, or none (a text layer's `string`, animatable as a Flipbook extension); changes
  /// discretely.
  indirect case text(String?)

  /// A point value from its coordinates.
  public static func point(_ x: Double, _ y: Double) -> AnimationValue { .point(Point(x: x, y: y)) }

  /// The value's kind, for checking it against a key path.
  public var kind: AnimationValueKind {
    switch self {
    case .scalar: return .scalar
    case .point: return .point
    case .size: return .size
    case .rect: return .rect
    case .color: return .color
    case .transform: return .transform
    case .path: return .path
    case .image: return .image
    case .bool: return .bool
    case .colors: return .colors
    case .numbers: return .numbers
    case .filters: return .filters
    case .text: return .text
    }
  }
}

/// The kinds of value key paths take.
public enum AnimationValueKind: String, Hashable, Sendable {
  case scalar, point, size, rect, color, transform, path, image, bool, colors, numbers, filters,
    text

  /// Whether values of this kind change discretely rather than interpolate.
  public var isDiscrete: Bool { self == .image || self == .bool || self == .text }
}

extension AnimationValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral
{
  /// A scalar from a decimal literal.
  public init(floatLiteral value: Double) { self = .scalar(value) }
  /// A scalar from an integer literal.
  public init(integerLiteral value: Int) { self = .scalar(Double(value)) }
  /// A flag from `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}
