import Geometry

/// A layer that fills its (rounded) bounds with a color gradient, above the background and below
/// contents, sublayers and border, as Core Animation's `CAGradientLayer`.
///
/// Points are in the unit space of the bounds (`(0, 0)` the top-left corner). Colors are
/// interpolated with straight (un-premultiplied) alpha, as `CGGradient` does: a gradient from
/// `.clear` (transparent black) to white shows gray in between.
///
/// ```swift
/// let g = GradientLayer()
/// g.bounds = Rect(0, 0, 200, 40)
/// g.colors = [.white, .black]
/// g.startPoint = Point(0, 0.5)
/// g.endPoint = Point(1, 0.5)
/// ```
public final class GradientLayer: Layer {
  /// The kinds of gradient (`CAGradientLayerType`).
  public enum GradientType: String, Hashable, Sendable, CaseIterable {
    /// Colors change along the segment from `startPoint` to `endPoint` and are constant across it.
    case axial
    /// Colors change from `startPoint` (location 0) out to the ellipse whose half-width and
    /// half-height are the x and y distances to `endPoint` (location 1).
    case radial
    /// Colors change with the angle about `startPoint`, from the direction of `endPoint`
    /// (location 0) clockwise on screen through one full turn (location 1).
    case conic
  }

  /// The colors of the gradient stops (default `nil`: nothing is drawn; one color fills the
  /// bounds).
  public var colors: [Color]? {
    get { storage.gradient.colors }
    set { storage.gradient.colors = newValue }
  }
  /// Where each color sits, 0...1 along the gradient, one per color (default `nil`: evenly
  /// spaced). A list whose length differs from `colors` is ignored (evenly spaced).
  public var locations: [Double]? {
    get { storage.gradient.locations }
    set { storage.gradient.locations = newValue }
  }
  /// Where location 0 is (the centre for radial and conic), in unit coordinates of the bounds
  /// (default (0.5, 0)).
  public var startPoint: Point {
    get { storage.gradient.startPoint }
    set { storage.gradient.startPoint = newValue }
  }
  /// Where location 1 is (axial), the ellipse's corner (radial) or the direction of angle 0
  /// (conic), in unit coordinates of the bounds (default (0.5, 1)).
  public var endPoint: Point {
    get { storage.gradient.endPoint }
    set { storage.gradient.endPoint = newValue }
  }
  /// Where location 0 of a radial gradient is, as an offset from `startPoint` in unit
  /// coordinates of the bounds (default (0, 0): at the centre). A Flipbook extension (SVG's
  /// focal point, Lottie's gradient highlight): the colours run from there out to the ellipse,
  /// whose centre stays at `startPoint`; the point is kept inside the ellipse (at most 0.99 of
  /// the way to it). Axial and conic gradients ignore it.
  public var focalOffset: Point {
    get { storage.gradient.focalOffset }
    set { storage.gradient.focalOffset = newValue }
  }
  /// The kind of gradient (default `.axial`); `gradientType` in scene files.
  public var type: GradientType {
    get { storage.gradient.type }
    set { storage.gradient.type = newValue }
  }

  /// Creates a gradient layer with Core Animation's defaults.
  public override init() {
    super.init()
    storage.typed = .gradient(GradientProperties())
  }

  required init(copying layer: Layer) {
    super.init(copying: layer)
    if case .gradient = storage.typed {} else { storage.typed = .gradient(GradientProperties()) }
  }

  /// The stops to draw: each color with its location (`locations` when it has one per color,
  /// else evenly spaced), sorted by location; empty when there are no colors.
  public var stops: [(location: Double, color: Color)] {
    guard let colors, !colors.isEmpty else { return [] }
    if colors.count == 1 { return [(0, colors[0])] }
    let locations: [Double]
    if let given = self.locations, given.count == colors.count {
      locations = given
    } else {
      locations = colors.indices.map { Double($0) / Double(colors.count - 1) }
    }
    return zip(locations, colors).map { (location: $0, color: $1) }
      .enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
      .map(\.element)
  }
}

/// The properties only gradient layers have (see `GradientLayer` for what each means).
package struct GradientProperties: Hashable, Sendable {
  public var colors: [Color]? = nil
  public var locations: [Double]? = nil
  public var startPoint = Point(x: 0.5, y: 0)
  public var endPoint = Point(x: 0.5, y: 1)
  public var type: GradientLayer.GradientType = .axial
  public var focalOffset = Point(x: 0, y: 0)
  public init() {}
}
