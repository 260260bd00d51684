/// A 2D affine transform with Core Graphics' conventions.
///
/// A point maps as `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`: the row vector `[x y 1]` times
/// the matrix `[a b 0; c d 0; tx ty 1]`, as `CGAffineTransform`. `t1.concatenating(t2)` applies
/// `t1` first, then `t2`. The fields `[a, b, c, d, tx, ty]` are the scene file's `matrix` operation
/// and the `transform` that `flipbook inspect` prints.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
  /// The x-scale and rotation term (`m11`).
  public var a: Double
  /// The rotation and shear term (`m12`).
  public var b: Double
  /// The rotation and shear term (`m21`).
  public var c: Double
  /// The y-scale and rotation term (`m22`).
  public var d: Double
  /// The x translation, in points.
  public var tx: Double
  /// The y translation, in points.
  public var ty: Double

  /// Creates a transform from its six fields, in `CGAffineTransform` order.
  @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
  }

  /// The transform that changes nothing.
  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// A translation by `(tx, ty)` points.
  public static func translation(x tx: Double, y ty: Double) -> AffineTransform {
    AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
  }

  /// A scale by `sx` horizontally and `sy` vertically, about the origin.
  public static func scale(x sx: Double, y sy: Double) -> AffineTransform {
    AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// A rotation by `angle` radians about the origin; positive turns +x toward +y, which is
  /// clockwise on screen in y-down coordinates.
  public static func rotation(_ angle: Double) -> AffineTransform {
    let (s, c) = (sin(angle), cos(angle))
    return AffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
  }

  /// The transform that applies `self` first and then `other`.
  @inlinable public func concatenating(_ other: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: a * other.a + b * other.c,
      b: a * other.b + b * other.d,
      c: c * other.a + d * other.c,
      d: c * other.b + d * other.d,
      tx: tx * other.a + ty * other.c + other.tx,
      ty: tx * other.b + ty * other.d + other.ty)
  }

  /// The inverse transform, or `nil` when the transform collapses the plane (determinant 0).
  /// Entries so large or small that the determinant leaves the range of `Double` (a scale of
  /// 1e155 squares past it) are first divided by the largest of them, so such a transform is
  /// inverted as exactly as any other.
  public var inverted: AffineTransform? {
    guard let (s, det) = linearScaleAndDeterminant else { return nil }
    let (a, b, c, d) = (self.a / s, self.b / s, self.c / s, self.d / s)
    let k = det * s
    return AffineTransform(
      a: d / k, b: -b / k, c: -c / k, d: a / k,
      tx: (c * ty - d * tx) / k, ty: (b * tx - a * ty) / k)
  }

  /// The factor `s` the linear part is divided by (1 when its determinant is a finite nonzero
  /// number as it is) and the determinant of the linear part so divided, or `nil` when the
  /// linear part collapses the plane or is not finite.
  private var linearScaleAndDeterminant: (Double, Double)? {
    let det = a * d - b * c
    if det != 0, det.isFinite { return (1, det) }
    let s = Swift.max(Swift.abs(a), Swift.abs(b), Swift.abs(c), Swift.abs(d))
    guard s > 0, s.isFinite else { return nil }
    let scaled = (a / s) * (d / s) - (b / s) * (c / s)
    return scaled != 0 && scaled.isFinite ? (s, scaled) : nil
  }

  /// Whether this is exactly the identity.
  public var isIdentity: Bool { self == .identity }

  /// `[a, b, c, d, tx, ty]`, for messages.
  public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

extension AffineTransform {
  /// Whether the transform keeps the plane two-dimensional (a nonzero determinant, however
  /// large or small its entries); a layer scaled to 0 has a transform that is not.
  public var isInvertible: Bool { linearScaleAndDeterminant != nil }
}
