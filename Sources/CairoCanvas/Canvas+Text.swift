import CCairo
import Geometry

extension Canvas {
  /// The typeface labels are set in: DejaVu Sans, which `scripts/setup` installs
  /// (`fonts-dejavu-core`), so labels come out the same on every machine that runs the setup.
  public static let labelFontFamily = "DejaVu Sans"

  /// Draws a one-line label centred on `center` (points), `size` points tall, in `color`.
  ///
  /// For captions such as a contact sheet's frame times, not for typesetting: Cairo's toy text
  /// API, no shaping, no line breaks. Hinting is off and anti-aliasing is gray, whatever the
  /// machine's fontconfig says, so the pixels depend only on the font file.
  public func drawLabel(_ text: String, centeredAt center: Point, size: Double, color: Color = .black) {
    withSavedState {
      cairo_select_font_face(cr, Canvas.labelFontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
      cairo_set_font_size(cr, size)
      let options = cairo_font_options_create()
      cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
      cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
      cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
      cairo_set_font_options(cr, options)
      cairo_font_options_destroy(options)
      var extents = cairo_text_extents_t()
      cairo_text_extents(cr, text, &extents)
      let x = center.x - extents.width / 2 - extents.x_bearing
      let y = center.y - extents.height / 2 - extents.y_bearing
      setSource(color)
      cairo_move_to(cr, x, y)
      cairo_show_text(cr, text)
      cairo_new_path(cr)
    }
  }
}
