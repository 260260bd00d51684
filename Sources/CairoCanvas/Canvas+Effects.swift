import CCairo
import Geometry
import Glibc

/// The shape of a gradient fill, in the canvas's user space (points).
public enum GradientGeometry: Hashable, Sendable {
  /// Location 0 at `start`, 1 at `end`, constant across; the end colors continue beyond.
  case axial(start: Point, end: Point)
  /// Location 0 at `focus` (by default `center`), 1 on the ellipse about `center` of half-axes
  /// `radii`; the last color beyond. A focus outside 0.99 of the way to the ellipse is drawn
  /// there.
  case radial(center: Point, radii: Size, focus: Point? = nil)
  /// Location 0 in the direction `angle` (radians, from +x toward +y) from `center`, growing
  /// clockwise on screen to 1 after one full turn.
  case conic(center: Point, angle: Double)
}

extension GradientGeometry {
  /// A radial gradient's focus in the space where its ellipse is the unit circle, kept within
  /// 0.99 of the edge (a focus not given, or not finite, is the centre).
  static func unitFocus(center: Point, radii: Size, focus: Point?) -> (x: Double, y: Double) {
    let fx = ((focus ?? center).x - center.x) / radii.width
    let fy = ((focus ?? center).y - center.y) / radii.height
    let length = (fx * fx + fy * fy).squareRoot()
    guard length.isFinite else { return (0, 0) }
    return length > 0.99 ? (fx * 0.99 / length, fy * 0.99 / length) : (fx, fy)
  }
}

/// One stop of a gradient: a location 0...1 and its color (straight alpha).
public struct GradientStop: Hashable, Sendable {
  /// Where the color sits, 0...1.
  public var location: Double
  /// The color there.
  public var color: Color
  /// Creates a stop.
  public init(location: Double, color: Color) { (self.location, self.color) = (location, color) }
}

/// What `Canvas.makeAlphaMask` made.
public enum AlphaMaskOutcome {
  /// The alpha of the drawn pixels, and whether they reached the edge of the region drawn in
  /// (and so may have been cut).
  case drawn(AlphaMask, touchesEdge: Bool)
  /// Nothing was drawn in the region (or the origin lies past any canvas).
  case empty
  /// The alpha drawn at `density` device pixels to the frame's pixel (below 1: a region over
  /// the limits, or the density asked for), whose pixel (0, 0) lies at `origin` in those pixels relative to the
  /// drawing's origin there (`AlphaMask.scaled(by:origin:)` brings it to the frame's pixels).
  case drawnAtDensity(AlphaMask, origin: Point, density: Double, touchesEdge: Bool)
  /// The region, even cut to what is drawn, has more pixels than a canvas may at a density of
  /// 1/64: `width` x `height`.
  case tooLarge(width: Int, height: Int)
  /// Cairo could not make the canvas (no memory).
  case unavailable(CanvasError)
}

extension Canvas {
  /// The current transform from user space (points) to device pixels.
  public var deviceTransform: AffineTransform {
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    return AffineTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
  }

  // MARK: Gradients

  /// Fills the inside of `path` with a gradient through `stops` (sorted by location),
  /// interpolating colors with straight alpha as Core Graphics does: from clear to white shows
  /// gray in between. One stop fills with its color; no stops draw nothing.
  public func fill(_ path: Path, gradient geometry: GradientGeometry, stops: [GradientStop]) {
    guard !path.isEmpty, let first = stops.first else { return }
    if stops.count == 1 {
      fill(path, with: first.color)
      return
    }
    if let map = userToDevice {
      fillProjectedGradient(path, geometry, stops, through: map)
      return
    }
    recording?.add(path)
    recording?.add(
      "gradient",
      stops.flatMap { [$0.location, $0.color.red, $0.color.green, $0.color.blue, $0.color.alpha] })
    // An axial span under a thousandth of a device pixel is lengthened to one, from its start:
    // Pixman's fixed point turned nearer ends into the first colour, or a mix of the two ends (a
    // span of 1e-8 of a layer drew it all red, 1e-20 all purple), where every pixel past the
    // start is past the end.
    var geometry = geometry
    if case .axial(let start, let end) = geometry, start != end {
      let m = deviceTransform
      let (dx, dy) = (end.x - start.x, end.y - start.y)
      // Measured over its largest part, so that squares of 1e-300 do not vanish.
      let s = Swift.max(abs(dx), abs(dy))
      let (ux, uy) = (dx / s, dy / s)
      let (px, py) = (m.a * ux + m.c * uy, m.b * ux + m.d * uy)
      let length = s * (px * px + py * py).squareRoot()
      if length < 1e-3, length > 0, length.isFinite {
        let k = 1e-3 / length
        geometry = .axial(start: start, end: Point(x: start.x + dx * k, y: start.y + dy * k))
      }
    }
    // Points or radii past what Cairo's gradients hold (10^308 at the extreme): colored pixel
    // by pixel instead, from the same table of stops.
    guard isWithinSafeRange(geometry) else {
      fillGradientByPixels(path, geometry, stops)
      return
    }
    switch geometry {
    case .axial(let start, let end):
      guard start != end else {
        fillWithoutRecording(path, stops.last!.color)
        return
      }
      let pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)!
      paint(path, pattern, stops)
    case .radial(let center, let radii, let focus):
      guard radii.width > 0, radii.height > 0 else {
        fillWithoutRecording(path, stops.last!.color)
        return
      }
      if let box = tinyRadialBox(center: center, radii: radii) {
        fillTinyRadial(path, geometry, stops, around: box)
        return
      }
      let (fx, fy) = GradientGeometry.unitFocus(center: center, radii: radii, focus: focus)
      let pattern = cairo_pattern_create_radial(fx, fy, 0, 0, 0, 1)!
      var m = cairo_matrix_t()
      cairo_matrix_init_scale(&m, 1 / radii.width, 1 / radii.height)
      cairo_matrix_translate(&m, -center.x, -center.y)
      cairo_pattern_set_matrix(pattern, &m)
      paint(path, pattern, stops)
    case .conic(let center, let angle):
      fillConic(path, center: center, angle: angle, stops: stops)
    }
  }

  /// The device pixels around a radial gradient's ellipse (grown by two pixels, on the pixel
  /// grid, within the canvas) when the ellipse is so small against the canvas that Pixman's
  /// fixed point cannot place the canvas's pixels in its unit circle (Cairo then drew nothing:
  /// a radius of a millionth of a point left the layer empty); `nil` otherwise.
  ///
  /// The test is the ellipse's smallest radius on the canvas (at least its map's determinant
  /// over its size) against the canvas's farthest corner: more than 8,192 radii away.
  private func tinyRadialBox(center: Point, radii: Size) -> (x: Int, y: Int, w: Int, h: Int)? {
    let m = deviceTransform
    let (ax, ay) = (m.a * radii.width, m.b * radii.width)
    let (bx, by) = (m.c * radii.height, m.d * radii.height)
    let size = (ax * ax + ay * ay + bx * bx + by * by).squareRoot()
    let smallest = abs(ax * by - ay * bx) / size
    let c = center.applying(m)
    let (w, h) = (Double(pixelWidth), Double(pixelHeight))
    let farthest = (Swift.max(abs(c.x), abs(c.x - w)), Swift.max(abs(c.y), abs(c.y - h)))
    let reach = (farthest.0 * farthest.0 + farthest.1 * farthest.1).squareRoot()
    guard size.isFinite, c.x.isFinite, c.y.isFinite, !(reach <= 8192 * smallest) else {
      return nil
    }
    // Under a thousandth of a pixel the ellipse covers no pixel by a level: none is drawn by
    // pixels (whose arithmetic would meet radii of 1e-300).
    guard smallest >= 1e-3 else { return (0, 0, 0, 0) }
    let (ex, ey) = (abs(ax) + abs(bx) + 2, abs(ay) + abs(by) + 2)
    let x0 = Swift.max(0, Swift.min(w, (c.x - ex).rounded(.down)))
    let y0 = Swift.max(0, Swift.min(h, (c.y - ey).rounded(.down)))
    let x1 = Swift.max(0, Swift.min(w, (c.x + ex).rounded(.up)))
    let y1 = Swift.max(0, Swift.min(h, (c.y + ey).rounded(.up)))
    return (Int(x0), Int(y0), Int(x1 - x0), Int(y1 - y0))
  }

  /// Fills `path` with a radial gradient whose ellipse is tiny on the canvas: the last color
  /// outside `box` (device pixels), where every pixel is past the ellipse, and the gradient
  /// pixel by pixel inside it.
  private func fillTinyRadial(
    _ path: Path, _ geometry: GradientGeometry, _ stops: [GradientStop],
    around box: (x: Int, y: Int, w: Int, h: Int)
  ) {
    /// Runs `draw` clipped to the box (`inside`) or to the canvas outside it, in device pixels.
    func clipped(inside: Bool, _ draw: () -> Void) {
      cairo_save(cr)
      defer { cairo_restore(cr) }
      var m = cairo_matrix_t()
      cairo_get_matrix(cr, &m)
      cairo_identity_matrix(cr)
      if !inside { cairo_rectangle(cr, 0, 0, Double(pixelWidth), Double(pixelHeight)) }
      cairo_rectangle(cr, Double(box.x), Double(box.y), Double(box.w), Double(box.h))
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
      cairo_clip(cr)
      cairo_set_matrix(cr, &m)
      draw()
    }
    clipped(inside: false) { fillWithoutRecording(path, stops.last!.color) }
    guard box.w > 0, box.h > 0 else { return }
    clipped(inside: true) { fillGradientByPixels(path, geometry, stops) }
  }

  private func fillWithoutRecording(_ path: Path, _ color: Color) {
    setPath(path)
    setSource(color)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    cairo_fill(cr)
  }

  /// Adds `stops` to `pattern` with extra stops wherever alpha and color both change, so that
  /// Cairo's interpolation matches straight-alpha interpolation within a quarter of a level,
  /// then fills `path` with it.
  ///
  /// Cairo interpolates premultiplied components linearly. Between two stops, straight-alpha
  /// interpolation premultiplies a component `c(t)` by the alpha `a(t)`, both linear in `t`:
  /// a parabola whose second derivative is `2 Δc Δa`, so `n` equal pieces stay within
  /// `|Δc Δa| / (4 n²)` of it (components in 0...1). `n = ⌈√(255 |Δc Δa|)⌉` keeps that under a
  /// quarter of a level (at most 16 pieces); a pair whose color or alpha does not change needs
  /// none. Every extra stop costs pixman a step of its search per pixel (a Lottie gradient with
  /// opacity stops drew with 100 stops before: most of its frame time).
  private func paint(_ path: Path, _ pattern: OpaquePointer, _ stops: [GradientStop]) {
    defer { cairo_pattern_destroy(pattern) }
    for stop in Self.cairoStops(stops) {
      let c = stop.color
      cairo_pattern_add_color_stop_rgba(pattern, stop.location, c.red, c.green, c.blue, c.alpha)
    }
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    setPath(path)
    cairo_set_source(cr, pattern)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    cairo_fill(cr)
  }

  /// The stops Cairo is given for `stops` (see `paint`): locations within 0...1 (stops
  /// beyond replaced by the colors they give at 0 and 1), and each pair whose alpha changes
  /// split into up to 16 pieces.
  static func cairoStops(_ stops: [GradientStop]) -> [GradientStop] {
    var stops = stops
    // Cairo's stops live in 0...1; locations beyond (a shimmer animates them from −1 to 2) are
    // replaced by the colors they give at 0 and 1, which keeps the gradient piecewise the same.
    if stops.contains(where: { $0.location < 0 || $0.location > 1 }) {
      stops =
        [GradientStop(location: 0, color: Canvas.color(at: 0, stops: stops))]
        + stops.filter { $0.location > 0 && $0.location < 1 }
        + [GradientStop(location: 1, color: Canvas.color(at: 1, stops: stops))]
    }
    var out: [GradientStop] = []
    out.reserveCapacity(stops.count)
    func add(_ t: Double, _ c: Color) {
      out.append(GradientStop(location: Swift.min(1, Swift.max(0, t)), color: c))
    }
    for (i, stop) in stops.enumerated() {
      add(stop.location, stop.color)
      guard i + 1 < stops.count else { break }
      let next = stops[i + 1]
      guard next.color.alpha != stop.color.alpha, next.location > stop.location else { continue }
      let (a, b) = (stop.color, next.color)
      let dc = Swift.max(
        abs(b.red - a.red), abs(b.green - a.green), abs(b.blue - a.blue))
      let bend = 255 * Swift.min(1, dc) * Swift.min(1, abs(b.alpha - a.alpha))
      guard bend.isFinite else { continue }
      let steps = Int(bend.squareRoot().rounded(.up))
      guard steps > 1 else { continue }
      for s in 1..<steps {
        let f = Double(s) / Double(steps)
        let location = stop.location + (next.location - stop.location) * f
        add(location, Self.mix(stop.color, next.color, f))
      }
    }
    return out
  }

  /// How many stops a gradient through `stops` is drawn with: what its cost per pixel grows
  /// with (`cairoStops`; Pixman searches the stops again wherever a pixel passes one).
  public static func drawnStopCount(_ stops: [GradientStop]) -> Int { cairoStops(stops).count }

  /// Straight-alpha interpolation of two colors.
  static func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
    Color(
      red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
      blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
  }

  /// The color at `location` of sorted `stops` (end colors beyond the ends).
  public static func color(at location: Double, stops: [GradientStop]) -> Color {
    guard let first = stops.first, let last = stops.last else { return .clear }
    if location <= first.location { return first.color }
    if location >= last.location { return last.color }
    var i = 0
    while i + 1 < stops.count && stops[i + 1].location < location { i += 1 }
    let a = stops[i], b = stops[i + 1]
    let span = b.location - a.location
    return span > 0 ? mix(a.color, b.color, (location - a.location) / span) : b.color
  }

  /// A conic gradient computed pixel by pixel in device space (so any transform is exact), with
  /// pixels that the seam (angle 0) or the centre crosses sampled 4 × 4 for anti-aliasing.
  private func fillConic(_ path: Path, center: Point, angle: Double, stops: [GradientStop]) {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    setPath(path)
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    cairo_clip(cr)
    var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
    cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
    // The clip's extents in device pixels.
    var corners = [(x1, y1), (x2, y1), (x1, y2), (x2, y2)]
    for i in corners.indices {
      var (x, y) = corners[i]
      cairo_user_to_device(cr, &x, &y)
      corners[i] = (x, y)
    }
    let minX = Int(corners.map(\.0).min()!.rounded(.down))
    let maxX = Int(corners.map(\.0).max()!.rounded(.up))
    let minY = Int(corners.map(\.1).min()!.rounded(.down))
    let maxY = Int(corners.map(\.1).max()!.rounded(.up))
    let w = maxX - minX, h = maxY - minY
    guard w > 0, h > 0, w * h <= Canvas.maximumPixelCount,
      let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))
    else { return }
    defer { cairo_surface_destroy(image) }
    let stride = Int(cairo_image_surface_get_stride(image))
    guard let data = cairo_image_surface_get_data(image) else { return }
    let m = deviceTransform
    guard let inverse = m.inverted else { return }
    let pixelsPerPoint = abs(m.a * m.d - m.b * m.c).squareRoot()
    let ramp = GradientRamp.cached(stops, conic: true)
    func location(_ ux: Double, _ uy: Double) -> Double {
      GradientRamp.conicLocation(Point(x: ux, y: uy), center: center, angle: angle)
    }
    for py in 0..<h {
      let row = data + py * stride
      for px in 0..<w {
        let dx = Double(minX + px) + 0.5, dy = Double(minY + py) + 0.5
        let u = Point(x: dx, y: dy).applying(inverse)
        let ux = u.x - center.x, uy = u.y - center.y
        let r = (ux * ux + uy * uy).squareRoot()
        let t = location(u.x, u.y)
        let distanceToSeam = Swift.min(t, 1 - t) * 2 * .pi * r * pixelsPerPoint
        var c: (Double, Double, Double, Double)
        if distanceToSeam < 1.5 || r * pixelsPerPoint < 1.5 {
          c = (0, 0, 0, 0)
          for sy in 0..<4 {
            for sx in 0..<4 {
              let q = Point(x: dx - 0.375 + Double(sx) * 0.25, y: dy - 0.375 + Double(sy) * 0.25)
                .applying(inverse)
              let s = ramp.color(at: location(q.x, q.y))
              c = (c.0 + s.0 / 16, c.1 + s.1 / 16, c.2 + s.2 / 16, c.3 + s.3 / 16)
            }
          }
        } else {
          c = ramp.color(at: t)
        }
        (row + px * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
          $0.pointee = GradientRamp.pack(c)
        }
      }
    }
    cairo_surface_mark_dirty(image)
    cairo_identity_matrix(cr)
    cairo_set_source_surface(cr, image, Double(minX), Double(minY))
    cairo_paint(cr)
  }

  // MARK: Parts of images

  /// Draws the part `source` (in image pixels; it may reach outside the image, whose edge pixels
  /// then repeat) of `bitmap` stretched into `rect` (points), sampled bilinearly.
  public func draw(_ bitmap: Bitmap, from source: Rect, in rect: Rect) {
    let r = rect.standardized
    let s = source.width >= 0 && source.height >= 0 ? source : source.standardized
    guard bitmap.width > 0, bitmap.height > 0, !r.isEmpty, s.width > 0, s.height > 0,
      let image = imageSurfaces.surface(for: bitmap)
    else { return }
    recording?.add(image: bitmap, in: r)
    recording?.add("source", [s.minX, s.minY, s.width, s.height])
    paint(image, source: s, in: r)
  }

  // MARK: Masks and tinted groups

  /// Draws what `content` draws multiplied by the alpha of what `mask` draws (colors ignored),
  /// as Core Animation's `mask`: where the mask draws nothing, nothing shows.
  public func drawMasked<E: Error>(
    _ content: () throws(E) -> Void, mask: () throws(E) -> Void
  ) throws(E) {
    let (_, contentPattern, held) = try countedGroup("group", content)
    defer { cairo_pattern_destroy(contentPattern) }
    // The content's pixels are held while the mask draws.
    let maskPattern = try holding(held) { () throws(E) in try group("mask", mask).1 }
    defer { cairo_pattern_destroy(maskPattern) }
    cairo_save(cr)
    cairo_set_source(cr, contentPattern)
    cairo_mask(cr, maskPattern)
    cairo_restore(cr)
    recording?.add("unmask")
  }

  /// Draws what `body` draws with every pixel's components multiplied by `tint`'s (red, green,
  /// blue and alpha), as a replicator's `instanceColor` does.
  public func drawTinted<E: Error>(by tint: Color, _ body: () throws(E) -> Void) throws(E) {
    if tint == .white {
      try body()
      return
    }
    let pattern = try group("group", body).1
    defer { cairo_pattern_destroy(pattern) }
    var surface: OpaquePointer? = nil
    if cairo_pattern_get_surface(pattern, &surface) == CAIRO_STATUS_SUCCESS, let surface,
      let image = cairo_surface_map_to_image(surface, nil)
    {
      let w = Int(cairo_image_surface_get_width(image))
      let h = Int(cairo_image_surface_get_height(image))
      let stride = Int(cairo_image_surface_get_stride(image))
      if let data = cairo_image_surface_get_data(image),
        cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32
      {
        let r = UInt32((tint.red * 255).rounded()), g = UInt32((tint.green * 255).rounded())
        let b = UInt32((tint.blue * 255).rounded())
        for y in 0..<h {
          (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: w) { row in
            for x in 0..<w {
              let p = row[x]
              guard p != 0 else { continue }
              let pr = (((p >> 16) & 0xFF) * r + 127) / 255
              let pg = (((p >> 8) & 0xFF) * g + 127) / 255
              let pb = ((p & 0xFF) * b + 127) / 255
              row[x] = (p & 0xFF00_0000) | pr << 16 | pg << 8 | pb
            }
          }
        }
      }
      cairo_surface_unmap_image(surface, image)
      cairo_surface_mark_dirty(surface)
    }
    cairo_set_source(cr, pattern)
    cairo_paint_with_alpha(cr, Swift.min(1, Swift.max(0, tint.alpha)))
    recording?.add("ungroup-tinted", [tint.red, tint.green, tint.blue, tint.alpha])
  }

  // MARK: Shadows

  /// The alpha of what `draw` draws on a fresh transparent canvas covering the frame's pixels
  /// (`framePixelSize`) grown by `margin` pixels on every side, whose device transform is
  /// `linear` plus a translation putting the drawing's origin on the frame pixel `origin`
  /// rounded to whole pixels; cropped to the drawn pixels (`.empty` when nothing is drawn or
  /// the origin lies past any canvas). The mask's origin is relative to that whole-pixel
  /// origin. `touchesEdge` says whether drawing reached the canvas's edge (and so may have
  /// been cut).
  ///
  /// The region depends only on the frame, never on the canvas asking: a shape drawn inside
  /// another shape's pass is rasterised exactly as in the frame's own pass. When that region
  /// has more pixels than a canvas may (a frame near the size limits, with a wide blur), or
  /// when `cutsToContent` (the caller knows `content()` to be exact), it is cut to
  /// `content()`, the box in this canvas's device pixels that holds everything `draw` draws,
  /// grown by two pixels (the pixels are the same: the grid is the frame's). When even that
  /// is over the limits (a shape covering a frame at the size limits), it is
  /// drawn at the highest density under them (`.drawnAtDensity`: the blur and the placement
  /// scale it back); `.tooLarge` only below a density of 1/64. A `density` below 1 (device
  /// pixels to the frame's pixel) draws it at most that dense whatever its size: a shape whose
  /// blur will run at a lower density anyway (`.drawnAtDensity`).
  ///
  /// `admit` is called with the pixels of the canvas about to be made, before it is made (it
  /// may refuse them by throwing); they are counted among the open groups' pixels
  /// (`DashTally.openGroupPixels`) while `draw` draws: a shape's canvas is held while the
  /// layer's subtree, and the shapes of the shadows inside it, draw into it.
  public func makeAlphaMask<E: Error>(
    linear: AffineTransform, origin: Point, margin: Int, content: () -> Rect? = { nil },
    cutsToContent: Bool = false, density: Double = 1, admit: ((Int) throws(E) -> Void)? = nil,
    _ draw: (Canvas) throws(E) -> Void
  ) throws(E) -> AlphaMaskOutcome {
    try makeAlphaMask(
      linear: linear, origin: origin, margin: margin, content: content,
      cutsToContent: cutsToContent, pixelLimit: Canvas.maximumPixelCount, density: density,
      admit: admit, draw)
  }

  /// `makeAlphaMask(linear:origin:margin:content:cutsToContent:density:admit:_:)` with
  /// canvases of at most `pixelLimit` pixels (for tests of the lowered density at small sizes).
  package func makeAlphaMask<E: Error>(
    linear: AffineTransform, origin: Point, margin: Int, content: () -> Rect? = { nil },
    cutsToContent: Bool = false, pixelLimit: Int, density wanted: Double = 1,
    admit: ((Int) throws(E) -> Void)? = nil, _ draw: (Canvas) throws(E) -> Void
  ) throws(E) -> AlphaMaskOutcome {
    // A shape whose origin is this far from the frame draws nothing in its region, unless the
    // margin (a shadow's offset and blur) brings it back: a layer 66,000 pixels off the canvas
    // whose shadowOffset brought its shadow onto it (CSS's "shadow only" trick) lost it.
    let limit = Double(Canvas.maximumSide) * 4 + Double(Swift.max(0, margin))
    guard abs(origin.x) < limit, abs(origin.y) < limit else { return .empty }
    let originX = Int(origin.x.rounded()), originY = Int(origin.y.rounded())
    let fullWidth = framePixelSize.width + 2 * margin
    let fullHeight = framePixelSize.height + 2 * margin
    // The part of the region drawn in: all of it, or the content's pixels within it.
    var (left, top, w, h) = (0, 0, fullWidth, fullHeight)
    func fits(_ w: Int, _ h: Int) -> Bool {
      w <= Canvas.maximumSide && h <= Canvas.maximumSide && w * h <= pixelLimit
    }
    // Cut to what is drawn when the region is over the limits, or when asked (a small
    // layer's shape in a large frame: 10,000 shadowed layers of different sizes in a frame of
    // 3 megapixels each made a canvas of the whole frame, and took 20 s). Device pixels of the
    // content's box in this canvas to the region's: the frame offset, then the margin.
    let lowered = wanted > 0 && wanted < 1
    if cutsToContent || lowered || !fits(w, h), let box = content(),
      case let x0 = (box.minX + frameOffset.x).rounded(.down),
      case let y0 = (box.minY + frameOffset.y).rounded(.down),
      case let x1 = (box.maxX + frameOffset.x).rounded(.up),
      case let y1 = (box.maxY + frameOffset.y).rounded(.up),
      x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite
    {
      let x0 = x0 + Double(margin) - 2, y0 = y0 + Double(margin) - 2
      let x1 = x1 + Double(margin) + 2, y1 = y1 + Double(margin) + 2
      left = Int(Swift.max(0, Swift.min(Double(fullWidth), x0)))
      top = Int(Swift.max(0, Swift.min(Double(fullHeight), y0)))
      w = Int(Swift.max(0, Swift.min(Double(fullWidth), x1))) - left
      h = Int(Swift.max(0, Swift.min(Double(fullHeight), y1))) - top
      guard w > 0, h > 0 else { return .empty }
    }
    // Over the limits even cut: drawn at the density that fits (the grid is then not the
    // frame's, so such a shape is not shared with other passes).
    var density = lowered ? wanted : 1.0
    var (sw, sh) = (w, h)
    if !fits(w, h) {
      let side = Double(Canvas.maximumSide)
      density = Swift.min(
        density,
        Swift.min(
          side / Double(w), side / Double(h),
          (Double(pixelLimit) / (Double(w) * Double(h))).squareRoot()) * 0.999)
    }
    if density != 1 {
      sw = Int((Double(w) * density).rounded(.up))
      sh = Int((Double(h) * density).rounded(.up))
      guard density >= 1.0 / 64, fits(sw, sh) else { return .tooLarge(width: w, height: h) }
    }
    try admit?(sw * sh)
    let canvas: Canvas
    do {
      canvas = try Canvas(pixelWidth: sw, pixelHeight: sh, scale: 1)
    } catch {
      return .unavailable(error)
    }
    canvas.framePixelSize = framePixelSize
    canvas.frameOffset = Point(
      x: origin.x - Double(originX + margin - left), y: origin.y - Double(originY + margin - top))
    canvas.effectNesting = effectNesting
    canvas.offscreenPixelLimit = offscreenPixelLimit
    canvas.dashTally = dashTally
    if density != 1 {
      canvas.concatenate(AffineTransform(a: density, b: 0, c: 0, d: density, tx: 0, ty: 0))
    }
    canvas.concatenate(
      AffineTransform(
        a: linear.a, b: linear.b, c: linear.c, d: linear.d,
        tx: Double(originX + margin - left), ty: Double(originY + margin - top)))
    try holding(Double(sw * sh)) { () throws(E) in try draw(canvas) }
    cairo_surface_flush(canvas.surface)
    guard let data = cairo_image_surface_get_data(canvas.surface) else {
      return .unavailable(.cairo("the surface has no pixels"))
    }
    let stride = Int(cairo_image_surface_get_stride(canvas.surface))
    var minX = sw, minY = sh, maxX = -1, maxY = -1
    for y in 0..<sh {
      let row = data + y * stride
      for x in 0..<sw where row[x * 4 + 3] != 0 {
        minX = Swift.min(minX, x)
        maxX = Swift.max(maxX, x)
        minY = Swift.min(minY, y)
        maxY = Swift.max(maxY, y)
      }
    }
    guard maxX >= 0 else { return .empty }
    let cw = maxX - minX + 1, ch = maxY - minY + 1
    var pixels = [UInt8](repeating: 0, count: cw * ch)
    for y in 0..<ch {
      let row = data + (y + minY) * stride
      for x in 0..<cw { pixels[y * cw + x] = row[(x + minX) * 4 + 3] }
    }
    let touches = minX == 0 || minY == 0 || maxX == sw - 1 || maxY == sh - 1
    if density != 1 {
      // The drawing's origin in the canvas's pixels: the mask's origin is relative to it.
      let ox = Double(originX + margin - left) * density
      let oy = Double(originY + margin - top) * density
      let mask = AlphaMask(width: cw, height: ch, pixels: pixels)
      return .drawnAtDensity(
        mask, origin: Point(x: Double(minX) - ox, y: Double(minY) - oy), density: density,
        touchesEdge: touches)
    }
    let mask = AlphaMask(
      width: cw, height: ch, originX: minX + left - margin - originX,
      originY: minY + top - margin - originY, pixels: pixels)
    return .drawn(mask, touchesEdge: touches)
  }

  /// Fills `color` through `mask`, whose pixel (0, 0) sits at device pixel `(x, y)` (which may
  /// be fractional: the mask is then resampled bilinearly). The clip applies.
  ///
  /// The pixels are Cairo's for `cairo_mask_surface` at `(x, y)` (its bilinear filter, which
  /// Pixman runs through a general per-pixel path, about seven times slower), but the mask is
  /// resampled here, exactly as Pixman does it (`AlphaMask.placed(atDeviceX:y:)`), and drawn
  /// at a whole pixel, which Pixman composites on its fast path.
  public func fill(_ mask: AlphaMask, atDeviceX x: Double, y: Double, with color: Color) {
    fill(mask, atDeviceX: x, y: y, with: color, resamplingInCairo: false)
  }

  /// `fill(_:atDeviceX:y:with:)`, with the resampling left to Cairo when `resamplingInCairo`
  /// (the reference the tests compare against).
  func fill(
    _ mask: AlphaMask, atDeviceX x: Double, y: Double, with color: Color, resamplingInCairo: Bool
  ) {
    guard mask.width > 0, mask.height > 0 else { return }
    var drawn = mask, placeX = x, placeY = y
    if !resamplingInCairo, let placed = mask.placed(atDeviceX: x, y: y) {
      (drawn, placeX, placeY) = (placed.mask, Double(placed.x), Double(placed.y))
    }
    paint(drawn, atDeviceX: placeX, y: placeY, with: color)
    recording?.add(
      "shadow",
      [
        Double(mask.width), Double(mask.height), x, y, color.red, color.green, color.blue,
        color.alpha,
      ])
  }

  /// `cairo_mask_surface` of `mask` at device pixel `(x, y)` in `color` (no copy when its rows
  /// are a multiple of 4 bytes long).
  private func paint(_ mask: AlphaMask, atDeviceX x: Double, y: Double, with color: Color) {
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(mask.width)))
    func paint(_ surface: OpaquePointer) {
      cairo_save(cr)
      cairo_identity_matrix(cr)
      setSource(color)
      cairo_mask_surface(cr, surface, x, y)
      cairo_restore(cr)
    }
    if stride == mask.width {
      // Cairo reads the mask's own pixels (it never writes a mask source) while they are pinned.
      mask.pixels.withUnsafeBufferPointer { p in
        guard
          let surface = cairo_image_surface_create_for_data(
            UnsafeMutablePointer(mutating: p.baseAddress!), CAIRO_FORMAT_A8, Int32(mask.width),
            Int32(mask.height), Int32(stride))
        else { return }
        paint(surface)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
      }
    } else {
      guard
        let surface = cairo_image_surface_create(
          CAIRO_FORMAT_A8, Int32(mask.width), Int32(mask.height))
      else { return }
      defer { cairo_surface_destroy(surface) }
      guard let data = cairo_image_surface_get_data(surface) else { return }
      mask.pixels.withUnsafeBufferPointer { src in
        for row in 0..<mask.height {
          (data + row * stride).update(from: src.baseAddress! + row * mask.width, count: mask.width)
        }
      }
      cairo_surface_mark_dirty(surface)
      paint(surface)
    }
  }
}
