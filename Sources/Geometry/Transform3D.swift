/// A 4x4 homogeneous transform with Core Animation's `CATransform3D` conventions.
///
/// Points are row vectors: `[x y z 1] · M`, so translation lives in `m41 m42 m43`.
/// `translated`, `scaled` and `rotated` behave like `CATransform3DTranslate`/`Scale`/`Rotate`:
/// the new operation is applied *before* (in the local space of) the existing transform.
/// `a.concatenating(b)` is `CATransform3DConcat(a, b)`: `a` is applied first.
///
/// A layer's plane (z = 0) lands in its superlayer's through `Homography(t)`; when that map is
/// affine (`isAffineInPlane`) the layer draws through `affineTransform`'s entries, otherwise
/// through a projective warp (docs/geometry.md).
public struct Transform3D: Hashable, Sendable {
  public var m11: Double, m12: Double, m13: Double, m14: Double
  public var m21: Double, m22: Double, m23: Double, m24: Double
  public var m31: Double, m32: Double, m33: Double, m34: Double
  public var m41: Double, m42: Double, m43: Double, m44: Double

  /// Creates a transform from its sixteen entries, row by row.
  public init(
    m11: Double, m12: Double, m13: Double, m14: Double,
    m21: Double, m22: Double, m23: Double, m24: Double,
    m31: Double, m32: Double, m33: Double, m34: Double,
    m41: Double, m42: Double, m43: Double, m44: Double
  ) {
    (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
    (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
    (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
    (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
  }

  /// The 3D transform with the same effect in the plane as `affine`
  /// (`CATransform3DMakeAffineTransform`).
  public init(_ affine: AffineTransform) {
    self = .identity
    (m11, m12, m21, m22, m41, m42) = (affine.a, affine.b, affine.c, affine.d, affine.tx, affine.ty)
  }

  /// `CATransform3DIdentity`.
  public static let identity = Transform3D(
    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

  /// `CATransform3DMakeTranslation(tx, ty, tz)`, in points.
  public static func translation(x tx: Double, y ty: Double, z tz: Double = 0) -> Transform3D {
    var t = identity
    (t.m41, t.m42, t.m43) = (tx, ty, tz)
    return t
  }

  /// `CATransform3DMakeScale(sx, sy, sz)`.
  public static func scale(x sx: Double, y sy: Double, z sz: Double = 1) -> Transform3D {
    var t = identity
    (t.m11, t.m22, t.m33) = (sx, sy, sz)
    return t
  }

  /// `CATransform3DMakeRotation(angle, x, y, z)`: a rotation by `angle` radians about the axis
  /// `(x, y, z)` (normalized here). About z (the default), positive angles turn +x toward +y,
  /// clockwise on screen. A zero-length axis gives the identity, as Core Animation documents;
  /// so does an axis with an infinite or NaN component (the scene reader refuses those).
  public static func rotation(
    _ angle: Double, x: Double = 0, y: Double = 0, z: Double = 1
  ) -> Transform3D {
    // Scaled by the largest component before the length is taken, so an axis of 1e308 (whose
    // squares overflow) or 5e-324 (whose squares underflow to 0) is the direction it names.
    let largest = Swift.max(abs(x), abs(y), abs(z))
    guard largest > 0, largest.isFinite else { return identity }
    let (sx, sy, sz) = (x / largest, y / largest, z / largest)
    let length = (sx * sx + sy * sy + sz * sz).squareRoot()
    let (ux, uy, uz) = (sx / length, sy / length, sz / length)
    let (s, c) = (sin(angle), cos(angle))
    let t = 1 - c
    var r = identity
    r.m11 = c + ux * ux * t
    r.m12 = ux * uy * t + uz * s
    r.m13 = ux * uz * t - uy * s
    r.m21 = uy * ux * t - uz * s
    r.m22 = c + uy * uy * t
    r.m23 = uy * uz * t + ux * s
    r.m31 = uz * ux * t + uy * s
    r.m32 = uz * uy * t - ux * s
    r.m33 = c + uz * uz * t
    return r
  }

  /// `CATransform3DConcat(self, other)`: `self` applied first, then `other`.
  public func concatenating(_ o: Transform3D) -> Transform3D {
    let a = self
    func row(
      _ r1: Double, _ r2: Double, _ r3: Double, _ r4: Double
    )
      -> (Double, Double, Double, Double)
    {
      (
        r1 * o.m11 + r2 * o.m21 + r3 * o.m31 + r4 * o.m41,
        r1 * o.m12 + r2 * o.m22 + r3 * o.m32 + r4 * o.m42,
        r1 * o.m13 + r2 * o.m23 + r3 * o.m33 + r4 * o.m43,
        r1 * o.m14 + r2 * o.m24 + r3 * o.m34 + r4 * o.m44
      )
    }
    let r1 = row(a.m11, a.m12, a.m13, a.m14)
    let r2 = row(a.m21, a.m22, a.m23, a.m24)
    let r3 = row(a.m31, a.m32, a.m33, a.m34)
    let r4 = row(a.m41, a.m42, a.m43, a.m44)
    return Transform3D(
      m11: r1.0, m12: r1.1, m13: r1.2, m14: r1.3, m21: r2.0, m22: r2.1, m23: r2.2, m24: r2.3,
      m31: r3.0, m32: r3.1, m33: r3.2, m34: r3.3, m41: r4.0, m42: r4.1, m43: r4.2, m44: r4.3)
  }

  /// `CATransform3DTranslate(self, tx, ty, tz)`: translate first, then `self`.
  public func translated(x tx: Double, y ty: Double, z tz: Double = 0) -> Transform3D {
    Transform3D.translation(x: tx, y: ty, z: tz).concatenating(self)
  }

  /// `CATransform3DScale(self, sx, sy, sz)`: scale first, then `self`.
  public func scaled(x sx: Double, y sy: Double, z sz: Double = 1) -> Transform3D {
    Transform3D.scale(x: sx, y: sy, z: sz).concatenating(self)
  }

  /// `CATransform3DRotate(self, angle, x, y, z)`: rotate first, then `self`.
  public func rotated(_ angle: Double, x: Double = 0, y: Double = 0, z: Double = 1) -> Transform3D {
    Transform3D.rotation(angle, x: x, y: y, z: z).concatenating(self)
  }

  /// Whether this is exactly `CATransform3DIdentity`.
  public var isIdentity: Bool { self == .identity }

  /// `CATransform3DIdentity` with `m34 = -1 / distance`: the perspective of an eye `distance`
  /// points in front of the plane z = 0 (the `m34 = -1/500` idiom). A distance of 0 or one that
  /// is not finite gives the identity.
  public static func perspective(distance: Double) -> Transform3D {
    var t = identity
    if distance != 0, distance.isFinite { t.m34 = -1 / distance }
    return t
  }

  /// The sixteen entries in `CATransform3D`'s order, `m11, m12, ..., m44`.
  public var entries: [Double] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  /// Creates a transform from its sixteen entries in `CATransform3D`'s order; `nil` unless
  /// there are exactly sixteen.
  public init?(entries e: [Double]) {
    guard e.count == 16 else { return nil }
    self.init(
      m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
      m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14],
      m44: e[15])
  }

  /// Whether any entry is not the one an affine transform of the plane has (`m13`, `m23`,
  /// `m31`, `m32`, `m34`, `m14`, `m24`, `m43` zero, `m33` and `m44` one): what `flipbook inspect`
  /// prints as sixteen numbers rather than six.
  public var has3DTerms: Bool {
    m13 != 0 || m14 != 0 || m23 != 0 || m24 != 0 || m31 != 0 || m32 != 0 || m33 != 1
      || m34 != 0 || m43 != 0 || m44 != 1
  }

  /// Whether the layer plane z = 0 lands in the target plane through an affine map
  /// (`m14 = m24 = 0` and `m44 > 0`, so that every point of the plane has the same w): such a
  /// layer draws through `planeAffineTransform` as a 2D one, whatever its z terms (`m34`
  /// alone, a rotation about x or y without perspective). An `m44` other than 1 scales the
  /// plane by its inverse: 10^-18 magnifies it 10^18 times, which as a projective map lost
  /// the part that shows below the plane coordinates' precision and drew nothing.
  public var isAffineInPlane: Bool { m14 == 0 && m24 == 0 && m44 > 0 && m44.isFinite }

  /// Whether a point's z moves its image in the plane (`m31`, `m32` or `m34` non-zero: a turn
  /// about x or y, or perspective): then layers with depth under it (a `zPosition`, a 3D
  /// transform) are not placed by flattening each transform on its own.
  public var mapsDepthIntoPlane: Bool { m31 != 0 || m32 != 0 || m34 != 0 }

  /// Whether the transform has perspective terms (`m14`, `m24`, `m34` non-zero or `m44` not 1).
  public var hasPerspective: Bool { m14 != 0 || m24 != 0 || m34 != 0 || m44 != 1 }

  /// The 2D part that acts on the layer's plane (`m11 m12 m21 m22 m41 m42`), as
  /// `CATransform3DGetAffineTransform`, or `nil` when the transform has perspective terms (see
  /// `isAffineInPlane` for what the renderer asks).
  public var affineTransform: AffineTransform? {
    hasPerspective ? nil : AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
  }

  /// The affine map of the layer plane into the target plane (`m11 m12 m21 m22 m41 m42`, over
  /// `m44`) when `isAffineInPlane`, else `nil`: what the renderer concatenates for a layer drawn
  /// as in 2D.
  public var planeAffineTransform: AffineTransform? {
    guard isAffineInPlane else { return nil }
    guard m44 != 1 else { return AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42) }
    return AffineTransform(
      a: m11 / m44, b: m12 / m44, c: m21 / m44, d: m22 / m44, tx: m41 / m44, ty: m42 / m44)
  }

  /// The image of the point `(x, y, z)`, as `(x, y, z, 1) · self` divided by its w, and that w.
  public func project(
    x: Double, y: Double, z: Double = 0
  ) -> (x: Double, y: Double, z: Double, w: Double) {
    let w = x * m14 + y * m24 + z * m34 + m44
    return (
      (x * m11 + y * m21 + z * m31 + m41) / w, (x * m12 + y * m22 + z * m32 + m42) / w,
      (x * m13 + y * m23 + z * m33 + m43) / w, w
    )
  }
}
