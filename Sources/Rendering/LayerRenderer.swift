import CairoCanvas
import Geometry
import LayerTree
import Glibc

/// Draws layer trees into a canvas in Core Animation's order.
///
/// For each visible layer (not hidden, opacity above 0): its transform to the superlayer, then,
/// as one group when the opacity is below 1, the background (clipped to the rounded bounds), the
/// contents, a shape layer's path (fill, then stroke), a text layer's text (clipped to its
/// bounds), the sublayers sorted by `zPosition` (all
/// of them clipped to the rounded bounds when `masksToBounds`), and last the border on top.
/// That group is masked by the layer's `mask` (by its `maskMode`), filtered by its `filters`,
/// and composited with its opacity and `compositingFilter`, in that order.
/// A layer whose transform collapses it to a line or point (scale 0) draws nothing. A layer whose
/// plane reaches the canvas through a projective map (perspective) is drawn straight through
/// that map when its group is only fills, gradients and text (LayerRenderer+Plane.swift), and
/// otherwise flattened into an offscreen canvas of its own plane and warped
/// (LayerRenderer+Projection.swift); transform layers draw their sublayers in depth order.
public struct LayerRenderer: Sendable {
  /// The blurred shadows kept between frames (shared by every renderer unless one is given).
  let shadows: ShadowCache
  /// Whether planes in perspective made only of fills and text are drawn straight through
  /// their map (the default) rather than offscreen and warped: off only to compare the two.
  package var drawsPlanesStraight = true

  /// Creates a renderer that keeps blurred shadows in the shared cache.
  public init() { shadows = .shared }

  /// Creates a renderer that keeps blurred shadows in `cache`.
  public init(shadowCache cache: ShadowCache) { shadows = cache }

  /// Draws `layer` and its subtree into `canvas`, whose current user space is taken to be the
  /// layer's superlayer's coordinate space.
  ///
  /// - Throws: `RenderingError` naming the layer: `unknownFont` for a text layer whose font
  ///   resolves to no installed face; `shadowsNestedTooDeep` and `planeInsideTooManyShadows`
  ///   past the nesting limits; `tooManyDashes` for a stroke of more dashes than
  ///   `StrokeStyle.maximumDashCount`, `tooManyDashesInFrame` past
  ///   `StrokeStyle.maximumDashCountPerFrame` in all (each call counts from zero);
  ///   `tooMuchOffscreenWork` and `tooMuchFilterWork` past `maximumGroupPixelsPerFrame` and
  ///   `maximumFilterPixelsPerFrame` (likewise); `tooMuchPathWork` past
  ///   `maximumPathWorkPerFrame` (likewise); `tooMuchOffscreenMemory` past
  ///   `maximumOpenGroupPixels` open at once; `offscreenUnavailable` when an offscreen
  ///   canvas cannot be made.
  public func draw(_ layer: Layer, in canvas: Canvas) throws(RenderingError) {
    canvas.dashTally = DashTally()  // each drawing of a tree counts its own dashes
    try draw(layer, in: canvas, through: nil)
  }

  /// Draws `layer` whose superlayer's space reaches the canvas's user space through `outer`
  /// (`nil`: the identity; a 3D placement the canvas cannot hold: a `sublayerTransform`,
  /// replicator instance or transform layer with 3D terms).
  func draw(_ layer: Layer, in canvas: Canvas, through outer: Transform3D?) throws(RenderingError) {
    var placement = layer.transformToSuperlayer
    if let outer { placement = placement.concatenating(outer) }
    try draw(layer, placedBy: placement, in: canvas)
  }

  /// Whether `layer`'s own placement in its superlayer (its transform about its anchor point,
  /// and that divided by its m44) has a term past the range of a double.
  static func ownPlacementOverflows(_ layer: Layer) -> Bool {
    let own = layer.transformToSuperlayer
    guard own.entries.allSatisfy(\.isFinite) else { return true }
    guard let plane = own.planeAffineTransform else { return false }
    return ![plane.a, plane.b, plane.c, plane.d, plane.tx, plane.ty].allSatisfy(\.isFinite)
  }

  /// Draws `layer` whose own plane reaches the canvas's user space through `placement`: as in
  /// 2D when that map is affine, through a projective warp otherwise, in depth order for a
  /// transform layer (LayerRenderer+Projection.swift).
  func draw(
    _ layer: Layer, placedBy placement3D: Transform3D, in canvas: Canvas
  ) throws(RenderingError) {
    let p = layer.properties  // one read of the model values (see drawContent)
    guard !p.isHidden else { return }
    if let problem = RenderingError.presentationProblem(of: layer, properties: p) {
      throw problem
    }
    try countDrawnLayers(1, at: layer, in: canvas)
    if layer.drawsInDepthOrder {
      try drawInDepthOrder(layer, placedBy: placement3D, in: canvas)
      return
    }
    guard p.opacity > 0 else { return }
    // A layer whose own placement passes the range of a double (a scale of 1e307 about its
    // centre puts 20 - 20 × 1e307 in the translation, and products with it infinity times 0;
    // an m44 of 1e-310 divides by it) covers what it covers, but cannot be drawn: refused by
    // name, where it vanished without a word. One placed off at infinity by the layers above
    // it (a sublayer at 1e10 in a layer scaled 1e300) is not drawn, as before.
    guard placement3D.entries.allSatisfy(\.isFinite) else {
      if LayerRenderer.ownPlacementOverflows(layer) {
        throw .transformTooLarge(layer: LayerLabel(layer))
      }
      return
    }
    guard let placement = placement3D.planeAffineTransform else {
      try drawProjected(layer, placedBy: placement3D, in: canvas)
      return
    }
    let terms = [placement.a, placement.b, placement.c, placement.d, placement.tx, placement.ty]
    guard terms.allSatisfy(\.isFinite) else {
      if LayerRenderer.ownPlacementOverflows(layer) {
        throw .transformTooLarge(layer: LayerLabel(layer))
      }
      return
    }
    guard placement.isInvertible else { return }
    if !p.isDoubleSided, isBackFacing(Homography(placement), in: canvas) { return }
    canvas.save()
    defer { canvas.restore() }
    canvas.concatenate(placement)
    guard canvas.hasDrawableTransform else {
      if canvas.transformOverflowed { throw .transformTooLarge(layer: LayerLabel(layer)) }
      try refuseIfShrunkButVisible(layer, in: canvas)
      return  // off at infinity, or far under a pixel
    }
    let effects = p.effects
    let grouped = p.opacity < 1 || effects.compositingFilter.needsGroup || !effects.filters.isEmpty
    // Its groups (and its mask's) are made the size of what it draws, not of the frame.
    if grouped || layer.mask != nil { clipToDrawnBox(of: layer, in: canvas) }
    if grouped {
      try chargeGroups(
        1, filters: effects.filters.count,
        weight: LayerRenderer.compositingWeight(effects.compositingFilter), for: layer, in: canvas)
      try canvas.drawGroup(
        opacity: p.opacity, compositing: effects.compositingFilter, filters: effects.filters
      ) { () throws(RenderingError) in
        try drawMaskedContent(of: layer, in: canvas)
      }
    } else {
      try drawMaskedContent(of: layer, in: canvas)
    }
  }

  /// The layer's group: its shadow and content, multiplied by its mask's alpha when it has one.
  func drawMaskedContent(of layer: Layer, in canvas: Canvas) throws(RenderingError) {
    guard let mask = layer.mask else {
      try drawShadowAndContent(of: layer, in: canvas)
      return
    }
    let mode = layer.maskMode
    // Two groups (content and mask); an inverted alpha mask a third; a luminance mask's pass
    // over the mask's pixels is compositing work as long as four groups'.
    try chargeGroups(mode == .alphaInverted ? 3 : 2, for: layer, in: canvas)
    let luminance = mode == .luminance || mode == .luminanceInverted
    if luminance { try chargeGroups(4, holding: false, for: layer, in: canvas) }
    try canvas.drawMasked(
      mode: layer.maskMode,
      { () throws(RenderingError) in try drawShadowAndContent(of: layer, in: canvas) },
      mask: { () throws(RenderingError) in try draw(mask, in: canvas, through: nil) })
  }

  /// The most pixels the offscreen groups of one frame may hold together: 2,000,000,000
  /// (opacity, blend modes, filters, masks (two each, three inverted, six for a luminance
  /// mask: its pass over the mask's pixels costs as much as four groups; Lottie's luma track
  /// mattes reached the limit after 16 s where alpha mattes took 5.6 s), replicator colors
  /// and shadows' shapes, each at the size Cairo makes it: the clip's extent in the frame, for
  /// each replicator instance; about three seconds of compositing). A replicator of 10,000 masked layers in a
  /// frame of 3 megapixels made 60 billion.
  public static let maximumGroupPixelsPerFrame = 2_000_000_000

  /// The most pixels the offscreen groups open at once, one inside another, may hold: 256
  /// million (a gigabyte; four groups the size of the largest frame). Each nested group holds
  /// its pixels until it closes: 40 layers of opacity 0.99 nested in an 8000 x 8000 frame
  /// asked for 10 GB and aborted. What is held while more draws counts too: a mask's content
  /// while its mask draws, a shadow's shape canvas while the layer's subtree draws in it (250
  /// layers each masked by the next peaked at 2 GB with the contents uncounted).
  public static let maximumOpenGroupPixels = 256_000_000
  /// The most pixels the filters of one frame may go over together: 64,000,000 (one filter
  /// over the largest frame; each filter of a layer over its group's pixels, and each shadow's
  /// blur over its shape's pixels, at the lowered density a shape over the canvas limits is
  /// drawn at; a blur costs some 80 ns a pixel). 10,000 blurred layers took 15 s.
  public static let maximumFilterPixelsPerFrame = 64_000_000

  /// How many times a plain group's compositing work (per pixel of the group) compositing with
  /// `filter` is: 16 for the non-separable blend modes (hue, saturation, color, luminosity),
  /// 10 for soft light, 8 for the other separable ones, 1 for Porter-Duff operators. Pixman
  /// blends every pixel of the group, clear ones too, where it skips them for plain
  /// compositing: 1,990 layers of 2 x 2 points in a 1000 x 1000 frame took 46 s with hue,
  /// 15 s with multiply and 0.7 s at opacity 0.5 (measured on a release build).
  package static func compositingWeight(_ filter: CompositingFilter) -> Double {
    switch filter {
    case .hue, .saturation, .color, .luminosity: return 16
    case .softLight: return 10
    case .multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn, .hardLight,
      .difference, .exclusion:
      return 8
    case .normal, .addition, .sourceOver, .destinationOut, .destinationIn, .xor: return 1
    }
  }

  /// Counts `count` offscreen groups about to be made for `layer` at the clip's size (or
  /// `made` pixels), `filters` of them filtered, against the frame's budgets; refused past
  /// them, before any is made. A count that is compositing only, with nothing held open while
  /// the layer draws (a shadow's blurred shape placed), is not `holding`. `weight` multiplies
  /// the compositing work (`compositingWeight(_:)`), not the memory held.
  func chargeGroups(
    _ count: Int, filters: Int = 0, pixels made: Int? = nil, holding: Bool = true,
    weight: Double = 1, for layer: Layer, in canvas: Canvas
  ) throws(RenderingError) {
    let pixels = made.map(Double.init) ?? canvas.groupPixelCount
    let tally = canvas.dashTally
    guard
      !holding
        || tally.openGroupPixels + pixels * Double(count)
          <= Double(LayerRenderer.maximumOpenGroupPixels)
    else {
      throw .tooMuchOffscreenMemory(layer: LayerLabel(layer))
    }
    tally.groupPixels += pixels * Double(count) * weight
    guard tally.groupPixels <= Double(LayerRenderer.maximumGroupPixelsPerFrame) else {
      throw .tooMuchOffscreenWork(layer: LayerLabel(layer))
    }
    guard filters > 0 else { return }
    tally.filterPixels += pixels * Double(filters)
    guard tally.filterPixels <= Double(LayerRenderer.maximumFilterPixelsPerFrame) else {
      throw .tooMuchFilterWork(layer: LayerLabel(layer))
    }
  }

  /// Counts `pixels` gone over by a blur made for `layer` (a shadow's: the box it blurs)
  /// against the frame's filter budget (`maximumFilterPixelsPerFrame`), refused past it
  /// before the blur runs.
  func chargeFilter(pixels: Int, for layer: Layer, in canvas: Canvas) throws(RenderingError) {
    let tally = canvas.dashTally
    tally.filterPixels += Double(pixels)
    guard tally.filterPixels <= Double(LayerRenderer.maximumFilterPixelsPerFrame) else {
      throw .tooMuchFilterWork(layer: LayerLabel(layer))
    }
  }

  /// The most layers one frame draws: 100,000, each layer counted once for every replicator
  /// instance (and shadow pass) that draws it, as the scene reader counts them
  /// (`SceneFormat.maximumDrawnLayers`). A replicator's count animated past what the reader
  /// sees (two nested replicators animated to 10,000 copies each make 100 million) is held to
  /// it here, at the frame's time.
  public static let maximumDrawnLayersPerFrame = 100_000

  /// Counts `count` layers about to be drawn (or, for layers collected before drawing, that
  /// will be), refused past `maximumDrawnLayersPerFrame` naming `layer`.
  func countDrawnLayers(_ count: Int, at layer: Layer, in canvas: Canvas) throws(RenderingError) {
    let tally = canvas.dashTally
    tally.drawnLayers += count
    guard tally.drawnLayers <= LayerRenderer.maximumDrawnLayersPerFrame else {
      throw .tooManyLayersInFrame(layer: LayerLabel(layer))
    }
  }

  /// The most shadowed layers that may enclose a shadowed layer: 32. A shadow's shape is its
  /// layer's subtree drawn again, so each level of nesting adds a pass over what it holds.
  public static let maximumNestedShadows = 32

  private func drawShadowAndContent(of layer: Layer, in canvas: Canvas) throws(RenderingError) {
    guard layer.hasVisibleShadow else {
      try drawContent(of: layer, in: canvas)
      return
    }
    guard canvas.effectNesting <= LayerRenderer.maximumNestedShadows else {
      throw .shadowsNestedTooDeep(layer: LayerLabel(layer))
    }
    // The count includes this layer while its shadow's shape and its content are drawn (the
    // shape's canvas starts from it).
    canvas.effectNesting += 1
    defer { canvas.effectNesting -= 1 }
    try shadows.drawShadow(of: layer, in: canvas, renderer: self)
    try drawContent(of: layer, in: canvas)
  }

  /// Everything the layer draws but its shadow and mask: what a shadow without `shadowPath`
  /// takes its shape from.
  func drawContent(of layer: Layer, in canvas: Canvas) throws(RenderingError) {
    // One read of the layer's model values (a class property: each read of one is an access the
    // runtime checks for exclusivity), then plain field reads.
    let p = layer.properties
    let bounds = p.bounds.standardized
    // Built only when something fills or clips with it: most layers draw none of the background,
    // a gradient, a clip or a border, and building a path is most of a plain layer's own cost.
    lazy var roundedBounds = Path(roundedRect: bounds, cornerRadius: p.cornerRadius)

    if let background = p.backgroundColor, background.alpha > 0, !bounds.isEmpty {
      try chargeFill(bounds, for: layer, in: canvas)
      canvas.fill(roundedBounds, with: background)
    }

    if let gradient = layer as? GradientLayer, !bounds.isEmpty {
      let stops = Canvas.drawnStopCount(
        gradient.stops.map { GradientStop(location: $0.location, color: $0.color) })
      try chargePathWork(LayerRenderer.gradientSetupWork(stops: stops), for: layer, in: canvas)
      try chargeFill(
        bounds, weight: LayerRenderer.gradientWeight(gradient.type, stops: stops), for: layer,
        in: canvas)
      drawGradient(gradient, in: canvas, filling: roundedBounds)
    }

    if p.masksToBounds {
      canvas.save()
      canvas.clip(to: roundedBounds)
    }

    if let image = p.contents, image.width > 0, image.height > 0 {
      let scale = LayerRenderer.contentsScale(p.contentsScale, of: image, in: bounds)
      let unit = Rect(x: 0, y: 0, width: 1, height: 1)
      let wholeImage = p.effects.contentsRect == unit
      if wholeImage && (p.effects.contentsCenter == unit || p.contentsGravity != .resize) {
        let size = Size(width: Double(image.width) / scale, height: Double(image.height) / scale)
        let rect = p.contentsGravity.rect(forImageOfSize: size, in: bounds)
        try chargeFill(
          rect, weight: LayerRenderer.imageWeight(on: canvas), for: layer, in: canvas)
        canvas.draw(image.bitmap, in: rect)
      } else {
        try chargeFill(
          bounds, weight: LayerRenderer.imageWeight(on: canvas), for: layer, in: canvas)
        drawContentsPart(of: layer, image: image, scale: scale, in: canvas, bounds: bounds)
      }
    }

    if let shape = layer as? ShapeLayer {
      try drawShape(shape, in: canvas)
    }

    if let text = layer as? TextLayer {
      try drawText(text, in: canvas)
    }

    if !layer.sublayers.isEmpty {
      let sublayerPlacement = p.sublayerTransformAboutAnchor
      // Past a double about the anchor point (a scale of 1e307): refused by name, where the
      // sublayers vanished without a word.
      guard sublayerPlacement.entries.allSatisfy(\.isFinite) else {
        throw .transformTooLarge(layer: LayerLabel(layer))
      }
      if sublayerPlacement.isIdentity {
        try drawSublayers(of: layer, in: canvas, through: nil)
      } else if sublayerPlacement.has3DTerms {
        try drawSublayers(of: layer, in: canvas, through: sublayerPlacement)
      } else if let affine = sublayerPlacement.affineTransform, affine.isInvertible {
        canvas.save()
        defer { canvas.restore() }
        canvas.concatenate(affine)
        if canvas.hasDrawableTransform {
          try drawSublayers(of: layer, in: canvas, through: nil)
        } else if !canvas.transformOverflowed {
          try refuseIfShrunkButVisible(layer, in: canvas, sublayers: layer.sublayers)
        }
        if canvas.transformOverflowed { throw .transformTooLarge(layer: LayerLabel(layer)) }
      }
    }

    if p.masksToBounds {
      canvas.restore()
    }

    if p.borderWidth > 0, let border = p.borderColor, border.alpha > 0, !bounds.isEmpty {
      var band = roundedBounds
      let inner = bounds.insetBy(dx: p.borderWidth, dy: p.borderWidth)
      if !inner.isEmpty {
        band.addPath(
          Path(roundedRect: inner, cornerRadius: Swift.max(0, p.cornerRadius - p.borderWidth)))
      }
      // Counted as the fill it is: 2,000 frame-wide rounded borders took 16.6 s, counted by
      // nothing, where the same band as a shape layer's stroke was refused.
      try chargePathWork(
        LayerRenderer.pathWork(of: band, on: canvas, filled: true), for: layer, in: canvas)
      canvas.fill(band, with: border, rule: .evenOdd)
    }
  }

  /// The sublayers in drawing order, placed in this layer's space through `outer` (`nil`: the
  /// canvas's current space); for a replicator, once per instance, each instance placed, delayed
  /// and tinted a step further (visual-effects.md §6).
  private func drawSublayers(
    of layer: Layer, in canvas: Canvas, through outer: Transform3D?
  ) throws(RenderingError) {
    guard let replicator = layer as? ReplicatorLayer else {
      for sublayer in layer.sublayersInDrawingOrder {
        try draw(sublayer, in: canvas, through: outer)
      }
      return
    }
    let count = Swift.min(replicator.instanceCount, ReplicatorLayer.maximumInstanceCount)
    let placements = replicator.instancePlacements(count: count)
    for k in 0..<count {
      let placement = placements[k]
      // An instance placed past a double (an instanceTransform scale of 1e307 about the
      // anchor): refused by name, where it vanished without a word.
      guard placement.entries.allSatisfy(\.isFinite) else {
        throw .transformTooLarge(layer: LayerLabel(replicator))
      }
      // A planar instance placement goes on the canvas as before; a 3D one joins `outer`.
      var instanceOuter: Transform3D? = nil
      var affine = AffineTransform.identity
      if outer != nil || placement.has3DTerms {
        instanceOuter = outer.map { placement.concatenating($0) } ?? placement
      } else if let planar = placement.affineTransform {
        affine = planar
      }
      guard affine.isInvertible else { continue }
      // An instance left out when presenting (too many layers in delayed copies) would
      // show undelayed layers: refused, as the layers it adds to the frame are past the limit.
      if replicator.delayedInstancesCut, k - 1 >= replicator.delayedInstances.count {
        throw .tooManyLayersInFrame(layer: LayerLabel(replicator))
      }
      let sublayers = replicator.instanceSublayers(at: k).sorted { $0.zPosition < $1.zPosition }
      let tint = replicator.instanceColor(at: k)
      guard tint.alpha > 0 else { continue }
      canvas.save()
      if instanceOuter == nil { canvas.concatenate(affine) }
      defer { canvas.restore() }
      guard canvas.hasDrawableTransform else {
        if canvas.transformOverflowed { throw .transformTooLarge(layer: LayerLabel(layer)) }
        if instanceOuter == nil {
          try refuseIfShrunkButVisible(layer, in: canvas, sublayers: sublayers)
        }
        continue
      }
      if tint != .white { try chargeGroups(1, for: layer, in: canvas) }
      try canvas.drawTinted(by: tint) { () throws(RenderingError) in
        for sublayer in sublayers { try draw(sublayer, in: canvas, through: instanceOuter) }
      }
    }
  }

  /// Contents with a `contentsRect` other than the whole image, or a `contentsCenter` with the
  /// resize gravity (visual-effects.md §3).
  private func drawContentsPart(
    of layer: Layer, image: Image, scale: Double, in canvas: Canvas, bounds: Rect
  ) {
    let w = Double(image.width), h = Double(image.height)
    // Standardized only when flipped: far from the image, minX + width - minX loses the width
    // (a contentsRect of [1e16, 0, 1, 1] drew nothing).
    let given = layer.contentsRect
    let part = given.width >= 0 && given.height >= 0 ? given : given.standardized
    guard part.width > 0, part.height > 0 else { return }
    // The part, in image pixels, placed by the gravity as if it were the whole image.
    let source = Rect(
      x: part.minX * w, y: part.minY * h, width: part.width * w, height: part.height * h)
    let size = Size(width: source.width / scale, height: source.height / scale)
    let dest = layer.contentsGravity.rect(forImageOfSize: size, in: bounds)
    let center = layer.contentsCenter.standardized
    guard layer.contentsGravity == .resize, center != Rect(x: 0, y: 0, width: 1, height: 1) else {
      canvas.draw(image.bitmap, from: source, in: dest)
      return
    }
    // Nine parts: the columns and rows the centre rectangle cuts the part into, in image pixels
    // and in points; corners keep their size (at contentsScale), shrunk together when the bounds
    // are too small for them.
    func cuts(
      _ lo: Double, _ hi: Double, _ start: Double, _ length: Double, _ destStart: Double,
      _ destLength: Double
    ) -> (src: [Double], dst: [Double]) {
      let a = Swift.min(Swift.max(lo, 0), 1) * length
      let b = (1 - Swift.min(Swift.max(hi, 0), 1)) * length
      let fixed = (a + b) / scale
      let shrink = fixed > destLength && fixed > 0 ? destLength / fixed : 1
      let src = [start, start + a, start + length - b, start + length]
      let dst = [
        destStart, destStart + a / scale * shrink, destStart + destLength - b / scale * shrink,
        destStart + destLength,
      ]
      return (src, dst)
    }
    let xs = cuts(center.minX, center.maxX, source.minX, source.width, dest.minX, dest.width)
    let ys = cuts(center.minY, center.maxY, source.minY, source.height, dest.minY, dest.height)
    for row in 0..<3 {
      for column in 0..<3 {
        func cell(_ x: [Double], _ y: [Double]) -> Rect {
          Rect(
            x: x[column], y: y[row], width: x[column + 1] - x[column], height: y[row + 1] - y[row])
        }
        var src = cell(xs.src, ys.src)
        let dst = cell(xs.dst, ys.dst)
        guard dst.width > 0, dst.height > 0 else { continue }
        // A centre of zero width or height stretches the line of pixels at its place over the
        // edges' and centre's room (four corners alone were drawn, the rest left empty).
        func line(_ at: Double, _ lo: Double, _ hi: Double) -> (Double, Double) {
          guard hi - lo >= 1 else { return (lo, hi - lo) }
          return (Swift.min(Swift.max(at.rounded(.down), lo), hi - 1), 1)
        }
        if src.width <= 0 {
          (src.origin.x, src.size.width) = line(src.minX, source.minX, source.maxX)
        }
        if src.height <= 0 {
          (src.origin.y, src.size.height) = line(src.minY, source.minY, source.maxY)
        }
        guard src.width > 0, src.height > 0 else { continue }
        canvas.draw(image.bitmap, from: src, in: dst)
      }
    }
  }

  /// A gradient layer's fill of its rounded bounds (visual-effects.md §4).
  private func drawGradient(_ layer: GradientLayer, in canvas: Canvas, filling shape: Path) {
    let stops = layer.stops.map { GradientStop(location: $0.location, color: $0.color) }
    guard !stops.isEmpty else { return }
    let b = layer.bounds.standardized
    func place(_ p: Point) -> Point { Point(x: b.minX + p.x * b.width, y: b.minY + p.y * b.height) }
    let start = place(layer.startPoint), end = place(layer.endPoint)
    let geometry: GradientGeometry
    switch layer.type {
    case .axial: geometry = .axial(start: start, end: end)
    case .radial:
      let radii = Size(width: abs(end.x - start.x), height: abs(end.y - start.y))
      // The focus is kept within 0.99 of the way to the ellipse, so an offset of any length
      // past it draws alike: a huge one is shortened first, in its direction (from 1e154 its
      // length's square overflowed and the offset was dropped).
      var offset = layer.focalOffset
      let largest = Swift.max(abs(offset.x), abs(offset.y))
      if largest > 1e6, largest.isFinite {
        offset = Point(x: offset.x / largest * 1e6, y: offset.y / largest * 1e6)
      }
      let focus =
        offset == Point(x: 0, y: 0)
        ? nil : Point(x: start.x + offset.x * b.width, y: start.y + offset.y * b.height)
      geometry = .radial(center: start, radii: radii, focus: focus)
    case .conic: geometry = .conic(center: start, angle: atan2(end.y - start.y, end.x - start.x))
    }
    canvas.fill(shape, gradient: geometry, stops: stops)
  }

  private func drawShape(_ layer: ShapeLayer, in canvas: Canvas) throws(RenderingError) {
    // One read of the shape's properties: each accessor of a shape layer copies them all.
    let shape = layer.storage.shape
    guard let path = shape.path, !path.isEmpty else { return }
    let strokes = (shape.strokeColor?.alpha ?? 0) > 0 && shape.lineWidth > 0
    let stroked = strokes ? path.trimmed(from: shape.strokeStart, to: shape.strokeEnd) : Path()
    // Every dash is stroked on its own: refused before any is drawn past the limit.
    let style = shape.strokeStyle
    let dashes = strokes && style.isDashed ? style.dashCount(along: stroked) : 0
    if strokes, style.isDashed {
      guard dashes <= Double(StrokeStyle.maximumDashCount) else {
        throw .tooManyDashes(layer: LayerLabel(layer), count: dashes)
      }
      canvas.dashTally.dashes += dashes
      guard canvas.dashTally.dashes <= Double(StrokeStyle.maximumDashCountPerFrame) else {
        throw .tooManyDashesInFrame(layer: LayerLabel(layer))
      }
    }
    guard shape.pathOperation == .none else {
      return try drawCombinedShape(shape, of: layer, path: path, in: canvas)
    }
    let fills = (shape.fillColor?.alpha ?? 0) > 0
    var work = fills ? LayerRenderer.pathWork(of: path, on: canvas, filled: true) : 0
    if strokes {
      work += LayerRenderer.pathWork(of: stroked, on: canvas, stroke: style)
      // Each dash is a stroke of its own, sweeping the stroke's width, and its two caps' outlines
      // when they are round or square (8 times: 5,600 round-capped dashes 1,000 wide took 7.4 s,
      // butt-capped 1 s).
      let caps = style.lineCap == .butt ? 1.0 : 8.0
      work += dashes * LayerRenderer.strokeSweep(style, on: canvas) * caps
    }
    try chargePathWork(work, for: layer, in: canvas)
    if fills, let fill = shape.fillColor {
      canvas.fill(path, with: fill, rule: shape.fillRule)
    }
    if strokes, let stroke = shape.strokeColor {
      canvas.stroke(stroked, with: stroke, style: style)
    }
  }
}
