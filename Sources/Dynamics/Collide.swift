import Geometry

/// Where two shapes touch or are about to: the normal from A to B and up to two points, each
/// with its separation (negative when overlapping) and a feature id for matching across steps.
struct Manifold {
  var normal: Point
  var points: ContactPoints
}

/// Up to two contact points, stored inline (no allocation per manifold).
struct ContactPoints: RandomAccessCollection {
  private var first = (point: Point.zero, separation: 0.0)
  private var second = (point: Point.zero, separation: 0.0)
  private(set) var count = 0

  init() {}
  init(_ point: Point, _ separation: Double) { append((point, separation)) }

  var startIndex: Int { 0 }
  var endIndex: Int { count }
  subscript(i: Int) -> (point: Point, separation: Double) {
    precondition(i >= 0 && i < count, "contact point out of range")
    return i == 0 ? first : second
  }

  mutating func append(_ p: (point: Point, separation: Double)) {
    precondition(count < 2, "a manifold has at most two points")
    if count == 0 { first = p } else { second = p }
    count += 1
  }
}

/// A shape placed in the world: its center and, for polygons, world vertices and normals.
struct Placed {
  var center: Point
  var radius: Double = 0
  var vertices: [Point] = []
  var normals: [Point] = []
  var isCircle: Bool { vertices.isEmpty }

  init(_ shape: Shape, at p: Point, angle: Double) {
    center = p
    place(shape, at: p, angle: angle)
  }

  /// Moves this placement to `shape` at `p` and `angle`, reusing its vertex and normal
  /// storage (the world keeps one placement per body from step to step).
  mutating func place(_ shape: Shape, at p: Point, angle: Double) {
    center = p
    switch shape {
    case .circle(let r):
      radius = r
      vertices.removeAll(keepingCapacity: true)
      normals.removeAll(keepingCapacity: true)
    case .polygon(let v, let n):
      radius = 0
      let (c, s) = (cos(angle), sin(angle))
      if vertices.count != v.count { vertices = [Point](repeating: .zero, count: v.count) }
      if normals.count != n.count { normals = [Point](repeating: .zero, count: n.count) }
      for k in v.indices { vertices[k] = p + v[k].rotated(cos: c, sin: s) }
      for k in n.indices { normals[k] = n[k].rotated(cos: c, sin: s) }
    }
  }

  /// A boundary segment: a two-sided, two-vertex polygon.
  init(segmentFrom a: Point, to b: Point) {
    center = (a + b) * 0.5
    vertices = [a, b]
    let n = Point(x: b.y - a.y, y: -(b.x - a.x)).normalized
    normals = [n, -n]
  }
}

enum Collide {
  /// The manifold of A and B when their gap is at most `margin` points.
  static func manifold(_ a: Placed, _ b: Placed, margin: Double) -> Manifold? {
    switch (a.isCircle, b.isCircle) {
    case (true, true): return circles(a, b, margin)
    case (false, true): return polygonCircle(a, b, margin)
    case (true, false):
      guard var m = polygonCircle(b, a, margin) else { return nil }
      m.normal = -m.normal
      return m
    case (false, false): return polygons(a, b, margin)
    }
  }

  static func circles(_ a: Placed, _ b: Placed, _ margin: Double) -> Manifold? {
    let d = b.center - a.center
    let distance = d.length
    let separation = distance - a.radius - b.radius
    guard separation <= margin else { return nil }
    let n = distance > 1e-12 ? d / distance : Point(x: 0, y: 1)
    let point = a.center + n * (a.radius + separation / 2)
    return Manifold(normal: n, points: ContactPoints(point, separation))
  }

  /// A polygon (or segment) A against a circle B; the normal points from A to B.
  static func polygonCircle(_ a: Placed, _ b: Placed, _ margin: Double) -> Manifold? {
    let c = b.center
    if a.vertices.count == 2 {
      // A segment: the closest point on it.
      let p = a.vertices[0], q = a.vertices[1]
      let e = q - p
      let t = Swift.max(0, Swift.min(1, (c - p).dot(e) / Swift.max(e.lengthSquared, 1e-12)))
      let closest = p + e * t
      let d = c - closest
      let distance = d.length
      let separation = distance - b.radius
      guard separation <= margin else { return nil }
      let n = distance > 1e-12 ? d / distance : a.normals[0]
      return Manifold(normal: n, points: ContactPoints(closest + n * (separation / 2), separation))
    }
    var best = -Double.infinity
    var face = 0
    for i in a.vertices.indices {
      let s = a.normals[i].dot(c - a.vertices[i])
      if s > best {
        best = s
        face = i
      }
    }
    guard best - b.radius <= margin else { return nil }
    let v1 = a.vertices[face], v2 = a.vertices[(face + 1) % a.vertices.count]
    let u1 = (c - v1).dot(v2 - v1), u2 = (c - v2).dot(v1 - v2)
    let corner: Point?
    if best < 1e-12 {
      corner = nil  // the center is inside: the face normal
    } else if u1 <= 0 {
      corner = v1
    } else if u2 <= 0 {
      corner = v2
    } else {
      corner = nil
    }
    if let corner {
      let d = c - corner
      let distance = d.length
      let separation = distance - b.radius
      guard separation <= margin else { return nil }
      let n = distance > 1e-12 ? d / distance : a.normals[face]
      return Manifold(normal: n, points: ContactPoints(corner + n * (separation / 2), separation))
    }
    let n = a.normals[face]
    let separation = best - b.radius
    return Manifold(
      normal: n, points: ContactPoints(c - n * (b.radius + separation / 2), separation))
  }

  /// The face of `p` whose normal separates `q` the most, and that separation.
  static func maxSeparation(_ p: Placed, _ q: Placed) -> (face: Int, separation: Double) {
    var bestFace = 0
    var best = -Double.infinity
    for i in p.vertices.indices {
      var s = Double.infinity
      for v in q.vertices { s = Swift.min(s, p.normals[i].dot(v - p.vertices[i])) }
      if s > best {
        best = s
        bestFace = i
      }
    }
    return (bestFace, best)
  }

  /// Two convex polygons (segments included): reference face, incident edge, clipping.
  static func polygons(_ a: Placed, _ b: Placed, _ margin: Double) -> Manifold? {
    let (faceA, sepA) = maxSeparation(a, b)
    guard sepA <= margin else { return nil }
    let (faceB, sepB) = maxSeparation(b, a)
    guard sepB <= margin else { return nil }
    let flip = sepB > sepA + 0.005
    let ref = flip ? b : a, inc = flip ? a : b
    let face = flip ? faceB : faceA
    let n = ref.normals[face]
    // The incident edge: the one whose normal is most against the reference normal.
    var incident = 0
    var least = Double.infinity
    for i in inc.normals.indices {
      let d = n.dot(inc.normals[i])
      if d < least {
        least = d
        incident = i
      }
    }
    // The incident edge's ends (`count` of them left after clipping), inline.
    var points = (inc.vertices[incident], inc.vertices[(incident + 1) % inc.vertices.count])
    var count = 2
    let v1 = ref.vertices[face], v2 = ref.vertices[(face + 1) % ref.vertices.count]
    let tangent = (v2 - v1).normalized
    // Clip against the side planes of the reference face (two points give at most two).
    func clip(_ normal: Point, _ offset: Double) {
      guard count == 2 else { return }
      let p0 = points.0, p1 = points.1
      let d0 = normal.dot(p0) - offset, d1 = normal.dot(p1) - offset
      count = 0
      func keep(_ p: Point) {
        if count == 0 { points.0 = p } else { points.1 = p }
        count += 1
      }
      if d0 <= 0 { keep(p0) }
      if d1 <= 0 { keep(p1) }
      if d0 * d1 < 0 { keep(p0 + (p1 - p0) * (d0 / (d0 - d1))) }
    }
    clip(-tangent, -tangent.dot(v1))
    clip(tangent, tangent.dot(v2))
    var result = ContactPoints()
    for k in 0..<count {
      let p = k == 0 ? points.0 : points.1
      let separation = n.dot(p - v1)
      if separation <= margin { result.append((p - n * (separation / 2), separation)) }
    }
    guard !result.isEmpty else { return nil }
    return Manifold(normal: flip ? -n : n, points: result)
  }
}
