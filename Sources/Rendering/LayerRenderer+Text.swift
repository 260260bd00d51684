import CairoCanvas
import Geometry
import LayerTree

extension LayerRenderer {
  /// Draws a text layer's string: laid out (once per string and style, by the text engine's
  /// cache) in the bounds' width from the top of the bounds, clipped to the bounds (unless the
  /// layer's `clipsToBounds` is off, as for Lottie text). A string
  /// past `TextLayer`'s limits (set from Swift or animated on), or past the text a frame may
  /// draw (`TextLayout.maximumCharactersPerFrame`), is refused, naming the layer.
  func drawText(_ layer: TextLayer, in canvas: Canvas) throws(RenderingError) {
    // The outline along the glyphs (a Lottie document's stroke), when it draws anything.
    let stroke = layer.strokeColor.flatMap { color in
      color.alpha > 0 && layer.strokeWidth > 0
        ? Canvas.TextStroke(
          color: color, width: layer.strokeWidth, overFill: layer.strokesOverFill) : nil
    }
    let color = layer.foregroundColor ?? Color(red: 0, green: 0, blue: 0, alpha: 0)
    guard let string = layer.string, !string.isEmpty, color.alpha > 0 || stroke != nil else {
      return
    }
    let bounds = layer.bounds.standardized
    guard !bounds.isEmpty, layer.fontSize > 0 else { return }
    if let excess = TextLayer.limitExcess(of: string) {
      throw .textTooLong(
        layer: LayerLabel(layer), characters: excess.characters, lines: excess.lines)
    }
    if let depth = TextLayer.isolateDepthExcess(of: string) {
      throw .isolatesTooDeep(layer: LayerLabel(layer), depth: depth)
    }
    let style = layer.textStyle(width: bounds.width, height: bounds.height)
    // Counted before laying out: wrapped lines too (a box narrower than a letter makes a line
    // of each), paragraphs, tabs, mixed directions, each font size new to the frame, and a
    // stroke's outlines as many times more as they cost.
    let added = canvas.dashTally.text.add(string, style: style)
    if let factor = stroke?.costFactor(fontSize: layer.fontSize), factor > 1 {
      canvas.dashTally.text.addOutlineWork(
        Int(Swift.min(Double(added) * (factor - 1), 1e15)))
    }
    guard canvas.dashTally.text.characters <= TextLayout.maximumCharactersPerFrame else {
      throw .tooMuchTextInFrame(layer: LayerLabel(layer))
    }
    let layout: TextLayout
    do {
      layout = try TextLayout.make(string, style: style)
    } catch {
      throw .unknownFont(layer: LayerLabel(layer), font: layer.font)
    }
    // Glyphs filled as outlines (large, or stroked) go over their boxes' pixels, as fills do.
    let outlined = canvas.outlinePixels(
      of: layout, stroked: stroke != nil, at: bounds.origin, reach: (stroke?.width ?? 0) / 2)
    if outlined > 0 {
      try chargePathWork(
        LayerRenderer.outlineWeight * outlined / LayerRenderer.pixelsPerUnit, for: layer,
        in: canvas)
    }
    guard layer.clipsToBounds else {
      canvas.draw(layout, at: bounds.origin, color: color, stroke: stroke)
      return
    }
    canvas.save()
    canvas.clip(to: Path(rect: bounds))
    canvas.draw(layout, at: bounds.origin, color: color, stroke: stroke)
    canvas.restore()
  }
}

extension TextLayer {
  /// The text engine's style for this layer's properties, laid out `width` points wide and
  /// truncated to `height` points.
  package func textStyle(width: Double, height: Double) -> TextStyle {
    TextStyle(
      fontName: font, fontSize: fontSize, width: width, height: height,
      alignment: TextAlignment(rawValue: alignmentMode.rawValue) ?? .natural, isWrapped: isWrapped,
      truncation: TextTruncation(rawValue: truncationMode.rawValue) ?? .none,
      lastLineAlignment: TextAlignment(rawValue: justifiedLastLine.rawValue) ?? .natural,
      lineSpacing: lineSpacing, tracking: tracking)
  }
}
