import Geometry

extension Layer {
  /// The anchor point in the layer's own coordinates:
  /// `(bounds.minX + anchorPoint.x * width, bounds.minY + anchorPoint.y * height)`.
  public var anchorPointInBounds: Point { storage.properties.anchorPointInBounds }

  /// The transform from the layer's coordinates to its superlayer's (before the superlayer's
  /// `sublayerTransform`): `Tr(-anchor) · transform · Tr(position)`, row-vector order, where the
  /// anchor's z is `anchorPointZ` and the position's z is `zPosition`.
  public var transformToSuperlayer: Transform3D { storage.properties.transformToSuperlayer }

  /// `sublayerTransform` taken about the anchor point: `Tr(-anchor) · sublayerTransform ·
  /// Tr(anchor)`, what maps each sublayer's placement into this layer's coordinates.
  public var sublayerTransformAboutAnchor: Transform3D {
    storage.properties.sublayerTransformAboutAnchor
  }

  /// The layer's rectangle in its superlayer's coordinates, as Core Animation derives it: with
  /// an identity transform `position - anchorPoint * size` and the bounds size; otherwise the
  /// axis-aligned box around the four transformed corners of the bounds.
  ///
  /// Setting it sets `bounds.size` to the frame's size and moves `position` so the anchor point
  /// lands at the same relative place in the frame; the bounds origin is kept.
  public var frame: Rect {
    get {
      if transform.isIdentity {
        return Rect(
          x: position.x - anchorPoint.x * bounds.size.width,
          y: position.y - anchorPoint.y * bounds.size.height,
          width: bounds.size.width, height: bounds.size.height)
      }
      let m = transformToSuperlayer
      let affine = AffineTransform(a: m.m11, b: m.m12, c: m.m21, d: m.m22, tx: m.m41, ty: m.m42)
      return bounds.applying(affine)
    }
    set {
      let f = newValue.standardized
      bounds.size = f.size
      position = Point(x: f.minX + anchorPoint.x * f.width, y: f.minY + anchorPoint.y * f.height)
    }
  }
}

// The same on the properties as one value: what `Layer`'s geometry reads (one access of the layer
// object instead of one per property) and what the renderer reads from its per-layer snapshot.
extension LayerProperties {
  /// `Layer.anchorPointInBounds`.
  package var anchorPointInBounds: Point {
    Point(
      x: bounds.origin.x + anchorPoint.x * bounds.size.width,
      y: bounds.origin.y + anchorPoint.y * bounds.size.height)
  }

  /// `Layer.transformToSuperlayer`.
  package var transformToSuperlayer: Transform3D {
    let a = anchorPointInBounds
    return Transform3D.translation(x: -a.x, y: -a.y, z: -anchorPointZ)
      .concatenating(transform)
      .concatenating(.translation(x: position.x, y: position.y, z: zPosition))
  }

  /// `Layer.sublayerTransformAboutAnchor`.
  package var sublayerTransformAboutAnchor: Transform3D {
    if sublayerTransform.isIdentity { return .identity }
    let a = anchorPointInBounds
    return Transform3D.translation(x: -a.x, y: -a.y)
      .concatenating(sublayerTransform)
      .concatenating(.translation(x: a.x, y: a.y))
  }
}
