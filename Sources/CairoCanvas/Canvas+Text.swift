import CCairo
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
    drawGlyphs(layout, at: origin, color: color)
  }

  /// An outline drawn along text's glyphs: its colour, its width in points (centred on the
  /// glyphs' edges, butt caps and round joins, as lottie-web's SVG text draws it), and whether
  /// it is drawn over the fill or under it (where the fill covers its inner half).
  public struct TextStroke: Hashable, Sendable {
    /// The outline's colour.
    public var color: Color
    /// The outline's width, in points.
    public var width: Double
    /// Whether the outline is drawn over the fill (`true`) or under it.
    public var overFill: Bool

    /// Creates a text outline.
    public init(color: Color, width: Double, overFill: Bool) {
      self.color = color
      self.width = width
      self.overFill = overFill
    }

    /// How many times laying text out stroking it costs, at `fontSize` points: 1 + 2 × the
    /// width over the size. Cairo strokes each glyph's outline, in time that grows with the
    /// width against the glyphs' size: 100,000 characters at size 20 took 0.1 s unstroked,
    /// 0.7 s stroked 100 wide and 11 s stroked 1,000 wide (101 times, as this says).
    public func costFactor(fontSize: Double) -> Double {
      guard width > 0 else { return 1 }
      let ratio = fontSize > 0 ? width / fontSize : .infinity
      return 1 + 2 * Swift.min(ratio, 1e6)
    }
  }

  /// Draws `layout` as `draw(_:at:color:)` does, with `stroke` along its glyphs' outlines (over
  /// or under the fill, as it says). The glyphs are filled and stroked as outlines. Inside a
  /// plane in perspective only the fill is drawn (the renderer draws stroked text offscreen).
  public func draw(_ layout: TextLayout, at origin: Point, color: Color, stroke: TextStroke?) {
    guard let stroke, stroke.width > 0, stroke.color.alpha > 0, projection == nil,
      !layout.runs.isEmpty
    else {
      draw(layout, at: origin, color: color)
      return
    }
    withGlyphOutlines(of: layout, at: origin) { outlines in
      let style = StrokeStyle(
        lineWidth: stroke.width, lineCap: .butt, lineJoin: .round, miterLimit: 4)
      if !stroke.overFill { self.stroke(outlines, with: stroke.color, style: style) }
      if color.alpha > 0 { fill(outlines, with: color) }
      if stroke.overFill { self.stroke(outlines, with: stroke.color, style: style) }
    }
  }

  /// Runs `body` with `layout`'s glyphs as one path of outlines, in a user space whose origin
  /// is moved to `origin` (where `body` draws them).
  func withGlyphOutlines(of layout: TextLayout, at origin: Point, _ body: (Path) -> Void) {
    guard emPixels(of: layout) <= Canvas.largestOutlineEm else {
      cairo_save(cr)
      defer { cairo_restore(cr) }
      cairo_translate(cr, origin.x, origin.y)
      body(largeGlyphOutlines(of: layout))
      return
    }
    cairo_save(cr)
    defer { cairo_restore(cr) }
    cairo_translate(cr, origin.x, origin.y)
    cairo_new_path(cr)
    for run in layout.runs {
      cairo_set_scaled_font(cr, OpaquePointer(bitPattern: run.font))
      run.glyphs.withUnsafeBufferPointer { cairo_glyph_path(cr, $0.baseAddress, Int32($0.count)) }
    }
    let outlines = currentPath()
    cairo_new_path(cr)
    body(outlines)
  }

  /// The outlines of `layout`'s glyphs, in user space (the layout's origin at the user origin),
  /// for glyphs whose em on the canvas passes `largestOutlineEm`.
  ///
  /// FreeType sizes a glyph in 16-bit pixels per em, so Cairo cannot make a font for such a
  /// transform: the context that asks goes into an error state and draws nothing more (a 10,000
  /// point label at scale 7 blanked the rest of its frame). Each glyph's outline is taken instead
  /// on a scratch context at `largestOutlineEm` pixels an em, with the glyph at the origin (its
  /// coordinates stay small whatever its place), and moved to its place in user space; Pango
  /// lays text out unhinted, so the outline scales exactly. Glyphs more than two ems (on the
  /// canvas) beyond it are left out, as Cairo leaves them out when it fills.
  func largeGlyphOutlines(of layout: TextLayout) -> Path {
    var outlines = Path()
    let fontSize = layout.style.fontSize
    let em = emPixels(of: layout)
    guard fontSize > 0, em.isFinite,
      let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
    else { return outlines }
    defer { cairo_surface_destroy(surface) }
    guard let scratch = cairo_create(surface) else { return outlines }
    defer { cairo_destroy(scratch) }
    let scale = Canvas.largestOutlineEm / fontSize
    cairo_scale(scratch, scale, scale)
    let (width, height) = (Double(pixelWidth), Double(pixelHeight))
    for run in layout.runs {
      cairo_set_scaled_font(scratch, OpaquePointer(bitPattern: run.font))
      for glyph in run.glyphs {
        if projection == nil {
          var (x, y) = (glyph.x, glyph.y)
          cairo_user_to_device(cr, &x, &y)
          guard x + 2 * em >= 0, x - 2 * em <= width, y + 2 * em >= 0, y - 2 * em <= height
          else { continue }
        }
        var placed = glyph
        (placed.x, placed.y) = (0, 0)
        cairo_new_path(scratch)
        cairo_glyph_path(scratch, &placed, 1)
        guard cairo_status(scratch) == CAIRO_STATUS_SUCCESS else { return Path() }
        let outline = Canvas.path(of: scratch)
        outlines.addPath(outline.applying(.translation(x: glyph.x, y: glyph.y)))
      }
    }
    return outlines
  }

  /// Draws `layout`'s glyphs filled in `color`, from Cairo's glyph images when they are small
  /// enough (`largestCachedGlyphSize`), else as outlines.
  private func drawGlyphs(_ layout: TextLayout, at origin: Point, color: Color) {
    let em = emPixels(of: layout)
    guard em <= Canvas.largestOutlineEm else {
      withGlyphOutlines(of: layout, at: origin) { fill($0, with: color) }
      return
    }
    cairo_save(cr)
    cairo_translate(cr, origin.x, origin.y)
    setSource(color)
    for run in layout.runs {
      cairo_set_scaled_font(cr, OpaquePointer(bitPattern: run.font))
      run.glyphs.withUnsafeBufferPointer {
        if em <= Canvas.largestCachedGlyphSize {
          cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count))
        } else {
          cairo_new_path(cr)
          cairo_glyph_path(cr, $0.baseAddress, Int32($0.count))
          cairo_fill(cr)
        }
      }
    }
    cairo_restore(cr)
  }

  /// The device pixels that filling `layout`'s glyphs as outlines goes over, under the current
  /// transform: each glyph's em box, at most the canvas's pixels; 0 when they are drawn from
  /// Cairo's glyph images (an em of at most `largestCachedGlyphSize` pixels, not stroked).
  /// Cairo fills an outline over every row and column of its box, in time that grows with the
  /// box: 10,000 copies of one CJK character at 3,000 points in a 4000 x 4000 frame took 93 s.
  ///
  /// With `origin` (where the layout is drawn, in points), a glyph whose box, grown by two ems
  /// and `reach` points (half a stroke's width) on every side, lies wholly off the canvas
  /// counts nothing: Cairo leaves its edges out before filling (a credits roll of 1,800 lines
  /// at 300 pixels an em, six of them on screen, was refused, though it draws in 0.1 s).
  public func outlinePixels(
    of layout: TextLayout, stroked: Bool = false, at origin: Point? = nil, reach: Double = 0
  ) -> Double {
    let em = emPixels(of: layout)
    guard stroked || em > Canvas.largestCachedGlyphSize, em.isFinite else { return 0 }
    let each = Swift.min(em * em, Double(pixelWidth) * Double(pixelHeight))
    guard let origin, projection == nil else {
      return Double(layout.runs.reduce(0) { $0 + $1.glyphs.count }) * each
    }
    let margin = 2 * em + Swift.max(0, reach) * deviceStretch
    guard margin.isFinite else {
      return Double(layout.runs.reduce(0) { $0 + $1.glyphs.count }) * each
    }
    let (w, h) = (Double(pixelWidth), Double(pixelHeight))
    var glyphs = 0
    for run in layout.runs {
      for glyph in run.glyphs {
        var x = origin.x + glyph.x, y = origin.y + glyph.y
        cairo_user_to_device(cr, &x, &y)
        if x + margin >= 0, x - margin <= w, y + margin >= 0, y - margin <= h { glyphs += 1 }
      }
    }
    return Double(glyphs) * each
  }

  /// The largest extent of `layout`'s em on the canvas, in pixels, under the current transform.
  private func emPixels(of layout: TextLayout) -> Double {
    var (ax, ay, bx, by) = (layout.style.fontSize, 0.0, 0.0, layout.style.fontSize)
    cairo_user_to_device_distance(cr, &ax, &ay)
    cairo_user_to_device_distance(cr, &bx, &by)
    return Swift.max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
  }

  /// The largest em, in pixels on the canvas, whose glyphs are drawn from Cairo's glyph images:
  /// 256. Larger glyphs are filled as outlines. Cairo keeps an image of every glyph it draws,
  /// for each size and transform, in a cache that counts glyphs, not bytes (thousands of
  /// them): 200 layers of one character at 3,000 to 3,199 points held 3.9 GB. Outlines hold a
  /// few kilobytes, and a glyph this large costs about as much to fill as to place.
  public static let largestCachedGlyphSize = 256.0

  /// The largest em, in pixels on the canvas, whose glyph outlines Cairo makes under the
  /// canvas's transform: 16,384. FreeType sizes glyphs in 16-bit pixels per em (at most 65,535),
  /// so larger glyphs take their outlines at this size and are scaled up
  /// (`largeGlyphOutlines`).
  public static let largestOutlineEm = 16_384.0

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
