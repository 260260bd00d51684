import Geometry

#if canImport(Glibc)
  import Glibc
#endif

/// A Lottie bezier shape (`sh`'s `ks` value): vertices `v` with in and out tangents `i`, `o`
/// relative to each vertex, open or closed (`c`).
struct BezierShape: Sendable, Equatable {
  /// The vertices, in points.
  var vertices: [Point]
  /// Each vertex's in tangent, relative to it.
  var inTangents: [Point]
  /// Each vertex's out tangent, relative to it.
  var outTangents: [Point]
  /// Whether the last vertex joins the first.
  var closed: Bool

  /// The shape `fraction` of the way to `other` (vertex by vertex when both have as many
  /// vertices; otherwise this shape, as lottie-web draws mismatched keyframes).
  func interpolated(to other: BezierShape, _ fraction: Double) -> BezierShape {
    guard other.vertices.count == vertices.count else { return fraction < 1 ? self : other }
    func mix(_ a: [Point], _ b: [Point]) -> [Point] {
      zip(a, b).map {
        Point(x: $0.x + ($1.x - $0.x) * fraction, y: $0.y + ($1.y - $0.y) * fraction)
      }
    }
    return BezierShape(
      vertices: mix(vertices, other.vertices), inTangents: mix(inTangents, other.inTangents),
      outTangents: mix(outTangents, other.outTangents), closed: closed)
  }

  /// The path: a cubic per edge (a line where both tangents are zero, unless `curvesOnly`, which
  /// keeps the element structure the same whatever the tangents, for path morphing).
  func path(curvesOnly: Bool = false) -> Path {
    var path = Path()
    guard let first = vertices.first else { return path }
    path.move(to: first)
    let n = vertices.count
    let edges = closed ? n : n - 1
    for j in 0..<Swift.max(0, edges) {
      let k = (j + 1) % n
      let a = vertices[j], b = vertices[k]
      let o = outTangents[j], i = inTangents[k]
      if !curvesOnly && o == .zero && i == .zero {
        path.addLine(to: b)
      } else {
        path.addCurve(
          to: b, control1: Point(x: a.x + o.x, y: a.y + o.y),
          control2: Point(x: b.x + i.x, y: b.y + i.y))
      }
    }
    if closed { path.closeSubpath() }
    return path
  }
}

/// Lottie's parametric shapes as paths, with lottie-web's starting points and directions (which
/// trim paths and dashes make visible).
enum ShapeGeometry {
  /// The handle length of a quarter-circle cubic, as lottie-web uses it.
  static let kappa = 0.5519

  /// A rectangle (`rc`) of `size` centred on `center`, corners rounded by `roundness` (clamped
  /// to half the shorter side): starting at the top-right corner, clockwise on screen;
  /// `reversed` (`d: 3`) runs the other way.
  static func rectangle(center: Point, size: Size, roundness: Double, reversed: Bool) -> Path {
    let w = size.width / 2, h = size.height / 2
    let r = Swift.max(0, Swift.min(roundness, Swift.min(abs(w), abs(h))))
    let (l, t, rt, b) = (center.x - w, center.y - h, center.x + w, center.y + h)
    var shape = BezierShape(vertices: [], inTangents: [], outTangents: [], closed: true)
    func add(_ p: Point, _ i: Point, _ o: Point) {
      shape.vertices.append(p)
      shape.inTangents.append(i)
      shape.outTangents.append(o)
    }
    if r == 0 {
      for p in [Point(x: rt, y: t), Point(x: rt, y: b), Point(x: l, y: b), Point(x: l, y: t)] {
        add(p, .zero, .zero)
      }
    } else {
      let c = r * kappa
      add(Point(x: rt, y: t + r), Point(x: 0, y: -c), .zero)
      add(Point(x: rt, y: b - r), .zero, Point(x: 0, y: c))
      add(Point(x: rt - r, y: b), Point(x: c, y: 0), .zero)
      add(Point(x: l + r, y: b), .zero, Point(x: -c, y: 0))
      add(Point(x: l, y: b - r), Point(x: 0, y: c), .zero)
      add(Point(x: l, y: t + r), .zero, Point(x: 0, y: -c))
      add(Point(x: l + r, y: t), Point(x: -c, y: 0), .zero)
      add(Point(x: rt - r, y: t), .zero, Point(x: c, y: 0))
    }
    return (reversed ? shape.reversed() : shape).path()
  }

  /// An ellipse (`el`) of `size` centred on `center`: starting at the top, clockwise on screen.
  static func ellipse(center: Point, size: Size, reversed: Bool) -> Path {
    let w = size.width / 2, h = size.height / 2
    let cw = w * kappa, ch = h * kappa
    let (x, y) = (center.x, center.y)
    let shape = BezierShape(
      vertices: [
        Point(x: x, y: y - h), Point(x: x + w, y: y), Point(x: x, y: y + h), Point(x: x - w, y: y),
      ],
      inTangents: [
        Point(x: -cw, y: 0), Point(x: 0, y: -ch), Point(x: cw, y: 0), Point(x: 0, y: ch),
      ],
      outTangents: [
        Point(x: cw, y: 0), Point(x: 0, y: ch), Point(x: -cw, y: 0), Point(x: 0, y: -ch),
      ],
      closed: true)
    return (reversed ? shape.reversed() : shape).path(curvesOnly: true)
  }

  /// A polystar (`sr`): a star (`sy: 1`, points alternating between `outerRadius` and
  /// `innerRadius`) or a polygon (`sy: 2`), the first point straight up turned by `rotation`
  /// degrees, roundness in percent, as lottie-web builds it.
  static func polystar(
    star: Bool, points: Double, center: Point, rotation: Double, outerRadius: Double,
    innerRadius: Double, outerRoundness: Double, innerRoundness: Double, reversed: Bool
  ) -> Path {
    let most = Double(LottieFormat.maximumPolystarPoints)
    let count = Int(Swift.max(0, Swift.min(points.isFinite ? points : 0, most)).rounded(.down))
    guard count > 0 else { return Path() }
    let n = star ? count * 2 : count
    let angle = 2 * Double.pi / Double(n)
    let dir: Double = reversed ? -1 : 1
    // Within one turn first: past about 1e17 degrees the steps between points were lost to
    // the angle's precision, and the star drew misplaced or not at all.
    let turn = rotation.isFinite ? rotation.truncatingRemainder(dividingBy: 360) : 0
    var current = -Double.pi / 2 + turn * Double.pi / 180
    var shape = BezierShape(vertices: [], inTangents: [], outTangents: [], closed: true)
    for i in 0..<n {
      let long = !star || i % 2 == 0
      let radius = long ? outerRadius : innerRadius
      let roundness = (long ? outerRoundness : innerRoundness) / 100
      let perimeter = 2 * Double.pi * radius / Double(star ? n * 2 : n * 4)
      let x = radius * cos(current), y = radius * sin(current)
      let length = (x * x + y * y).squareRoot()
      let ox = length == 0 ? 0 : y / length, oy = length == 0 ? 0 : -x / length
      let k = perimeter * roundness * dir
      shape.vertices.append(Point(x: center.x + x, y: center.y + y))
      shape.outTangents.append(Point(x: -ox * k, y: -oy * k))
      shape.inTangents.append(Point(x: ox * k, y: oy * k))
      current += angle * dir
    }
    return shape.path()
  }
}

extension BezierShape {
  /// The same outline travelled the other way, from the same first vertex.
  func reversed() -> BezierShape {
    guard vertices.count > 1 else { return self }
    let order = [0] + Array((1..<vertices.count).reversed())
    return BezierShape(
      vertices: order.map { vertices[$0] }, inTangents: order.map { outTangents[$0] },
      outTangents: order.map { inTangents[$0] }, closed: closed)
  }
}
