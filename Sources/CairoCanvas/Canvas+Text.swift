import CPangoCairo
import Geometry

extension Canvas {
  /// The typeface labels are set in: DejaVu Sans, which `scripts/setup` installs
  /// (`fonts-dejavu-core`), so labels come out the same on every machine that runs the setup.
  public static let labelFontFamily = "DejaVu Sans"

  /// Draws `layout` with the top-left of its layout box at `origin` (points), in `color`.
  ///
  /// Glyphs are rasterised at the canvas's resolution under the current transform, anti-aliased
  /// in gray, without hinting (the text engine's options, whatever the machine's fontconfig says),
  /// so the pixels depend only on the font files.
  public func draw(_ layout: TextLayout, at origin: Point, color: Color) {
    guard !layout.runs.isEmpty, color.alpha > 0 else { return }
    guard projection == nil else {
      drawProjected(layout, at: origin, color: color)
      return
    }
    cairo_save(cr)
    cairo_translate(cr, origin.x, origin.y)
    setSource(color)
    for run in layout.runs {
      cairo_set_scaled_font(cr, OpaquePointer(bitPattern: run.font))
      run.glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
    }
    cairo_restore(cr)
  }

  /// Draws a one-line label whose ink is centred on `center` (points), set `size` points tall
  /// in DejaVu Sans, in `color`.
  ///
  /// For captions such as a contact sheet's frame times: the same text engine as text layers
  /// (shaped by Pango, gray anti-aliasing, no hinting).
  public func drawLabel(
    _ text: String, centeredAt center: Point, size: Double, color: Color = .black
  ) {
    guard
      let layout = try? TextLayout.make(
        text, style: TextStyle(fontName: Canvas.labelFontFamily, fontSize: size))
    else { return }
    let ink = layout.inkBounds
    draw(layout, at: Point(x: center.x - ink.midX, y: center.y - ink.midY), color: color)
  }
}
