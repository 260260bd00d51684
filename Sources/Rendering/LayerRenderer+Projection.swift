import CairoCanvas
import Geometry
import LayerTree

// 3D: layers whose plane reaches the canvas through a projective map, back faces, and the depth
// order of transform layers (visual-effects.md §7, docs/geometry.md).

extension Layer {
  /// Whether the layer keeps its sublayers' depth instead of flattening them into its plane: a
  /// transform layer, or a replicator with `preservesDepth`.
  var drawsInDepthOrder: Bool {
    self is TransformLayer || (self as? ReplicatorLayer)?.preservesDepth == true
  }
}

extension LayerRenderer {
  /// The most pixels an offscreen plane may have, as a multiple of the canvas's pixels.
  static let offscreenBudget = 4.0

  /// The most shadowed layers that may enclose a layer drawn offscreen in perspective: 8.
  /// Each draws the plane again for its shadow's shape (2^8 = 256 passes at most).
  public static let maximumShadowsAroundPlanes = 8

  /// Whether a layer whose plane reaches the canvas's user space through `map` is seen from
  /// behind: the map, followed by the canvas's device transform, reverses orientation.
  func isBackFacing(_ map: Homography, in canvas: Canvas) -> Bool {
    let d = canvas.deviceTransform
    return map.determinant * (d.a * d.d - d.b * d.c) < 0
  }

  /// Draws `layer` (not hidden, opacity above 0) whose plane reaches the canvas through the
  /// projective map of `placement`: straight through the map when its group is only fills and
  /// text (LayerRenderer+Plane.swift); otherwise its group (shadow, content, sublayers,
  /// border, mask, all in its own plane) is drawn into an offscreen canvas of that plane at
  /// about the density the map needs, then warped onto the canvas with the layer's opacity.
  /// Parts at or behind the eye (w ≤ 0) are not drawn.
  func drawProjected(
    _ layer: Layer, placedBy placement: Transform3D, in canvas: Canvas
  ) throws(RenderingError) {
    guard placement.entries.allSatisfy(\.isFinite) else { return }
    let toUser = Homography(placement)
    let device = canvas.deviceTransform
    let toDevice = toUser.concatenating(Homography(device))
    guard toDevice.inverted != nil else { return }
    if !layer.isDoubleSided, isBackFacing(toUser, in: canvas) { return }
    var visits = 0
    let whole = drawnExtent(of: layer, visits: &visits)
    guard visits <= LayerRenderer.maximumDrawnLayersPerFrame else {
      throw .tooManyLayersInFrame(layer: LayerLabel(layer))
    }
    guard let whole, whole.width > 0, whole.height > 0 else { return }
    // The part of the plane that shows: in front of the eye and inside the clip.
    let clipBounds = canvas.deviceClipBounds
    let reachable = LayerRenderer.partReaching(clipBounds, of: whole, through: toDevice)
    guard let reachable else { return }
    let visible = Homography.clip(reachable.corners, of: toDevice, to: clipBounds)
    guard visible.count >= 3 else { return }
    if canDrawStraight(layer) {
      try drawStraight(layer, through: toDevice, in: canvas)
      return
    }
    // Each shadowed layer around this one draws it again for its shadow's shape, in an
    // offscreen canvas of its own: past the limit the work (doubling with each) is refused.
    guard canvas.effectNesting <= LayerRenderer.maximumShadowsAroundPlanes else {
      throw .planeInsideTooManyShadows(layer: LayerLabel(layer))
    }
    // Pixels per point of the plane: the most the map stretches it where it shows, at most four
    // times the canvas's own density, within the pixel budget.
    let deviceScale = Swift.max(abs(device.a * device.d - device.b * device.c).squareRoot(), 1e-9)
    var density = visible.map { toDevice.localScale(at: $0) }.max() ?? 0
    density = Swift.min(density, 4 * deviceScale)
    guard density > 0, density.isFinite else { return }
    // What is drawn offscreen: the visible part with two pixels to spare (for the sampling at
    // its edges), within the whole.
    var extent = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    for p in visible { extent.add(Box(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) }
    extent.grow(by: 2 / density)
    extent = extent.intersection(whole)
    guard extent.isFinite, extent.width > 0, extent.height > 0 else { return }
    // Within four times the canvas's pixels, and within the budget of the canvas that made
    // this one (planes in planes, and in shadows' shapes, do not grow it level by level).
    let budget = Swift.min(
      Double(canvas.offscreenPixelLimit),
      LayerRenderer.offscreenBudget * Double(canvas.pixelWidth * canvas.pixelHeight))
    let area = extent.width * extent.height * density * density
    if area > budget { density *= (budget / area).squareRoot() }
    let longest = Swift.max(extent.width, extent.height)
    if longest * density > Double(Canvas.maximumSide - 2) {
      density = Double(Canvas.maximumSide - 2) / longest
    }
    guard density > 0, density.isFinite else { return }
    // One transparent pixel around the plane, so its edges fade out under the warp's sampling;
    // the sides rounded up with it stay within the limits (shrinking the density a little
    // when they would not).
    func pixels(_ length: Double) -> Int { Int((length * density).rounded(.up)) + 2 }
    var (width, height) = (pixels(extent.width), pixels(extent.height))
    while width * height > Canvas.maximumPixelCount || Swift.max(width, height) > Canvas.maximumSide
    {
      density *= 0.99
      (width, height) = (pixels(extent.width), pixels(extent.height))
    }
    let pad = 1 / density
    // The warp, counted before the group is drawn.
    try chargeWarp(of: visible, through: toDevice, for: layer, in: canvas)
    let offscreen: Canvas
    do {
      offscreen = try Canvas(pixelWidth: width, pixelHeight: height, scale: density)
    } catch {
      throw .offscreenUnavailable(layer: LayerLabel(layer), reason: error.description)
    }
    offscreen.translateBy(x: pad - extent.minX, y: pad - extent.minY)
    offscreen.offscreenPixelLimit = Int(budget)
    offscreen.dashTally = canvas.dashTally
    // Shadows nested around this layer still count towards the nesting limit inside it.
    offscreen.effectNesting = canvas.effectNesting
    try drawMaskedContent(of: layer, in: offscreen)
    let fromPixels = Homography(
      AffineTransform(
        a: pad, b: 0, c: 0, d: pad, tx: extent.minX - pad, ty: extent.minY - pad))
    let toCanvas = fromPixels.concatenating(toDevice)
    guard layer.compositingFilter.needsGroup || !layer.filters.isEmpty else {
      canvas.drawProjected(offscreen, through: toCanvas, opacity: layer.opacity)
      return
    }
    // A blend mode or filters act on the projected group, as on a flat layer's group (the
    // filters in the canvas's space, not the layer's plane).
    try chargeGroups(
      1, filters: layer.filters.count,
      weight: LayerRenderer.compositingWeight(layer.compositingFilter), for: layer, in: canvas)
    canvas.drawGroup(
      opacity: layer.opacity, compositing: layer.compositingFilter, filters: layer.filters
    ) { () throws(Never) in
      canvas.drawProjected(offscreen, through: toCanvas, opacity: 1)
    }
  }

  /// `whole` (a box of a plane that reaches the device through `map`) cut to the part whose
  /// image can lie in `clip`, or `nil` when none can.
  ///
  /// A box of moderate size is returned as it is. A huge one (nested planes' extents mapped
  /// through their perspective grow toward the horizon, 10^20 points and more) is first cut
  /// to the box around the preimages of `clip`'s corners when all of them lie in front of the
  /// eye (then everything that shows lies in their quadrilateral): cutting the huge box to
  /// the clip directly would lose every digit of the part that shows.
  static func partReaching(_ clip: Rect, of whole: Box, through map: Homography) -> Box? {
    let size = Swift.max(
      Swift.abs(whole.minX), Swift.abs(whole.maxX), Swift.abs(whole.minY), Swift.abs(whole.maxY))
    guard size > 1e6, let inverse = map.inverted else { return whole }
    let corners = [
      Point(x: clip.minX, y: clip.minY), Point(x: clip.maxX, y: clip.minY),
      Point(x: clip.maxX, y: clip.maxY), Point(x: clip.minX, y: clip.maxY),
    ]
    var seen: Box? = nil
    for corner in corners {
      // Seen from behind (the horizon crosses the clip): the plane's part that shows is not
      // bounded by these points.
      guard let p = inverse.apply(corner), map.w(at: p) > 0 else { return whole }
      seen.add(p)
    }
    guard var seen else { return whole }
    seen.grow(by: 1e-6 * Swift.max(seen.width, seen.height, 1))
    let part = whole.intersection(seen)
    return part.width > 0 && part.height > 0 ? part : nil
  }

  /// The box, in the layer's own coordinates, that holds everything the layer's group draws:
  /// bounds, a shape's path with its stroke, contents placed by gravity, the sublayers (unless
  /// `masksToBounds`) through their placements, and the shadow; `nil` when nothing draws.
  func drawnExtent(of layer: Layer, level: Int = 0, withShadow: Bool = true) -> Box? {
    var visits = 0
    return drawnExtent(of: layer, level: level, withShadow: withShadow, visits: &visits)
  }

  /// `drawnExtent(of:level:withShadow:)`, counting in `visits` the layers it goes over (each
  /// once for every replicator instance): `nil` past `maximumDrawnLayersPerFrame` of them,
  /// more than a frame may draw (nested replicators animated to 10,000 copies each are 100
  /// million).
  func drawnExtent(
    of layer: Layer, level: Int = 0, withShadow: Bool = true, visits: inout Int
  ) -> Box? {
    visits += 1
    guard visits <= LayerRenderer.maximumDrawnLayersPerFrame else { return nil }
    var box = Box(layer.bounds.standardized)
    if let shape = layer as? ShapeLayer, let path = shape.path, !path.isEmpty {
      let stroked = shape.strokeColor != nil && shape.lineWidth > 0
      let pad = stroked ? shape.lineWidth / 2 * Swift.max(1, shape.miterLimit) + 1 : 1
      box.add(Box(path.boundingBox.insetBy(dx: -pad, dy: -pad)))
    }
    if let image = layer.contents, image.width > 0, image.height > 0 {
      let scale = LayerRenderer.contentsScale(
        layer.contentsScale, of: image, in: layer.bounds.standardized)
      let size = Size(width: Double(image.width) / scale, height: Double(image.height) / scale)
      box.add(Box(layer.contentsGravity.rect(forImageOfSize: size, in: layer.bounds.standardized)))
    }
    if !layer.masksToBounds, level < 64, !layer.sublayers.isEmpty {
      let sublayerPlacement = layer.sublayerTransformAboutAnchor
      // Instances left out when presenting are refused when drawn: their box is the first's.
      let groups =
        (try? instances(of: layer, placedBy: sublayerPlacement, tint: .white))
        ?? [(sublayerPlacement, layer.sublayersInDrawingOrder, .white)]
      for (placement, sublayers, _) in groups {
        for sublayer in sublayers where !sublayer.isHidden {
          guard let inner = drawnExtent(of: sublayer, level: level + 1, visits: &visits) else {
            guard visits <= LayerRenderer.maximumDrawnLayersPerFrame else { return nil }
            continue
          }
          let map = Homography(sublayer.transformToSuperlayer.concatenating(placement))
          for corner in Homography.clipToFront(inner.corners, of: map) {
            if let p = map.apply(corner) { box.add(p) }
          }
        }
      }
    }
    if withShadow, layer.hasVisibleShadow,
      let base = layer.shadowPath.map({ Box($0.boundingBox) }) ?? box
    {
      let blur = 3 * layer.shadowRadius + 1
      var shadow = base
      shadow.offset(by: layer.shadowOffset)
      shadow.grow(by: blur)
      box.add(shadow)
    }
    guard let box, box.isFinite else { return nil }
    return box
  }

  /// Whether `drawnExtent(of:withShadow: false)` holds exactly what `layer` draws, so that a
  /// shadow's shape may be drawn in that box alone: no layer in the subtree has a shadow (a
  /// shadowed layer's shape must be drawn in the frame's region, where the frame finds it
  /// again), filters (a blur reaches past the bounds), a mask, or 3D; at most 64 levels and
  /// 1,000 layers.
  static func hasExactExtent(_ layer: Layer, isRoot: Bool = false) -> Bool {
    var budget = 1_000
    func plain(_ layer: Layer, _ level: Int) -> Bool {
      budget -= 1
      guard budget >= 0, level < 64, layer.filters.isEmpty, layer.mask == nil,
        isRoot && level == 0 || !layer.hasVisibleShadow, !layer.drawsInDepthOrder,
        !layer.sublayerTransformAboutAnchor.has3DTerms,
        level == 0 || layer.transformToSuperlayer.planeAffineTransform != nil
      else { return false }
      if let replicator = layer as? ReplicatorLayer, replicator.instanceCount > 1 { return false }
      return layer.sublayers.allSatisfy { plain($0, level + 1) }
    }
    return plain(layer, 0)
  }

  /// The box, in device pixels under `transform` (the layer's own space to the device), that
  /// holds the shape the layer's shadow is made from: its `shadowPath`, or everything its
  /// content draws; `nil` when unknown.
  func deviceBox(ofShapeOf layer: Layer, under transform: AffineTransform) -> Rect? {
    let own =
      layer.shadowPath.map { Box($0.boundingBox) } ?? drawnExtent(of: layer, withShadow: false)
    guard let own else { return nil }
    var box: Box? = nil
    for corner in own.corners { box.add(corner.applying(transform)) }
    guard let box, box.isFinite else { return nil }
    return Rect(x: box.minX, y: box.minY, width: box.width, height: box.height)
  }

  /// A layer's sublayers as placed groups: once for a layer, once per instance for a
  /// replicator (its placement joined to `placement`, its sublayers as delayed, its tint
  /// multiplied into `tint`), each in drawing order.
  func instances(
    of layer: Layer, placedBy placement: Transform3D, tint: Color
  ) throws(RenderingError) -> [(Transform3D, [Layer], Color)] {
    guard let replicator = layer as? ReplicatorLayer else {
      return [(placement, layer.sublayersInDrawingOrder, tint)]
    }
    let count = Swift.min(replicator.instanceCount, ReplicatorLayer.maximumInstanceCount)
    let placements = replicator.instancePlacements(count: count)
    if replicator.delayedInstancesCut, count - 1 > replicator.delayedInstances.count {
      throw .tooManyLayersInFrame(layer: LayerLabel(replicator))
    }
    return (0..<count).map { k in
      let own = placements[k]
      let c = replicator.instanceColor(at: k)
      let mixed = Color(
        red: tint.red * c.red, green: tint.green * c.green, blue: tint.blue * c.blue,
        alpha: tint.alpha * c.alpha)
      let sublayers = replicator.instanceSublayers(at: k).sorted { $0.zPosition < $1.zPosition }
      return (own.isIdentity ? placement : own.concatenating(placement), sublayers, mixed)
    }
  }

  /// Draws a transform layer (or a replicator with `preservesDepth`) whose plane reaches the
  /// canvas through `placement`: nothing of its own; its sublayers, and those of transform
  /// layers inside it, each placed through the chain of matrices without flattening, farthest
  /// first by the z of their anchor point after projection (ties keep drawing order).
  func drawInDepthOrder(
    _ layer: Layer, placedBy placement: Transform3D, in canvas: Canvas
  ) throws(RenderingError) {
    var items: [DepthItem] = []
    try collectDepthItems(
      of: layer, placedBy: placement, tint: .white, into: &items, level: 0, in: canvas)
    for item in LayerRenderer.depthOrder(items) {
      if item.tint == .white {
        try draw(item.layer, placedBy: item.placement, in: canvas)
      } else {
        try chargeGroups(1, for: item.layer, in: canvas)
        try canvas.drawTinted(by: item.tint) { () throws(RenderingError) in
          try draw(item.layer, placedBy: item.placement, in: canvas)
        }
      }
    }
  }

  /// `items` farthest first (smallest z), ties in the order they were collected.
  static func depthOrder(_ items: [DepthItem]) -> [DepthItem] {
    items.enumerated().sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }
      .map(\.element)
  }

  private func collectDepthItems(
    of container: Layer, placedBy placement: Transform3D, tint: Color,
    into items: inout [DepthItem], level: Int, in canvas: Canvas
  ) throws(RenderingError) {
    let sublayerPlacement = container.sublayerTransformAboutAnchor
    let base = sublayerPlacement.isIdentity ? placement : sublayerPlacement.concatenating(placement)
    for (instancePlacement, sublayers, instanceTint) in try instances(
      of: container, placedBy: base, tint: tint)
    where instanceTint.alpha > 0 {
      for sublayer in sublayers where !sublayer.isHidden {
        let m = sublayer.transformToSuperlayer.concatenating(instancePlacement)
        if sublayer.drawsInDepthOrder, level < 64 {
          try collectDepthItems(
            of: sublayer, placedBy: m, tint: instanceTint, into: &items, level: level + 1,
            in: canvas)
        } else {
          // Each item is counted when it is drawn; refused before the list grows past them.
          let drawn = canvas.dashTally.drawnLayers + items.count
          guard drawn < LayerRenderer.maximumDrawnLayersPerFrame else {
            throw .tooManyLayersInFrame(layer: LayerLabel(sublayer))
          }
          items.append(DepthItem(layer: sublayer, placement: m, tint: instanceTint))
        }
      }
    }
  }
}

/// A layer to draw in a transform layer's depth order: its placement into the flattening
/// plane, the tint of its replicator instance, and its depth.
struct DepthItem {
  /// The layer.
  let layer: Layer
  /// The map from the layer's plane to the canvas's user space.
  let placement: Transform3D
  /// The replicator instance colors it is multiplied by (white: none).
  let tint: Color
  /// The z of the anchor point after projection (larger is nearer the viewer); -∞ when the
  /// anchor is at or behind the eye.
  var depth: Double {
    let a = layer.anchorPointInBounds
    let q = placement.project(x: a.x, y: a.y)
    return q.w > 0 && q.z.isFinite ? q.z : -.infinity
  }
}

/// An axis-aligned box grown point by point.
struct Box {
  var minX: Double, minY: Double, maxX: Double, maxY: Double

  /// A box from its edges.
  init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
  }

  /// The box of `rect`, or `nil` for an empty rectangle.
  init?(_ rect: Rect) {
    guard !rect.isEmpty else { return nil }
    (minX, minY, maxX, maxY) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
  }

  var width: Double { maxX - minX }
  var height: Double { maxY - minY }
  var isFinite: Bool { minX.isFinite && minY.isFinite && maxX.isFinite && maxY.isFinite }
  var corners: [Point] {
    [
      Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY),
      Point(x: minX, y: maxY),
    ]
  }

  mutating func add(_ other: Box?) {
    guard let other else { return }
    (minX, minY) = (Swift.min(minX, other.minX), Swift.min(minY, other.minY))
    (maxX, maxY) = (Swift.max(maxX, other.maxX), Swift.max(maxY, other.maxY))
  }

  mutating func offset(by s: Size) {
    (minX, maxX, minY, maxY) = (minX + s.width, maxX + s.width, minY + s.height, maxY + s.height)
  }

  /// The part of the box inside `other` (empty boxes have a negative width or height).
  func intersection(_ other: Box) -> Box {
    Box(
      minX: Swift.max(minX, other.minX), minY: Swift.max(minY, other.minY),
      maxX: Swift.min(maxX, other.maxX), maxY: Swift.min(maxY, other.maxY))
  }

  mutating func grow(by d: Double) {
    (minX, minY, maxX, maxY) = (minX - d, minY - d, maxX + d, maxY + d)
  }
}

extension Optional where Wrapped == Box {
  /// Adds `other` to the box, starting it when there is none yet.
  mutating func add(_ other: Box?) {
    guard let other else { return }
    if self == nil { self = other } else { self!.add(other) }
  }

  /// Adds a point.
  mutating func add(_ p: Point) {
    guard p.x.isFinite, p.y.isFinite else { return }
    add(Box(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y))
  }
}
