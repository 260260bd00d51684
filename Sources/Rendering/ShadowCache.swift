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
    var sigma: Double
    var linear: [Double]
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

  private func lookup(_ key: Key) -> AlphaMask? {
    state.withLock { s in
      if let found = s.entries[key] {
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

  /// Draws `layer`'s shadow (visual-effects.md §1) into `canvas`, whose current transform is the
  /// layer's own space: the shape in `shadowColor` at `shadowColor.alpha × shadowOpacity`, moved
  /// by `shadowOffset` and blurred with σ = `shadowRadius`, both in the layer's space; clipped to
  /// the rounded bounds when the layer `masksToBounds`.
  func drawShadow(
    of layer: Layer, in canvas: Canvas, renderer: LayerRenderer
  ) throws(RenderingError) {
    guard let color = layer.shadowColor else { return }
    let m = canvas.deviceTransform
    let pixelsPerPoint = abs(m.a * m.d - m.b * m.c).squareRoot()
    guard pixelsPerPoint > 0 else { return }
    let sigma = Swift.max(0, layer.shadowRadius) * pixelsPerPoint
    let linear = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: 0, ty: 0)
    let offset = Point(x: layer.shadowOffset.width, y: layer.shadowOffset.height).applying(linear)
    // A blur or an offset past any canvas (up to 16384 pixels a side) leaves nothing visible:
    // no shadow is drawn, and no pixel count is made from an unbounded number.
    let reach = 3 * sigma + abs(offset.x) + abs(offset.y)
    guard reach.isFinite, reach < 1_000_000 else { return }
    let shape: Key.Shape =
      layer.shadowPath.map { .path($0) } ?? .layer(LayerFingerprint(layer, isRoot: true))
    let key = Key(shape: shape, sigma: sigma, linear: [m.a, m.b, m.c, m.d])

    var blurred = lookup(key)
    if blurred == nil {
      // Shapes just off the canvas still cast visible shadows: grow the canvas by the blur's
      // reach and the offset.
      let margin = Int((3 * sigma + abs(offset.x) + abs(offset.y)).rounded(.up)) + 2
      let drawn = try canvas.makeAlphaMask(
        linear: linear, originX: Int(m.tx.rounded()), originY: Int(m.ty.rounded()), margin: margin
      ) { (shapeCanvas: Canvas) throws(RenderingError) in
        if let path = layer.shadowPath {
          shapeCanvas.fill(path, with: .black)
        } else {
          try renderer.drawContent(of: layer, in: shapeCanvas)
        }
      }
      guard let drawn else { return }
      let mask = drawn.mask.blurred(sigma: sigma)
      if !drawn.touchesEdge { insert(mask, for: key) }
      blurred = mask
    }
    guard let blurred else { return }
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
    let delayed = (layer as? ReplicatorLayer)?.delayedInstances ?? []
    instances = delayed.map { $0.map { LayerFingerprint($0) } }
  }
}
