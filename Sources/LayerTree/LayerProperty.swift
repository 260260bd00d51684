import Animations
import Geometry

/// One model property of a layer, declared once in the property table (`LayerProperty.all`):
/// Core Animation's name, the kind of value it holds, which layer types have it, whether it
/// animates, whether `flipbook inspect` prints it, the range scene files may give it, and how it
/// is read from and written to a layer.
///
/// Everything that handles properties by name is derived from the table: key-path parsing
/// (`LayerKeyPath`), presentation (applying animated values), `animateChanges`, the scene-file
/// reader's allowed keys and value decoding, and `flipbook inspect`. Adding a property is one
/// entry in `LayerProperty+Table.swift`, its stored value and Swift accessor, and its drawing
/// code.
public final class LayerProperty: Sendable, CustomStringConvertible {
  /// Core Animation's name for the property; also its key in scene files, its key path in
  /// animations and its key in `flipbook inspect`'s report (`"cornerRadius"`).
  public let name: String
  /// The kind of value the property holds.
  public let kind: PropertyKind
  /// The layer types that have the property.
  public let layerType: LayerType
  /// Whether animations can target the property (and its components, `position.x`).
  public let isAnimatable: Bool
  /// Whether `flipbook inspect` prints the property.
  public let isInspected: Bool
  /// The values a scene file may give a number (or the sizes of a rectangle, the entries of a
  /// list of numbers).
  public let range: ValueRange
  /// Reads the value from the storage of a layer of `layerType`.
  let get: @Sendable (LayerStorage) -> PropertyValue
  /// Writes a value of the property's kind to the storage of a layer of `layerType`; other kinds
  /// are ignored.
  let set: @Sendable (inout LayerStorage, PropertyValue) -> Void
  /// Replaces a component of the value in the storage of a layer of `layerType` (`position.x`),
  /// working on the typed value (no transform is boxed); a part of another kind is ignored.
  let setComponent: @Sendable (inout LayerStorage, ValueComponent, AnimationValue) -> Void

  /// The layer types a property belongs to; the raw value is the type's name in scene files.
  public enum LayerType: String, Hashable, Sendable, CaseIterable {
    /// Every layer (`CALayer`).
    case layer
    /// Shape layers (`CAShapeLayer`).
    case shape
    /// Text layers (`CATextLayer`).
    case text
    /// Gradient layers (`CAGradientLayer`).
    case gradient
    /// Replicator layers (`CAReplicatorLayer`).
    case replicator
    /// Transform layers (`CATransformLayer`): `"type": "transform"` in scene files.
    case transform

    /// Whether `layer` is of this type.
    public func includes(_ layer: Layer) -> Bool {
      switch self {
      case .layer: return true
      case .shape: return layer is ShapeLayer
      case .text: return layer is TextLayer
      case .gradient: return layer is GradientLayer
      case .replicator: return layer is ReplicatorLayer
      case .transform: return layer is TransformLayer
      }
    }

    /// Whether a layer whose storage is `storage` is of this type (no dynamic cast).
    func includes(_ storage: LayerStorage) -> Bool {
      // Case tests only: no payload is copied.
      switch self {
      case .layer: return true
      case .shape: if case .shape = storage.typed { return true }
      case .text: if case .text = storage.typed { return true }
      case .gradient: if case .gradient = storage.typed { return true }
      case .replicator: if case .replicator = storage.typed { return true }
      case .transform: if case .transform = storage.typed { return true }
      }
      return false
    }

    /// A new layer of this type, with Core Animation's defaults.
    public func makeLayer() -> Layer {
      switch self {
      case .layer: return Layer()
      case .shape: return ShapeLayer()
      case .text: return TextLayer()
      case .gradient: return GradientLayer()
      case .replicator: return ReplicatorLayer()
      case .transform: return TransformLayer()
      }
    }
  }

  /// The values a scene file may give a property.
  public enum ValueRange: Hashable, Sendable {
    /// Any finite number.
    case any
    /// 0 or more (widths, radii; a rectangle's width and height are never negative).
    case nonNegative
    /// From 0 to the bound, inclusive: values past it cannot be drawn as given (a text
    /// layer's `fontSize`, at most `TextLayer.maximumFontSize`).
    case nonNegativeAtMost(Double)
    /// More than 0.
    case positive
    /// 0...1 (a gradient's locations).
    case unit
    /// A number a 32-bit `Float` holds: at most `Float.greatestFiniteMagnitude` (about 3.4e38)
    /// in magnitude, and a nonzero one not so small that it becomes 0 (below about 1.4e-45).
    /// For what Core Animation stores as `Float` (a layer's `speed`): past these it would be
    /// infinite or 0, another value than the one written.
    case float
  }

  /// The value of the property on `layer`, or `nil` when the layer's type does not have it.
  public func value(of layer: Layer) -> PropertyValue? {
    layerType.includes(layer) ? get(layer.storage) : nil
  }

  /// Sets the property on `layer`; a value of another kind, or a layer whose type does not have
  /// the property, is left alone.
  public func setValue(_ value: PropertyValue, of layer: Layer) {
    if layerType.includes(layer) { set(&layer.storage, value) }
  }

  /// The animatable value of the property on `layer`: `nil` for a property that does not
  /// animate or that the layer's type does not have.
  func animationValue(of layer: Layer) -> AnimationValue? {
    animationValue(in: layer.storage)
  }

  /// The animatable value of the property in a layer's storage: `nil` for a property that does
  /// not animate or that the layer's type does not have.
  func animationValue(in storage: LayerStorage) -> AnimationValue? {
    guard isAnimatable, layerType.includes(storage), case .value(let v) = get(storage) else {
      return nil
    }
    return v
  }

  /// Sets the property in a layer's storage; a value of another kind, or a layer type that does
  /// not have the property, is left alone.
  func setValue(_ value: PropertyValue, in storage: inout LayerStorage) {
    if layerType.includes(storage) { set(&storage, value) }
  }

  /// Replaces `component` of the property's value in a layer's storage with `part`; a part of
  /// another kind, or a layer type that does not have the property, is left alone.
  func setComponent(
    _ component: ValueComponent, to part: AnimationValue, in storage: inout LayerStorage
  ) {
    if layerType.includes(storage) { setComponent(&storage, component, part) }
  }

  /// The value a new layer of `layerType` has (Core Animation's default).
  public var defaultValue: PropertyValue { self.get(layerType.makeLayer().storage) }

  /// The property's name.
  public var description: String { name }

  init(
    _ name: String, _ kind: PropertyKind, of layerType: LayerType = .layer, animatable: Bool,
    inspected: Bool? = nil, range: ValueRange = .any,
    get: @escaping @Sendable (LayerStorage) -> PropertyValue,
    set: @escaping @Sendable (inout LayerStorage, PropertyValue) -> Void,
    setComponent: @escaping @Sendable (inout LayerStorage, ValueComponent, AnimationValue) -> Void =
      { _, _, _ in }
  ) {
    (self.name, self.kind, self.layerType, self.isAnimatable) = (name, kind, layerType, animatable)
    (self.isInspected, self.range, self.get, self.set) = (inspected ?? animatable, range, get, set)
    self.setComponent = setComponent
  }
}

/// The kinds of value layer properties hold.
public enum PropertyKind: Hashable, Sendable {
  /// A value animations interpolate or switch: a number, point, size, rectangle, color,
  /// transform, path, image, flag, or list of colors or numbers.
  case value(AnimationValueKind)
  /// One of a fixed set of names (`lineCap`: `"butt"`, `"round"`, `"square"`).
  case choice([String])
  /// A string, or none (`name`).
  case text
}

/// A value of a layer property, in the form its `PropertyKind` says.
public enum PropertyValue: Hashable, Sendable {
  /// A value of kind `.value`.
  case value(AnimationValue)
  /// A value of kind `.choice`: one of its names.
  case choice(String)
  /// A value of kind `.text`.
  case text(String?)
}
