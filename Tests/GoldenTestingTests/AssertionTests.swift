import Flipbook
import GoldenTesting
import Testing

/// The kit as a user writes it, under Swift Testing: goldens in `__Snapshots__/AssertionTests/`.
@Suite struct AssertionTests {
  /// A pulsing ring, as the README's example builds it.
  static func pulse() -> Scene {
    let scene = Scene(size: Size(120, 120), scale: 1, duration: 2, fps: 10, backgroundColor: .white)
    let ring = Layer()
    ring.bounds = Rect(0, 0, 100, 100)
    ring.position = Point(60, 60)
    ring.cornerRadius = 50
    ring.borderWidth = 2
    ring.borderColor = .gray
    var grow = BasicAnimation(keyPath: "transform.scale")
    grow.fromValue = 0
    grow.toValue = 1
    grow.duration = 2
    ring.add(grow, forKey: "grow")
    scene.addLayer(ring)
    return scene
  }

  @Test func pulseGrows() {
    assertGolden(Self.pulse(), at: [0.5, 1, 1.5], named: "pulse")
  }

  @Test func pulseAsAGIF() {
    assertGolden(everyFrameOf: SceneRecipe { Self.pulse() }, named: "pulse")
  }

  @Test func pulseExactly() {  // lossless WebP golden: exact colours and partial alpha
    assertGolden(everyFrameOf: SceneRecipe { Self.pulse() }, asWebPNamed: "pulse")
  }

  /// A transparent pulse whose ring fades: exact partial alpha in a lossless WebP golden.
  @Test func fadingPulseAsAWebP() {
    let recipe = SceneRecipe {
      let scene = Self.pulse()
      scene.backgroundColor = nil
      var fade = BasicAnimation(keyPath: "opacity")
      (fade.fromValue, fade.toValue, fade.duration) = (1, 0.2, 2)
      scene.layers[0].add(fade, forKey: "fade")
      return scene
    }
    assertGolden(everyFrameOf: recipe, asWebPNamed: "fading")
    var changed = Export.Options()
    changed.fps = 5
    withKnownIssue { assertGolden(everyFrameOf: recipe, asWebPNamed: "fading", options: changed) }
  }

  @Test func aChangedSceneFailsTheAssertion() {
    assertGolden(Self.pulse(), at: [1], named: "base")
    let scene = Self.pulse()
    scene.layers[0].borderColor = .red
    withKnownIssue {
      assertGolden(scene, at: [1], named: "base")
    }
  }

  @Test func noOrphanedGoldens() {
    #expect(GoldenFile.orphans().isEmpty, "\(GoldenFile.orphans())")
  }
}
