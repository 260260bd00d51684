import CairoCanvas
import Geometry
import LayerTree
import Rendering
import Animations
import Dynamics

/// An animation to render: a tree of layers on a canvas of a given size, with the frame rate,
/// duration, background and loop count its output files use.
///
/// The scene's layers are the sublayers of `rootLayer`, whose coordinate space is the scene's:
/// points, origin at the top-left, y down. Any instant can be rendered on its own with
/// `makeFrame(at:)`, in any order.
///
/// ```swift
/// let scene = Scene(size: Size(320, 320), duration: 4, fps: 30, backgroundColor: .white) { scene in
///   let pulse = Layer()
///   pulse.frame = Rect(0, 0, 320, 320)
///   scene.addLayer(pulse)
/// }
/// let frame = try scene.makeFrame(at: 0.5).makeBitmap()
/// ```
///
/// Time is a pure function: what shows at a time depends on that time only. Timeline events,
/// display-link hooks and dynamics change the model as time goes on, so:
/// - This instance's model only moves forward (`modelTime`); a time before it is shown by a
///   *replica*: an identical instance made again by the scene's builder (the closure given to
///   `init(size:scale:duration:fps:backgroundColor:loopCount:build:)`, or the one given to
///   `rebuild(with:)`) and run forward to that time. The scene keeps a few replicas, each where
///   it was last used, and uses the latest one at or before the time asked for (a fresh one
///   when there is none), so rewinding does not always replay from the start.
/// - This is sound because a replica replays exactly what this instance did: the builder is
///   deterministic (seed any random generator inside it) and the scene is changed after it is
///   built only by its own events and hooks. Their closures may keep state of their own (a
///   counter, a random generator): each replica has its own copy, built by its own builder run.
/// - A scene built without a builder shows any time in any order while it has no timeline events
///   or hooks (its model never changes); with them it cannot show a time before `modelTime`
///   (`SceneError.timeWentBackwards`).
/// - Dynamics is simulated once for a scene and all its replicas: they share one recording of
///   every step (`DynamicAnimator`).
public final class Scene {
  /// The longest duration a scene may have: one hour.
  public static let maximumDuration: Double = 3600
  /// The highest frame rate: 240 frames per second.
  public static let maximumFPS: Double = 240
  /// The lowest frame rate: 0.01 frames per second (a frame every 100 s, which a GIF delay of at
  /// most 655.35 s can still hold).
  public static let minimumFPS: Double = 0.01

  /// The pixels a point a scene may be drawn at (its `scale`, or a render's): 10^-6 to 10^6.
  /// Past 10^154 the frame's transform squares past the largest double and Cairo drew a
  /// transparent frame sprinkled with memory it had not written (a scene of 10^-153 points at
  /// 10^155, a legal 100 x 100 frame), different on every run.
  public static let scaleRange: ClosedRange<Double> = 1e-6...1e6
  /// The most frames one render may produce: 100,000.
  public static let maximumFrameCount = 100_000

  /// The size of the scene in points (the canvas is `size * scale` pixels).
  public var size: Size {
    didSet { rootLayer.bounds = Rect(origin: .zero, size: size) }
  }
  /// Pixels per point (default 1).
  public var scale: Double
  /// How long the animation lasts, in seconds (default 1); `render` covers `0 ..< duration`.
  public var duration: Double
  /// Frames per second of rendered output (default 30).
  public var fps: Double
  /// The color behind every layer, or `nil` for a transparent background (the default).
  public var backgroundColor: Color?
  /// How many times an animated GIF plays: 0 forever (the default), N times in all otherwise.
  public var loopCount: Int
  /// Where `duration` comes from, for messages about the end of the timeline (a Lottie file's
  /// `"the Lottie out point, op 60 at fr 30"`); `nil` for the scene's own `duration`.
  public var durationSource: String? = nil
  /// The files read to make this scene besides its own document (the images a scene file
  /// names), as the reader resolved them; empty for scenes built in code. `flipbook batch`
  /// hashes them, so that a changed image renders its animations again.
  public var inputFiles: [String] = []

  /// The layer whose sublayers are the scene's layers; its bounds are the scene's size and its
  /// anchor point is its top-left corner, at the scene's origin.
  public let rootLayer: Layer

  /// Scheduled events (`at`, `every`), in the order they were scheduled.
  var timeline: [TimelineEvent] = []
  /// Display-link hooks (`onFrame`).
  var displayLinkHooks: [(Double) -> Void] = []
  /// The next display-link tick to run (tick k is at k / 60 s).
  var nextTick = 0
  /// The scene time the timeline has run to.
  public internal(set) var modelTime: Double = -.infinity

  /// The dynamic animator whose items are this scene's top-level layers, over the scene's
  /// bounds (UIKit's `UIDynamicAnimator(referenceView:)`). Add behaviors to it; the presented
  /// layers then follow the simulation.
  public var dynamicAnimator: DynamicAnimator {
    if let animatorStorage { return animatorStorage }
    let animator = DynamicAnimator(
      referenceBounds: Rect(origin: .zero, size: size), recording: dynamicsRecording)
    animatorStorage = animator
    return animator
  }
  private var animatorStorage: DynamicAnimator? = nil

  /// How to make replicas, if the scene was built by a builder.
  var blueprint: SceneBlueprint? = nil
  /// Where dynamics is recorded: shared by the scene and its replicas.
  package private(set) var dynamicsRecording = DynamicsRecording()
  /// Replicas kept for showing times before `modelTime`, least recently used first.
  private var replicas: [Scene] = []
  /// How many replicas a scene keeps.
  static let keptReplicas = 4
  /// The replica that showed the time last shown, when it was not this instance (what
  /// `dynamicState(of:)` reports from).
  private var lastShownReplica: Scene? = nil

  /// The animator, when it has any behavior.
  var dynamicAnimatorIfUsed: DynamicAnimator? {
    guard let animatorStorage, !animatorStorage.behaviors.isEmpty else { return nil }
    return animatorStorage
  }

  /// Creates an empty scene.
  public init(
    size: Size, scale: Double = 1, duration: Double = 1, fps: Double = 30,
    backgroundColor: Color? = nil, loopCount: Int = 0
  ) {
    self.size = size
    self.scale = scale
    self.duration = duration
    self.fps = fps
    self.backgroundColor = backgroundColor
    self.loopCount = loopCount
    rootLayer = Layer()
    rootLayer.name = nil
    rootLayer.anchorPoint = .zero
    rootLayer.bounds = Rect(origin: .zero, size: size)
  }

  /// Creates a scene and builds it with `build`, which the scene keeps to make identical
  /// replicas of itself: to show a time before one its timeline has run to, and to give each
  /// thread of a parallel render its own instance (`FrameRenderer(scene:scale:jobs:)`).
  ///
  /// `build` receives the new, empty scene with these settings; it adds layers, animations,
  /// timeline events, display-link hooks and dynamics, and may change the settings. It must be
  /// deterministic: every call must build the same scene (seed any random generator inside it,
  /// and create inside it any state its events and hooks keep). Capture the scene `unowned` in
  /// the closures you give it, so they do not keep it alive.
  ///
  /// ```swift
  /// let scene = Scene(size: Size(200, 200), duration: 3) { scene in
  ///   var count = 0
  ///   scene.every(0.5) { [unowned scene] _ in
  ///     count += 1
  ///     let dot = Layer()
  ///     dot.frame = Rect(Double(count) * 20, 90, 10, 10)
  ///     scene.addLayer(dot)
  ///   }
  /// }
  /// ```
  public convenience init(
    size: Size, scale: Double = 1, duration: Double = 1, fps: Double = 30,
    backgroundColor: Color? = nil, loopCount: Int = 0, build: @escaping @Sendable (Scene) -> Void
  ) {
    self.init(
      size: size, scale: scale, duration: duration, fps: fps, backgroundColor: backgroundColor,
      loopCount: loopCount)
    let settings = SceneBlueprint.Settings(of: self)
    blueprint = SceneBlueprint(source: .builder(settings, build), recording: dynamicsRecording)
    build(self)
  }

  /// Makes this scene rebuildable: `make` builds a new scene identical to this one as it was
  /// built (before any time was shown), and the scene uses it to make its replicas (see
  /// `init(size:scale:duration:fps:backgroundColor:loopCount:build:)`). For scenes built in one
  /// go elsewhere, such as read from a scene file.
  public func rebuild(with make: @escaping @Sendable () throws -> Scene) {
    blueprint = SceneBlueprint(source: .rebuild(make), recording: dynamicsRecording)
  }

  /// Whether the scene can make replicas of itself (it was built by a builder, or given
  /// `rebuild(with:)`).
  public var isReplicable: Bool { blueprint != nil }

  /// A recipe that makes replicas of this scene, on any thread, with the scene's settings as
  /// they are now (size, scale, background...), sharing its dynamics recording: what a render
  /// on several threads needs.
  ///
  /// Its `make` throws `SceneError.notReplicable` when the scene has no builder.
  public var recipe: SceneRecipe {
    guard let blueprint else { return SceneRecipe { throw SceneError.notReplicable } }
    let settings = SceneBlueprint.Settings(of: self)
    return SceneRecipe {
      let replica = try blueprint.makeInstance()
      settings.apply(to: replica)
      return replica
    }
  }

  /// Records dynamics in `recording` from now on, unless the simulation has already started.
  func adopt(_ recording: DynamicsRecording) {
    guard let animatorStorage else {
      dynamicsRecording = recording
      return
    }
    animatorStorage.adopt(recording)
    dynamicsRecording = animatorStorage.recording
  }

  /// The scene's top-level layers, back to front.
  public var layers: [Layer] { rootLayer.sublayers }

  /// Adds `layer` on top of the scene's top-level layers.
  public func addLayer(_ layer: Layer) { rootLayer.addSublayer(layer) }

  /// The first layer named `name`, depth first.
  public func layer(named name: String) -> Layer? {
    for layer in layers {
      if let found = layer.layer(named: name) { return found }
    }
    return nil
  }

  /// The output size in pixels at `scale` (the scene's own by default), rounded.
  public func pixelSize(scale: Double? = nil) -> (width: Int, height: Int) {
    let s = scale ?? self.scale
    return (Int((size.width * s).rounded()), Int((size.height * s).rounded()))
  }

  /// Renders the scene as it shows at `time` seconds into a new canvas.
  ///
  /// - Parameter scale: pixels per point; the scene's `scale` when `nil`.
  /// - Throws: `Export.LimitError.scale` for a scale outside `Scene.scaleRange`,
  ///   `CanvasError.sizeOutOfRange` past the pixel limits, `RenderingError` for layers Flipbook
  ///   cannot draw.
  public func makeFrame(at time: Double, scale: Double? = nil) throws -> Canvas {
    guard Scene.scaleRange.contains(scale ?? self.scale) else {
      throw Export.LimitError.scale(scale ?? self.scale, scaleIsOptions: scale != nil)
    }
    let tree = try drawableTree(at: time)
    let canvas = try Canvas(size: size, scale: scale ?? self.scale, clearedTo: backgroundColor)
    try LayerRenderer().draw(tree, in: canvas)
    return canvas
  }

  /// Draws a presentation tree of this scene (from `presentationTree(at:)`) into `canvas`, over
  /// the scene's background.
  public func render(_ tree: Layer, into canvas: Canvas) throws {
    canvas.clear(to: backgroundColor)
    try LayerRenderer().draw(tree, in: canvas)
  }

  /// The layer tree as it shows at `time`: the root layer, whose sublayers are the scene's
  /// layers with every value that shows at that time. Times may come in any order.
  ///
  /// Runs the timeline up to `time` first; for a time before `modelTime`, a replica shows it and
  /// this instance's model stays where it is (see `Scene`).
  ///
  /// - Throws: `SceneError.timeWentBackwards` for a time before `modelTime` when the scene has
  ///   timeline events or hooks and no builder; `SceneError.rebuildFailed` when the builder
  ///   given to `rebuild(with:)` fails; `SceneError.invalidAnimation` when a layer was given an
  ///   animation with an unknown key path or a value of the wrong kind.
  public func presentationTree(at time: Double) throws(SceneError) -> Layer {
    try presentationTree(at: time, drawableOnly: false)
  }

  /// `presentationTree(at:)` for drawing only (`Layer.drawablePresentation(at:)`): without the
  /// subtrees of layers that draw nothing (hidden, or with no opacity), without `superlayer`
  /// links, and, in a scene without dynamics (whose values are written into the tree), with
  /// the model's own layers where nothing below is animated. What `render(_:into:)` draws of
  /// it is the same; it must not be changed. What the scene's own renders use.
  func drawableTree(at time: Double) throws(SceneError) -> Layer {
    try presentationTree(at: time, drawableOnly: true)
  }

  private func presentationTree(at time: Double, drawableOnly: Bool) throws(SceneError) -> Layer {
    let instance = try self.instance(showing: time)
    lastShownReplica = instance === self ? nil : instance
    try instance.advance(to: time)
    if let error = instance.rootLayer.firstAnimationErrorInTree { throw .invalidAnimation(error) }
    let root = instance.rootLayer
    let tree =
      drawableOnly
      ? root.drawablePresentation(
        at: time, sharingStaticLayers: instance.dynamicAnimatorIfUsed == nil)
      : root.presentation(at: time)
    instance.applyDynamics(to: tree, at: time, drawableOnly: drawableOnly)
    return tree
  }

  /// The instance whose model can show `time`: this one unless its timeline has run past it,
  /// else the kept replica latest at or before `time`, else a new replica.
  func instance(showing time: Double) throws(SceneError) -> Scene {
    guard hasTimeline && time < modelTime else { return self }
    guard let blueprint else { throw .timeWentBackwards(current: modelTime, requested: time) }
    var best: Int? = nil
    for (i, replica) in replicas.enumerated() where !(time < replica.modelTime) {
      if best == nil || replica.modelTime > replicas[best!].modelTime { best = i }
    }
    let replica: Scene
    if let best {
      replica = replicas.remove(at: best)
    } else {
      do {
        replica = try blueprint.makeInstance()
      } catch {
        throw .rebuildFailed(String(describing: error))
      }
      if replicas.count >= Scene.keptReplicas { replicas.removeFirst() }
    }
    replicas.append(replica)
    return replica
  }

  /// The simulated velocity and angular velocity of a top-level layer that dynamics moves, after
  /// the last whole step at or before the time last shown; `nil` for other layers.
  ///
  /// After a rewind the time last shown was shown by a replica: the state is the replica's item
  /// in the layer's place.
  public func dynamicState(of layer: Layer) -> DynamicItemState? {
    guard let shown = lastShownReplica else { return dynamicAnimatorIfUsed?.state(of: layer) }
    guard let index = layers.firstIndex(where: { $0 === layer }), index < shown.layers.count
    else { return nil }
    return shown.dynamicAnimatorIfUsed?.state(of: shown.layers[index])
  }

  /// Turns the model changes `changes` makes into animations that begin at scene time `time`
  /// and last `duration` seconds, from the values showing then to the new ones, as
  /// `UIView.animate(withDuration:animations:)` does (Core Animation's default timing curve).
  public func animate(withDuration duration: Double, at time: Double, _ changes: () -> Void) {
    rootLayer.animateChanges(at: time, withDuration: duration, changes)
  }
}

extension Scene {
  /// Takes everything `other` holds (settings, layers, timeline, hooks, dynamics, the way to
  /// make replicas), leaving it empty: what lets an initializer in another module return a
  /// scene a reader built (`Scene(contentsOf:)`). `self` must be new and empty.
  /// A copy of this scene for another thread, when it shows any time without running
  /// anything (no timeline, no dynamics, no animations on the root layer): the same settings
  /// and a deep copy of its layers (`Layer.copyTree()`; the animations themselves are
  /// immutable and shared). `nil` otherwise. Far cheaper than building the scene again from
  /// its file: what a render's second worker starts from.
  func staticCopy() -> Scene? {
    guard !hasTimeline, animatorStorage == nil, rootLayer.animationKeys.isEmpty,
      rootLayer.mask == nil
    else { return nil }
    let copy = Scene(
      size: size, scale: scale, duration: duration, fps: fps, backgroundColor: backgroundColor,
      loopCount: loopCount)
    copy.rootLayer.storage = rootLayer.storage
    for layer in rootLayer.sublayers { copy.rootLayer.addSublayer(layer.copyTree()) }
    copy.blueprint = blueprint
    copy.dynamicsRecording = dynamicsRecording
    copy.modelTime = modelTime
    return copy
  }

  package func adoptContents(of other: Scene) {
    size = other.size
    scale = other.scale
    duration = other.duration
    fps = other.fps
    backgroundColor = other.backgroundColor
    loopCount = other.loopCount
    durationSource = other.durationSource
    for layer in other.rootLayer.sublayers {
      layer.removeFromSuperlayer()
      rootLayer.addSublayer(layer)
    }
    timeline = other.timeline
    displayLinkHooks = other.displayLinkHooks
    nextTick = other.nextTick
    modelTime = other.modelTime
    animatorStorage = other.animatorStorage
    blueprint = other.blueprint
    dynamicsRecording = other.dynamicsRecording
    other.timeline = []
    other.displayLinkHooks = []
    other.animatorStorage = nil
  }
}
