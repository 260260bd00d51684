import Geometry

/// A transform as scale, shear, rotation, translation and perspective parts, which is how Core
/// Animation interpolates `transform` values and what `transform.*` key paths animate.
///
/// With row vectors a point is scaled (x, y, z), then sheared (`x += shear * y`), then rotated
/// about x, then y, then z, then translated (x, y, z), and last goes through the perspective
/// terms (`m14 m24 m34 m44`): `T = S · Sh · Rx · Ry · Rz · Tr · P` (visual-effects.md §7, a
/// **convention**). So a model transform with `m34` keeps its perspective while
/// `transform.rotation.y` turns the layer: the card-flip idiom.
///
/// A transform of the plane alone (no 3D term) decomposes exactly as in 2D:
/// `[a b; c d] = [sx 0; 0 sy] · [1 0; shear 1] · R(rotation)`, the other parts at their
/// identity values. In 3D, shears that involve z are not kept (a rotation and three scales
/// describe every product of the operations `transform` lists make).
public struct TransformDecomposition: Hashable, Sendable {
  /// The x translation, in points.
  public var translationX: Double
  /// The y translation, in points.
  public var translationY: Double
  /// The x scale factor.
  public var scaleX: Double
  /// The y scale factor (negative for a mirrored transform).
  public var scaleY: Double
  /// The rotation about z, in radians, in -π...π.
  public var rotation: Double
  /// The shear factor (0 for transforms made of scales, rotations and translations).
  public var shear: Double
  /// The z translation, in points (default 0).
  public var translationZ: Double = 0
  /// The z scale factor (default 1).
  public var scaleZ: Double = 1
  /// The rotation about x, in radians, applied before the rotations about y and z (default 0).
  public var rotationX: Double = 0
  /// The rotation about y, in radians, in -π...π when decomposed (of the two Euler solutions, the
  /// one with the smaller turns about x and z), applied after the rotation about x and before the
  /// one about z (default 0).
  public var rotationY: Double = 0
  /// The perspective terms `m14, m24, m34, m44` applied last (default `[0, 0, 0, 1]`).
  public var perspective: [Double] = [0, 0, 0, 1]

  /// Creates a decomposition from its 2D parts; the 3D parts are at their identity values.
  public init(
    translationX: Double = 0, translationY: Double = 0, scaleX: Double = 1, scaleY: Double = 1,
    rotation: Double = 0, shear: Double = 0
  ) {
    (self.translationX, self.translationY, self.scaleX, self.scaleY, self.rotation, self.shear) =
      (translationX, translationY, scaleX, scaleY, rotation, shear)
  }

  /// Whether every 3D part is at its identity value, so `transform` is a transform of the plane.
  public var isPlanar: Bool {
    translationZ == 0 && scaleZ == 1 && rotationX == 0 && rotationY == 0
      && perspective == [0, 0, 0, 1]
  }

  /// Decomposes `t`: a transform of the plane as in 2D, any other as the 3D parts above.
  public init(_ t: Transform3D) {
    guard t.has3DTerms else {
      self.init(planar: t)
      return
    }
    self.init()
    // The perspective: t = A · P, where A is t with its last column (0, 0, 0, 1).
    let l = [[t.m11, t.m12, t.m13], [t.m21, t.m22, t.m23], [t.m31, t.m32, t.m33]]
    if let p = Self.solve(l, [t.m14, t.m24, t.m34]) {
      perspective = [p[0], p[1], p[2], t.m44 - (t.m41 * p[0] + t.m42 * p[1] + t.m43 * p[2])]
    } else {
      perspective = [0, 0, 0, t.m44]
    }
    (translationX, translationY, translationZ) = (t.m41, t.m42, t.m43)
    // The rows of the linear part: scales (Gram-Schmidt), the xy shear, then the rotation.
    func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    func norm(_ a: [Double]) -> Double { dot(a, a).squareRoot() }
    func minus(_ a: [Double], _ b: [Double], _ k: Double) -> [Double] {
      [a[0] - k * b[0], a[1] - k * b[1], a[2] - k * b[2]]
    }
    func cross(_ a: [Double], _ b: [Double]) -> [Double] {
      [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
    let sx = norm(l[0])
    guard sx > 0 else {
      (scaleX, scaleY, scaleZ) = (0, norm(l[1]), norm(l[2]))
      return
    }
    let r1 = l[0].map { $0 / sx }
    let along = dot(l[1], r1)
    let row2 = minus(l[1], r1, along)
    var sy = norm(row2)
    var r2 = sy > 0 ? row2.map { $0 / sy } : Self.perpendicular(to: r1)
    let row3 = minus(minus(l[2], r1, dot(l[2], r1)), r2, dot(l[2], r2))
    let sz = norm(row3)
    var r3 = sz > 0 ? row3.map { $0 / sz } : cross(r1, r2)
    if dot(cross(r1, r2), r3) < 0 {
      // A mirror: the sign goes to the y scale, as in 2D.
      sy = -sy
      r2 = r2.map { -$0 }
      r3 = cross(r1, r2)
    }
    (scaleX, scaleY, scaleZ) = (sx, sy, sz)
    shear = sy != 0 ? along / sy : 0
    // R = Rx(a) · Ry(b) · Rz(c): row 1 is (cos b cos c, cos b sin c, -sin b).
    let sinB = Swift.max(-1, Swift.min(1, -r1[2]))
    let b = asin(sinB)
    if (1 - sinB * sinB).squareRoot() > 1e-12 {
      let (a, c) = (atan2(r2[2], r3[2]), atan2(r1[1], r1[0]))
      // The same rotation is also (a + π, π − b, c + π): keep the one whose turns about x and z
      // are smaller, so a turn about y alone reads back whole (rotateY(π) is 0, π, 0, not π, 0,
      // π), which the card flip's `transform.rotation.y` relies on.
      let (a2, b2, c2) = (Self.wrapped(a + .pi), Self.wrapped(.pi - b), Self.wrapped(c + .pi))
      if abs(a2) + abs(c2) < abs(a) + abs(c) - 1e-12 {
        (rotationX, rotationY, rotation) = (a2, b2, c2)
      } else {
        (rotationX, rotationY, rotation) = (a, b, c)
      }
    } else {
      rotationY = b
      rotation = 0
      rotationX = atan2(-r3[1], r2[1])
    }
  }

  /// `angle` in -π...π.
  private static func wrapped(_ angle: Double) -> Double {
    var x = angle
    while x > .pi { x -= 2 * .pi }
    while x < -.pi { x += 2 * .pi }
    return x
  }

  /// The 2D decomposition of `m11 m12 m21 m22 m41 m42`.
  private init(planar t: Transform3D) {
    self.init()
    let (a, b, c, d) = (t.m11, t.m12, t.m21, t.m22)
    translationX = t.m41
    translationY = t.m42
    let sx = (a * a + b * b).squareRoot()
    if sx == 0 {
      scaleX = 0
      rotation = 0
      scaleY = d
      shear = d != 0 ? c / d : 0
      return
    }
    let theta = atan2(b, a)
    let (cs, sn) = (a / sx, b / sx)
    scaleX = sx
    rotation = theta
    let sy = d * cs - c * sn
    scaleY = sy
    shear = sy != 0 ? (c * cs + d * sn) / sy : 0
  }

  /// The transform the parts describe.
  public var transform: Transform3D {
    let (cs, sn) = (cos(rotation), sin(rotation))
    var t = Transform3D.identity
    t.m11 = scaleX * cs
    t.m12 = scaleX * sn
    t.m21 = scaleY * (shear * cs - sn)
    t.m22 = scaleY * (shear * sn + cs)
    t.m41 = translationX
    t.m42 = translationY
    guard !isPlanar else { return t }
    return composed(rotatedBy: rotationMatrix)
  }

  /// The rotation part, `Rx · Ry · Rz`.
  var rotationMatrix: Transform3D {
    Transform3D.rotation(rotationX, x: 1, y: 0, z: 0)
      .concatenating(.rotation(rotationY, x: 0, y: 1, z: 0))
      .concatenating(.rotation(rotation, x: 0, y: 0, z: 1))
  }

  /// `S · Sh · r · Tr · P`: the parts with the rotation `r` in place of theirs.
  private func composed(rotatedBy r: Transform3D) -> Transform3D {
    var sheared = Transform3D.identity
    sheared.m21 = shear
    let linear = Transform3D.scale(x: scaleX, y: scaleY, z: scaleZ).concatenating(sheared)
      .concatenating(r)
      .concatenating(.translation(x: translationX, y: translationY, z: translationZ))
    var p = Transform3D.identity
    if perspective.count == 4 {
      let q = perspective
      (p.m14, p.m24, p.m34, p.m44) = (q[0], q[1], q[2], q[3])
    }
    return linear.concatenating(p)
  }

  /// The transform a fraction `t` of the way from `a` to `b` (`t` may leave 0...1), as Core
  /// Animation interpolates matrices: both are decomposed, the translation, scales, shear and
  /// perspective terms interpolate linearly, and the rotation by a spherical interpolation of
  /// its unit quaternion (the shorter way round, at constant angular speed), not angle by angle,
  /// so a combined turn goes about one axis. `t` = 0 and 1 give the ends (within rounding).
  public static func interpolate(
    _ a: Transform3D, _ b: Transform3D, _ t: Double
  ) -> Transform3D {
    let (p, q) = (TransformDecomposition(a), TransformDecomposition(b))
    func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
    var parts = TransformDecomposition(
      translationX: mix(p.translationX, q.translationX),
      translationY: mix(p.translationY, q.translationY), scaleX: mix(p.scaleX, q.scaleX),
      scaleY: mix(p.scaleY, q.scaleY), shear: mix(p.shear, q.shear))
    parts.translationZ = mix(p.translationZ, q.translationZ)
    parts.scaleZ = mix(p.scaleZ, q.scaleZ)
    parts.perspective = zip(p.perspective, q.perspective).map(mix)
    let rotation = Quaternion(p.rotationMatrix).slerp(to: Quaternion(q.rotationMatrix), t)
    return parts.composed(rotatedBy: rotation.matrix)
  }

  /// `x` with `l · x = v` (column vectors; `l` row by row), or `nil` when `l` is singular.
  private static func solve(_ l: [[Double]], _ v: [Double]) -> [Double]? {
    func det(_ m: [[Double]]) -> Double {
      m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }
    let d = det(l)
    guard d != 0, d.isFinite else { return v.allSatisfy { $0 == 0 } ? [0, 0, 0] : nil }
    // Cramer's rule.
    return (0..<3).map { column in
      var m = l
      for row in 0..<3 { m[row][column] = v[row] }
      return det(m) / d
    }
  }

  /// A unit vector perpendicular to `u` (a unit vector).
  private static func perpendicular(to u: [Double]) -> [Double] {
    let helper: [Double] = abs(u[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]
    let k = helper[0] * u[0] + helper[1] * u[1] + helper[2] * u[2]
    let v = [helper[0] - k * u[0], helper[1] - k * u[1], helper[2] - k * u[2]]
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
    return v.map { $0 / n }
  }
}

/// A unit quaternion `(x, y, z, w)`: the rotation by 2 acos(w) about the axis (x, y, z).
struct Quaternion {
  var x: Double, y: Double, z: Double, w: Double

  /// The quaternion of rotation matrix `m` (row vectors, as `Transform3D`; its transpose is the
  /// usual column-vector matrix R), by Shepperd's method: from the largest of w, x, y, z.
  init(_ m: Transform3D) {
    // R's entries: r01 is row 0, column 1 of R, that is m21.
    let (r00, r01, r02) = (m.m11, m.m21, m.m31)
    let (r10, r11, r12) = (m.m12, m.m22, m.m32)
    let (r20, r21, r22) = (m.m13, m.m23, m.m33)
    let trace = r00 + r11 + r22
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      (x, y, z, w) = ((r21 - r12) / s, (r02 - r20) / s, (r10 - r01) / s, s / 4)
    } else if r00 >= r11 && r00 >= r22 {
      let s = (1 + r00 - r11 - r22).squareRoot() * 2
      (x, y, z, w) = (s / 4, (r01 + r10) / s, (r02 + r20) / s, (r21 - r12) / s)
    } else if r11 >= r22 {
      let s = (1 + r11 - r00 - r22).squareRoot() * 2
      (x, y, z, w) = ((r01 + r10) / s, s / 4, (r12 + r21) / s, (r02 - r20) / s)
    } else {
      let s = (1 + r22 - r00 - r11).squareRoot() * 2
      (x, y, z, w) = ((r02 + r20) / s, (r12 + r21) / s, s / 4, (r10 - r01) / s)
    }
  }

  init(x: Double, y: Double, z: Double, w: Double) {
    (self.x, self.y, self.z, self.w) = (x, y, z, w)
  }

  /// The rotation matrix (row vectors, as `Transform3D`).
  var matrix: Transform3D {
    var m = Transform3D.identity
    // m = Rᵀ: m12 is R's row 1, column 0.
    m.m11 = 1 - 2 * (y * y + z * z)
    m.m21 = 2 * (x * y - z * w)
    m.m31 = 2 * (x * z + y * w)
    m.m12 = 2 * (x * y + z * w)
    m.m22 = 1 - 2 * (x * x + z * z)
    m.m32 = 2 * (y * z - x * w)
    m.m13 = 2 * (x * z - y * w)
    m.m23 = 2 * (y * z + x * w)
    m.m33 = 1 - 2 * (x * x + y * y)
    return m
  }

  /// The rotation a fraction `t` of the way to `other` along the shorter great arc (q and −q
  /// are the same rotation: the one nearer `self` is taken), normalized.
  func slerp(to other: Quaternion, _ t: Double) -> Quaternion {
    var o = other
    var cosine = x * o.x + y * o.y + z * o.z + w * o.w
    if cosine < 0 {
      o = Quaternion(x: -o.x, y: -o.y, z: -o.z, w: -o.w)
      cosine = -cosine
    }
    let (ka, kb): (Double, Double)
    if cosine > 1 - 1e-9 {
      // Nearly the same rotation: linear, then normalized.
      (ka, kb) = (1 - t, t)
    } else {
      let angle = acos(cosine), sine = sin(angle)
      (ka, kb) = (sin((1 - t) * angle) / sine, sin(t * angle) / sine)
    }
    var q = Quaternion(
      x: ka * x + kb * o.x, y: ka * y + kb * o.y, z: ka * z + kb * o.z, w: ka * w + kb * o.w)
    let length = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
    if length > 0 {
      (q.x, q.y, q.z, q.w) = (q.x / length, q.y / length, q.z / length, q.w / length)
    }
    return q
  }
}
