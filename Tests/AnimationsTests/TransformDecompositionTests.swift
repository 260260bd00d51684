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
}
