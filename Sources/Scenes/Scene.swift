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
/// `makeFrame(at:)`.
///
/// ```swift
/// let scene = Scene(size: Size(320, 320), duration: 4, fps: 30, backgroundColor: .white)
/// let pulse = Layer()
/// pulse.frame = Rect(0, 0, 320, 320)
/// scene.addLayer(pulse)
/// let frame = try scene.makeFrame(at: 0.5).makeBitmap()
/// ```
public final class Scene {
  /// The longest duration a scene may have: one hour.
  public static let maximumDuration: Double = 3600
  /// The highest frame rate: 240 frames per second.
  public static let maximumFPS: Double = 240
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
    let animator = DynamicAnimator(referenceBounds: Rect(origin: .zero, size: size))
    animatorStorage = animator
    return animator
  }
  private var animatorStorage: DynamicAnimator? = nil

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
  /// - Throws: `CanvasError.sizeOutOfRange` past the pixel limits, `RenderingError` for layers
  ///   Flipbook cannot draw.
  public func makeFrame(at time: Double, scale: Double? = nil) throws -> Canvas {
    let tree = try presentationTree(at: time)
    let canvas = try Canvas(size: size, scale: scale ?? self.scale)
    try render(tree, into: canvas)
    return canvas
  }

  /// Draws a presentation tree of this scene (from `presentationTree(at:)`) into `canvas`, over
  /// the scene's background.
  public func render(_ tree: Layer, into canvas: Canvas) throws {
    canvas.clear(to: backgroundColor)
    try LayerRenderer().draw(tree, in: canvas)
  }

  /// The layer tree as it shows at `time`: the root layer, whose sublayers are the scene's
  /// layers with every value that shows at that time. Runs the timeline up to `time` first.
  ///
  /// - Throws: `SceneError.timeWentBackwards` when the timeline has already run past `time`.
  public func presentationTree(at time: Double) throws(SceneError) -> Layer {
    try advance(to: time)
    let tree = rootLayer.presentation(at: time)
    applyDynamics(to: tree)
    return tree
  }

  /// The simulated velocity and angular velocity of a top-level layer that dynamics moves, after
  /// the last whole step at or before the time last shown; `nil` for other layers.
  public func dynamicState(of layer: Layer) -> DynamicItemState? {
    dynamicAnimatorIfUsed?.state(of: layer)
  }

  /// Turns the model changes `changes` makes into animations that begin at scene time `time`
  /// and last `duration` seconds, from the values showing then to the new ones, as
  /// `UIView.animate(withDuration:animations:)` does (Core Animation's default timing curve).
  public func animate(withDuration duration: Double, at time: Double, _ changes: () -> Void) {
    rootLayer.animateChanges(at: time, withDuration: duration, changes)
  }
}
