/// How a layer's group is composited onto what is drawn below it: Core Animation's
/// `compositingFilter`, named as Core Animation and Core Image name its filters
/// (`"multiplyBlendMode"`), each drawn with the Cairo operator of that name.
///
/// The blend modes are the separable and non-separable modes of the PDF and CSS compositing
/// specifications (`CAIRO_OPERATOR_MULTIPLY` ... `CAIRO_OPERATOR_HSL_LUMINOSITY`): the result's
/// alpha is the union of the two alphas, its color the mode's mix where both are present.
/// The Porter-Duff operators after them are a Flipbook extension for combining mask shapes
/// (docs/scene-format.md, "Mask modes and combining masks"): `destinationOut` subtracts the
/// layer's alpha from what is below, `destinationIn` keeps what is below only where the layer is.
///
/// A layer whose filter is not `.normal` is drawn as a group of its own (its sublayers are
/// composited with each other first), then composited onto what is below it in the nearest
/// enclosing group: the canvas, or the nearest ancestor drawn as a group (one with an opacity
/// below 1, a mask, filters or a compositing filter of its own).
public enum CompositingFilter: String, Hashable, Sendable, CaseIterable {
  /// Source over: Core Animation's default (`compositingFilter` nil).
  case normal
  /// Multiplies the colors: never lighter than either.
  case multiply = "multiplyBlendMode"
  /// Inverse of multiplying the inverses: never darker than either.
  case screen = "screenBlendMode"
  /// Multiply or screen, by the color below.
  case overlay = "overlayBlendMode"
  /// The darker of the two, per channel.
  case darken = "darkenBlendMode"
  /// The lighter of the two, per channel.
  case lighten = "lightenBlendMode"
  /// Brightens what is below to reflect the layer.
  case colorDodge = "colorDodgeBlendMode"
  /// Darkens what is below to reflect the layer.
  case colorBurn = "colorBurnBlendMode"
  /// Multiply or screen, by the layer's color.
  case hardLight = "hardLightBlendMode"
  /// A softer hard light.
  case softLight = "softLightBlendMode"
  /// The absolute difference, per channel.
  case difference = "differenceBlendMode"
  /// Like difference, with less contrast.
  case exclusion = "exclusionBlendMode"
  /// The layer's hue with the saturation and luminosity below.
  case hue = "hueBlendMode"
  /// The layer's saturation with the hue and luminosity below.
  case saturation = "saturationBlendMode"
  /// The layer's hue and saturation with the luminosity below.
  case color = "colorBlendMode"
  /// The layer's luminosity with the hue and saturation below.
  case luminosity = "luminosityBlendMode"
  /// Adds the premultiplied components, clamped (Core Image's `CIAdditionCompositing`,
  /// Cairo's `ADD`; Lottie's "add" blend mode).
  case addition = "additionCompositing"
  /// Source over, as `.normal`, but always drawn as a group of its own: the layer's sublayers
  /// with destination operators then act inside the layer only (Core Image's
  /// `CISourceOverCompositing`).
  case sourceOver = "sourceOverCompositing"
  /// Flipbook extension: what is below, with the layer's alpha taken out of it (Porter-Duff
  /// destination-out; a Lottie mask in subtract mode).
  case destinationOut
  /// Flipbook extension: what is below, only where the layer is, multiplied by the layer's alpha
  /// (Porter-Duff destination-in; a Lottie mask in intersect mode). Everything below outside
  /// the layer is cleared.
  case destinationIn
  /// Flipbook extension: each of the two where the other is not (Porter-Duff xor; a Lottie mask
  /// in difference mode).
  case xor

  /// Whether the layer is drawn as a group of its own and composited with the operator.
  public var needsGroup: Bool { self != .normal }
}

/// How a layer's `mask` turns into coverage: Core Animation's alpha mask, or one of the kinds
/// Lottie's track mattes and After Effects use (a Flipbook extension, docs/scene-format.md).
public enum MaskMode: String, Hashable, Sendable, CaseIterable {
  /// The mask's alpha (Core Animation's `mask`; the default).
  case alpha
  /// One minus the mask's alpha: the layer shows where the mask draws nothing.
  case alphaInverted
  /// The luminance of the mask's colors composited over black (BT.709 weights of the
  /// premultiplied red, green and blue): white shows, black and transparent hide.
  case luminance
  /// One minus `luminance`: black and transparent show, white hides.
  case luminanceInverted
}
