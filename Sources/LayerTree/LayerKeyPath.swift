import Animations
import Geometry

/// A key path an animation can target, parsed from Core Animation's dotted string: an animatable
/// property of the table (`LayerProperty`), optionally followed by a component of its value
/// (`"position.x"`, `"bounds.size.width"`, `"transform.rotation.z"`).
///
/// The components come from the property's kind, so every property of a kind has them: points
/// have `x` and `y`; sizes `width` and `height`; rectangles `origin`, `origin.x`, `origin.y`,
/// `size`, `size.width`, `size.height`; transforms `scale`, `scale.x`, `scale.y`, `scale.z`,
/// `rotation.x`, `rotation.y`, `rotation` (also `rotation.z`), `translation.x`, `translation.y`
/// and `translation.z`, which act on the transform's decomposition (docs/timing.md,
/// `TransformDecomposition`).
public struct LayerKeyPath: Hashable, Sendable, CustomStringConvertible {
  /// The property's position in `LayerProperty.all`.
  let propertyIndex: Int
  /// The component of the property's value, or `nil` for the whole value.
  public let component: ValueComponent?

  /// The property the key path animates.
  public var property: LayerProperty { LayerProperty.all[propertyIndex] }

  /// Parses a key path string; `nil` for a key path Flipbook does not animate.
  public init?(_ string: String) {
    let head = string.prefix { $0 != "." }
    guard let index = LayerProperty.indexByName[String(head)],
      LayerProperty.all[index].isAnimatable,
      case .value(let kind) = LayerProperty.all[index].kind
    else { return nil }
    propertyIndex = index
    if head.count == string.count {
      component = nil
    } else {
      guard let c = ValueComponent(name: String(string.dropFirst(head.count + 1)), of: kind) else {
        return nil
      }
      component = c
    }
  }

  /// The key path of a whole property.
  public init?(_ property: LayerProperty) {
    self.init(property.name)
  }

  /// The key path as an integer, for the prepared animations that carry it
  /// (`PreparedAnimation`'s target).
  var target: Int {
    propertyIndex * 64 + (component.map { ValueComponent.ordered.firstIndex(of: $0)! + 1 } ?? 0)
  }

  /// The key path an integer from `target` stands for.
  init(target: Int) {
    propertyIndex = target / 64
    component = target % 64 == 0 ? nil : ValueComponent.ordered[target % 64 - 1]
  }

  /// The key path as Core Animation spells it (`"transform.rotation.z"`).
  public var name: String {
    component.map { property.name + "." + $0.rawValue } ?? property.name
  }

  /// The key path's name.
  public var description: String { name }

  /// The kind of value the key path takes.
  public var valueKind: AnimationValueKind {
    if let component { return component.valueKind }
    guard case .value(let kind) = property.kind else {
      preconditionFailure("\(name) does not animate")
    }
    return kind
  }

  /// Every key path Flipbook animates, for messages: each animatable property, then its
  /// components.
  public static let allNames: [String] = LayerProperty.all.flatMap { property -> [String] in
    guard property.isAnimatable, case .value(let kind) = property.kind else { return [] }
    return [property.name] + ValueComponent.names(of: kind).map { property.name + "." + $0 }
  }

  /// The value on `layer`; `nil` when the layer's type does not have the property.
  func value(of layer: Layer) -> AnimationValue? {
    value(in: layer.storage)
  }

  /// The value in a layer's storage; `nil` when the layer's type does not have the property.
  package func value(in storage: LayerStorage) -> AnimationValue? {
    guard let whole = property.animationValue(in: storage) else { return nil }
    return component.map { $0.value(in: whole) } ?? whole
  }

  /// Sets the value on `layer`; a value of another kind, or a layer whose type does not have the
  /// property, is left alone. A component replaces that part of the property's value.
  func setValue(_ value: AnimationValue, of layer: Layer) {
    setValue(value, in: &layer.storage)
  }

  /// Sets the value in a layer's storage (see `setValue(_:of:)`).
  func setValue(_ value: AnimationValue, in storage: inout LayerStorage) {
    guard let component else {
      property.setValue(.value(value), in: &storage)
      return
    }
    property.setComponent(component, to: value, in: &storage)
  }
}

extension Layer {
  /// The model value at a key path (Core Animation's `value(forKeyPath:)`): `nil` for a key path
  /// Flipbook does not animate, or a property this layer's type does not have.
  public func value(forKeyPath keyPath: String) -> AnimationValue? {
    LayerKeyPath(keyPath)?.value(of: self)
  }

  /// Sets the model value at a key path (Core Animation's `setValue(_:forKeyPath:)`); a value of
  /// another kind, an unknown key path or a property this layer's type does not have changes
  /// nothing.
  public func setValue(_ value: AnimationValue, forKeyPath keyPath: String) {
    LayerKeyPath(keyPath)?.setValue(value, of: self)
  }
}
