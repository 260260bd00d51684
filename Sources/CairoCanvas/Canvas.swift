import CCairo
import Geometry
import Glibc

/// A drawing surface: an ARGB32 Cairo image surface of a fixed pixel size, drawn on in points.
///
/// The canvas keeps Core Graphics' model: a current transform (points, y down, already scaled
/// by `scale`), a state stack (`save`/`restore`), a fill and a stroke color and a stroke style
/// that the state stack saves too. Offscreen canvases are ordinary canvases: draw into one, then
/// draw it into another with `draw(_:in:)` or read it out with `makeBitmap()`.
///
/// ```swift
/// let canvas = try Canvas(size: Size(40, 40), scale: 2)
/// canvas.strokeColor = .gray
/// canvas.strokeStyle.lineWidth = 6
/// canvas.stroke(Path(arcCenter: Point(20, 20), radius: 10, startAngle: 0, endAngle: 1, clockwise: true))
/// let pixels = canvas.makeBitmap()
/// ```
public final class Canvas {
  /// The longest side, in pixels, that a canvas may have: 16384.
  public static let maximumSide = 16384
  /// The most pixels a canvas may have: 64 megapixels (64,000,000).
  public static let maximumPixelCount = 64_000_000

  let surface: OpaquePointer
  let cr: OpaquePointer

  /// The width, in pixels.
  public let pixelWidth: Int
  /// The height, in pixels.
  public let pixelHeight: Int
  /// Pixels per point: a 40-point canvas at scale 2 is 80 pixels wide.
  public let scale: Double

  /// The color `fill` uses when none is given (default opaque black). Saved by `save()`.
  public var fillColor: Color = .black
  /// The color `stroke` uses when none is given (default opaque black). Saved by `save()`.
  public var strokeColor: Color = .black
  /// The stroke width, caps, joins and dashes `stroke` uses. Saved by `save()`.
  public var strokeStyle = StrokeStyle()

  private var savedStates:
    [(
      Color, Color, StrokeStyle, refused: Bool, overflowed: Bool, refusedTransform: AffineTransform?
    )] =
      []
  /// Whether a transform Cairo would not take was concatenated since the last `save()` that is
  /// still open (see `concatenate(_:)`): nothing drawn until the matching `restore()` shows.
  private var transformRefused = false
  /// The transform `concatenate` refused, while it is in force (`nil` when none is): the
  /// product it would have made.
  public private(set) var refusedTransform: AffineTransform? = nil
  /// Whether that transform was refused for an area scale past the range of `Double` rather
  /// than for collapsing the plane or lying off at infinity: a layer that would cover the
  /// frame, which the caller reports rather than leaving it out without a word.
  public private(set) var transformOverflowed = false
  /// The display list being recorded, if any (see `Canvas+Recording.swift`).
  var recording: DisplayList? = nil
  /// The last swept stroke made (`sweptStroke(of:style:)`), for the stroke that follows its
  /// work's count.
  var lastSweptStroke: (key: SweptOutlineKey, stroke: SweptStroke)? = nil
  /// Premultiplied surfaces of the bitmaps drawn lately (Canvas+Images.swift).
  let imageSurfaces = ImageSurfaceCache()
  /// Pixels computed before they are composited (Canvas+Plane.swift).
  let scratchPixels = ScratchPixels()

  /// Where this canvas's device space lies in the frame's: a frame pixel is at this canvas's
  /// device point plus `frameOffset` (pixels). Zero for a frame's canvas; set on the canvases
  /// `makeAlphaMask` makes, so drawing nested in them can work in the frame's pixel grid.
  package var frameOffset = Point.zero
  /// The pixel size of the frame this canvas helps draw: its own size for a frame's canvas.
  package var framePixelSize: (width: Int, height: Int)
  /// How many effect passes the drawing on this canvas is nested in: the renderer counts the
  /// shadowed layers around what it draws here, and canvases made for a shadow's shape start
  /// from their parent's count (see `LayerRenderer`'s nesting limit).
  package var effectNesting = 0
  /// The most pixels an offscreen canvas made while drawing on this one may have: the whole
  /// limit for a frame's canvas; offscreen canvases (planes in perspective, shadow shapes)
  /// carry their maker's budget, so nested ones do not grow the budget level by level.
  package var offscreenPixelLimit = Canvas.maximumPixelCount
  /// The dashes stroked so far for the frame this canvas helps draw, shared with the offscreen
  /// canvases made for it (the renderer holds them to `StrokeStyle.maximumDashCountPerFrame`).
  package var dashTally = DashTally()
  /// While a plane in perspective is drawn straight onto this canvas (`beginPlane(_:)`), the
  /// projective map from the plane's space (user space after the current transform) to device
  /// pixels; `nil` otherwise (Canvas+Plane.swift).
  package internal(set) var projection: Homography? = nil

  /// Creates a transparent canvas of `pixelWidth` x `pixelHeight` pixels whose user space is in
  /// points (`scale` pixels each).
  ///
  /// - Throws: `CanvasError.sizeOutOfRange` past `maximumSide` or `maximumPixelCount`.
  public convenience init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1) throws(CanvasError)
  {
    try self.init(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, zeroed: true)
  }

  /// Creates a canvas `size` points large at `scale` pixels per point whose every pixel is
  /// `color` (transparent for `nil`), as `clear(to:)` leaves it: a frame's canvas. Its memory is
  /// not zeroed first, since the clear writes every pixel (zeroing was about a twentieth of a
  /// small frame's time).
  ///
  /// - Throws: `CanvasError.sizeOutOfRange` past `maximumSide` or `maximumPixelCount`.
  package convenience init(size: Size, scale: Double, clearedTo color: Color?) throws(CanvasError) {
    let (width, height) = try Canvas.pixelSize(of: size, scale: scale)
    try self.init(pixelWidth: width, pixelHeight: height, scale: scale, zeroed: false)
    clear(to: color)
  }

  private init(pixelWidth: Int, pixelHeight: Int, scale: Double, zeroed: Bool) throws(CanvasError) {
    guard pixelWidth > 0, pixelHeight > 0, pixelWidth <= Canvas.maximumSide,
      pixelHeight <= Canvas.maximumSide,
      pixelWidth * pixelHeight <= Canvas.maximumPixelCount
    else { throw .sizeOutOfRange(width: pixelWidth, height: pixelHeight) }
    precondition(
      scale > 0 && scale.isFinite, "Canvas scale must be positive and finite, got \(scale)")
    guard
      let surface = zeroed
        ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))
        : Canvas.makeUninitializedSurface(width: pixelWidth, height: pixelHeight)
    else {
      throw .cairo("could not create a surface")
    }
    if let error = Canvas.failure(cairo_surface_status(surface)) {
      cairo_surface_destroy(surface)
      throw error
    }
    guard let cr = cairo_create(surface) else {
      cairo_surface_destroy(surface)
      throw .cairo("could not create a context")
    }
    self.surface = surface
    self.cr = cr
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.scale = scale
    self.framePixelSize = (pixelWidth, pixelHeight)
    cairo_scale(cr, scale, scale)
  }

  /// Creates a transparent canvas `size` points large at `scale` pixels per point; the pixel
  /// size is rounded to the nearest whole pixel.
  public convenience init(size: Size, scale: Double = 1) throws(CanvasError) {
    let (width, height) = try Canvas.pixelSize(of: size, scale: scale)
    try self.init(pixelWidth: width, pixelHeight: height, scale: scale, zeroed: true)
  }

  /// `size` points at `scale` in whole pixels, each side within `maximumSide`.
  private static func pixelSize(of size: Size, scale: Double) throws(CanvasError) -> (Int, Int) {
    let w = (size.width * scale).rounded(), h = (size.height * scale).rounded()
    guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= Double(Canvas.maximumSide),
      h <= Double(Canvas.maximumSide)
    else {
      throw .sizeOutOfRange(
        width: w.isFinite ? Int(Swift.max(-1e9, Swift.min(1e9, w))) : 0,
        height: h.isFinite ? Int(Swift.max(-1e9, Swift.min(1e9, h))) : 0)
    }
    return (Int(w), Int(h))
  }

  /// The key under which a surface keeps the memory it frees (cairo compares its address).
  private static let ownedPixelsKey = Int(
    bitPattern: UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1))

  /// An ARGB32 image surface over memory of Flipbook's own, not zeroed; the surface frees it
  /// when it is destroyed (its last reference, which may outlive the canvas). `nil` when the
  /// memory or the surface cannot be had.
  private static func makeUninitializedSurface(width: Int, height: Int) -> OpaquePointer? {
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
    guard stride > 0, let pixels = malloc(stride * height) else { return nil }
    guard
      let surface = cairo_image_surface_create_for_data(
        pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width),
        Int32(height), Int32(stride))
    else {
      free(pixels)
      return nil
    }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
      cairo_surface_set_user_data(
        surface, UnsafePointer(bitPattern: ownedPixelsKey), pixels, { free($0) })
        == CAIRO_STATUS_SUCCESS
    else {
      cairo_surface_destroy(surface)
      free(pixels)
      return nil
    }
    return surface
  }

  deinit {
    cairo_destroy(cr)
    cairo_surface_destroy(surface)
  }

  static func failure(_ status: cairo_status_t) -> CanvasError? {
    guard status != CAIRO_STATUS_SUCCESS else { return nil }
    return .cairo(String(cString: cairo_status_to_string(status)))
  }

  /// The canvas size in points.
  public var size: Size {
    Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale)
  }

  // MARK: State

  /// Pushes the transform, clip, colors and stroke style (`CGContextSaveGState`).
  public func save() {
    cairo_save(cr)
    savedStates.append(
      (fillColor, strokeColor, strokeStyle, transformRefused, transformOverflowed, refusedTransform)
    )
    recording?.add("save")
  }

  /// Pops what the matching `save()` pushed (`CGContextRestoreGState`).
  public func restore() {
    guard let state = savedStates.popLast() else {
      preconditionFailure("Canvas.restore() without a matching save()")
    }
    cairo_restore(cr)
    (fillColor, strokeColor, strokeStyle, transformRefused, transformOverflowed, refusedTransform) =
      state
    recording?.add("restore")
  }

  /// Runs `body` between `save()` and `restore()`.
  public func withSavedState<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    save()
    defer { restore() }
    return try body()
  }

  /// Applies `transform` before the current transform (`CGContextConcatCTM`): what is drawn next
  /// is mapped by `transform`, then by what was current.
  ///
  /// Cairo takes no transform whose determinant is not a finite nonzero number, and one it
  /// refuses stops the whole canvas from drawing: such a transform is not given to it. What is
  /// drawn next then shows nothing (`hasDrawableTransform` is false until the matching
  /// `restore()`), and when the refusal is an area scale past the range of `Double` (a scale of
  /// 1e155, whose square overflows) `transformOverflowed` says so, for the caller to report.
  public func concatenate(_ transform: AffineTransform) {
    var m = cairo_matrix_t(
      xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d, x0: transform.tx,
      y0: transform.ty)
    recording?.add(
      "transform", [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty])
    // A subnormal linear term (a turn of 1e-310 radians, a shear of 1e-306) moves nothing by a
    // pixel, but Cairo cannot be given it (see `hasDrawableTransform`): it is taken as 0, in
    // the transform and in the product, where the layer vanished without a word.
    func flushed(_ x: Double) -> Double { x.isSubnormal ? 0 : x }
    (m.xx, m.yx, m.xy, m.yy) = (flushed(m.xx), flushed(m.yx), flushed(m.xy), flushed(m.yy))
    var current = cairo_matrix_t()
    cairo_get_matrix(cr, &current)
    var product = cairo_matrix_t()
    cairo_matrix_multiply(&product, &m, &current)
    (product.xx, product.yx, product.xy, product.yy) = (
      flushed(product.xx), flushed(product.yx), flushed(product.xy), flushed(product.yy)
    )
    let linear = [product.xx, product.yx, product.xy, product.yy]
    // A turned or sheared transform Cairo takes but cannot invert twice in doubles: a group
    // drawn under `[1e300, 0, 1e15, 1e-300]` (determinant 1) failed an assertion in
    // `_cairo_pattern_get_extents` and aborted (`Canvas.patternInverts`).
    let stretched = !Canvas.patternInverts(product)
    // A translation past a double (a layer scaled 1e307 about its centre: 20 - 20 × 1e307)
    // draws nothing where it was given to Cairo: refused, as overflowing.
    let placed = product.x0.isFinite && product.y0.isFinite
    guard !transformRefused, !stretched, placed, Canvas.cairoInverts(m),
      Canvas.cairoInverts(product)
    else {
      // Past the range of a double (an infinite term, not a NaN one) or an area scale past it.
      // Given past it (a layer's own placement overflowed); a product past it is a layer
      // placed off at infinity, not drawn without a word.
      let infinite = ![m.xx, m.yx, m.xy, m.yy, m.x0, m.y0].allSatisfy(\.isFinite)
      if infinite
        || (linear.allSatisfy(\.isFinite)
          && (stretched || !(product.xx * product.yy - product.yx * product.xy).isFinite)
          && transform.isInvertible)
      {
        transformOverflowed = true
      }
      // The first refused product, for the caller to judge: a layer shrunk until its area
      // scale underflows to 0 (a scale of 1e-200) is refused here, not given to Cairo.
      if !transformRefused {
        refusedTransform = AffineTransform(
          a: product.xx, b: product.yx, c: product.xy, d: product.yy, tx: product.x0,
          ty: product.y0)
      }
      transformRefused = true
      return
    }
    cairo_set_matrix(cr, &product)
  }

  /// The largest entry a turned or sheared transform may have on the canvas, about 1.3e154:
  /// its square is still a double, so the lengths Cairo computes from it are.
  static let largestTransformEntry = Double.greatestFiniteMagnitude.squareRoot()

  /// Whether Cairo can use `m` for a group's pattern, which `_cairo_pattern_get_extents`
  /// inverts and inverts again: a scale alone (no turn or shear) Cairo inverts by division,
  /// always; otherwise each entry must be at most `largestTransformEntry` (Cairo's scale
  /// factors, the columns' lengths, square them) and the adjoint's translation (products of
  /// entries and translations) finite.
  static func patternInverts(_ m: cairo_matrix_t) -> Bool {
    if m.xy == 0 && m.yx == 0 { return true }
    guard
      [m.xx, m.yx, m.xy, m.yy].allSatisfy({ $0.isFinite && abs($0) <= largestTransformEntry })
    else { return false }
    return [m.xy * m.y0, m.yy * m.x0, m.yx * m.x0, m.xx * m.y0].allSatisfy(\.isFinite)
  }

  /// Whether Cairo accepts `m` as a transform: its determinant a finite nonzero number
  /// (`_cairo_matrix_is_invertible`).
  private static func cairoInverts(_ m: cairo_matrix_t) -> Bool {
    let det = m.xx * m.yy - m.yx * m.xy
    return det.isFinite && det != 0
  }

  /// Moves the origin by `(x, y)` points.
  public func translateBy(x: Double, y: Double) { concatenate(.translation(x: x, y: y)) }
  /// Scales user space by `(x, y)`.
  public func scaleBy(x: Double, y: Double) { concatenate(.scale(x: x, y: y)) }
  /// Rotates user space by `angle` radians (clockwise on screen for positive angles).
  public func rotate(byRadians angle: Double) { concatenate(.rotation(angle)) }

  /// Whether the current transform can be inverted; drawing with a degenerate transform (a scale
  /// of 0) draws nothing.
  public var hasInvertibleTransform: Bool {
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    return m.xx * m.yy - m.yx * m.xy != 0
  }

  /// Whether what is drawn next can show at all through the current transform: every term
  /// finite, the linear terms zero or normal numbers (not subnormal), and the area scale (the
  /// determinant) at least 10^-100. A transform that fails this maps a layer off to infinity
  /// or squeezes it far under a pixel: it draws nothing, and Cairo cannot be given it (a
  /// subnormal scale fails an assertion in its pattern extents, or loops in its stroker).
  public var hasDrawableTransform: Bool {
    guard !transformRefused else { return false }
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    func usable(_ term: Double) -> Bool { term == 0 || term.isNormal }
    guard usable(m.xx), usable(m.yx), usable(m.xy), usable(m.yy), m.x0.isFinite, m.y0.isFinite
    else { return false }
    let det = m.xx * m.yy - m.yx * m.xy
    return det.isFinite && Swift.abs(det) >= 1e-100
  }

  // MARK: Paths

  /// Sets Cairo's path to `path`: through the plane's map inside a plane (Canvas+Plane.swift),
  /// cut to the box Cairo's fixed point holds when it reaches past it (Canvas+SafePath.swift,
  /// `stroke` saying how the path is drawn), otherwise as it is.
  func setPath(_ path: Path, stroke: StrokeStyle? = nil) {
    if let projection {
      setProjectedPath(path, through: Homography(deviceTransform).concatenating(projection))
      return
    }
    guard isWithinSafeRange(path) else {
      setSafePath(path, stroke: stroke)
      return
    }
    cairo_new_path(cr)
    var current = Point.zero
    for element in path.elements {
      switch element {
      case .move(let p):
        cairo_move_to(cr, p.x, p.y)
        current = p
      case .line(let p):
        cairo_line_to(cr, p.x, p.y)
        current = p
      case .quadCurve(let p, let c):
        // Degree elevation: the cubic with the same shape.
        let c1 = current + (c - current) * (2.0 / 3.0)
        let c2 = p + (c - p) * (2.0 / 3.0)
        cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
        current = p
      case .curve(let p, let c1, let c2):
        cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
        current = p
      case .closeSubpath:
        cairo_close_path(cr)
        var x = 0.0, y = 0.0
        cairo_get_current_point(cr, &x, &y)
        current = Point(x: x, y: y)
      }
    }
  }

  func setSource(_ color: Color) {
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
  }

  /// Fills the inside of `path` with `color` (or `fillColor`), by `rule`.
  public func fill(_ path: Path, with color: Color? = nil, rule: FillRule = .nonZero) {
    guard !path.isEmpty else { return }
    setPath(path)
    let color = color ?? fillColor
    setSource(color)
    cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    cairo_fill(cr)
    recording?.add(path)
    recording?.add(
      "fill", [color.red, color.green, color.blue, color.alpha, rule == .evenOdd ? 1 : 0])
  }

  /// Fills `rect` with `color` (or `fillColor`).
  public func fill(_ rect: Rect, with color: Color? = nil) {
    fill(Path(rect: rect), with: color)
  }

  /// Strokes `path` with `color` (or `strokeColor`) and `style` (or `strokeStyle`). Inside a
  /// plane in perspective (`beginPlane(_:)`) nothing is stroked: the renderer draws planes with
  /// strokes offscreen.
  public func stroke(_ path: Path, with color: Color? = nil, style: StrokeStyle? = nil) {
    guard !path.isEmpty, projection == nil else { return }
    let style = style ?? strokeStyle
    guard style.lineWidth > 0 else { return }
    // A line too wide for Cairo's stroker covers all the canvas it can reach at the widest it
    // draws: its path is then cut to the box round the canvas as a far-reaching one is.
    let width = safeLineWidth(style.lineWidth)
    // Curves bending tighter than half the width are stroked as chords (Cairo turns their
    // inner side inside out: `Path.flatteningCurves(tighterThan:tolerance:)`), within Cairo's
    // own tolerance of a tenth of a device pixel.
    let stretch = deviceStretch
    // Open sub-paths whose curves bend tighter than half the width are filled as the region
    // their width sweeps (`sweptStroke(of:style:)`), joined with Cairo's stroke of the rest
    // in one group when there is a rest, so that where they overlap they are drawn once.
    var path = path
    if let sweep = sweptStroke(of: path, style: style), let outline = sweep.outline {
      let color = color ?? strokeColor
      if recording != nil {
        let flattened = path.flatteningCurves(tighterThan: width / 2, tolerance: 0.1 / stretch)
        recordStroke(flattened, color: color, style: style)
      }
      guard !sweep.rest.isEmpty else {
        setPath(outline)
        setSource(color)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
        return
      }
      cairo_save(cr)
      cairo_rectangle(
        cr, sweep.box.minX, sweep.box.minY, sweep.box.width, sweep.box.height)
      cairo_clip(cr)
      cairo_push_group(cr)
      let opaque = Color(red: color.red, green: color.green, blue: color.blue, alpha: 1)
      setPath(outline)
      setSource(opaque)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
      cairo_fill(cr)
      let recorded = recording
      recording = nil
      stroke(sweep.rest, with: opaque, style: style)
      recording = recorded
      cairo_pop_group_to_source(cr)
      cairo_paint_with_alpha(cr, color.alpha)
      cairo_restore(cr)
      return
    }
    path =
      stretch > 0
      ? path.flatteningCurves(tighterThan: width / 2, tolerance: 0.1 / stretch) : path
    // A square cap, or a join, needs its sub-path's directions, which Cairo's fixed point
    // loses under 1/256 of a pixel: such sub-paths are magnified to a sixty-fourth of a pixel.
    if stretch > 0, stretch.isFinite {
      let m = deviceTransform
      path = path.magnifyingTinySubpaths(
        a: m.a, b: m.b, c: m.c, d: m.d, to: 1.0 / 64, cap: style.lineCap)
    }
    if width < style.lineWidth, projection == nil {
      setSafePath(path, stroke: style)
    } else {
      setPath(path, stroke: style)
    }
    setSource(color ?? strokeColor)
    cairo_set_line_width(cr, width)
    switch style.lineCap {
    case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
    }
    switch style.lineJoin {
    case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
    case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    }
    cairo_set_miter_limit(cr, safeMiterLimit(style.miterLimit, lineWidth: width))
    // Cairo rejects all-zero or negative dash arrays; Core Graphics then draws a solid line.
    let dashes = style.dashPattern
    if !dashes.isEmpty, dashes.allSatisfy({ $0 >= 0 && $0.isFinite }),
      dashes.contains(where: { $0 > 0 })
    {
      dashes.withUnsafeBufferPointer {
        cairo_set_dash(cr, $0.baseAddress, Int32($0.count), style.dashPhase)
      }
    } else {
      cairo_set_dash(cr, nil, 0, 0)
    }
    cairo_stroke(cr)
    recordStroke(path, color: color ?? strokeColor, style: style)
  }

  /// How a stroke of `path` in `style` is drawn when some of it is drawn as the region its
  /// width sweeps (`Path.sweptStrokeOutline`): its open sub-paths whose curves bend tighter
  /// than half the width, or, dashed, all its sub-paths with such curves (their dashes are
  /// open: `Path.dashed`), are filled as that region with the non-zero rule (`outline`; `nil`
  /// when it would be too large to make), and the rest is stroked by Cairo (`rest`, empty when
  /// none). Chords left the fan beyond such a curve's centre of curvature partly uncovered,
  /// and their end caps askew. `nil` when Cairo strokes all of it. Kept for the stroke that
  /// follows the renderer's count of its work.
  package func sweptStroke(of path: Path, style: StrokeStyle) -> SweptStroke? {
    let stretch = deviceStretch
    let width = safeLineWidth(style.lineWidth)
    // Most strokes have no such curve: told so without a look at the kept one.
    guard stretch > 0, stretch.isFinite, width > 0,
      path.hasOpenCurve(tighterThan: width / 2, orClosed: style.isDashed)
    else { return nil }
    let m = deviceTransform
    let key = SweptOutlineKey(
      path: path, style: style, linear: [m.a, m.b, m.c, m.d], width: width)
    if let kept = lastSweptStroke, kept.key == key { return kept.stroke }
    let (tight, rest) = path.separatingTightSubpaths(tighterThan: width / 2, dashed: style.isDashed)
    let swept =
      style.isDashed
      ? tight.dashed(
        pattern: style.dashPattern, phase: style.dashPhase,
        maximumDashes: StrokeStyle.maximumDashCount) : tight
    let outline = swept?.sweptStrokeOutline(
      halfWidth: width / 2, cap: style.lineCap, join: style.lineJoin,
      miterLimit: safeMiterLimit(style.miterLimit, lineWidth: width), tolerance: 0.1 / stretch)
    // The box both parts draw in, for the group that joins them.
    let reach = width / 2 * Swift.max(1, style.miterLimit) + 2 / stretch
    let stroke = SweptStroke(
      outline: outline, rest: rest, box: path.boundingBox.insetBy(dx: -reach, dy: -reach))
    lastSweptStroke = (key, stroke)
    return stroke
  }

  /// Notes a stroke of `path` (as given to Cairo, curves flattened) in the recording.
  private func recordStroke(_ path: Path, color: Color, style: StrokeStyle) {
    guard recording != nil else { return }
    let cap: Double = style.lineCap == .butt ? 0 : style.lineCap == .round ? 1 : 2
    let join: Double = style.lineJoin == .miter ? 0 : style.lineJoin == .round ? 1 : 2
    let dashes = style.isDashed ? style.dashPattern : []
    recording?.add(path)
    recording?.add(
      "stroke",
      [
        color.red, color.green, color.blue, color.alpha, style.lineWidth, cap, join,
        style.miterLimit, style.dashPhase, Double(dashes.count),
      ]
        + dashes)
  }

  /// Intersects the clip with the whole device pixels `box` touches (in this canvas's pixels,
  /// whatever the transform): a clip on the pixel grid, which changes no pixel inside it.
  package func clip(toDevicePixelsOf box: Rect) {
    var matrix = cairo_matrix_t()
    cairo_get_matrix(cr, &matrix)
    cairo_identity_matrix(cr)
    let x0 = Swift.max(0, box.minX.rounded(.down)), y0 = Swift.max(0, box.minY.rounded(.down))
    let x1 = Swift.min(Double(pixelWidth), box.maxX.rounded(.up))
    let y1 = Swift.min(Double(pixelHeight), box.maxY.rounded(.up))
    cairo_rectangle(cr, x0, y0, Swift.max(0, x1 - x0), Swift.max(0, y1 - y0))
    cairo_clip(cr)
    cairo_set_matrix(cr, &matrix)
    recording?.add("clipDevice", [x0, y0, x1, y1])
  }

  /// Intersects the clip with the inside of `path`, by `rule`.
  public func clip(to path: Path, rule: FillRule = .nonZero) {
    setPath(path)
    cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    cairo_clip(cr)
    recording?.add(path)
    recording?.add("clip", [rule == .evenOdd ? 1 : 0])
  }

  /// Replaces every pixel with `color` (transparent when `nil`), ignoring transform and clip.
  public func clear(to color: Color? = nil) {
    cairo_save(cr)
    cairo_reset_clip(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    let color = color ?? .clear
    setSource(color)
    cairo_paint(cr)
    cairo_restore(cr)
    recording?.add("clear", [color.red, color.green, color.blue, color.alpha])
  }

  // MARK: Groups

  /// The device pixels a group begun now would hold: the clip's extent, within the canvas.
  package var groupPixelCount: Double {
    cairo_save(cr)
    cairo_identity_matrix(cr)
    var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
    cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
    cairo_restore(cr)
    let w = Swift.min(x2, Double(pixelWidth)) - Swift.max(x1, 0)
    let h = Swift.min(y2, Double(pixelHeight)) - Swift.max(y1, 0)
    return Swift.max(0, w) * Swift.max(0, h)
  }

  /// Runs `body` inside a Cairo group (recorded as `label`) and returns what it returned with
  /// the group's pattern, which the caller destroys; a body that throws leaves no group open.
  func group<R, E: Error>(
    _ label: String, _ body: () throws(E) -> R
  ) throws(E) -> (R, OpaquePointer) {
    let (result, pattern, _) = try countedGroup(label, body)
    return (result, pattern)
  }

  /// `group(_:_:)`, also returning the device pixels the group holds (counted among the open
  /// groups' pixels, `DashTally.openGroupPixels`, while `body` runs), for a caller that keeps
  /// the pattern while it draws more and must count it as open meanwhile.
  func countedGroup<R, E: Error>(
    _ label: String, _ body: () throws(E) -> R
  ) throws(E) -> (R, OpaquePointer, pixels: Double) {
    let pixels = groupPixelCount
    dashTally.openGroupPixels += pixels
    defer { dashTally.openGroupPixels -= pixels }
    cairo_push_group(cr)
    recording?.add(label)
    let result: R
    do {
      result = try body()
    } catch {
      cairo_pattern_destroy(cairo_pop_group(cr))
      throw error
    }
    return (result, cairo_pop_group(cr), pixels)
  }

  /// Runs `body` with `pixels` more counted among the open groups' pixels: a group's pattern
  /// kept while `body` draws into other groups (a mask's content, held while its mask draws:
  /// 250 layers each masked by the next peaked at 2 GB with half of their groups counted).
  func holding<R, E: Error>(_ pixels: Double, _ body: () throws(E) -> R) throws(E) -> R {
    dashTally.openGroupPixels += pixels
    defer { dashTally.openGroupPixels -= pixels }
    return try body()
  }

  /// Draws what `body` draws into a transparency group, then composites the group with
  /// `opacity` (0...1): overlapping parts do not show through each other, as Core Animation's
  /// group opacity.
  public func drawInTransparencyGroup<R, E: Error>(
    opacity: Double, _ body: () throws(E) -> R
  ) throws(E) -> R {
    let (result, pattern) = try group("group", body)
    cairo_set_source(cr, pattern)
    cairo_pattern_destroy(pattern)
    cairo_paint_with_alpha(cr, Swift.min(1, Swift.max(0, opacity)))
    recording?.add("ungroup", [Swift.min(1, Swift.max(0, opacity))])
    return result
  }
}

/// A count shared by the canvases that draw one frame: the dashes stroked in it, and the
/// offscreen work done for it.
package final class DashTally {
  /// The dashes counted so far.
  package var dashes = 0.0
  /// The pixels of the offscreen groups made so far (opacity, blend modes, filters, masks,
  /// tints, shadows' shapes).
  package var groupPixels = 0.0
  /// The pixels filters went over so far (a group's pixels once for each filter on it).
  package var filterPixels = 0.0
  /// The pixels of the groups open now, one inside another (each holds its pixels until it
  /// closes).
  package var openGroupPixels = 0.0
  /// The work of the fills and strokes of paths so far (`LayerRenderer.pathWork`).
  package var pathWork = 0.0
  /// The text laid out so far, in characters (`TextLayout.maximumCharactersPerFrame`).
  package var text = TextLayout.Tally()
  /// The layers drawn so far (`LayerRenderer.maximumDrawnLayersPerFrame`).
  package var drawnLayers = 0
  /// The layers visited so far finding where grouped layers draw
  /// (`LayerRenderer.maximumBoxLayersPerFrame`).
  package var boxLayers = 0
  /// Creates a tally at zero.
  package init() {}
}

extension Path {
  /// The path with each sub-path that spans less than `minimum` device pixels under the linear
  /// map `(a, b, c, d)` (but not none: all its points at one place) magnified about its start
  /// to span `minimum`, where what Cairo strokes depends on its directions: a closed sub-path
  /// (its joins), an open one with square caps (their direction) or with joins (two segments
  /// or more, and caps other than round, which Cairo draws as a dot either way). Cairo keeps
  /// coordinates to 1/256 of a pixel and strokes a sub-path whose points fall on one place as
  /// a round cap's dot or nothing: `M 50 50 L 50.001 50` drew no square cap, and a 0.001 x
  /// 0.001 rectangle stroked 20 wide drew nothing where 0.005 drew a 20 x 20 square. Measured
  /// in device pixels, so a segment squeezed by a layer's scale along its direction is found
  /// too. The stroke's outline moves by at most `minimum`. The path itself, not copied, when
  /// no sub-path is that small (strokes pay one pass, no allocation).
  func magnifyingTinySubpaths(
    a: Double, b: Double, c: Double, d: Double, to minimum: Double, cap: LineCap
  ) -> Path {
    guard minimum > 0, minimum.isFinite else { return self }
    /// How much to magnify the sub-path `elements[start..<end]`, or `nil` to keep it.
    func factor(_ start: Int, _ end: Int) -> Double? {
      guard end - start > 1, case .move(let from) = elements[start] else { return nil }
      var widest = 0.0, segments = 0, closed = false
      /// The device distance of `q` from the start, noted; false when it is `minimum` or more.
      func near(_ q: Point) -> Bool {
        let (dx, dy) = (q.x - from.x, q.y - from.y)
        let (x, y) = (a * dx + c * dy, b * dx + d * dy)
        let distance = (x * x + y * y).squareRoot()
        guard distance < minimum else { return false }
        widest = Swift.max(widest, distance)
        return true
      }
      for e in elements[(start + 1)..<end] {
        switch e {
        case .closeSubpath: closed = true
        case .move(let q), .line(let q):
          guard near(q) else { return nil }
          segments += 1
        case .quadCurve(let q, let c):
          guard near(c), near(q) else { return nil }
          segments += 1
        case .curve(let q, let c1, let c2):
          guard near(c1), near(c2), near(q) else { return nil }
          segments += 1
        }
      }
      guard widest > 0, closed || cap == .square || (segments > 1 && cap != .round) else {
        return nil
      }
      let f = minimum / widest
      return f.isFinite ? f : nil
    }
    // Sub-paths start at each move; only a sub-path of tiny extent is rebuilt.
    var starts = elements.indices.filter { if case .move = elements[$0] { true } else { false } }
    starts.append(elements.count)
    var out: Path? = nil
    var copied = 0
    for (start, end) in zip(starts, starts.dropFirst()) {
      guard let f = factor(start, end), case .move(let from) = elements[start] else { continue }
      func grown(_ q: Point) -> Point {
        Point(x: from.x + (q.x - from.x) * f, y: from.y + (q.y - from.y) * f)
      }
      if out == nil { out = Path() }
      for e in elements[copied..<start] { out!.append(e) }
      for e in elements[start..<end] {
        switch e {
        case .move(let q): out!.move(to: grown(q))
        case .line(let q): out!.addLine(to: grown(q))
        case .quadCurve(let q, let c): out!.addQuadCurve(to: grown(q), control: grown(c))
        case .curve(let q, let c1, let c2):
          out!.addCurve(to: grown(q), control1: grown(c1), control2: grown(c2))
        case .closeSubpath: out!.closeSubpath()
        }
      }
      copied = end
    }
    guard var result = out else { return self }
    for e in elements[copied...] { result.append(e) }
    return result
  }
}

/// A stroke drawn partly as the region it sweeps (`Canvas.sweptStroke(of:style:)`).
package struct SweptStroke {
  /// The region the swept sub-paths' width sweeps, to fill with the non-zero rule; `nil` when
  /// it would take more than two million points.
  package var outline: Path?
  /// The sub-paths Cairo strokes.
  package var rest: Path
  /// A box (user space) holding all the stroke draws.
  package var box: Rect
}

/// What a swept stroke is made from (`Canvas.sweptStroke(of:style:)`).
struct SweptOutlineKey: Equatable {
  var path: Path
  var style: StrokeStyle
  var linear: [Double]
  var width: Double
}
