import Geometry

/// One simulated item: where it is, how it moves, and what it is made of.
struct Body {
  var position: Point
  /// The rotation in radians; `cosAngle`/`sinAngle` follow it (set through `turn(to:)`).
  private(set) var angle: Double
  private(set) var cosAngle = 1.0
  private(set) var sinAngle = 0.0
  var velocity = Point.zero
  var angularVelocity = 0.0
  /// The initial angle, so rotations report from 0.
  let angle0: Double
  var inverseMass: Double
  var inverseInertia: Double
  var mass: Double
  var inertia: Double
  /// A radius bounding the collision shape (the shape itself is `World.shapes`, kept apart so
  /// bodies are plain values, cheap to copy).
  var boundingRadius: Double
  var elasticity = 0.0
  var friction = 0.0
  var resistance = 0.0
  var angularResistance = 0.0
  /// Accumulated force and torque of continuous pushes, cleared each step.
  var force = Point.zero
  var torque = 0.0
  var gravity = Point.zero

  var isStatic: Bool { inverseMass == 0 }

  init(
    position: Point, angle: Double, angle0: Double, inverseMass: Double, inverseInertia: Double,
    mass: Double, inertia: Double, boundingRadius: Double
  ) {
    self.position = position
    self.angle = angle
    self.angle0 = angle0
    self.inverseMass = inverseMass
    self.inverseInertia = inverseInertia
    self.mass = mass
    self.inertia = inertia
    self.boundingRadius = boundingRadius
    turn(to: angle)
  }

  /// Sets the angle and its cached cosine and sine.
  mutating func turn(to newAngle: Double) {
    angle = newAngle
    if newAngle == 0 {
      (cosAngle, sinAngle) = (1, 0)
    } else {
      (cosAngle, sinAngle) = (cos(newAngle), sin(newAngle))
    }
  }

  /// A point given in the body's frame, in world coordinates.
  @inline(__always) func world(_ local: Point) -> Point {
    position + local.rotated(cos: cosAngle, sin: sinAngle)
  }
}

/// A collision shape in the body's own frame (centered on its center).
enum Shape {
  case circle(radius: Double)
  /// A convex polygon, counterclockwise in y-down screen terms... any consistent winding;
  /// normals are computed outward.
  case polygon(vertices: [Point], normals: [Point])

  /// The polygon of a `width` x `height` rectangle centered on the origin.
  static func box(width w: Double, height h: Double) -> Shape {
    polygon([
      Point(-w / 2, -h / 2), Point(w / 2, -h / 2), Point(w / 2, h / 2), Point(-w / 2, h / 2),
    ])
  }

  /// An ellipse: a circle when square, otherwise a 24-sided polygon.
  static func ellipse(width w: Double, height h: Double) -> Shape {
    if abs(w - h) < 1e-9 { return .circle(radius: w / 2) }
    let n = 24
    return polygon(
      (0..<n).map { k in
        let a = Double(k) / Double(n) * 2 * Double.pi
        return Point(x: w / 2 * cos(a), y: h / 2 * sin(a))
      })
  }

  /// A convex polygon from vertices in order; normals point outward.
  static func polygon(_ v: [Point]) -> Shape {
    // Orientation: make the signed area positive in (x, y) so right-hand normals point out.
    var area = 0.0
    for i in v.indices { area += v[i].cross(v[(i + 1) % v.count]) }
    let vertices = area < 0 ? v.reversed() : v
    let normals = vertices.indices.map { i -> Point in
      let e = vertices[(i + 1) % vertices.count] - vertices[i]
      return Point(x: e.y, y: -e.x).normalized
    }
    return .polygon(vertices: vertices, normals: normals)
  }

  /// The distance from the center to the nearest point of the outline, in points.
  var innerRadius: Double {
    switch self {
    case .circle(let r): return r
    case .polygon(let v, let n):
      return zip(v, n).map { $1.dot($0) }.min().map { Swift.max($0, 0) } ?? 0
    }
  }

  /// A radius that bounds the shape (for broad phase).
  var boundingRadius: Double {
    switch self {
    case .circle(let r): return r
    case .polygon(let v, _): return v.map(\.length).max() ?? 0
    }
  }
}
