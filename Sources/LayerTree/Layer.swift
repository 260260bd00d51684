import Animations
import Geometry

/// A rectangle of content in a tree, placed, transformed and composited as Core Animation's
/// `CALayer` is.
///
/// Geometry follows Core Animation (timing.md §9): the layer's `anchorPoint`, a unit point of its
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
  public var name: String?
  /// The layer's own coordinate space: its origin is the drawing origin, its size the layer's
  /// size, in points (default `.zero`).
  public var bounds: Rect = .zero
  /// Where the anchor point sits in the superlayer's coordinates, in points (default `.zero`).
  public var position: Point = .zero
  /// The point, in the unit space of `bounds`, that `position` places and that `transform`
  /// pivots about: (0, 0) is the top-left corner, (1, 1) the bottom-right (default (0.5, 0.5)).
  /// Changing it moves the layer unless `position` changes too.
  public var anchorPoint = Point(x: 0.5, y: 0.5)
  /// The transform applied to the layer about its anchor point (default identity).
  public var transform: Transform3D = .identity
  /// The transform applied to each sublayer, about this layer's anchor point (default identity).
  public var sublayerTransform: Transform3D = .identity
  /// How opaque the layer and its subtree are, composited as one group: 0...1 (default 1).
  public var opacity: Double = 1
  /// Whether the layer and its subtree are left out of drawing (default false).
  public var isHidden = false
  /// The drawing order among siblings: higher is drawn later, on top; equal values keep the order
  /// of `sublayers` (default 0).
  public var zPosition: Double = 0
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
  public var masksToBounds = false
  /// The image drawn inside the bounds, placed by `contentsGravity` (default none).
  public var contents: Image? = nil
  /// Where `contents` sits in the bounds (default `.resize`).
  public var contentsGravity: ContentsGravity = .resize
  /// How many image pixels make one point for the non-resizing gravities (default 1).
  public var contentsScale: Double = 1
  /// How the layer maps its superlayer's time to its own (`beginTime`, `speed`, `timeOffset`).
  public var timing = LayerTiming()

  /// The layers drawn inside this one, back to front before `zPosition` sorting.
  public internal(set) var sublayers: [Layer] = []
  /// The layer this one is a sublayer of.
  public internal(set) weak var superlayer: Layer?
  /// The attached animations with their keys, in the order they were added (the order they
  /// apply in).
  public internal(set) var animations: [(key: String?, animation: any Animation)] = []

  /// Creates a layer with Core Animation's defaults.
  public init() {}

  /// Creates a copy of the model values of `layer` (not its sublayers or superlayer).
  required init(copying layer: Layer) {
    name = layer.name
    bounds = layer.bounds
    position = layer.position
    anchorPoint = layer.anchorPoint
    transform = layer.transform
    sublayerTransform = layer.sublayerTransform
    opacity = layer.opacity
    isHidden = layer.isHidden
    zPosition = layer.zPosition
    backgroundColor = layer.backgroundColor
    borderColor = layer.borderColor
    borderWidth = layer.borderWidth
    cornerRadius = layer.cornerRadius
    masksToBounds = layer.masksToBounds
    contents = layer.contents
    contentsGravity = layer.contentsGravity
    contentsScale = layer.contentsScale
    timing = layer.timing
  }

  /// A deep copy of the layer, its animations and its sublayers, detached from any superlayer.
  public func copyTree() -> Layer {
    let copy = type(of: self).init(copying: self)
    copy.animations = animations
    for sublayer in sublayers { copy.addSublayer(sublayer.copyTree()) }
    return copy
  }
}
