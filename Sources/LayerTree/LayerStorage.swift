/// Every model property of a layer, those every layer has and those of its type, as one value:
/// what the property table (`LayerProperty`) reads and writes, what a copy of a layer copies, and
/// what presentation animates in place (one value per layer, so applying an animation's samples
/// touches the layer object once, not once per sample).
package struct LayerStorage: Hashable, Sendable {
  /// The properties every layer has.
  package var properties = LayerProperties()
  /// The properties of the layer's type.
  package var typed: TypedProperties = .layer

  /// The properties that only one layer type has, by type: boxed, so that a plain layer's
  /// storage (the common case, which presentation copies once per layer) stays small and a typed
  /// layer's copy is one retain.
  package enum TypedProperties: Hashable, Sendable {
    /// A plain layer: no properties of its own.
    case layer
    /// A shape layer's.
    indirect case shape(ShapeProperties)
    /// A text layer's.
    indirect case text(TextProperties)
    /// A gradient layer's.
    indirect case gradient(GradientProperties)
    /// A replicator layer's.
    indirect case replicator(ReplicatorProperties)
    /// A transform layer: no properties of its own.
    case transform
  }

  /// Creates the storage of a layer with Core Animation's defaults.
  package init(_ typed: TypedProperties = .layer) { self.typed = typed }

  /// A shape layer's properties (defaults for another type; setting them on another type is a
  /// programming error).
  package var shape: ShapeProperties {
    get {
      if case .shape(let s) = typed { return s }
      return ShapeProperties()
    }
    set {
      guard case .shape = typed else { preconditionFailure("not a shape layer") }
      typed = .shape(newValue)
    }
  }

  /// A text layer's properties (defaults for another type; setting them on another type is a
  /// programming error).
  package var text: TextProperties {
    get {
      if case .text(let t) = typed { return t }
      return TextProperties()
    }
    set {
      guard case .text = typed else { preconditionFailure("not a text layer") }
      typed = .text(newValue)
    }
  }

  /// A gradient layer's properties (defaults for another type; setting them on another type is a
  /// programming error).
  package var gradient: GradientProperties {
    get {
      if case .gradient(let g) = typed { return g }
      return GradientProperties()
    }
    set {
      guard case .gradient = typed else { preconditionFailure("not a gradient layer") }
      typed = .gradient(newValue)
    }
  }

  /// A replicator layer's properties (defaults for another type; setting them on another type is
  /// a programming error).
  package var replicator: ReplicatorProperties {
    get {
      if case .replicator(let r) = typed { return r }
      return ReplicatorProperties()
    }
    set {
      guard case .replicator = typed else { preconditionFailure("not a replicator layer") }
      typed = .replicator(newValue)
    }
  }
}
