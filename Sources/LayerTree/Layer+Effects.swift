import Geometry

/// The shadow and contents-rectangle properties every layer has, as one value (see `Layer`'s
/// accessors for what each means); part of `LayerProperties`, behind a shared reference
/// (`SharedValue`), so presentation copies a reference to it, not it.
package struct LayerEffects: Hashable, Sendable {
  /// The shadow's color (default opaque black).
  public var shadowColor: Color? = .black
  /// The shadow's opacity, 0...1 (default 0: no shadow).
  public var shadowOpacity: Double = 0
  /// The shadow's offset in the layer's own space, in points (default (0, -3)).
  public var shadowOffset: Size = Size(width: 0, height: -3)
  /// The shadow blur's standard deviation, in points (default 3).
  public var shadowRadius: Double = 3
  /// The shadow's shape, in the layer's coordinates (default none: the layer's drawn alpha).
  public var shadowPath: Path? = nil
  /// The part of `contents` drawn, in unit coordinates of the image (default (0, 0, 1, 1)).
  public var contentsRect: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
  /// The nine-part stretching rectangle, in unit coordinates of the image (default (0, 0, 1, 1)).
  public var contentsCenter: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
  /// How the layer's group is composited onto what is below it (default `.normal`).
  public var compositingFilter: CompositingFilter = .normal
  /// How the layer's mask turns into coverage (default `.alpha`).
  public var maskMode: MaskMode = .alpha
  /// The filters applied to the layer's group, in order (default none).
  public var filters: [LayerFilter] = []

  /// Creates effects with Core Animation's defaults.
  public init() {}

  /// The defaults, in the one reference every layer without effects shares.
  static let defaults = SharedValue(LayerEffects())
}

extension Layer {
  /// The color of the shadow (default opaque black; `nil` draws no shadow).
  public var shadowColor: Color? {
    get { storage.properties.effects.shadowColor }
    set { storage.properties.effects.shadowColor = newValue }
  }
  /// How opaque the shadow is, 0...1, multiplying `shadowColor`'s alpha (default 0: no shadow).
  public var shadowOpacity: Double {
    get { storage.properties.effects.shadowOpacity }
    set { storage.properties.effects.shadowOpacity = newValue }
  }
  /// How far the shadow is moved from the layer's shape, in points of the layer's own space, so
  /// it turns and scales with the layer (default (0, -3), Core Animation's).
  public var shadowOffset: Size {
    get { storage.properties.effects.shadowOffset }
    set { storage.properties.effects.shadowOffset = newValue }
  }
  /// The blur of the shadow: the standard deviation of its Gaussian, in points of the layer's own
  /// space (default 3). Flipbook's convention (docs/scene-format.md): σ = `shadowRadius`.
  public var shadowRadius: Double {
    get { storage.properties.effects.shadowRadius }
    set { storage.properties.effects.shadowRadius = newValue }
  }
  /// The shadow's shape, filled with the non-zero rule in the layer's coordinates; `nil` (the
  /// default) uses the alpha of the layer as drawn (background, contents, sublayers, border).
  /// Giving a path is faster and what Core Animation recommends.
  public var shadowPath: Path? {
    get { storage.properties.effects.shadowPath }
    set { storage.properties.effects.shadowPath = newValue }
  }
  /// The part of `contents` that is drawn, in unit coordinates of the image (default
  /// (0, 0, 1, 1), the whole image). The part is placed by `contentsGravity` as if it were the
  /// whole image; parts outside the image repeat its edge pixels. Sprite sheets animate it.
  public var contentsRect: Rect {
    get { storage.properties.effects.contentsRect }
    set { storage.properties.effects.contentsRect = newValue }
  }
  /// With the `.resize` gravity, the rectangle, in unit coordinates of the image, that cuts it
  /// into nine parts: corners keep their size, edges stretch along their length, the centre
  /// both ways (default (0, 0, 1, 1): the whole image stretches). Other gravities ignore it.
  public var contentsCenter: Rect {
    get { storage.properties.effects.contentsCenter }
    set { storage.properties.effects.contentsCenter = newValue }
  }

  /// How the layer's group (its shadow, content, sublayers and border, after its mask and
  /// filters, with its opacity) is composited onto what is drawn below it: Core Animation's
  /// `compositingFilter`, by the name of a Core Animation blend mode (`.multiply` is
  /// `"multiplyBlendMode"`), drawn with Cairo's operator of that name (default `.normal`:
  /// source over, as a `nil` filter in Core Animation). See `CompositingFilter`.
  public var compositingFilter: CompositingFilter {
    get { storage.properties.effects.compositingFilter }
    set { storage.properties.effects.compositingFilter = newValue }
  }
  /// How `mask` turns into coverage: its alpha (Core Animation's, the default), its inverted
  /// alpha, its luminance or its inverted luminance (a Flipbook extension, for Lottie's track
  /// mattes). Without a mask it does nothing.
  public var maskMode: MaskMode {
    get { storage.properties.effects.maskMode }
    set { storage.properties.effects.maskMode = newValue }
  }
  /// The filters applied, in order, to the layer's group after its mask and before its opacity
  /// and `compositingFilter` (Core Animation's `filters`; default none): a Gaussian blur and
  /// Lottie's color maps. See `LayerFilter`.
  public var filters: [LayerFilter] {
    get { storage.properties.effects.filters }
    set { storage.properties.effects.filters = newValue }
  }

  /// Whether the layer draws a shadow: a color with alpha and a shadow opacity above 0.
  public var hasVisibleShadow: Bool {
    guard let c = shadowColor else { return false }
    return c.alpha * shadowOpacity > 0
  }
}
