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

extension StrokeStyle {
  /// The most entries a dash pattern may have: 1,000 (the scene and Lottie readers refuse
  /// more).
  public static let maximumDashPatternCount = 1_000

  /// The most dashes one stroke may draw: 100,000 (Cairo draws a dash and its caps one by one:
  /// a million round-capped dashes take about twenty seconds).
  public static let maximumDashCount = 100_000

  /// The most dashes one frame may stroke, all its strokes together (each replicator instance
  /// and each shadow's pass counted): 1,000,000.
  public static let maximumDashCountPerFrame = 1_000_000

  /// Whether the pattern draws dashes: some entry above 0, all of them finite and not negative
  /// (otherwise the line is solid, as Core Graphics draws it).
  public var isDashed: Bool {
    !dashPattern.isEmpty && dashPattern.allSatisfy { $0 >= 0 && $0.isFinite }
      && dashPattern.contains { $0 > 0 }
  }

  /// How many dashes stroking `path` draws with this pattern: its length over the pattern's
  /// length, times the dashes in one pattern (half its entries; an odd pattern repeats with
  /// dashes and gaps swapped); 0 for a solid line. Measured on the path's control polygon
  /// (never shorter than the path) first, and along the path itself only when that is over
  /// `limit`, so a short path costs no measuring.
  public func dashCount(along path: Path, limit: Double = Double(maximumDashCount)) -> Double {
    guard isDashed else { return 0 }
    let period = dashPattern.reduce(0, +)
    let perLength = Double(dashPattern.count) / 2 / period
    guard perLength.isFinite else { return 0 }
    let bound = path.controlPolygonLength * perLength
    guard bound > limit else { return bound }
    return path.length * perLength
  }
}

extension Path {
  /// The length of the lines through every point and control point, subpath by subpath
  /// (closing lines included): at least the path's arc length, and cheap to compute.
  public var controlPolygonLength: Double {
    var total = 0.0
    var current = Point.zero, start = Point.zero
    func walk(_ points: Point...) {
      for p in points {
        total += hypot(p.x - current.x, p.y - current.y)
        current = p
      }
    }
    for element in elements {
      switch element {
      case .move(let p):
        current = p
        start = p
      case .line(let p): walk(p)
      case .quadCurve(let p, let c): walk(c, p)
      case .curve(let p, let c1, let c2): walk(c1, c2, p)
      case .closeSubpath: walk(start)
      }
    }
    return total
  }
}
