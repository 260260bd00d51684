import Animations
import Dynamics
import Geometry

/// A rectangle of content in a tree, placed, transformed and composited as Core Animation's
/// `CALayer` is.
///
/// Geometry is Core Animation's (docs/geometry.md): the layer's `anchorPoint`, a unit point of its
/// `bounds`, sits at `position` in the superlayer's coordinates; `transform` applies about the
/// anchor point. A layer draws its background, then its contents, then its sublayers (sorted by
/// `zPosition`), then its border on top. Properties are the model values; animations (added with
/// `add(_:forKey:)`) never change them, `presentation(at:)` computes what shows at a time.
///
/// ```swift
/// let pulse = Layer()
/// pulse.bounds = Rect(0, 0, 320, 320)
/// pulse.position = Point(160, 160)
/// pulse.borderColor = .gray
/// pulse.borderWidth = 1
/// pulse.cornerRadius = 160
/// root.addSublayer(pulse)
/// ```
public class Layer {
  /// A name that scene files, dynamics and `flipbook inspect` use to refer to the layer.
  public var name: String? {
    get { storage.properties.name }
    set { storage.properties.name = newValue }
  }
  /// The layer's own coordinate space: its origin is the drawing origin, its size the layer's
  /// size, in points (default `.zero`).
  public var bounds: Rect {
    get { storage.properties.bounds }
    set { storage.properties.bounds = newValue }
  }
  /// Where the anchor point sits in the superlayer's coordinates, in points (default `.zero`).
  public var position: Point {
    get { storage.properties.position }
    set { storage.properties.position = newValue }
  }
  /// The point, in the unit space of `bounds`, that `position` places and that `transform`
  /// pivots about: (0, 0) is the top-left corner, (1, 1) the bottom-right (default (0.5, 0.5)).
  /// Changing it moves the layer unless `position` changes too.
  public var anchorPoint: Point {
    get { storage.properties.anchorPoint }
    set { storage.properties.anchorPoint = newValue }
  }
  /// The transform applied to the layer about its anchor point (default identity).
  public var transform: Transform3D {
    get { storage.properties.transform }
    set { storage.properties.transform = newValue }
  }
  /// The transform applied to each sublayer, about this layer's anchor point (default identity).
  public var sublayerTransform: Transform3D {
    get { storage.properties.sublayerTransform }
    set { storage.properties.sublayerTransform = newValue }
  }
  /// How opaque the layer and its subtree are, composited as one group: 0...1 (default 1).
  public var opacity: Double {
    get { storage.properties.opacity }
    set { storage.properties.opacity = newValue }
  }
  /// Whether the layer and its subtree are left out of drawing (default false).
  public var isHidden: Bool {
    get { storage.properties.isHidden }
    set { storage.properties.isHidden = newValue }
  }
  /// The drawing order among siblings: higher is drawn later, on top; equal values keep the order
  /// of `sublayers` (default 0).
  public var zPosition: Double {
    get { storage.properties.zPosition }
    set { storage.properties.zPosition = newValue }
  }
  /// The anchor point's z, in points: what `transform` pivots about along z (default 0).
  public var anchorPointZ: Double {
    get { storage.properties.anchorPointZ }
    set { storage.properties.anchorPointZ = newValue }
  }
  /// Whether the layer shows when its plane faces away from the viewer (default true). When
  /// false, a layer whose projection into the plane it is drawn in reverses orientation (seen
  /// from behind: a card turned past a quarter turn) is not drawn, nor is its subtree.
  public var isDoubleSided: Bool {
    get { storage.properties.isDoubleSided }
    set { storage.properties.isDoubleSided = newValue }
  }
  /// The color that fills the rounded bounds behind the contents (default none).
  public var backgroundColor: Color? {
    get { storage.properties.backgroundColor }
    set { storage.properties.backgroundColor = newValue }
  }
  /// The color of the border band (default opaque black; `nil` draws no border).
  public var borderColor: Color? {
    get { storage.properties.borderColor }
    set { storage.properties.borderColor = newValue }
  }
  /// The width of the border band inside the bounds, in points (default 0: no border).
  public var borderWidth: Double {
    get { storage.properties.borderWidth }
    set { storage.properties.borderWidth = newValue }
  }
  /// The radius of the rounded corners of the background, border and `masksToBounds` clip, in
  /// points; clamped to half the shorter side when drawn (default 0).
  public var cornerRadius: Double {
    get { storage.properties.cornerRadius }
    set { storage.properties.cornerRadius = newValue }
  }
  /// Whether contents and sublayers are clipped to the rounded bounds (default false).
  public var masksToBounds: Bool {
    get { storage.properties.masksToBounds }
    set { storage.properties.masksToBounds = newValue }
  }
  /// The image drawn inside the bounds, placed by `contentsGravity` (default none).
  public var contents: Image? {
    get { storage.properties.contents }
    set { storage.properties.contents = newValue }
  }
  /// Where `contents` sits in the bounds (default `.resize`).
  public var contentsGravity: ContentsGravity {
    get { storage.properties.contentsGravity }
    set { storage.properties.contentsGravity = newValue }
  }
  /// How many image pixels make one point for the non-resizing gravities (default 1).
  public var contentsScale: Double {
    get { storage.properties.contentsScale }
    set { storage.properties.contentsScale = newValue }
  }
  /// The shape the layer collides as when dynamics moves it (default `.rectangle`, as UIKit's
  /// views; `.ellipse` for round items).
  public var collisionBoundsType: CollisionBoundsType {
    get { storage.properties.collisionBoundsType }
    set { storage.properties.collisionBoundsType = newValue }
  }
  /// How the layer maps its superlayer's time to its own (`beginTime`, `speed`, `timeOffset`).
  public var timing: LayerTiming {
    get { storage.properties.timing }
    set { storage.properties.timing = newValue }
  }

  /// Every model property of the layer, of every type, in one value: what `presentation(at:)`
  /// copies and animates, and what the property table (`LayerProperty`) reads and writes.
  package var storage: LayerStorage
  /// The model properties every layer has (`storage.properties`).
  package var properties: LayerProperties {
    get { storage.properties }
    set { storage.properties = newValue }
  }

  /// Where the layer was read from (its JSON path in a scene file, `layers[2].sublayers[0]`),
  /// for errors found while drawing; `nil` for a layer built in Swift. Copies keep it.
  package var sourcePlace: String? = nil

  /// The layers drawn inside this one, back to front before `zPosition` sorting.
  public internal(set) var sublayers: [Layer] = []
  /// The layer this one is a sublayer of.
  public internal(set) weak var superlayer: Layer?
  /// The layer whose alpha masks this layer's whole group (shadow, background, contents,
  /// sublayers, border), as `CALayer.mask` (default none). It is not part of the layer tree: its
  /// geometry is in this layer's coordinate space and its animations run in this layer's time.
  /// Where the mask draws nothing, the layer shows nothing; the mask's colors are ignored.
  public var mask: Layer?
  /// The attached animations with their keys and prepared forms, in the order they were added
  /// (the order they apply in).
  var animationEntries: [AnimationEntry] = []
  /// Why animations given to `add(_:forKey:)` were refused, in the order they came; a scene
  /// holding the layer does not render while any is here.
  public internal(set) var animationErrors: [AnimationKeyPathError] = []

  /// Creates a layer with Core Animation's defaults.
  public init() { storage = LayerStorage() }

  /// Creates a copy of the model values of `layer` (not its sublayers or superlayer). The
  /// storage is initialized once, from `layer`'s (no defaults first: presentation makes one of
  /// these per layer per frame).
  required init(copying layer: Layer) {
    storage = layer.storage
    sourcePlace = layer.sourcePlace
  }

  /// A deep copy of the layer, its animations and its sublayers, detached from any superlayer.
  public func copyTree() -> Layer {
    let copy = type(of: self).init(copying: self)
    copy.animationEntries = animationEntries
    copy.animationErrors = animationErrors
    copy.mask = mask?.copyTree()
    for sublayer in sublayers { copy.addSublayer(sublayer.copyTree()) }
    return copy
  }
}

/// The model properties every layer has, as one value (see `Layer` for what each means).
package struct LayerProperties: Hashable, Sendable {
  /// The shape the layer collides as when dynamics moves it.
  public var collisionBoundsType: CollisionBoundsType = .rectangle
  /// A name that scene files, dynamics and `flipbook inspect` use to refer to the layer.
  public var name: String? = nil
  /// The layer's own coordinate space: its origin is the drawing origin, its size the layer's
  /// size, in points (default `.zero`).
  public var bounds: Rect = .zero
  /// Where the anchor point sits in the superlayer's coordinates, in points (default `.zero`).
  public var position: Point = .zero
  /// The point, in the unit space of `bounds`, that `position` places and that `transform`
  /// pivots about: (0, 0) is the top-left corner, (1, 1) the bottom-right (default (0.5, 0.5)).
  /// Changing it moves the layer unless `position` changes too.
  public var anchorPoint: Point = Point(x: 0.5, y: 0.5)
  /// The transform applied to the layer about its anchor point (default identity).
  public var transform: Transform3D = .identity
  /// The transform applied to each sublayer, about this layer's anchor point (default identity;
  /// kept in `depth`).
  public var sublayerTransform: Transform3D {
    get { depth.value.sublayerTransform }
    set { depth.value.sublayerTransform = newValue }
  }
  /// How opaque the layer and its subtree are, composited as one group: 0...1 (default 1).
  public var opacity: Double = 1
  /// Whether the layer and its subtree are left out of drawing (default false).
  public var isHidden: Bool = false
  /// The drawing order among siblings: higher is drawn later, on top; equal values keep the order
  /// of `sublayers` (default 0).
  public var zPosition: Double = 0
  /// The anchor point's z, in points (kept in `depth`).
  public var anchorPointZ: Double {
    get { depth.value.anchorPointZ }
    set { depth.value.anchorPointZ = newValue }
  }
  /// Whether the layer shows seen from behind (kept in `depth`).
  public var isDoubleSided: Bool {
    get { depth.value.isDoubleSided }
    set { depth.value.isDoubleSided = newValue }
  }
  /// In a presentation copy: the key path of the first animation whose value at the copy's
  /// time is not finite, left unapplied (kept in `depth`); the renderer refuses the layer
  /// naming it (`RenderingError.animationNotFinite`) rather than draw it as nothing.
  package var nonFiniteAnimation: String? {
    get { depth.value.nonFiniteAnimation }
    set { depth.value.nonFiniteAnimation = newValue }
  }
  /// In a presentation copy: whether the layer has animations and its time at the copy's
  /// instant is not finite (kept in `depth`); the renderer refuses the layer
  /// (`RenderingError.layerTimeNotFinite`) rather than draw its model values without a word.
  package var timeNotFinite: Bool {
    get { depth.value.timeNotFinite }
    set { depth.value.timeNotFinite = newValue }
  }
  /// In a presentation copy whose time is not finite (`timeNotFinite`): the replicator whose
  /// delayed instance made it so, if one did (kept in `depth`); the renderer then names the
  /// replicator and its `instanceDelay` (`RenderingError.instanceTimeNotFinite`).
  package var instanceTimeOverflow: InstanceTimeOverflow? {
    get { depth.value.instanceTimeOverflow }
    set { depth.value.instanceTimeOverflow = newValue }
  }
  /// In a presentation copy: the key path of the first animation whose own time at the copy's
  /// instant is not finite, left unapplied (kept in `depth`); the renderer refuses the layer
  /// naming it (`RenderingError.animationTimeNotFinite`) rather than draw its model value.
  package var animationTimeNotFinite: String? {
    get { depth.value.animationTimeNotFinite }
    set { depth.value.animationTimeNotFinite = newValue }
  }
  /// The color that fills the rounded bounds behind the contents (default none).
  public var backgroundColor: Color? = nil
  /// The color of the border band (default opaque black; `nil` draws no border).
  public var borderColor: Color? = .black
  /// The width of the border band inside the bounds, in points (default 0: no border).
  public var borderWidth: Double = 0
  /// The radius of the rounded corners of the background, border and `masksToBounds` clip, in
  /// points; clamped to half the shorter side when drawn (default 0).
  public var cornerRadius: Double = 0
  /// Whether contents and sublayers are clipped to the rounded bounds (default false).
  public var masksToBounds: Bool = false
  /// The image drawn inside the bounds, placed by `contentsGravity` (default none).
  public var contents: Image? = nil
  /// Where `contents` sits in the bounds (default `.resize`).
  public var contentsGravity: ContentsGravity = .resize
  /// How many image pixels make one point for the non-resizing gravities (default 1).
  public var contentsScale: Double = 1
  /// How the layer maps its superlayer's time to its own (`beginTime`, `speed`, `timeOffset`).
  public var timing: LayerTiming = LayerTiming()
  /// The effects every layer has: shadow and contents rectangles (see `Layer+Effects.swift`),
  /// behind a shared reference (`effectsStorage`).
  public var effects: LayerEffects {
    get { effectsStorage.value }
    set { effectsStorage.value = newValue }
  }
  /// The effects, shared with every layer that has the same ones (one reference for all the
  /// layers with the defaults), so that copying a layer's storage copies a reference, not them.
  private var effectsStorage = LayerEffects.defaults
  /// The 3D properties most layers leave at their defaults (`sublayerTransform`, `anchorPointZ`,
  /// `isDoubleSided`), shared as `effectsStorage` is.
  private var depth = LayerDepth.defaults

  /// Creates properties with Core Animation's defaults.
  public init() {}
}

/// An attached animation: its key, the animation as given, and its prepared form.
struct AnimationEntry {
  var key: String?
  var animation: any Animation
  var prepared: PreparedAnimation
}
