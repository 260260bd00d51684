import Flipbook
@testable import Scenes
import FlipbookTestSupport
import Testing

/// Dynamics in scenes: layers are the items, presented where the simulation has them.
@Suite struct DynamicsSceneTests {
  static let cradle = FixtureFiles.root + "/scenes/cradle.json"

  @Test func theCradlesPushGivesTheVelocityDynamicsMdWorksOut() throws {
    let scene = try SceneFormat.load(contentsOf: Self.cradle)
    _ = try scene.presentationTree(at: 0)
    let ball = try #require(scene.layer(named: "ball-0"))
    let state = try #require(scene.dynamicState(of: ball))
    // Push (-0.5, 0) instantaneous on a 25.67 pt ellipse of density 1: Δv = 0.5·100 / m,
    // m = π·25.67²/4 / 10,000 = 0.05174: 966 pt/s (docs/dynamics.md §1's worked example).
    let size = 320.0 / 12 - 1
    let mass = Double.pi * size * size / 4 / 10_000
    #expect(abs(state.velocity.x + 50 / mass) < 1e-9)
    #expect(abs(state.velocity.x + 966.36) < 0.01)
    #expect(scene.dynamicState(of: try #require(scene.layer(named: "anchor-0"))) == nil)
  }

  @Test func presentedLayersFollowTheSimulation() throws {
    let scene = try SceneFormat.load(contentsOf: Self.cradle)
    let tree = try scene.presentationTree(at: 0.1)
    let ball = try #require(scene.layer(named: "ball-0"))
    let shown = try #require(tree.sublayers.first { $0.name == "ball-0" })
    let state = try #require(scene.dynamicState(of: ball))
    #expect(shown.position == state.center)  // default anchor: position is the center
    #expect(ball.position == Point(320.0 / 3, 320))  // the model does not move
    #expect(shown.position.x < ball.position.x - 50)
  }

  @Test func rendersAt24_30And60FpsSeeTheSameStatesAtSharedTimes() throws {
    func positions(fps: Double, at shared: [Double]) throws -> [Point] {
      let scene = try SceneFormat.load(contentsOf: Self.cradle)
      var out: [Point] = []
      var i = 0
      for t in shared {
        while Double(i) / fps < t {
          _ = try scene.presentationTree(at: Double(i) / fps)
          i += 1
        }
        let tree = try scene.presentationTree(at: t)
        out += tree.sublayers.filter { $0.name?.hasPrefix("ball") == true }.map(\.position)
      }
      return out
    }
    let shared = [0.5, 1.0, 2.0]
    let at24 = try positions(fps: 24, at: shared), at30 = try positions(fps: 30, at: shared),
      at60 = try positions(fps: 60, at: shared)
    #expect(at24 == at30 && at30 == at60)
  }

  @Test func theSwiftAPIReadsLikeUIKitDynamics() throws {
    let scene = Scene(size: Size(200, 300))
    let ball = Layer()
    ball.bounds = Rect(0, 0, 20, 20)
    ball.position = Point(100, 50)
    ball.collisionBoundsType = .ellipse
    scene.addLayer(ball)
    let animator = scene.dynamicAnimator
    animator.addBehavior(GravityBehavior(items: [ball]))
    let collision = CollisionBehavior(items: [ball])
    collision.translatesReferenceBoundsIntoBoundary = true
    animator.addBehavior(collision)
    let shown = try scene.presentationTree(at: 2).sublayers[0]
    #expect(abs(shown.position.y - 290) < 1)  // resting on the bottom edge
  }

  @Test func rotationTurnsThePresentedTransform() throws {
    let scene = Scene(size: Size(400, 400))
    let box = Layer()
    box.bounds = Rect(0, 0, 40, 20)
    box.position = Point(200, 200)
    box.anchorPoint = Point(0, 0)  // the center is then not the position
    scene.addLayer(box)
    let spin = DynamicItemBehavior(items: [box])
    spin.addAngularVelocity(Double.pi, for: box)
    scene.dynamicAnimator.addBehavior(spin)
    let shown = try scene.presentationTree(at: 0.5).sublayers[0]
    // A quarter turn about the center (220, 210): the transform is rotated, and the bounds center
    // stays where the simulation has it.
    let m = try #require(shown.transformToSuperlayer.affineTransform)
    let center = Point(20, 10).applying(m)
    #expect(abs(center.x - 220) < 1e-9 && abs(center.y - 210) < 1e-9)
    #expect(abs(shown.transform.m12 - 1) < 0.01)
  }

  /// Dynamics sets an item's model values as UIKit sets a view's `center` and `transform`; the
  /// layer's animations apply on top of them, as Core Animation presents them (they were
  /// ignored: the simulated values overwrote them).
  @Test func animationsOfAnItemApplyOnTopOfTheSimulation() throws {
    func scene(_ animations: [any Animation]) -> (Scene, Layer) {
      let scene = Scene(size: Size(200, 300))
      let ball = Layer()
      ball.bounds = Rect(0, 0, 20, 20)
      ball.position = Point(100, 50)
      for a in animations { ball.add(a, forKey: nil) }
      scene.addLayer(ball)
      scene.dynamicAnimator.addBehavior(GravityBehavior(items: [ball]))
      return (scene, ball)
    }
    var nudge = BasicAnimation(keyPath: "position.x")
    (nudge.fromValue, nudge.toValue, nudge.duration, nudge.isAdditive) = (0, 40, 1, true)
    var grow = BasicAnimation(keyPath: "transform.scale")
    (grow.fromValue, grow.toValue, grow.duration) = (1, 3, 1)
    let (free, freeBall) = scene([])
    let (animated, _) = scene([nudge, grow])
    for t in [0.25, 0.5] {
      let plain = try free.presentationTree(at: t).sublayers[0]
      let tree = try animated.presentationTree(at: t)
      let shown = tree.sublayers[0]
      let drawn = try animated.drawableTree(at: t).sublayers[0]
      #expect(plain.position.y > freeBall.position.y + 20)  // falling
      // The additive offset adds to the simulated x; y is the simulation's.
      #expect(shown.position == Point(plain.position.x + 40 * t, plain.position.y))
      #expect(shown.transform == Transform3D.scale(x: 1 + 2 * t, y: 1 + 2 * t))
      #expect(drawn.position == shown.position && drawn.transform == shown.transform)
      #expect(shown.superlayer === tree)
    }
    // A replacing position animation shows its own value while it runs, as on a model that moves.
    var pin = BasicAnimation(keyPath: "position")
    (pin.fromValue, pin.toValue, pin.duration) = (.point(Point(10, 10)), .point(Point(10, 10)), 1)
    let (pinned, _) = scene([pin])
    #expect(try pinned.presentationTree(at: 0.5).sublayers[0].position == Point(10, 10))
    #expect(try pinned.presentationTree(at: 1.5).sublayers[0].position.y > 100)
  }
}
