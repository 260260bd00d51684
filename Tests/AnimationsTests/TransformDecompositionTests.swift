import Animations
import Geometry
import Glibc
import Testing

/// The 3D decomposition `S · Sh · Rx · Ry · Rz · Tr · P` (visual-effects.md §7).
@Suite struct TransformDecompositionTests {
  func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
    zip(a.entries, b.entries).allSatisfy { abs($0 - $1) < tolerance }
  }

  @Test func threeDTransformsComposeBackFromTheirParts() {
    let cases: [Transform3D] = [
      .perspective(distance: 500).rotated(0.8, x: 0, y: 1, z: 0),
      .rotation(0.4, x: 1, y: 0, z: 0).concatenating(.rotation(-1.1, x: 0, y: 1, z: 0))
        .concatenating(.rotation(2.5)).concatenating(.translation(x: 3, y: -4, z: 5)),
      .rotation(0.3, x: 1, y: 2, z: 3).scaled(x: 2, y: -0.5, z: 3),
      Transform3D.translation(x: 10, y: 20, z: -30).concatenating(.perspective(distance: 250)),
      .rotation(.pi, x: 0, y: 1, z: 0),
      .rotation(.pi / 2, x: 0, y: 1, z: 0),
    ]
    for t in cases {
      #expect(close(TransformDecomposition(t).transform, t), "\(t.entries)")
    }
  }

  @Test func theCardFlipIdiomKeepsItsPerspective() {
    let model = Transform3D.perspective(distance: 500)
    var parts = TransformDecomposition(model)
    #expect(parts.perspective == [0, 0, -1.0 / 500, 1])
    parts.rotationY = 1
    #expect(close(parts.transform, model.rotated(1, x: 0, y: 1, z: 0)))
    // And the parts of the turned card read back.
    let turned = TransformDecomposition(model.rotated(1, x: 0, y: 1, z: 0))
    #expect(abs(turned.rotationY - 1) < 1e-12 && abs(turned.perspective[2] + 1.0 / 500) < 1e-15)
  }

  @Test func aTurnAboutYAloneReadsBackWhole() {
    for angle in [0.4, 1.5, 2.0, .pi, -2.5] {
      let parts = TransformDecomposition(
        Transform3D.perspective(distance: 500).rotated(angle, x: 0, y: 1, z: 0))
      #expect(abs(parts.rotationY - angle) < 1e-9, "\(angle)")
      #expect(abs(parts.rotationX) < 1e-9 && abs(parts.rotation) < 1e-9)
    }
  }

  @Test func planarTransformsKeepTheir2DDecomposition() {
    let t = Transform3D.rotation(0.5).scaled(x: 2, y: 3).translated(x: 4, y: 5)
    let parts = TransformDecomposition(t)
    #expect(parts.isPlanar && parts.transform == TransformDecomposition(t).transform)
    #expect(close(parts.transform, t))
  }

  @Test func interpolatingTo3DGoesThroughTheParts() {
    let a = AnimationValue.transform(.identity)
    let b = AnimationValue.transform(.perspective(distance: 400).rotated(1, x: 0, y: 1, z: 0))
    guard case .transform(let mid) = AnimationValue.interpolate(a, b, 0.5) else {
      Issue.record("not a transform")
      return
    }
    let expected = Transform3D.rotation(0.5, x: 0, y: 1, z: 0)
      .concatenating(
        {
          var p = Transform3D.identity; p.m34 = -0.5 / 400; return p
        }())
    #expect(close(mid, expected))
  }

  /// A `transform` animation from the model's perspective to the card turned half over goes
  /// through the quarter turn with the perspective kept, as Core Animation's matrix
  /// interpolation flips a card (not through the two other Euler turns of rotateY(π)).
  @Test func aWholeTransformAnimationFlipsTheCard() {
    let model = Transform3D.perspective(distance: 500)
    let turned = model.rotated(.pi, x: 0, y: 1, z: 0)
    for t in [0.25, 0.5, 0.75] {
      guard
        case .transform(let value) = AnimationValue.interpolate(
          .transform(model), .transform(turned), t)
      else {
        Issue.record("not a transform")
        return
      }
      #expect(close(value, model.rotated(t * .pi, x: 0, y: 1, z: 0)), "\(t)")
    }
  }

  /// The value of a `transform` animation from `a` to `b` at `t`.
  func interpolated(_ a: Transform3D, _ b: Transform3D, _ t: Double) -> Transform3D {
    guard case .transform(let value) = AnimationValue.interpolate(.transform(a), .transform(b), t)
    else {
      Issue.record("not a transform")
      return .identity
    }
    return value
  }

  /// A turn about x then about y is one turn about an axis, and the matrix animation's midpoint
  /// is half of that turn, as Core Animation slerps the rotation's quaternion; interpolating the
  /// Euler angles one by one would give rotateX(π/4) then rotateY(π/4), another rotation.
  ///
  /// By hand, in quaternions (x, y, z, w) of column-vector rotations: a quarter turn about x is
  /// (s, 0, 0, s) and about y (0, s, 0, s), s = √2/2; x first, then y, is their product
  /// (0, s, 0, s)(s, 0, 0, s) = (1/2, 1/2, −1/2, 1/2): a turn of 2 acos(1/2) = 2π/3 about
  /// (1, 1, −1)/√3. The slerp from the identity halfway is π/3 about the same axis.
  @Test func aCombinedTurnInterpolatesAboutOneAxis() {
    let turn = Transform3D.rotation(.pi / 2, x: 1, y: 0, z: 0)
      .concatenating(.rotation(.pi / 2, x: 0, y: 1, z: 0))
    // The hand computation's end, in CATransform3DMakeRotation's terms.
    #expect(close(Transform3D.rotation(2 * .pi / 3, x: 1, y: 1, z: -1), turn))
    let half = Transform3D.rotation(.pi / 3, x: 1, y: 1, z: -1)
    #expect(
      close(
        interpolated(
          .perspective(distance: 500), turn.concatenating(.perspective(distance: 500)), 0.5),
        half.concatenating(.perspective(distance: 500))))
    // And with a translation and a scale that interpolate linearly alongside.
    let from = Transform3D.scale(x: 2, y: 2).concatenating(.perspective(distance: 400))
    let to = Transform3D.scale(x: 4, y: 4).concatenating(turn)
      .concatenating(.translation(x: 30, y: -10, z: 20)).concatenating(.perspective(distance: 400))
    let expected = Transform3D.scale(x: 3, y: 3).concatenating(half)
      .concatenating(.translation(x: 15, y: -5, z: 10)).concatenating(.perspective(distance: 400))
    #expect(close(interpolated(from, to, 0.5), expected))
    // Not the Euler angles' midpoint.
    let euler = Transform3D.rotation(.pi / 4, x: 1, y: 0, z: 0)
      .concatenating(.rotation(.pi / 4, x: 0, y: 1, z: 0))
    #expect(!close(interpolated(.identity, turn, 0.5), euler, 1e-3))
    // The ends are the ends, and a quarter of the way is a sixth of a turn.
    #expect(close(interpolated(from, to, 0), from) && close(interpolated(from, to, 1), to))
    #expect(close(interpolated(.identity, turn, 0.25), .rotation(.pi / 6, x: 1, y: 1, z: -1)))
  }

  /// Turns over half a turn apart go the shorter way round: from 2.5 rad about y to −2.5 rad,
  /// through π (a 1.28 rad turn), not back through 0.
  @Test func theRotationGoesTheShorterWayRound() {
    let p = Transform3D.perspective(distance: 500)
    let mid = interpolated(p.rotated(2.5, x: 0, y: 1, z: 0), p.rotated(-2.5, x: 0, y: 1, z: 0), 0.5)
    #expect(close(mid, p.rotated(.pi, x: 0, y: 1, z: 0)))
  }

  /// Transforms of the plane still interpolate their 2D parts (nothing drawn in 2D changes).
  @Test func planarTransformsStillInterpolateTheir2DParts() {
    let a = Transform3D.rotation(0.3).scaled(x: 2, y: 1).translated(x: 5, y: 0)
    let b = Transform3D.rotation(2.9).translated(x: -5, y: 10)
    let (p, q) = (TransformDecomposition(a), TransformDecomposition(b))
    var mid = TransformDecomposition(
      translationX: (p.translationX + q.translationX) / 2,
      translationY: (p.translationY + q.translationY) / 2, scaleX: (p.scaleX + q.scaleX) / 2,
      scaleY: (p.scaleY + q.scaleY) / 2, rotation: (p.rotation + q.rotation) / 2,
      shear: (p.shear + q.shear) / 2)
    mid.perspective = [0, 0, 0, 1]
    #expect(close(interpolated(a, b, 0.5), mid.transform))
  }
}
