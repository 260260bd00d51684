import Geometry

/// The 2D part of a transform as translation, scale, rotation and shear, which is how Core
/// Animation interpolates `transform` values and what `transform.*` key paths animate.
///
/// With row vectors a point is scaled, then sheared (`x += shear * y`), then rotated, then
/// translated: `[a b; c d] = [sx 0; 0 sy] · [1 0; shear 1] · R(rotation)`.
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

  /// Creates a decomposition from its parts.
  public init(
    translationX: Double = 0, translationY: Double = 0, scaleX: Double = 1, scaleY: Double = 1,
    rotation: Double = 0, shear: Double = 0
  ) {
    (self.translationX, self.translationY, self.scaleX, self.scaleY, self.rotation, self.shear) =
      (translationX, translationY, scaleX, scaleY, rotation, shear)
  }

  /// Decomposes the 2D part of `t` (`m11 m12 m21 m22 m41 m42`).
  public init(_ t: Transform3D) {
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
    return t
  }
}
