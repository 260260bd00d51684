import Geometry
import Glibc
import Testing

/// docs/geometry.md §3: CATransform3D's row-vector conventions.
@Suite struct Transform3DTests {
  func apply(_ t: Transform3D, _ p: Point) -> Point {
    let a = t.affineTransform!
    return p.applying(a)
  }

  @Test func translateThenRotateMatchesTheSpecExample() {
    // Rotate(Translate(I, 100, 0, 0), π/2) = rotation · translation: rotate first, then move right 100.
    let t = Transform3D.identity.translated(x: 100, y: 0).rotated(.pi / 2)
    let p = apply(t, Point(1, 0))
    #expect(abs(p.x - 100) < 1e-12)
    #expect(abs(p.y - 1) < 1e-12)
  }

  @Test func concatAppliesTheFirstOperandFirst() {
    let scale = Transform3D.scale(x: 2, y: 2)
    let move = Transform3D.translation(x: 10, y: 0)
    #expect(apply(scale.concatenating(move), Point(1, 1)) == Point(12, 2))
    #expect(apply(move.concatenating(scale), Point(1, 1)) == Point(22, 2))
  }

  @Test func rotationAboutZHasCoreGraphicsEntries() {
    let t = Transform3D.rotation(0.3)
    #expect(t.m11 == cos(0.3) && t.m12 == sin(0.3) && t.m21 == -sin(0.3) && t.m22 == cos(0.3))
    // Positive angles turn +x toward +y: clockwise on screen.
    let p = apply(.rotation(.pi / 2), Point(1, 0))
    #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)
  }

  @Test func zeroAxisRotationIsIdentity() {
    #expect(Transform3D.rotation(1, x: 0, y: 0, z: 0) == .identity)
  }

  @Test func perspectiveHasNoAffinePart() {
    var t = Transform3D.identity
    t.m34 = -1 / 500
    #expect(t.hasPerspective)
    #expect(t.affineTransform == nil)
    #expect(Transform3D.rotation(0.5, x: 1, y: 0, z: 0).affineTransform != nil)
  }

  @Test func affineRoundTrip() {
    let a = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    #expect(Transform3D(a).affineTransform == a)
  }
}

@Suite struct AffineTransformTests {
  @Test func concatenatingAppliesSelfFirst() {
    let t = AffineTransform.scale(x: 2, y: 3).concatenating(.translation(x: 1, y: 1))
    #expect(Point(1, 1).applying(t) == Point(3, 4))
  }

  @Test func inverseUndoes() throws {
    let t = AffineTransform.rotation(0.7).concatenating(.translation(x: 5, y: -2)).concatenating(
      .scale(x: 2, y: 0.5))
    let inv = try #require(t.inverted)
    let p = Point(3, 7).applying(t).applying(inv)
    #expect(abs(p.x - 3) < 1e-12 && abs(p.y - 7) < 1e-12)
    #expect(AffineTransform.scale(x: 0, y: 1).inverted == nil)
    #expect(!AffineTransform.scale(x: 0, y: 1).isInvertible)
  }

  /// Issue 18: an axis whose squares overflow (1e308) or underflow (5e-324) is the direction it
  /// names, not the identity; only a zero axis is the identity, as Core Animation documents.
  @Test func extremeRotationAxesKeepTheirDirection() {
    let angle = 0.7
    let cases: [((Double, Double, Double), (Double, Double, Double))] = [
      ((1e308, 0, 0), (1, 0, 0)), ((0, .leastNonzeroMagnitude, 0), (0, 1, 0)),
      ((1e308, 1e308, 0), (1, 1, 0)),
      ((-.leastNonzeroMagnitude, 0, .leastNonzeroMagnitude), (-1, 0, 1)),
      ((1e-200, 1e-200, 1e-200), (1, 1, 1)),
    ]
    for (extreme, plain) in cases {
      let a = Transform3D.rotation(angle, x: extreme.0, y: extreme.1, z: extreme.2)
      let b = Transform3D.rotation(angle, x: plain.0, y: plain.1, z: plain.2)
      let entries = [
        a.m11 - b.m11, a.m12 - b.m12, a.m13 - b.m13, a.m21 - b.m21, a.m22 - b.m22, a.m23 - b.m23,
        a.m31 - b.m31, a.m32 - b.m32, a.m33 - b.m33,
      ]
      #expect(entries.allSatisfy { abs($0) < 1e-15 }, "axis \(extreme)")
      #expect(a != Transform3D.identity, "axis \(extreme)")
    }
    #expect(Transform3D.rotation(angle, x: 0, y: 0, z: 0) == .identity)
    #expect(Transform3D.rotation(angle, x: .infinity, y: 0, z: 0) == .identity)
  }
}

@Suite struct ColorTests {
  @Test func hexForms() {
    #expect(Color(hex: "#fff") == Color(red: 1, green: 1, blue: 1, alpha: 1))
    #expect(
      Color(hex: "#336699") == Color(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0))
    #expect(Color(hex: "#33669980")?.alpha == 128 / 255.0)
    #expect(Color(hex: "#FFaa00")?.green == 170 / 255.0)
  }

  @Test(arguments: ["fff", "#ff", "#fffff", "#ggg", "#123456789", "", "#"])
  func invalidHexIsRejected(_ text: String) {
    #expect(Color(hex: text) == nil)
  }
}

@Suite struct RectTests {
  @Test func edgesOfNegativeSizes() {
    let r = Rect(10, 10, -4, 6)
    #expect(r.minX == 6 && r.maxX == 10 && r.minY == 10 && r.maxY == 16)
    #expect(r.standardized == Rect(6, 10, 4, 6))
  }

  @Test func insetAndIntersection() {
    #expect(Rect(0, 0, 10, 10).insetBy(dx: 2, dy: 3) == Rect(2, 3, 6, 4))
    #expect(Rect(0, 0, 10, 10).insetBy(dx: 6, dy: 0).width == 0)
    #expect(Rect(0, 0, 10, 10).intersects(Rect(9, 9, 5, 5)))
    #expect(!Rect(0, 0, 10, 10).intersects(Rect(10, 0, 5, 5)))
  }

  @Test func boundingBoxOfRotation() {
    let r = Rect(0, 0, 10, 20).applying(.rotation(.pi / 2))
    #expect(abs(r.minX + 20) < 1e-12 && abs(r.width - 20) < 1e-12 && abs(r.height - 10) < 1e-12)
  }
}
