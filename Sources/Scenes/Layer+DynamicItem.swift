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
  /// Moves the presented top-level layers that dynamics moves, as UIKit sets an item view's
  /// `center` and `transform`: each one's bounds center goes to the simulated center, and its
  /// transform turns by the simulated angle (`CATransform3DRotate(modelTransform, angle)`). A
  /// moved layer with animations is presented again from those values, so that its animations
  /// apply on top of them as Core Animation's do on a model that changes (a `position`
  /// animation replaces the simulated position while it runs, an additive one adds to it).
  ///
  /// - Parameter time: the time `presented` shows, in the root layer's superlayer's time.
  func applyDynamics(to presented: Layer, at time: Double, drawableOnly: Bool) {
    guard let animator = dynamicAnimatorIfUsed else { return }
    for (i, model) in rootLayer.sublayers.enumerated() where i < presented.sublayers.count {
      guard let state = animator.state(of: model) else { continue }
      let transform = model.transform.rotated(state.angle)
      // position = center - (boundsCenter - anchor) · M
      let b = model.bounds
      let a = model.anchorPointInBounds
      let m = transform.affineTransform ?? .identity
      let offset = Point(x: b.midX - a.x, y: b.midY - a.y)
      let linear = Point(x: m.a * offset.x + m.c * offset.y, y: m.b * offset.x + m.d * offset.y)
      let position = Point(x: state.center.x - linear.x, y: state.center.y - linear.y)
      guard model.hasAnimations else {
        let shown = presented.sublayers[i]
        (shown.transform, shown.position) = (transform, position)
        continue
      }
      rootLayer.presentSublayer(i, into: presented, at: time, drawableOnly: drawableOnly) {
        driven in (driven.transform, driven.position) = (transform, position)
      }
    }
  }
}
