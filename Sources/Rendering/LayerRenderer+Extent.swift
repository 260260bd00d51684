import CairoCanvas
import Geometry
import LayerTree

// Where a layer draws, so that its offscreen groups are made that size. Cairo makes a group the
// size of the clip: a layer drawn through a group (opacity, blend mode, filters, mask) cost a
// group of the whole frame however small it was, and 65 blurred icons of 20 points in a
// 1000 x 1000 frame spent the frame's offscreen and filter budgets (and as much time) as 65
// full-frame layers. The layer's drawn box, on the pixel grid, is the clip its groups are made
// in: no pixel it draws is outside, so none changes.

/// A box in device pixels, empty until something is added.
struct DeviceBox {
  var x0 = Double.infinity, y0 = Double.infinity
  var x1 = -Double.infinity, y1 = -Double.infinity

  /// Whether nothing was added.
  var isEmpty: Bool { !(x0 <= x1 && y0 <= y1) }

  /// Whether every side is a finite number (or the box is empty).
  var isFinite: Bool { isEmpty || (x0.isFinite && y0.isFinite && x1.isFinite && y1.isFinite) }

  /// Grows the box to hold `rect` (in a layer's space) mapped by `m` to device pixels.
  mutating func add(_ rect: Rect, through m: AffineTransform) {
    let r = rect.standardized
    // The four corners one by one: no array built for every layer a box visits.
    add(r.minX, r.minY, through: m)
    add(r.maxX, r.minY, through: m)
    add(r.maxX, r.maxY, through: m)
    add(r.minX, r.maxY, through: m)
  }

  /// Grows the box to hold the point (`x`, `y`) mapped by `m`.
  @inline(__always)
  private mutating func add(_ x: Double, _ y: Double, through m: AffineTransform) {
    let px = m.a * x + m.c * y + m.tx, py = m.b * x + m.d * y + m.ty
    (x0, y0) = (Swift.min(x0, px), Swift.min(y0, py))
    (x1, y1) = (Swift.max(x1, px), Swift.max(y1, py))
  }

  /// Grows the box to hold `other`.
  mutating func add(_ other: DeviceBox) {
    guard !other.isEmpty else { return }
    (x0, y0) = (Swift.min(x0, other.x0), Swift.min(y0, other.y0))
    (x1, y1) = (Swift.max(x1, other.x1), Swift.max(y1, other.y1))
  }

  /// Moves each side out by `dx` and `dy` pixels (an empty box stays empty).
  mutating func grow(dx: Double, dy: Double) {
    guard !isEmpty else { return }
    (x0, y0, x1, y1) = (x0 - dx, y0 - dy, x1 + dx, y1 + dy)
  }

  /// Keeps only what is also in `other`.
  mutating func intersect(_ other: DeviceBox) {
    (x0, y0) = (Swift.max(x0, other.x0), Swift.max(y0, other.y0))
    (x1, y1) = (Swift.min(x1, other.x1), Swift.min(y1, other.y1))
    if isEmpty { self = DeviceBox() }
  }

  /// The box as a rectangle.
  var rect: Rect { Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) }
}

extension LayerRenderer {
  /// The most layers one drawn box visits (`drawnBox(of:placedBy:visits:)`): 2,000; a larger
  /// subtree is grouped at the clip's size, as before.
  static let maximumBoxLayers = 2_000
  /// The most layers the drawn boxes of one frame visit together (groups inside groups visit
  /// their subtrees again): 200,000, a few milliseconds; past them groups take the clip's size.
  static let maximumBoxLayersPerFrame = 200_000

  /// Narrows the clip to the device pixels `layer` (the canvas's current space is its own)
  /// draws in, before its groups are made: a group is the size of the clip. Nothing when the
  /// box is not known (3D, text that may overflow, a subtree over `maximumBoxLayers`, a plane
  /// drawn in perspective) or when
  /// the layer composites with an operator that changes what is below outside it
  /// (`destinationIn` clears it: a smaller clip would keep it).
  func clipToDrawnBox(of layer: Layer, in canvas: Canvas) {
    // Inside a plane drawn straight in perspective, user space reaches the device through the
    // plane's projective map, not the transform.
    guard !layer.compositingFilter.changesOutside, canvas.projection == nil else { return }
    let tally = canvas.dashTally
    guard tally.boxLayers < LayerRenderer.maximumBoxLayersPerFrame else { return }
    var visits = 0
    defer { tally.boxLayers += visits }
    guard
      var box = LayerRenderer.drawnBox(
        of: layer, placedBy: canvas.deviceTransform, visits: &visits)
    else { return }
    // Two pixels of antialiasing, and what rounding to whole pixels loses.
    box.grow(dx: 2, dy: 2)
    guard box.isFinite else { return }
    // Cut to the canvas first: a side 3e18 pixels away, kept as an origin and a width, lost the
    // near side to rounding (the width of 3e18 + 200 is a multiple of 512), and the group was
    // clipped to nothing (thirty-first pass).
    var canvasBox = DeviceBox()
    canvasBox.add(
      Rect(
        x: -1, y: -1, width: Double(canvas.pixelWidth) + 2, height: Double(canvas.pixelHeight) + 2),
      through: .identity)
    box.intersect(canvasBox)
    canvas.clip(toDevicePixelsOf: box.isEmpty ? Rect(x: 0, y: 0, width: 0, height: 0) : box.rect)
  }

  /// Refuses `layer`, whose transform in the frame (the canvas's current one) Cairo cannot
  /// hold because it shrinks areas too far, when what it draws would still cover a pixel's area
  /// in the frame (the area of its drawn box in its own space, or of its bounds when that is
  /// not known, times the transform's area scale, both taken apart so that neither overflows):
  /// leaving it out would then be a silent misdraw. A layer squashed flat (one side scaled to
  /// nothing) covers no area and is left out, as before.
  ///
  /// - Parameter sublayers: when given, the canvas's current space is the space these
  ///   sublayers of `layer` are placed in (after its `sublayerTransform`, or a replicator
  ///   instance's placement): what they draw is measured, not the layer itself.
  func refuseIfShrunkButVisible(
    _ layer: Layer, in canvas: Canvas, sublayers: [Layer]? = nil
  ) throws(RenderingError) {
    // The transform refused (one whose area scale underflowed to 0 never reached Cairo),
    // else the one in force.
    let m = canvas.refusedTransform ?? canvas.deviceTransform
    let k = Swift.max(abs(m.a), abs(m.b), abs(m.c), abs(m.d))
    // Only a transform refused for shrinking (not one off at infinity, or stretched).
    guard k > 0, k.isFinite, m.tx.isFinite, m.ty.isFinite, abs(m.a * m.d - m.b * m.c) < 1e-100
    else { return }
    var visits = 0
    let measured =
      sublayers.map { LayerRenderer.box(of: $0, placedBy: .identity, visits: &visits) }
      ?? LayerRenderer.drawnBox(of: layer, placedBy: .identity, visits: &visits)
    let own =
      measured
      ?? {
        var bounds = DeviceBox()
        bounds.add(layer.bounds, through: .identity)
        return bounds
      }()
    guard own.isFinite, !own.isEmpty else { return }
    // The transform's area scale is k² times the determinant of its entries over k.
    let (a, b, c, d) = (m.a / k, m.b / k, m.c / k, m.d / k)
    let area = abs(a * d - b * c) * ((own.x1 - own.x0) * k) * ((own.y1 - own.y0) * k)
    guard area >= 1 else { return }
    throw .transformTooSmall(layer: LayerLabel(layer))
  }

  /// A box holding every device pixel `layer` draws (its shadow, content, sublayers and their
  /// effects, through its groups' filters) when `m` maps its space to device pixels; `nil`
  /// when that is not known: a subtree drawn in depth order or in perspective, text not
  /// clipped to its bounds (its lines may overflow them), more than `maximumBoxLayers` layers.
  /// Masks are not taken into account (they only take away). Each part is bounded as it is
  /// drawn (LayerRenderer.drawContent): bounds, the contents' rectangle by their gravity,
  /// paths' control points grown by the stroke's reach, shadows by their offset and blur.
  static func drawnBox(
    of layer: Layer, placedBy m: AffineTransform, visits: inout Int
  ) -> DeviceBox? {
    visits += 1
    guard visits <= maximumBoxLayers else { return nil }
    let p = layer.properties
    guard !p.isHidden else { return DeviceBox() }
    guard !layer.drawsInDepthOrder else { return nil }
    guard p.opacity > 0 else { return DeviceBox() }
    let bounds = p.bounds.standardized
    var box = DeviceBox()
    if (p.backgroundColor?.alpha ?? 0) > 0 || layer is GradientLayer
      || (p.borderWidth > 0 && (p.borderColor?.alpha ?? 0) > 0)
    {
      box.add(bounds, through: m)
    }
    if let image = p.contents, image.width > 0, image.height > 0 {
      let scale = LayerRenderer.contentsScale(p.contentsScale, of: image, in: bounds)
      let part = p.effects.contentsRect.standardized
      let size = Size(
        width: Double(image.width) * Swift.max(0, part.width) / scale,
        height: Double(image.height) * Swift.max(0, part.height) / scale)
      box.add(p.contentsGravity.rect(forImageOfSize: size, in: bounds), through: m)
      box.add(bounds, through: m)
    }
    if let shape = layer as? ShapeLayer {
      let s = shape.storage.shape
      if let path = s.path, !path.isEmpty {
        var reach = 0.0
        if (s.strokeColor?.alpha ?? 0) > 0 && s.lineWidth > 0 {
          let style = s.strokeStyle
          reach =
            style.lineWidth / 2
            * Swift.max(style.lineJoin == .miter ? style.miterLimit : 1, 2.0.squareRoot())
        }
        if (s.fillColor?.alpha ?? 0) > 0 || reach > 0 {
          visits += path.elements.count / 64
          box.add(path.boundingBox.insetBy(dx: -reach, dy: -reach), through: m)
        }
      }
    }
    if layer is TextLayer {
      guard p.masksToBounds else { return nil }
      box.add(bounds, through: m)
    }
    if !layer.sublayers.isEmpty {
      let sublayerPlacement = p.sublayerTransformAboutAnchor
      // Depth in the sublayers (a zPosition, a turn in 3D) shows through a sublayerTransform
      // in perspective or turned out of the plane: each flattened on its own placed them as if
      // flat, and a group cut them to that (hostile pass 35).
      guard !sublayerPlacement.mapsDepthIntoPlane,
        let inner = sublayerPlacement.planeAffineTransform
      else { return nil }
      let n = sublayerPlacement.isIdentity ? m : inner.concatenating(m)
      guard let sublayers = sublayersBox(of: layer, placedBy: n, visits: &visits) else {
        return nil
      }
      box.add(sublayers)
    }
    var boundsBox = DeviceBox()
    boundsBox.add(bounds, through: m)
    if p.masksToBounds { box.intersect(boundsBox) }
    if let shadow = shadowBox(of: layer, shape: box, placedBy: m, visits: &visits) {
      box.add(shadow)
      if p.masksToBounds { box.intersect(boundsBox) }
    }
    // A mask only takes away, but a mask that filters needs all of its content drawn: blurred
    // within the layer's box, a blurred matte faded the layer at the box's edges (verify30).
    if let mask = layer.mask, hasFilters(mask, visits: &visits) {
      guard let placement = mask.transformToSuperlayer.planeAffineTransform,
        let masked = drawnBox(of: mask, placedBy: placement.concatenating(m), visits: &visits)
      else { return nil }
      box.add(masked)
    }
    // A group's filters spread what it holds (drawGroup blurs at √|det| pixels a point).
    let pixelsPerPoint = abs(m.a * m.d - m.b * m.c).squareRoot()
    for filter in p.effects.filters {
      switch filter {
      case .gaussianBlur(let radius), .directionalBlur(let radius, _):
        let reach = blurReach(sigma: radius * pixelsPerPoint)
        box.grow(dx: reach, dy: reach)
      case .fill, .tint, .tritone: break  // a clear pixel stays clear
      }
    }
    return box.isFinite ? box : nil
  }

  /// The box of what `layers` (sublayers of one layer, placed in its space) draw, or `nil` when
  /// one's is not known.
  static func box(
    of layers: [Layer], placedBy m: AffineTransform, visits: inout Int
  ) -> DeviceBox? {
    var box = DeviceBox()
    for sublayer in layers {
      guard let placement = sublayer.transformToSuperlayer.planeAffineTransform,
        let sub = drawnBox(of: sublayer, placedBy: placement.concatenating(m), visits: &visits)
      else { return nil }
      box.add(sub)
    }
    return box
  }

  /// The sublayers' boxes (each replicator instance's, placed), or `nil` when one is not known.
  private static func sublayersBox(
    of layer: Layer, placedBy m: AffineTransform, visits: inout Int
  ) -> DeviceBox? {
    var box = DeviceBox()
    guard let replicator = layer as? ReplicatorLayer else {
      for sublayer in layer.sublayers {
        guard let placement = sublayer.transformToSuperlayer.planeAffineTransform,
          let sub = drawnBox(of: sublayer, placedBy: placement.concatenating(m), visits: &visits)
        else { return nil }
        box.add(sub)
      }
      return box
    }
    let count = Swift.min(replicator.instanceCount, ReplicatorLayer.maximumInstanceCount)
    guard count <= maximumBoxLayers else { return nil }
    let placements = replicator.instancePlacements(count: count)
    for k in 0..<count where replicator.instanceColor(at: k).alpha > 0 {
      guard !placements[k].mapsDepthIntoPlane, let instance = placements[k].planeAffineTransform
      else { return nil }
      let n = instance.concatenating(m)
      // Delayed instances beyond those presented are refused when drawn.
      if replicator.delayedInstancesCut, k - 1 >= replicator.delayedInstances.count { return nil }
      for sublayer in replicator.instanceSublayers(at: k) {
        guard let placement = sublayer.transformToSuperlayer.planeAffineTransform,
          let sub = drawnBox(of: sublayer, placedBy: placement.concatenating(n), visits: &visits)
        else { return nil }
        box.add(sub)
      }
    }
    return box
  }

  /// Whether `layer` or a layer below it (sublayers and masks) has filters.
  private static func hasFilters(_ layer: Layer, visits: inout Int) -> Bool {
    visits += 1
    guard visits <= maximumBoxLayers else { return true }
    if !layer.properties.effects.filters.isEmpty { return true }
    if let mask = layer.mask, hasFilters(mask, visits: &visits) { return true }
    return layer.sublayers.contains { hasFilters($0, visits: &visits) }
  }

  /// Where `layer`'s shadow draws (ShadowCache.drawShadow): its shape (`shadowPath`, else what
  /// the layer draws, `shape`) moved by the offset and spread by the blur, per device axis; `nil`
  /// when it has none.
  private static func shadowBox(
    of layer: Layer, shape: DeviceBox, placedBy m: AffineTransform, visits: inout Int
  ) -> DeviceBox? {
    guard layer.hasVisibleShadow else { return nil }
    var box = DeviceBox()
    if let path = layer.shadowPath {
      guard !path.isEmpty else { return nil }
      visits += path.elements.count / 64
      box.add(path.boundingBox, through: m)
    } else {
      box = shape
    }
    let sigma = ShadowCache.deviceSigmas(radius: layer.shadowRadius, transform: m)
    let offset = layer.shadowOffset
    let dx = m.a * offset.width + m.c * offset.height
    let dy = m.b * offset.width + m.d * offset.height
    guard !box.isEmpty else { return box }
    (box.x0, box.x1, box.y0, box.y1) = (box.x0 + dx, box.x1 + dx, box.y0 + dy, box.y1 + dy)
    box.grow(dx: blurReach(sigma: sigma.x), dy: blurReach(sigma: sigma.y))
    return box
  }

  /// How far a blur of standard deviation `sigma` pixels spreads a pixel, with a pixel to spare:
  /// its kernel's half width (3σ) or its recursive filter's reach (4σ), whichever it uses.
  static func blurReach(sigma: Double) -> Double {
    guard sigma > 0 else { return 0 }
    return 4 * sigma + 2
  }
}

extension CompositingFilter {
  /// Whether compositing with this operator changes what is below outside the layer:
  /// destination-in clears it (every other operator leaves it where the layer is clear).
  var changesOutside: Bool {
    switch self {
    case .destinationIn: return true
    case .normal, .multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn,
      .hardLight, .softLight, .difference, .exclusion, .hue, .saturation, .color, .luminosity,
      .addition, .sourceOver, .destinationOut, .xor:
      return false
    }
  }
}

extension LayerRenderer {
  /// The image pixels a point of `image` is drawn at: `scale` (a layer's `contentsScale`; 1
  /// when it is not positive), raised where the image's natural size in points would pass a
  /// billion times the layer's `bounds` (its largest side, at least a point). Past that the
  /// layer shows less than a billionth of the image, the same pixels whatever the scale, but
  /// the place of the image's far edge loses the layer's size in a `Double` (a 200-pixel
  /// image at 1e-16 under `bottomRight` gravity drew nothing) and at 1e-306 its size was
  /// infinite (it vanished, even under gravities that only take its proportions).
  static func contentsScale(_ scale: Double, of image: Image, in bounds: Rect) -> Double {
    let given = scale > 0 ? scale : 1
    let side = Swift.max(1, abs(bounds.width), abs(bounds.height))
    let largest = side.isFinite ? side * 1e9 : 1e250
    return Swift.max(given, Double(Swift.max(image.width, image.height)) / largest)
  }
}
