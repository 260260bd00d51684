import Geometry
import Glibc
import Testing

/// The projective map of a layer's plane, against hand-computed homographies.
@Suite struct HomographyTests {
  /// The card-flip idiom `t.m34 = -1/500; t = CATransform3DRotate(t, θ, 0, 1, 0)` on a 200 × 100
  /// layer anchored at its centre at (150, 100): a corner `(dx, dy)` from the anchor goes to
  /// `X = dx cos θ`, `Y = dy`, `Z = -dx sin θ`, `w = 1 - Z / 500`, then to `(150, 100) + (X, Y) / w`.
  @Test func cardFlipCornersLandWhereTheHandComputationSays() throws {
    for theta in [0.3, 0.8, 1.2, 2.0, -0.7] {
      let t = Transform3D.perspective(distance: 500).rotated(theta, x: 0, y: 1, z: 0)
      let toSuperlayer = Transform3D.translation(x: -100, y: -50).concatenating(t)
        .concatenating(.translation(x: 150, y: 100))
      let h = Homography(toSuperlayer)
      for (x, y) in [(0.0, 0.0), (200, 0), (200, 100), (0, 100)] {
        let (dx, dy) = (x - 100, y - 50)
        let w = 1 + dx * sin(theta) / 500
        let expected = Point(x: 150 + dx * cos(theta) / w, y: 100 + dy / w)
        let got = try #require(h.apply(Point(x: x, y: y)))
        #expect(abs(got.x - expected.x) < 1e-9 && abs(got.y - expected.y) < 1e-9)
      }
      // Past a quarter turn the card shows its back: the map reverses orientation.
      #expect((h.determinant < 0) == (cos(theta) < 0))
    }
  }

  @Test func pointsAtOrBehindTheEyeHaveNoImage() {
    // m34 = -1/100: a point at z = 100 (the eye) or nearer has w <= 0.
    let t = Transform3D.perspective(distance: 100).rotated(.pi / 2, x: 0, y: 1, z: 0)
    let h = Homography(t)
    // rotateY(π/2) sends x to z = -x: x = -100 reaches the eye, x = -150 is behind it.
    #expect(h.apply(Point(x: -150, y: 0)) == nil)
    #expect(h.apply(Point(x: -100, y: 0)) == nil)
    #expect(h.apply(Point(x: -50, y: 0)) != nil)
    let clipped = Homography.clipToFront(
      [Point(x: -200, y: -10), Point(x: 0, y: -10), Point(x: 0, y: 10), Point(x: -200, y: 10)],
      of: h)
    #expect(clipped.allSatisfy { h.w(at: $0) > 0 })
    #expect(clipped.map(\.x).min()! > -100 && clipped.map(\.x).min()! < -99.9)
  }

  @Test func inverseAndConcatenationUndoEachOther() throws {
    let h = Homography(
      Transform3D.perspective(distance: 300).rotated(0.6, x: 1, y: 1, z: 0)
        .concatenating(.translation(x: 40, y: 20)))
    let inverse = try #require(h.inverted)
    let p = Point(x: 12, y: -7)
    let image = try #require(h.apply(p))
    let back = try #require(inverse.apply(image))
    #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
    let identity = h.concatenating(inverse)
    #expect(abs(identity.m11 / identity.m33 - 1) < 1e-12 && abs(identity.m12) < 1e-12)
  }

  @Test func affinePlanesAreRecognised() {
    // A rotation about y without perspective flattens to an affine map (x scaled by cos θ).
    let flat = Transform3D.rotation(0.5, x: 0, y: 1, z: 0)
    #expect(flat.isAffineInPlane && flat.has3DTerms)
    let squeeze = AffineTransform(a: cos(0.5), b: 0, c: 0, d: 1, tx: 0, ty: 0)
    #expect(flat.planeAffineTransform == squeeze)
    // m34 alone leaves the plane z = 0 where it is.
    #expect(Transform3D.perspective(distance: 500).isAffineInPlane)
    let turned = Transform3D.perspective(distance: 500).rotated(0.5, x: 0, y: 1, z: 0)
    #expect(!turned.isAffineInPlane)
    #expect(!Transform3D.identity.has3DTerms && !Transform3D.rotation(1).has3DTerms)
  }
}
