import Geometry

/// A layer that draws a path, filled then stroked, between its contents and its sublayers, as
/// Core Animation's `CAShapeLayer`.
///
/// `strokeStart` and `strokeEnd` select the part of the path that is stroked, as fractions of its
/// total arc length; the fill always uses the whole path.
public final class ShapeLayer: Layer {
  /// The shape, in the layer's coordinates (default none).
  public var path: Path? {
    get { storage.shape.path }
    set { storage.shape.path = newValue }
  }
  /// The color that fills the path (default opaque black; `nil` for no fill).
  public var fillColor: Color? {
    get { storage.shape.fillColor }
    set { storage.shape.fillColor = newValue }
  }
  /// The color that strokes the path (default `nil`: no stroke).
  public var strokeColor: Color? {
    get { storage.shape.strokeColor }
    set { storage.shape.strokeColor = newValue }
  }
  /// The stroke width, in points (default 1).
  public var lineWidth: Double {
    get { storage.shape.lineWidth }
    set { storage.shape.lineWidth = newValue }
  }
  /// The cap of open subpath ends (default `.butt`).
  public var lineCap: LineCap {
    get { storage.shape.lineCap }
    set { storage.shape.lineCap = newValue }
  }
  /// The corner style (default `.miter`).
  public var lineJoin: LineJoin {
    get { storage.shape.lineJoin }
    set { storage.shape.lineJoin = newValue }
  }
  /// The miter limit (default 10).
  public var miterLimit: Double {
    get { storage.shape.miterLimit }
    set { storage.shape.miterLimit = newValue }
  }
  /// Alternating dash and gap lengths in points (default `nil`: a solid line).
  public var lineDashPattern: [Double]? {
    get { storage.shape.lineDashPattern }
    set { storage.shape.lineDashPattern = newValue }
  }
  /// How far into the dash pattern the stroke starts, in points (default 0).
  public var lineDashPhase: Double {
    get { storage.shape.lineDashPhase }
    set { storage.shape.lineDashPhase = newValue }
  }
  /// Where stroking starts, as a fraction 0...1 of the path's arc length (default 0).
  public var strokeStart: Double {
    get { storage.shape.strokeStart }
    set { storage.shape.strokeStart = newValue }
  }
  /// Where stroking ends, as a fraction 0...1 of the path's arc length (default 1).
  public var strokeEnd: Double {
    get { storage.shape.strokeEnd }
    set { storage.shape.strokeEnd = newValue }
  }
  /// Which regions count as inside the path for the fill (default `.nonZero`).
  public var fillRule: FillRule {
    get { storage.shape.fillRule }
    set { storage.shape.fillRule = newValue }
  }

  /// How the path's subpaths combine (default `.none`: one shape, as Core Animation draws it;
  /// a Flipbook extension for Lottie's merge paths, see `PathOperation`).
  public var pathOperation: PathOperation {
    get { storage.shape.pathOperation }
    set { storage.shape.pathOperation = newValue }
  }

  /// Creates a shape layer with Core Animation's defaults.
  public override init() {
    super.init()
    storage.typed = .shape(ShapeProperties())
  }

  required init(copying layer: Layer) {
    super.init(copying: layer)
    if case .shape = storage.typed {} else { storage.typed = .shape(ShapeProperties()) }
  }

  /// The stroke style the layer's line properties describe.
  public var strokeStyle: StrokeStyle { storage.shape.strokeStyle }
}

/// The properties only shape layers have, as one value (see `ShapeLayer` for what each means).
package struct ShapeProperties: Hashable, Sendable {
  /// The shape, in the layer's coordinates (default none).
  public var path: Path? = nil
  /// The color that fills the path (default opaque black; `nil` for no fill).
  public var fillColor: Color? = .black
  /// The color that strokes the path (default `nil`: no stroke).
  public var strokeColor: Color? = nil
  /// The stroke width, in points (default 1).
  public var lineWidth: Double = 1
  /// The cap of open subpath ends (default `.butt`).
  public var lineCap: LineCap = .butt
  /// The corner style (default `.miter`).
  public var lineJoin: LineJoin = .miter
  /// The miter limit (default 10).
  public var miterLimit: Double = 10
  /// Alternating dash and gap lengths in points (default `nil`: a solid line).
  public var lineDashPattern: [Double]? = nil
  /// How far into the dash pattern the stroke starts, in points (default 0).
  public var lineDashPhase: Double = 0
  /// Where stroking starts, as a fraction 0...1 of the path's arc length (default 0).
  public var strokeStart: Double = 0
  /// Where stroking ends, as a fraction 0...1 of the path's arc length (default 1).
  public var strokeEnd: Double = 1
  /// Which regions count as inside the path for the fill (default `.nonZero`).
  public var fillRule: FillRule = .nonZero
  /// How the path's subpaths combine (default `.none`).
  public var pathOperation: PathOperation = .none

  /// Creates shape properties with Core Animation's defaults.
  public init() {}

  /// The stroke style the line properties describe (`ShapeLayer.strokeStyle`).
  package var strokeStyle: StrokeStyle {
    StrokeStyle(
      lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
      dashPattern: lineDashPattern ?? [], dashPhase: lineDashPhase)
  }
}
