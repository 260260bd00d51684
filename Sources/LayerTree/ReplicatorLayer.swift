import Geometry

/// A layer that draws its sublayers several times, each copy transformed, delayed and tinted a
/// step further than the one before, as Core Animation's `CAReplicatorLayer`.
///
/// Instance 0 is the sublayers as they are. Instance k is instance k − 1 with
/// `instanceTransform` applied after the sublayers' own geometry, about the centre of the
/// replicator's bounds; it shows the sublayers as they are `k × instanceDelay` seconds earlier,
/// animations included; and its colors are multiplied by `instanceColor` plus k times the
/// offsets. Instances draw in order, 0 lowest.
///
/// ```swift
/// let spinner = ReplicatorLayer()
/// spinner.bounds = Rect(0, 0, 80, 80)
/// spinner.instanceCount = 12
/// spinner.instanceTransform = Transform3D.identity.rotated(.pi / 6)
/// spinner.instanceDelay = 1.0 / 12
/// spinner.addSublayer(dot)
/// ```
public final class ReplicatorLayer: Layer {
  /// How many times the sublayers are drawn (default 1; 0 draws none).
  public var instanceCount: Int {
    get { storage.replicator.instanceCount }
    set { storage.replicator.instanceCount = Swift.max(0, newValue) }
  }
  /// The transform from each instance to the next, about the centre of the bounds (default
  /// identity).
  public var instanceTransform: Transform3D {
    get { storage.replicator.instanceTransform }
    set { storage.replicator.instanceTransform = newValue }
  }
  /// How much earlier, in seconds, each instance shows its sublayers than the one before
  /// (default 0).
  public var instanceDelay: Double {
    get { storage.replicator.instanceDelay }
    set { storage.replicator.instanceDelay = newValue }
  }
  /// The color instance 0's colors are multiplied by (default opaque white: unchanged).
  public var instanceColor: Color? {
    get { storage.replicator.instanceColor }
    set { storage.replicator.instanceColor = newValue }
  }
  /// Added to the red multiplier once per instance (default 0).
  public var instanceRedOffset: Double {
    get { storage.replicator.instanceRedOffset }
    set { storage.replicator.instanceRedOffset = newValue }
  }
  /// Added to the green multiplier once per instance (default 0).
  public var instanceGreenOffset: Double {
    get { storage.replicator.instanceGreenOffset }
    set { storage.replicator.instanceGreenOffset = newValue }
  }
  /// Added to the blue multiplier once per instance (default 0).
  public var instanceBlueOffset: Double {
    get { storage.replicator.instanceBlueOffset }
    set { storage.replicator.instanceBlueOffset = newValue }
  }
  /// Added to the alpha multiplier once per instance (default 0).
  public var instanceAlphaOffset: Double {
    get { storage.replicator.instanceAlphaOffset }
    set { storage.replicator.instanceAlphaOffset = newValue }
  }
  /// Whether instances keep their depth rather than flatten into the replicator's plane
  /// (default false). When true the replicator draws as a `TransformLayer` does: every instance's
  /// sublayers are projected into the plane of the nearest ancestor that flattens and drawn
  /// farthest first (visual-effects.md §7).
  public var preservesDepth: Bool {
    get { storage.replicator.preservesDepth }
    set { storage.replicator.preservesDepth = newValue }
  }

  /// In a presentation tree, the sublayers of instances 1, 2, ... as they are at the
  /// replicator's time minus k × `instanceDelay` (instance 0 is `sublayers`). Empty in models.
  public package(set) var delayedInstances: [[Layer]] = []

  /// Whether presenting this replicator left delayed instances out (more layers than
  /// `maximumDelayedLayers` in its instances): those instances must not be drawn.
  public package(set) var delayedInstancesCut = false

  /// The most layers a presentation builds for one replicator's delayed instances (about
  /// 100,000: presenting stops at the instance that passes it), as many as a frame draws.
  public static let maximumDelayedLayers = 100_000

  /// The most instances Flipbook draws (10,000); more are left out.
  public static let maximumInstanceCount = 10_000

  /// Creates a replicator layer with Core Animation's defaults.
  public override init() {
    super.init()
    storage.typed = .replicator(ReplicatorProperties())
  }

  required init(copying layer: Layer) {
    super.init(copying: layer)
    if case .replicator = storage.typed {
    } else {
      storage.typed = .replicator(ReplicatorProperties())
    }
  }

  /// The multiplier of instance `k`'s colors: `instanceColor` plus k times the offsets, each
  /// component clamped to 0...1.
  public func instanceColor(at k: Int) -> Color {
    let c = instanceColor ?? .white
    let k = Double(k)
    func clamp(_ x: Double) -> Double { Swift.min(1, Swift.max(0, x)) }
    return Color(
      red: clamp(c.red + k * instanceRedOffset), green: clamp(c.green + k * instanceGreenOffset),
      blue: clamp(c.blue + k * instanceBlueOffset), alpha: clamp(c.alpha + k * instanceAlphaOffset))
  }

  /// The transform of instance `k` in the replicator's coordinates: `instanceTransform` applied
  /// k times about the centre of the bounds, after the sublayers' own placement.
  public func instancePlacement(at k: Int) -> Transform3D {
    guard k > 0 else { return .identity }
    var t = Transform3D.identity
    for _ in 0..<k { t = t.concatenating(instanceTransform) }
    let c = Point(x: bounds.midX, y: bounds.midY)
    return Transform3D.translation(x: -c.x, y: -c.y).concatenating(t)
      .concatenating(.translation(x: c.x, y: c.y))
  }

  /// The transforms of instances `0..<count` (`instancePlacement(at:)` of each), made in one
  /// pass: each instance's repeated transform is the previous one's concatenated once more, so
  /// that 10,000 instances cost 10,000 products rather than 50 million.
  public func instancePlacements(count: Int) -> [Transform3D] {
    guard count > 0 else { return [] }
    let c = Point(x: bounds.midX, y: bounds.midY)
    let toCenter = Transform3D.translation(x: -c.x, y: -c.y)
    let back = Transform3D.translation(x: c.x, y: c.y)
    var out: [Transform3D] = [.identity]
    out.reserveCapacity(count)
    var t = Transform3D.identity
    for _ in 1..<count {
      t = t.concatenating(instanceTransform)
      out.append(toCenter.concatenating(t).concatenating(back))
    }
    return out
  }

  /// The sublayers instance `k` draws (instance 0: `sublayers`).
  public func instanceSublayers(at k: Int) -> [Layer] {
    k == 0 ? sublayers : (k - 1 < delayedInstances.count ? delayedInstances[k - 1] : sublayers)
  }
}

/// The properties only replicator layers have (see `ReplicatorLayer` for what each means).
package struct ReplicatorProperties: Hashable, Sendable {
  public var instanceCount = 1
  public var instanceTransform = Transform3D.identity
  public var instanceDelay = 0.0
  public var instanceColor: Color? = .white
  public var instanceRedOffset = 0.0
  public var instanceGreenOffset = 0.0
  public var instanceBlueOffset = 0.0
  public var instanceAlphaOffset = 0.0
  public var preservesDepth = false
  public init() {}
}
