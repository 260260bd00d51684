import CairoCanvas
import Geometry
import LayerTree

// A layer in perspective whose group is made only of fills and text is drawn straight through
// its projective map: each outline is projected and filled on the canvas (Canvas+Plane.swift),
// so the plane costs about what it costs flat, with no offscreen pass and no resampling. Groups
// with anything that needs the plane's pixels first (strokes, images, shadows, filters inside,
// replicators, 3D inside) are drawn offscreen and warped (LayerRenderer+Projection.swift).

extension LayerRenderer {
  /// Whether everything `layer`'s group draws can be drawn straight through a projective map:
  /// backgrounds, borders, gradients, a shape layer's fill and text, in sublayers and masks
  /// placed in the same plane, with opacity, blend modes and masks as groups on the canvas. The
  /// layer's own filters and blend mode are applied to the projected group, as offscreen.
  package func canDrawStraight(_ layer: Layer, level: Int = 0) -> Bool {
    guard drawsPlanesStraight, level < 64 else { return false }
    if layer.isHidden || (level > 0 && layer.opacity <= 0) { return true }
    if level > 0 {
      guard layer.filters.isEmpty, !layer.drawsInDepthOrder,
        layer.transformToSuperlayer.planeAffineTransform != nil
      else { return false }
    }
    guard !layer.hasVisibleShadow, !(layer is ReplicatorLayer),
      !layer.sublayerTransformAboutAnchor.has3DTerms
    else { return false }
    if let image = layer.contents, image.width > 0, image.height > 0 { return false }
    if let shape = layer as? ShapeLayer, let path = shape.path, !path.isEmpty,
      let stroke = shape.strokeColor, stroke.alpha > 0, shape.lineWidth > 0
    {
      return false
    }
    if let text = layer as? TextLayer, (text.strokeColor?.alpha ?? 0) > 0, text.strokeWidth > 0 {
      return false
    }
    if let mask = layer.mask, !canDrawStraight(mask, level: level + 1) { return false }
    return layer.sublayers.allSatisfy { canDrawStraight($0, level: level + 1) }
  }

  /// Draws `layer`'s group straight through `map` (its plane to the canvas's device pixels),
  /// with its opacity, blend mode and filters applied to the projected group.
  func drawStraight(
    _ layer: Layer, through map: Homography, in canvas: Canvas
  ) throws(RenderingError) {
    func group() throws(RenderingError) {
      canvas.beginPlane(map)
      defer { canvas.endPlane() }
      try drawMaskedContent(of: layer, in: canvas)
    }
    guard layer.opacity < 1 || layer.compositingFilter.needsGroup || !layer.filters.isEmpty else {
      try group()
      return
    }
    try chargeGroups(
      1, filters: layer.filters.count,
      weight: LayerRenderer.compositingWeight(layer.compositingFilter), for: layer, in: canvas)
    try canvas.drawGroup(
      opacity: layer.opacity, compositing: layer.compositingFilter, filters: layer.filters
    ) { () throws(RenderingError) in try group() }
  }
}
