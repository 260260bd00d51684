/// A projective map of the plane: a 3 × 3 matrix acting on row vectors `[x y 1]`, then divided
/// by the third coordinate `w`.
///
/// It is how a layer's plane (z = 0) lands in its superlayer's after a `Transform3D` with
/// perspective terms: `Homography(t)` keeps the rows and columns 1, 2 and 4 of `t`, so
/// `(x, y)` maps to `((x m11 + y m21 + m41) / w, (x m12 + y m22 + m42) / w)` with
/// `w = x m14 + y m24 + m44`. Points with `w ≤ 0` are at or behind the eye: they have no image.
public struct Homography: Hashable, Sendable {
  /// The first row: how x contributes to X, Y and w.
  public var m11: Double, m12: Double, m13: Double
  /// The second row: how y contributes to X, Y and w.
  public var m21: Double, m22: Double, m23: Double
  /// The third row: the constant parts of X, Y and w.
  public var m31: Double, m32: Double, m33: Double

  /// Creates a homography from its nine entries, row by row.
  public init(
    m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double,
    m31: Double, m32: Double, m33: Double
  ) {
    (self.m11, self.m12, self.m13) = (m11, m12, m13)
    (self.m21, self.m22, self.m23) = (m21, m22, m23)
    (self.m31, self.m32, self.m33) = (m31, m32, m33)
  }

  /// The map `t` makes of the plane z = 0 (a layer's own plane) into the plane it is
  /// flattened into: the entries of rows and columns 1, 2 and 4.
  public init(_ t: Transform3D) {
    self.init(
      m11: t.m11, m12: t.m12, m13: t.m14, m21: t.m21, m22: t.m22, m23: t.m24,
      m31: t.m41, m32: t.m42, m33: t.m44)
  }

  /// The homography of an affine transform (third column `0, 0, 1`).
  public init(_ a: AffineTransform) {
    self.init(m11: a.a, m12: a.b, m13: 0, m21: a.c, m22: a.d, m23: 0, m31: a.tx, m32: a.ty, m33: 1)
  }

  /// The identity.
  public static let identity = Homography(AffineTransform.identity)

  /// `self` applied first, then `o`.
  public func concatenating(_ o: Homography) -> Homography {
    Homography(
      m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31,
      m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
      m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
      m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31,
      m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
      m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
      m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31,
      m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
      m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
  }

  /// The homogeneous coordinate `w` of `p`'s image: positive in front of the eye.
  @inlinable public func w(at p: Point) -> Double { p.x * m13 + p.y * m23 + m33 }

  /// The image of `p`, or `nil` when `w ≤ 0` (at or behind the eye: not drawn).
  public func apply(_ p: Point) -> Point? {
    let w = self.w(at: p)
    guard w > 0 else { return nil }
    return Point(x: (p.x * m11 + p.y * m21 + m31) / w, y: (p.x * m12 + p.y * m22 + m32) / w)
  }

  /// The determinant. Where `w > 0` its sign is the sign of the map's Jacobian: negative when
  /// the map reverses orientation (a layer seen from behind).
  public var determinant: Double {
    m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31)
      + m13 * (m21 * m32 - m22 * m31)
  }

  /// The inverse map (the adjugate divided by the determinant), or `nil` when the map collapses
  /// the plane. Entries so large or small that the determinant leaves the range of `Double` are
  /// first scaled by a positive factor (the same map, the same signs of w).
  public var inverted: Homography? {
    let det = determinant
    guard det != 0, det.isFinite else {
      let entries = [m11, m12, m13, m21, m22, m23, m31, m32, m33].map { Swift.abs($0) }
      guard let largest = entries.max(), largest > 0, largest.isFinite, largest != 1 else {
        return nil
      }
      let k = 1 / largest
      let scaled = Homography(
        m11: m11 * k, m12: m12 * k, m13: m13 * k, m21: m21 * k, m22: m22 * k, m23: m23 * k,
        m31: m31 * k, m32: m32 * k, m33: m33 * k)
      let d = scaled.determinant
      guard d != 0, d.isFinite else { return nil }
      return scaled.inverted
    }
    let k = 1 / det
    return Homography(
      m11: (m22 * m33 - m23 * m32) * k, m12: (m13 * m32 - m12 * m33) * k,
      m13: (m12 * m23 - m13 * m22) * k,
      m21: (m23 * m31 - m21 * m33) * k, m22: (m11 * m33 - m13 * m31) * k,
      m23: (m13 * m21 - m11 * m23) * k,
      m31: (m21 * m32 - m22 * m31) * k, m32: (m12 * m31 - m11 * m32) * k,
      m33: (m11 * m22 - m12 * m21) * k)
  }

  /// Whether the map is affine exactly: no perspective terms (`m13 = m23 = 0`, `m33 = 1`).
  public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 == 1 }

  /// The affine transform with the same entries, when `isAffine`.
  public var affineTransform: AffineTransform? {
    isAffine ? AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m31, ty: m32) : nil
  }

  /// How much the map stretches lengths near `p` at most: the longer of the images of a unit
  /// step in x and in y, from the Jacobian (0 where `w ≤ 0`).
  public func localScale(at p: Point) -> Double {
    let w = self.w(at: p)
    guard w > 0, let q = apply(p) else { return 0 }
    let (dxx, dxy) = ((m11 - q.x * m13) / w, (m12 - q.y * m13) / w)
    let (dyx, dyy) = ((m21 - q.x * m23) / w, (m22 - q.y * m23) / w)
    return Swift.max((dxx * dxx + dxy * dxy).squareRoot(), (dyx * dyx + dyy * dyy).squareRoot())
  }

  /// The polygon `points` cut to the part where `map`'s `w` is at least a small positive
  /// margin (Sutherland-Hodgman against one line), so that every point left has an image.
  public static func clipToFront(_ points: [Point], of map: Homography) -> [Point] {
    let scale = Swift.max(Swift.abs(map.m13), Swift.abs(map.m23), Swift.abs(map.m33))
    let epsilon = scale * 1e-6
    return clip(points) { map.w(at: $0) - epsilon }
  }

  /// The part of the plane's polygon `points` (cut to the front first) whose image lies in
  /// `rect`: the image's x ≥ minX is `X − minX · w ≥ 0` where w > 0, a half-plane of the plane,
  /// and likewise for the other three sides.
  public static func clip(_ points: [Point], of map: Homography, to rect: Rect) -> [Point] {
    var out = clipToFront(points, of: map)
    func x(_ p: Point) -> Double { p.x * map.m11 + p.y * map.m21 + map.m31 }
    func y(_ p: Point) -> Double { p.x * map.m12 + p.y * map.m22 + map.m32 }
    out = clip(out) { x($0) - rect.minX * map.w(at: $0) }
    out = clip(out) { rect.maxX * map.w(at: $0) - x($0) }
    out = clip(out) { y($0) - rect.minY * map.w(at: $0) }
    out = clip(out) { rect.maxY * map.w(at: $0) - y($0) }
    return out
  }

  /// The convex polygon `points` cut to where the affine function `value` is ≥ 0.
  static func clip(_ points: [Point], where value: (Point) -> Double) -> [Point] {
    var out: [Point] = []
    for i in points.indices {
      let a = points[i], b = points[(i + 1) % points.count]
      let va = value(a), vb = value(b)
      if va >= 0 { out.append(a) }
      if (va >= 0) != (vb >= 0) {
        // From the nearer end: near the far end, 1 − t would be lost to rounding (a plane
        // magnified 10^18 times, whose visible part is 10^-16 points across, came out empty).
        if Swift.abs(va) <= Swift.abs(vb) {
          let t = va / (va - vb)
          out.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
        } else {
          let t = vb / (vb - va)
          out.append(Point(x: b.x + (a.x - b.x) * t, y: b.y + (a.y - b.y) * t))
        }
      }
    }
    return out
  }
}
