/// A sequence of subpaths made of lines and Bézier curves, in points: what a shape layer draws and
/// what the canvas fills, strokes and clips with.
///
/// Arcs and ellipses are stored as cubic Bézier curves (as Core Graphics does), so every path is
/// made of the five element kinds below. Two paths can be interpolated point by point when their
/// element kinds match (see `elementKinds`).
public struct Path: Hashable, Sendable {
  /// One drawing instruction of a path.
  public enum Element: Hashable, Sendable {
    /// Starts a new subpath at a point.
    case move(to: Point)
    /// A straight line from the current point.
    case line(to: Point)
    /// A quadratic Bézier curve from the current point.
    case quadCurve(to: Point, control: Point)
    /// A cubic Bézier curve from the current point.
    case curve(to: Point, control1: Point, control2: Point)
    /// A straight line back to the subpath's start, closing it.
    case closeSubpath
  }

  /// The elements, in drawing order.
  public internal(set) var elements: [Element] = []
  var subpathStart: Point? = nil
  /// The end point of the last element, or `nil` for an empty path.
  public internal(set) var currentPoint: Point? = nil

  /// Creates an empty path.
  public init() {}

  /// Creates a path from elements (a line or curve without a current point starts at its end).
  public init(elements: [Element]) {
    for e in elements { append(e) }
  }

  /// Whether the path has no elements.
  public var isEmpty: Bool { elements.isEmpty }

  /// Appends one element, keeping track of the current point as Core Graphics does: a line or
  /// curve with no current point begins with an implicit move to its own end point.
  public mutating func append(_ element: Element) {
    switch element {
    case .move(let p):
      elements.append(element)
      subpathStart = p
      currentPoint = p
    case .line(let p), .quadCurve(let p, _), .curve(let p, _, _):
      if currentPoint == nil {
        elements.append(.move(to: p))
        subpathStart = p
      }
      elements.append(element)
      currentPoint = p
    case .closeSubpath:
      guard currentPoint != nil else { return }
      elements.append(.closeSubpath)
      currentPoint = subpathStart
    }
  }

  /// Starts a new subpath at `point`.
  public mutating func move(to point: Point) { append(.move(to: point)) }
  /// Adds a straight line to `point`.
  public mutating func addLine(to point: Point) { append(.line(to: point)) }
  /// Adds a quadratic Bézier curve to `point`.
  public mutating func addQuadCurve(to point: Point, control: Point) {
    append(.quadCurve(to: point, control: control))
  }
  /// Adds a cubic Bézier curve to `point`.
  public mutating func addCurve(to point: Point, control1: Point, control2: Point) {
    append(.curve(to: point, control1: control1, control2: control2))
  }
  /// Closes the current subpath with a straight line to its start.
  public mutating func closeSubpath() { append(.closeSubpath) }

  /// Appends every element of `other`, which starts its own subpaths.
  public mutating func addPath(_ other: Path) {
    for e in other.elements { append(e) }
  }

  /// The path with every point mapped by `transform`.
  public func applying(_ transform: AffineTransform) -> Path {
    var out = Path()
    for e in elements {
      switch e {
      case .move(let p): out.append(.move(to: p.applying(transform)))
      case .line(let p): out.append(.line(to: p.applying(transform)))
      case .quadCurve(let p, let c):
        out.append(.quadCurve(to: p.applying(transform), control: c.applying(transform)))
      case .curve(let p, let c1, let c2):
        out.append(
          .curve(
            to: p.applying(transform), control1: c1.applying(transform),
            control2: c2.applying(transform)))
      case .closeSubpath: out.append(.closeSubpath)
      }
    }
    return out
  }

  /// The smallest rectangle holding every point of the path, control points included
  /// (`CGPathGetBoundingBox`); `.zero` for an empty path.
  public var boundingBox: Rect {
    var xs: [Double] = [], ys: [Double] = []
    for e in elements {
      switch e {
      case .move(let p), .line(let p): xs.append(p.x); ys.append(p.y)
      case .quadCurve(let p, let c): xs += [p.x, c.x]; ys += [p.y, c.y]
      case .curve(let p, let c1, let c2): xs += [p.x, c1.x, c2.x]; ys += [p.y, c1.y, c2.y]
      case .closeSubpath: break
      }
    }
    guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else {
      return .zero
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
