/// A layer that does not flatten: its sublayers keep their depth and are drawn, through this
/// layer's matrices, in the plane of the nearest ancestor that flattens, farthest first, as
/// Core Animation's `CATransformLayer` (visual-effects.md §7).
///
/// It draws nothing of its own: its background, border, contents, shadow, mask and an opacity
/// other than 1 are ignored, as Core Animation documents. Intersecting sublayers are not split:
/// each is drawn whole, ordered by the depth of its anchor point after projection.
///
/// ```swift
/// let cube = TransformLayer()
/// cube.sublayerTransform = .perspective(distance: 500)
/// front.transform = .translation(x: 0, y: 0, z: 50)
/// cube.addSublayer(front)
/// ```
public final class TransformLayer: Layer {
  /// Creates a transform layer with Core Animation's defaults.
  public override init() {
    super.init()
    storage.typed = .transform
  }

  required init(copying layer: Layer) {
    super.init(copying: layer)
    storage.typed = .transform
  }
}
