import Geometry

/// The 3D properties every layer has and most leave at their defaults (see `Layer`'s accessors
/// for what each means): part of `LayerProperties`, behind a shared reference (`SharedValue`), so
/// that a plain layer's storage does not carry a second 4 x 4 transform.
package struct LayerDepth: Hashable, Sendable {
  /// The transform applied to each sublayer, about the layer's anchor point (default identity).
  var sublayerTransform: Transform3D = .identity
  /// The anchor point's z, in points (default 0).
  var anchorPointZ: Double = 0
  /// Whether the layer shows seen from behind (default true).
  var isDoubleSided: Bool = true
  /// In a presentation copy: the key path of the first animation whose value at the copy's
  /// time is not finite (values built in Swift whose interpolation overflows, such as -1e308
  /// to 1e308), left unapplied; `nil` in a model. Kept here, behind the shared reference, so
  /// that a plain layer's storage stays small for a case that is rare.
  var nonFiniteAnimation: String? = nil
  /// In a presentation copy: whether the layer's time at the copy's instant is not finite
  /// (speeds, begin times and offsets along its superlayers multiplied past the largest
  /// `Double`) while it has animations, which then cannot be evaluated; `false` in a model.
  var timeNotFinite = false
  /// In a presentation copy whose time is not finite (`timeNotFinite`): the replicator whose
  /// delayed instance made it so, if one did; `nil` in a model.
  var instanceTimeOverflow: InstanceTimeOverflow? = nil
  /// In a presentation copy: the key path of the first animation whose own time at the copy's
  /// instant is not finite (its and its groups' `beginTime`, `speed` and `timeOffset` together
  /// overflow while that decides what shows), left unapplied; `nil` in a model.
  var animationTimeNotFinite: String? = nil

  /// The defaults, in the one reference every layer without 3D extras shares.
  static let defaults = SharedValue(LayerDepth())
}

/// A replicator's delayed instance whose time overflows: the instance is `instance ×
/// instanceDelay` seconds earlier than the replicator's time, past the largest `Double` (10,000
/// instances of a delay of 1e305), so the animated layers in it have no finite time.
package struct InstanceTimeOverflow: Hashable, Sendable {
  /// The replicator's name, if any.
  package var name: String?
  /// Where the replicator was read from (its JSON path in a scene file), if known.
  package var place: String?
  /// The first instance whose time overflows.
  package var instance: Int
  /// The replicator's `instanceDelay`, in seconds.
  package var instanceDelay: Double
}
