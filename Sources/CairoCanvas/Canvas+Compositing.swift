import CCairo
import Geometry

// Groups composited with a blend mode or Porter-Duff operator, after filters; masks by mode.

extension Canvas {
  /// Draws what `body` draws into a group, applies `filters` to it in order, then composites it
  /// onto what is below with `opacity` (0...1) and the Cairo operator that `compositing` names.
  /// With no filters and `.normal`, this is `drawInTransparencyGroup(opacity:_:)`.
  ///
  /// A blur's radius is in points of the current user space (converted to pixels by the
  /// current transform's scale, as shadows are); the blur reaches only as far as the group's
  /// surface, which covers the clip (by default the canvas).
  public func drawGroup<R, E: Error>(
    opacity: Double, compositing: CompositingFilter, filters: [LayerFilter],
    _ body: () throws(E) -> R
  ) throws(E) -> R {
    if compositing == .normal && filters.isEmpty {
      return try drawInTransparencyGroup(opacity: opacity, body)
    }
    let m = deviceTransform
    let pixelsPerPoint = abs(m.a * m.d - m.b * m.c).squareRoot()
    let (result, pattern) = try group("group", body)
    defer { cairo_pattern_destroy(pattern) }
    if !filters.isEmpty {
      withPixels(of: pattern) { pixels in
        for filter in filters { pixels.apply(filter, pixelsPerPoint: pixelsPerPoint) }
      }
    }
    let alpha = Swift.min(1, Swift.max(0, opacity))
    cairo_save(cr)
    cairo_set_operator(cr, compositing.cairoOperator)
    cairo_set_source(cr, pattern)
    cairo_paint_with_alpha(cr, alpha)
    cairo_restore(cr)
    recording?.add("ungroup-composited", [alpha, Double(compositing.cairoOperator.rawValue)])
    return result
  }

  /// Fills the inside of `path` with `color` by `rule`, composited onto what is below with the
  /// Cairo operator that `compositing` names (unbounded operators such as `.destinationIn`
  /// clear what lies outside the path, as a group's compositing does).
  public func fill(
    _ path: Path, with color: Color, rule: FillRule = .nonZero, compositing: CompositingFilter
  ) {
    guard compositing != .normal else { return fill(path, with: color, rule: rule) }
    cairo_save(cr)
    cairo_set_operator(cr, compositing.cairoOperator)
    setPath(path)
    setSource(color)
    cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    cairo_fill(cr)
    cairo_restore(cr)
    recording?.add(path)
    recording?.add(
      "fill-composited",
      [
        color.red, color.green, color.blue, color.alpha, rule == .evenOdd ? 1 : 0,
        Double(compositing.cairoOperator.rawValue),
      ])
  }

  /// Draws what `content` draws with the coverage of what `mask` draws, as `mode` turns it into
  /// coverage: its alpha (Core Animation's `mask`), inverted alpha, luminance or inverted
  /// luminance.
  public func drawMasked<E: Error>(
    mode: MaskMode, _ content: () throws(E) -> Void, mask: () throws(E) -> Void
  ) throws(E) {
    guard mode != .alpha else { return try drawMasked(content, mask: mask) }
    let (_, contentPattern, held) = try countedGroup("group", content)
    defer { cairo_pattern_destroy(contentPattern) }
    // The content's pixels are held while the mask draws.
    var maskPattern = try holding(held) { () throws(E) in try group("mask", mask).1 }
    switch mode {
    case .alpha:
      break
    case .alphaInverted:
      // Opaque everywhere the clip allows, with the mask's alpha taken out.
      cairo_push_group(cr)
      cairo_set_source_rgba(cr, 1, 1, 1, 1)
      cairo_paint(cr)
      cairo_set_operator(cr, CAIRO_OPERATOR_DEST_OUT)
      cairo_set_source(cr, maskPattern)
      cairo_paint(cr)
      cairo_pattern_destroy(maskPattern)
      maskPattern = cairo_pop_group(cr)
    case .luminance, .luminanceInverted:
      let inverted = mode == .luminanceInverted
      withPixels(of: maskPattern) { $0.replaceAlphaWithLuminance(inverted: inverted) }
    }
    defer { cairo_pattern_destroy(maskPattern) }
    cairo_save(cr)
    cairo_set_source(cr, contentPattern)
    cairo_mask(cr, maskPattern)
    cairo_restore(cr)
    recording?.add("unmask-\(mode.rawValue)")
  }

  /// Runs `body` on the pixels of a group pattern's surface, then marks them changed.
  func withPixels(of pattern: OpaquePointer?, _ body: (inout PremultipliedPixels) -> Void) {
    var surface: OpaquePointer? = nil
    guard cairo_pattern_get_surface(pattern, &surface) == CAIRO_STATUS_SUCCESS, let surface,
      let image = cairo_surface_map_to_image(surface, nil)
    else { return }
    defer {
      cairo_surface_unmap_image(surface, image)
      cairo_surface_mark_dirty(surface)
    }
    guard cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32,
      let data = cairo_image_surface_get_data(image)
    else { return }
    var pixels = PremultipliedPixels(
      data: data, width: Int(cairo_image_surface_get_width(image)),
      height: Int(cairo_image_surface_get_height(image)),
      stride: Int(cairo_image_surface_get_stride(image)))
    body(&pixels)
  }
}

extension CompositingFilter {
  /// The Cairo operator of the filter's name.
  var cairoOperator: cairo_operator_t {
    switch self {
    case .normal, .sourceOver: return CAIRO_OPERATOR_OVER
    case .multiply: return CAIRO_OPERATOR_MULTIPLY
    case .screen: return CAIRO_OPERATOR_SCREEN
    case .overlay: return CAIRO_OPERATOR_OVERLAY
    case .darken: return CAIRO_OPERATOR_DARKEN
    case .lighten: return CAIRO_OPERATOR_LIGHTEN
    case .colorDodge: return CAIRO_OPERATOR_COLOR_DODGE
    case .colorBurn: return CAIRO_OPERATOR_COLOR_BURN
    case .hardLight: return CAIRO_OPERATOR_HARD_LIGHT
    case .softLight: return CAIRO_OPERATOR_SOFT_LIGHT
    case .difference: return CAIRO_OPERATOR_DIFFERENCE
    case .exclusion: return CAIRO_OPERATOR_EXCLUSION
    case .hue: return CAIRO_OPERATOR_HSL_HUE
    case .saturation: return CAIRO_OPERATOR_HSL_SATURATION
    case .color: return CAIRO_OPERATOR_HSL_COLOR
    case .luminosity: return CAIRO_OPERATOR_HSL_LUMINOSITY
    case .addition: return CAIRO_OPERATOR_ADD
    case .destinationOut: return CAIRO_OPERATOR_DEST_OUT
    case .destinationIn: return CAIRO_OPERATOR_DEST_IN
    case .xor: return CAIRO_OPERATOR_XOR
    }
  }
}
