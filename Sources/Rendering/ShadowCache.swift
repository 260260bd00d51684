import CairoCanvas
import Geometry
import Glibc
import LayerTree
import Parallelism

/// Blurred shadow shapes kept between frames, so that a shadow whose shape and blur do not
/// change (a card that only moves or fades) is not blurred again.
///
/// A shadow is keyed by what decides its pixels: its shape (the `shadowPath`, or a fingerprint of
/// every drawn property of the layer and its subtree except its position, opacity and shadow),
/// its blur in pixels, and the linear part of the layer's transform to the device. The shape is
/// always rasterised on the pixel grid at whole-pixel offsets and placed afterwards, so a cached
/// shadow gives the same pixels as a fresh one: frames do not depend on what was drawn before.
///
/// A shape cut by the edge of the region it is drawn in (the frame grown by the blur's reach)
/// depends on where it lies: it is kept under its whole-pixel place in the frame as well. Shapes
/// are always drawn in the frame's pixel grid, also when one shadow's shape holds another
/// shadowed layer, so that inner shadow is found again when the frame itself draws it: nested
/// shadows cost one shape pass each, not one per enclosing shadow.
public final class ShadowCache: Sendable {
  /// The cache `LayerRenderer()` uses.
  public static let shared = ShadowCache()

  /// What is kept, and the counts of hits and misses.
  struct State {
    var entries: [Key: AlphaMask] = [:]
    var order: [Key] = []
    var bytes = 0
    var hits = 0
    var misses = 0
  }

  /// What decides a blurred shadow's pixels.
  struct Key: Hashable, Sendable {
    enum Shape: Hashable, Sendable {
      case path(Path)
      case layer(LayerFingerprint)
    }
    var shape: Shape
    var sigma: [Double]
    var linear: [Double]
    /// For a shape cut by its region's edge: the frame pixel of the layer's origin, the frame's
    /// pixel size and the region's margin; `nil` for a shape drawn whole.
    var region: [Int]? = nil
  }

  private let state = Locked(State())
  /// The most bytes of blurred shadows kept (64 MB); the oldest go first.
  private let byteLimit: Int

  /// Creates an empty cache keeping at most `byteLimit` bytes of shadows.
  public init(byteLimit: Int = 64 << 20) { self.byteLimit = byteLimit }

  /// How many shadows were found in the cache and how many were blurred, since it was made.
  public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

  /// Empties the cache (statistics included).
  public func removeAll() { state.withLock { $0 = State() } }

  /// The shadow kept under the first of `keys` that has one (one hit or one miss).
  private func lookup(_ keys: Key...) -> AlphaMask? {
    state.withLock { s in
      for key in keys {
        guard let found = s.entries[key] else { continue }
        s.hits += 1
        return found
      }
      s.misses += 1
      return nil
    }
  }

  private func insert(_ mask: AlphaMask, for key: Key) {
    state.withLock { s in
      guard s.entries[key] == nil, mask.pixels.count <= byteLimit else { return }
      s.entries[key] = mask
      s.order.append(key)
      s.bytes += mask.pixels.count
      while s.bytes > byteLimit, !s.order.isEmpty {
        let old = s.order.removeFirst()
        s.bytes -= s.entries.removeValue(forKey: old)?.pixels.count ?? 0
      }
    }
  }

  /// The standard deviations, in device pixels along x and along y, of the blur that a Gaussian
  /// of σ = `radius` points in a layer's own space becomes under `transform` (layer space to
  /// device pixels; its translation is ignored).
  ///
  /// The layer-space blur's covariance `radius² I` becomes `radius² L Lᵀ` through the linear
  /// part `L`. A separable blur along the device's axes keeps that covariance's diagonal, the
  /// variance along each axis: σx = radius · √(a² + c²), σy = radius · √(b² + d²) (the lengths of
  /// `L`'s rows). That is exact whenever `L Lᵀ` is diagonal (any scale along the layer's axes,
  /// also turned by a multiple of 90°, and any rotation of a uniform scale: σx = σy = radius ·
  /// scale); under a rotation of a non-uniform scale or a skew the blur keeps the right spread
  /// across the device's vertical and horizontal edges and drops the covariance's tilt (a blur
  /// elongated along a diagonal is drawn axis-aligned, with the same spread along x and y).
  public static func deviceSigmas(
    radius: Double, transform m: AffineTransform
  ) -> (x: Double, y: Double) {
    let r = Swift.max(0, radius)
    return ((m.a * m.a + m.c * m.c).squareRoot() * r, (m.b * m.b + m.d * m.d).squareRoot() * r)
  }

  /// Draws `layer`'s shadow (visual-effects.md §1) into `canvas`, whose current transform is the
  /// layer's own space: the shape in `shadowColor` at `shadowColor.alpha × shadowOpacity`, moved
  /// by `shadowOffset` and blurred with σ = `shadowRadius`, both in the layer's space (the blur
  /// per device axis: `deviceSigmas`); clipped to the rounded bounds when the layer
  /// `masksToBounds`.
  func drawShadow(
    of layer: Layer, in canvas: Canvas, renderer: LayerRenderer
  ) throws(RenderingError) {
    guard let color = layer.shadowColor else { return }
    let m = canvas.deviceTransform
    let origin = Point(x: m.tx + canvas.frameOffset.x, y: m.ty + canvas.frameOffset.y)
    guard m.a * m.d - m.b * m.c != 0 else { return }
    let sigma = ShadowCache.deviceSigmas(radius: layer.shadowRadius, transform: m)
    let linear = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: 0, ty: 0)
    let offset = Point(x: layer.shadowOffset.width, y: layer.shadowOffset.height).applying(linear)
    // A blur or an offset past any canvas (up to 16384 pixels a side) leaves nothing visible:
    // no shadow is drawn, and no pixel count is made from an unbounded number.
    let reach = 3 * Swift.max(sigma.x, sigma.y) + abs(offset.x) + abs(offset.y)
    guard reach.isFinite, reach < 1_000_000 else { return }
    // A shadow path is hashed and compared, element by element, each time the shadow is
    // looked up (once per replicator instance): counted as path work, a unit an element, as a
    // fill's elements are (100,000 elements in 90,000 instances took 93 s, counted by nothing).
    if let path = layer.shadowPath {
      try renderer.chargePathWork(Double(path.elements.count), for: layer, in: canvas)
    }
    let shape: Key.Shape =
      layer.shadowPath.map { .path($0) } ?? .layer(LayerFingerprint(layer, isRoot: true))
    let key = Key(shape: shape, sigma: [sigma.x, sigma.y], linear: [m.a, m.b, m.c, m.d])
    // Shapes just off the frame still cast visible shadows: the region the shape is drawn in
    // is the frame grown by the blur's reach and the offset. An offset of 128 pixels or more
    // (along an axis) moves the region instead, in steps of 256 pixels: the shape is drawn
    // where its shadow falls (its pixels relative to the layer's origin are the same wherever
    // it is drawn), and only what is left of the offset grows the region. Grown by the whole
    // offset on every side, a 5,000-pixel offset on a 300 x 300 frame drew the shape in a
    // region of 10,300 x 10,300 pixels (0.4 s and 340 MB). Smaller offsets keep the frame's
    // region, which nested shadows' shapes share with the frame (found again in the cache).
    let shift = Point(
      x: (offset.x / ShadowCache.offsetStep).rounded() * ShadowCache.offsetStep,
      y: (offset.y / ShadowCache.offsetStep).rounded() * ShadowCache.offsetStep)
    let placed = Point(x: origin.x + shift.x, y: origin.y + shift.y)
    let grow = 3 * Swift.max(sigma.x, sigma.y) + abs(offset.x - shift.x) + abs(offset.y - shift.y)
    let margin = Int(grow.rounded(.up)) + 2
    var cutKey = key
    if abs(placed.x) < 1e9, abs(placed.y) < 1e9 {
      let frame = canvas.framePixelSize
      cutKey.region = [
        Int(placed.x.rounded()), Int(placed.y.rounded()), frame.width, frame.height, margin,
      ]
    }

    var blurred = lookup(key, cutKey)
    if blurred == nil {
      // A shape whose box is exact (a shadow path, or a subtree of plain layers) is drawn in
      // its box only: 10,000 shadowed layers of different sizes each made a canvas of the
      // whole frame.
      let exact = layer.shadowPath != nil || LayerRenderer.hasExactExtent(layer, isRoot: true)
      // A blur wider than `maximumBlurSigma` runs at a lower density (`blurVisiblePart`): the
      // shape is drawn there at once. Drawn at the frame's density and averaged down, 100
      // small layers scaled 100 times along x, rotated, with radius 3,000 took 13 s.
      let widest = Swift.max(sigma.x, sigma.y)
      let density =
        widest > ShadowCache.maximumBlurSigma ? ShadowCache.maximumBlurSigma / widest * 0.999 : 1
      // The shape's canvas is a group, held while the subtree draws in it: counted before it
      // is made.
      let outcome = try canvas.makeAlphaMask(
        linear: linear, origin: placed, margin: margin,
        content: {
          renderer.deviceBox(ofShapeOf: layer, under: m).map {
            Rect(x: $0.minX + shift.x, y: $0.minY + shift.y, width: $0.width, height: $0.height)
          }
        }, cutsToContent: exact,
        density: density,
        admit: { (pixels: Int) throws(RenderingError) in
          try renderer.chargeGroups(1, pixels: pixels, for: layer, in: canvas)
        }
      ) { (shapeCanvas: Canvas) throws(RenderingError) in
        if let path = layer.shadowPath {
          try renderer.chargePathWork(
            LayerRenderer.pathWork(of: path, on: shapeCanvas), for: layer, in: shapeCanvas)
          shapeCanvas.fill(path, with: .black)
        } else {
          try renderer.drawContent(of: layer, in: shapeCanvas)
        }
      }
      // Its blur is filter work over the pixels it blurs, refused before it runs.
      switch outcome {
      case .drawn(let drawn, let touchesEdge):
        let everywhere = Int.max / 8
        let full = drawn.blurCrop(
          sigmaX: sigma.x, sigmaY: sigma.y,
          within: (-everywhere, -everywhere, everywhere, everywhere))
        if let full, full.bufferPixels <= ShadowCache.maximumWholeBlurPixels {
          // Blurred whole: the same pixels wherever the shadow is placed, so it is kept.
          try renderer.chargeFilter(pixels: full.bufferPixels, for: layer, in: canvas)
          let mask = drawn.blurred(sigmaX: sigma.x, sigmaY: sigma.y, in: full)
          if !touchesEdge {
            insert(mask, for: key)
          } else if cutKey.region != nil {
            insert(mask, for: cutKey)
          }
          blurred = mask
        } else {
          let at = Point(x: Double(drawn.originX), y: Double(drawn.originY))
          let shape = AlphaMask(width: drawn.width, height: drawn.height, pixels: drawn.pixels)
          blurred = try blurVisiblePart(
            of: shape, at: at, density: 1, sigma: sigma, offset: offset, of: layer, in: canvas,
            renderer: renderer)
        }
      case .drawnAtDensity(let drawn, let at, let density, _):
        // A shape over the canvas limits even cut to the frame's reach (a layer covering a
        // frame at the size limits), drawn at a lower density: blurred there, then brought
        // back to the frame's pixels; or a blur wider than `maximumBlurSigma`. Not kept: its
        // grid is not the frame's.
        blurred = try blurVisiblePart(
          of: drawn, at: at, density: density, sigma: sigma, offset: offset, of: layer,
          in: canvas, renderer: renderer)
      case .empty:
        // Nothing drawn in the region (all of it off the frame, or nothing opaque): kept as
        // an empty shadow for this place, so nested shadows are not tried again.
        if cutKey.region != nil {
          insert(AlphaMask(width: 0, height: 0, pixels: []), for: cutKey)
        }
        return
      case .tooLarge(let width, let height):
        throw .offscreenUnavailable(
          layer: LayerLabel(layer),
          reason: "its shadow's shape needs \(width) x \(height) pixels, over the limits "
            + "(\(Canvas.maximumSide) a side, \(Canvas.maximumPixelCount / 1_000_000) megapixels)")
      case .unavailable(let error):
        throw .offscreenUnavailable(layer: LayerLabel(layer), reason: error.description)
      }
    }
    guard let blurred else { return }
    // Placing the blurred shape (resampled to its fractional place, then composited) goes over
    // all its pixels, whether it was blurred now or found in the cache: 10,000 replicated
    // copies of one full-frame shadow blurred it once and placed it 10,000 times.
    try renderer.chargeGroups(
      1, pixels: blurred.width * blurred.height, holding: false, for: layer, in: canvas)
    let alpha = Swift.min(1, Swift.max(0, color.alpha * layer.shadowOpacity))
    let shadowColor = Color(red: color.red, green: color.green, blue: color.blue, alpha: alpha)
    canvas.save()
    defer { canvas.restore() }
    if layer.masksToBounds {
      let bounds = layer.bounds.standardized
      canvas.clip(to: Path(roundedRect: bounds, cornerRadius: layer.cornerRadius))
    }
    canvas.fill(
      blurred, atDeviceX: m.tx + Double(blurred.originX) + offset.x,
      y: m.ty + Double(blurred.originY) + offset.y, with: shadowColor)
  }
}

extension ShadowCache {
  /// The steps, in device pixels, in which a shadow's offset moves the region its shape is
  /// drawn in (`drawShadow`): 256. What is left of the offset (at most 128 along an axis)
  /// grows the region on every side instead.
  static let offsetStep = 256.0

  /// The most pixels a shadow's shape is blurred over whole, its blurred box kept for other
  /// frames and places: 16,000,000 (a full-frame shadow at 4K with its blur's reach). A wider
  /// blurred box (a blur of σ 2,000 pixels grows a small shape to 16,000 x 16,000) is blurred
  /// only where it can be seen (`blurVisiblePart`).
  public static let maximumWholeBlurPixels = 16_000_000

  /// The widest blur, σ in pixels, run at the density a shape is blurred at: 16,384 (Deriche's
  /// recursive Gaussian stays within a tenth of a level of 255 up to σ 65,536; a blur this wide
  /// changes by under a level across a pixel of a lower density).
  static let maximumBlurSigma = 16_384.0

  /// The part of the blur of `shape` (drawn at `density` device pixels to the canvas's pixel,
  /// its pixel (0, 0) at `at` in those pixels relative to the layer's origin) that the canvas's
  /// clip can show once the shadow is moved by `offset` (device pixels), at the canvas's pixels
  /// (origin relative to the layer's origin); `nil` when none of it can be seen.
  ///
  /// The blur runs over the box around the shape and the visible part only (the input is 0
  /// outside the shape, so the pixels are the same as a whole blur's). When that box is over
  /// the canvas limits (`Canvas.maximumSide` a side, `Canvas.maximumPixelCount` pixels), or
  /// the blur is wider than `maximumBlurSigma` there, the shape is first brought to a lower
  /// density (the mean of blocks of its pixels), blurred there and scaled back: a blur that
  /// wide is smooth over the pixels the shape loses. Charged as filter work over the box's
  /// pixels before it is blurred: memory and time are bounded whatever the radius, the scale
  /// or the transform.
  func blurVisiblePart(
    of shape: AlphaMask, at: Point, density: Double, sigma: (x: Double, y: Double),
    offset: Point, of layer: Layer, in canvas: Canvas, renderer: LayerRenderer
  ) throws(RenderingError) -> AlphaMask? {
    let m = canvas.deviceTransform
    let clip = canvas.deviceClipBounds
    guard clip.width > 0, clip.height > 0 else { return nil }
    // The clip in the shape's frame of reference: device x = m.tx + offset.x + u.
    let u0 = clip.minX - m.tx - offset.x, u1 = clip.maxX - m.tx - offset.x
    let v0 = clip.minY - m.ty - offset.y, v1 = clip.maxY - m.ty - offset.y
    var mask = shape, at = at, density = density
    var crop: AlphaMask.BlurCrop?
    for _ in 0..<4 {
      // The clip in the mask's pixel indices at its density, grown by two for the resampling.
      func index(_ u: Double, _ start: Double, _ rounding: FloatingPointRoundingRule) -> Int {
        Int(Swift.max(-1e12, Swift.min(1e12, (u * density - start).rounded(rounding))))
      }
      let region = (
        index(u0, at.x, .down) - 2, index(v0, at.y, .down) - 2, index(u1, at.x, .up) + 2,
        index(v1, at.y, .up) + 2
      )
      crop = mask.blurCrop(sigmaX: sigma.x * density, sigmaY: sigma.y * density, within: region)
      guard let c = crop else { return nil }
      let side = Double(Canvas.maximumSide), limit = Double(Canvas.maximumPixelCount)
      let factor = Swift.max(
        Double(c.bufferWidth) / side, Double(c.bufferHeight) / side,
        (Double(c.bufferWidth) * Double(c.bufferHeight) / limit).squareRoot(),
        Swift.max(sigma.x, sigma.y) * density / ShadowCache.maximumBlurSigma)
      guard factor > 1 else { break }
      let k = Int(factor.rounded(.up)) + 1
      mask = mask.reduced(by: k)
      at = Point(x: at.x / Double(k), y: at.y / Double(k))
      density /= Double(k)
      crop = nil
    }
    guard let crop else {
      throw .offscreenUnavailable(
        layer: LayerLabel(layer),
        reason: "its shadow's blur cannot be brought within the canvas limits")
    }
    try renderer.chargeFilter(pixels: crop.bufferPixels, for: layer, in: canvas)
    let low = mask.blurred(sigmaX: sigma.x * density, sigmaY: sigma.y * density, in: crop)
    guard density != 1 else {
      return AlphaMask(
        width: low.width, height: low.height, originX: low.originX + Int(at.x),
        originY: low.originY + Int(at.y), pixels: low.pixels)
    }
    let moved = Point(x: at.x + Double(low.originX), y: at.y + Double(low.originY))
    return low.scaled(density: density, origin: moved)
  }
}

/// Everything about a layer and its subtree that decides the alpha it draws, as values of the
/// property table: two layers with equal fingerprints draw the same pixels in the same place
/// relative to their own origin. The root leaves out what moves or fades it (position,
/// opacity) and its own shadow.
struct LayerFingerprint: Hashable, Sendable {
  var values: [PropertyValue]
  var sublayers: [LayerFingerprint]
  var mask: [LayerFingerprint]
  var instances: [[LayerFingerprint]]

  /// The root's properties that do not change its drawn shape relative to its origin.
  static let ignoredAtRoot: Set<String> = [
    "position", "opacity", "zPosition", "name", "beginTime", "speed", "timeOffset",
    "collisionBoundsType", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius",
    "shadowPath",
  ]

  init(_ layer: Layer, isRoot: Bool = false) {
    values = LayerProperty.all.compactMap { property in
      if isRoot && LayerFingerprint.ignoredAtRoot.contains(property.name) { return nil }
      return property.value(of: layer)
    }
    sublayers = layer.sublayers.map { LayerFingerprint($0) }
    mask = isRoot ? [] : layer.mask.map { [LayerFingerprint($0)] } ?? []
    // Undelayed instances are the sublayers again (and `instanceCount` is among the values):
    // 10,000 of them nested in 10,000 more made 100 million fingerprints.
    let replicator = layer as? ReplicatorLayer
    let delayed = replicator?.instanceDelay == 0 ? [] : replicator?.delayedInstances ?? []
    instances = delayed.map { $0.map { LayerFingerprint($0) } }
  }
}
