/// A value kept behind one shared, immutable reference: copying it is one retain however large
/// the value is, and changing it puts the changed value in a new reference (copy on write by
/// replacement), so copies never see each other's changes.
///
/// For groups of layer properties that most layers leave at their defaults and that nothing
/// changes per frame (shadows, contents rectangles, filters, the 3D extras): `LayerStorage` keeps
/// them in one of these so that a plain layer's storage, which presentation copies once per layer
/// per frame, stays small. Every layer with the defaults shares one reference (`defaults`).
/// Equality and hashing are the value's.
package struct SharedValue<Value: Hashable & Sendable>: Hashable, Sendable {
  /// The immutable holder the copies share.
  private final class Box: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  private var box: Box

  /// Holds `value` in a new reference.
  package init(_ value: Value) { box = Box(value) }

  /// The value; setting it replaces the reference this copy holds.
  package var value: Value {
    get { box.value }
    set { box = Box(newValue) }
  }

  /// Whether two copies hold equal values (the same reference, or equal values in two).
  package static func == (a: SharedValue, b: SharedValue) -> Bool {
    a.box === b.box || a.box.value == b.box.value
  }

  /// Hashes the value.
  package func hash(into hasher: inout Hasher) { hasher.combine(box.value) }
}
