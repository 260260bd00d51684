import CairoCanvas
import Geometry
import LayerTree

/// Draws layer trees into a canvas in Core Animation's order.
///
/// For each visible layer (not hidden, opacity above 0): its transform to the superlayer, then,
/// as one group when the opacity is below 1, the background (clipped to the rounded bounds), the
/// contents, a shape layer's path (fill, then stroke), a text layer's text (clipped to its
/// bounds), the sublayers sorted by `zPosition` (all
/// of them clipped to the rounded bounds when `masksToBounds`), and last the border on top.
/// A layer whose transform collapses it to a line or point (scale 0) draws nothing.
public struct LayerRenderer: Sendable {
  /// Creates a renderer.
  public init() {}

  /// Draws `layer` and its subtree into `canvas`, whose current user space is taken to be the
  /// layer's superlayer's coordinate space.
  ///
  /// - Throws: `RenderingError.perspectiveUnsupported` for a transform with perspective terms,
  ///   `RenderingError.unknownFont` for a text layer whose font resolves to no installed face.
  public func draw(_ layer: Layer, in canvas: Canvas) throws(RenderingError) {
    guard !layer.isHidden, layer.opacity > 0 else { return }
    guard let placement = layer.transformToSuperlayer.affineTransform else {
      throw .perspectiveUnsupported(layer: layer.name)
    }
    guard placement.isInvertible else { return }
    canvas.save()
    defer { canvas.restore() }
    canvas.concatenate(placement)
    if layer.opacity < 1 {
      try canvas.drawInTransparencyGroup(opacity: layer.opacity) { () throws(RenderingError) in
        try drawContent(of: layer, in: canvas)
      }
    } else {
      try drawContent(of: layer, in: canvas)
    }
  }

  private func drawContent(of layer: Layer, in canvas: Canvas) throws(RenderingError) {
    let bounds = layer.bounds.standardized
    let roundedBounds = Path(roundedRect: bounds, cornerRadius: layer.cornerRadius)

    if let background = layer.backgroundColor, background.alpha > 0, !bounds.isEmpty {
      canvas.fill(roundedBounds, with: background)
    }

    if layer.masksToBounds {
      canvas.save()
      canvas.clip(to: roundedBounds)
    }

    if let image = layer.contents, image.width > 0, image.height > 0 {
      let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
      let size = Size(width: Double(image.width) / scale, height: Double(image.height) / scale)
      canvas.draw(image.bitmap, in: layer.contentsGravity.rect(forImageOfSize: size, in: bounds))
    }

    if let shape = layer as? ShapeLayer {
      drawShape(shape, in: canvas)
    }

    if let text = layer as? TextLayer {
      try drawText(text, in: canvas)
    }

    if !layer.sublayers.isEmpty {
      let sublayerPlacement = layer.sublayerTransformAboutAnchor
      if sublayerPlacement.isIdentity {
        for sublayer in layer.sublayersInDrawingOrder { try draw(sublayer, in: canvas) }
      } else {
        guard let affine = sublayerPlacement.affineTransform else {
          throw .perspectiveUnsupported(layer: layer.name)
        }
        if affine.isInvertible {
          canvas.save()
          canvas.concatenate(affine)
          for sublayer in layer.sublayersInDrawingOrder { try draw(sublayer, in: canvas) }
          canvas.restore()
        }
      }
    }

    if layer.masksToBounds {
      canvas.restore()
    }

    if layer.borderWidth > 0, let border = layer.borderColor, border.alpha > 0, !bounds.isEmpty {
      var band = roundedBounds
      let inner = bounds.insetBy(dx: layer.borderWidth, dy: layer.borderWidth)
      if !inner.isEmpty {
        band.addPath(Path(roundedRect: inner, cornerRadius: Swift.max(0, layer.cornerRadius - layer.borderWidth)))
      }
      canvas.fill(band, with: border, rule: .evenOdd)
    }
  }

  private func drawShape(_ shape: ShapeLayer, in canvas: Canvas) {
    guard let path = shape.path, !path.isEmpty else { return }
    if let fill = shape.fillColor, fill.alpha > 0 {
      canvas.fill(path, with: fill, rule: shape.fillRule)
    }
    if let stroke = shape.strokeColor, stroke.alpha > 0, shape.lineWidth > 0 {
      let stroked = path.trimmed(from: shape.strokeStart, to: shape.strokeEnd)
      canvas.stroke(stroked, with: stroke, style: shape.strokeStyle)
    }
  }
}
