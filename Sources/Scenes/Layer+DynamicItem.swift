import Dynamics
import Geometry
import LayerTree

/// Layers are the items dynamics moves: a scene's top-level layers, by their model geometry.
extension Layer: DynamicItem {
  /// The center of the layer's bounds in its superlayer's coordinates (its `position` when the
  /// anchor point is the default).
  public var dynamicCenter: Point {
    let b = bounds
    guard let affine = transformToSuperlayer.affineTransform else { return position }
    return Point(x: b.midX, y: b.midY).applying(affine)
  }

  /// The layer's bounds.
  public var dynamicBounds: Rect { bounds }
}

extension Scene {
  /// Moves the presented top-level layers that dynamics moves: each one's bounds center goes to
  /// the simulated center, and its transform turns by the simulated angle
  /// (`CATransform3DRotate(modelTransform, angle)`).
  func applyDynamics(to presented: Layer) {
    guard let animator = dynamicAnimatorIfUsed else { return }
    for (model, shown) in zip(rootLayer.sublayers, presented.sublayers) {
      guard let state = animator.state(of: model) else { continue }
      let transform = model.transform.rotated(state.angle)
      shown.transform = transform
      // position = center - (boundsCenter - anchor) · M
      let b = model.bounds
      let a = model.anchorPointInBounds
      let m = transform.affineTransform ?? .identity
      let offset = Point(x: b.midX - a.x, y: b.midY - a.y)
      let linear = Point(x: m.a * offset.x + m.c * offset.y, y: m.b * offset.x + m.d * offset.y)
      shown.position = Point(x: state.center.x - linear.x, y: state.center.y - linear.y)
    }
  }
}
