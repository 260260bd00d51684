/// One filter of a layer's `filters` (Core Animation's property, which takes Core Image filters):
/// applied to the layer's group (its shadow, content and sublayers, after its mask) before the
/// group is composited with its opacity and `compositingFilter`.
///
/// The blur is Core Image's Gaussian blur; the color maps are Lottie's (After Effects') Fill,
/// Tint and Tritone effects as lottie-web defines them (docs/scene-format.md, "Filters").
/// Parameters interpolate when two lists have the same filters in the same order.
public enum LayerFilter: Hashable, Sendable {
  /// A Gaussian blur whose standard deviation is `radius` points of the layer's own space (it
  /// scales with the layer), by the same blur as shadows. Core Image's `CIGaussianBlur`
  /// (`inputRadius`); Lottie's Gaussian Blur effect with `radius` = 0.3 × blurriness (lottie-web's
  /// σ). The blur spreads only within the canvas: what is off it does not bleed in.
  case gaussianBlur(radius: Double)
  /// A Gaussian blur along one axis only, of standard deviation `radius` points: Lottie's
  /// Gaussian Blur effect with its Blur Dimensions set to horizontal or vertical. The axis is
  /// the canvas's (a rotated layer's blur does not turn with it); the radius is scaled by the
  /// layer's scale as `gaussianBlur`'s is.
  case directionalBlur(radius: Double, axis: BlurAxis)
  /// Lottie's Fill effect: every pixel takes `color`'s red, green and blue, and its alpha is
  /// multiplied by `opacity` (0...1; the color's own alpha is ignored, as in lottie-web).
  case fill(color: Color, opacity: Double)
  /// Lottie's Tint effect, as lottie-web builds it: each pixel's grey level (the mean of its
  /// linear-light channels, in sRGB) maps from `black` (grey 0) to `white` (grey 1); the grey,
  /// then the mapped color, each at the pixel's alpha × `amount` (0...1), are composited over
  /// the pixel. With `amount` 1 an opaque pixel becomes the mapped color.
  case tint(black: Color, white: Color, amount: Double)
  /// Lottie's Tritone effect: each pixel's grey level maps through `dark` (0), `midtone` (0.5)
  /// and `bright` (1), mixed with the pixel's own color by `amount` (0...1; 1: the tritone
  /// only). Alpha is kept.
  case tritone(bright: Color, midtone: Color, dark: Color, amount: Double)

  /// The filter's name in scene files (`"gaussianBlur"`, `"fill"`, `"tint"`, `"tritone"`).
  public var name: String {
    switch self {
    case .gaussianBlur: return "gaussianBlur"
    case .directionalBlur: return "directionalBlur"
    case .fill: return "fill"
    case .tint: return "tint"
    case .tritone: return "tritone"
    }
  }

  /// What must be equal for two filters to interpolate: the name, and a directional blur's axis.
  public var interpolationKey: String {
    if case .directionalBlur(_, let axis) = self { return name + "." + axis.rawValue }
    return name
  }

  /// The filter's parameters as numbers (colors as red, green, blue, alpha), in the order of
  /// the case's associated values: what animations interpolate.
  public var parameters: [Double] {
    func c(_ x: Color) -> [Double] { [x.red, x.green, x.blue, x.alpha] }
    switch self {
    case .gaussianBlur(let r): return [r]
    case .directionalBlur(let r, _): return [r]
    case .fill(let color, let opacity): return c(color) + [opacity]
    case .tint(let black, let white, let amount): return c(black) + c(white) + [amount]
    case .tritone(let b, let m, let d, let amount): return c(b) + c(m) + c(d) + [amount]
    }
  }

  /// The same filter with `parameters` replaced by `p` (as many numbers as `parameters` has).
  public func with(parameters p: [Double]) -> LayerFilter {
    func c(_ i: Int) -> Color { Color(red: p[i], green: p[i + 1], blue: p[i + 2], alpha: p[i + 3]) }
    switch self {
    case .gaussianBlur: return .gaussianBlur(radius: p[0])
    case .directionalBlur(_, let axis): return .directionalBlur(radius: p[0], axis: axis)
    case .fill: return .fill(color: c(0), opacity: p[4])
    case .tint: return .tint(black: c(0), white: c(4), amount: p[8])
    case .tritone: return .tritone(bright: c(0), midtone: c(4), dark: c(8), amount: p[12])
    }
  }
}

/// The axis a `LayerFilter.directionalBlur` blurs along, on the canvas.
public enum BlurAxis: String, Hashable, Sendable, CaseIterable {
  /// Along x: left and right.
  case horizontal
  /// Along y: up and down.
  case vertical
}
