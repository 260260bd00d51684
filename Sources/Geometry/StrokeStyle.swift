/// How the ends of open stroked subpaths are drawn (`CAShapeLayerLineCap`).
public enum LineCap: String, Hashable, Sendable, CaseIterable {
  /// Ends exactly at the end point (the default).
  case butt
  /// A half circle around the end point.
  case round
  /// A half square around the end point.
  case square
}

/// How corners of stroked paths are drawn (`CAShapeLayerLineJoin`).
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
  /// A sharp corner, beveled past the miter limit (the default).
  case miter
  /// A rounded corner.
  case round
  /// A corner cut square.
  case bevel
}

/// Which regions of a path count as inside (`CAShapeLayerFillRule`).
public enum FillRule: String, Hashable, Sendable, CaseIterable {
  /// Inside when the winding number is not zero (the default).
  case nonZero
  /// Inside when a ray crosses the path an odd number of times.
  case evenOdd
}

/// Everything that shapes a stroke: width, caps, joins, miter limit and dashes.
public struct StrokeStyle: Hashable, Sendable {
  /// The line width in points (default 1).
  public var lineWidth: Double
  /// The cap of open subpath ends (default `.butt`).
  public var lineCap: LineCap
  /// The corner style (default `.miter`).
  public var lineJoin: LineJoin
  /// The miter limit: the ratio of miter length to line width past which miters are beveled
  /// (default 10).
  public var miterLimit: Double
  /// Alternating dash and gap lengths in points; empty for a solid line.
  public var dashPattern: [Double]
  /// How far into the dash pattern the stroke starts, in points (default 0).
  public var dashPhase: Double

  /// Creates a stroke style; the defaults are Core Animation's.
  public init(
    lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
    miterLimit: Double = 10, dashPattern: [Double] = [], dashPhase: Double = 0
  ) {
    self.lineWidth = lineWidth
    self.lineCap = lineCap
    self.lineJoin = lineJoin
    self.miterLimit = miterLimit
    self.dashPattern = dashPattern
    self.dashPhase = dashPhase
  }
}
