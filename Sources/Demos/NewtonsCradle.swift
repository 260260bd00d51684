import Flipbook

/// Article 001's Newton's cradle in UIKit Dynamics: five balls hung from blue anchors by
/// attachments, under gravity, colliding elastically; the article's drag on the first ball is
/// an instantaneous push, and the ropes are redrawn every display-link tick.
public enum NewtonsCradle {
  /// The number of balls.
  public static let ballCount = 5

  /// The cradle on a white 320 x 480 pt scene, 5 s at 30 frames per second (by then resistance 1
  /// has all but stopped it, as in UIKit; every frame is on a
  /// display-link tick, so the ropes meet the balls). Balls are named `ball-0` ... `ball-4`,
  /// anchors `anchor-0` ..., the ropes' shape layer `ropes`.
  public static func makeScene() -> Scene {
    let bounds = Rect(0, 0, 320, 480)
    return Scene(size: bounds.size, duration: 5, fps: 30, backgroundColor: .white) { scene in

      // The article's drawRect: a line from each anchor to its ball, behind both.
      let ropes = ShapeLayer()
      ropes.name = "ropes"
      ropes.frame = bounds
      ropes.fillColor = nil
      ropes.strokeColor = .black
      ropes.lineWidth = 1
      scene.addLayer(ropes)

      var balls: [Layer] = []
      var anchors: [Layer] = []
      let ballSize = bounds.width / (3.0 * Double(ballCount - 1))
      for i in 0..<ballCount {
        let ball = Layer()  // BallView
        ball.name = "ball-\(i)"
        ball.bounds = Rect(0, 0, ballSize - 1, ballSize - 1)
        ball.backgroundColor = .yellow
        ball.cornerRadius = 10
        ball.borderColor = .red
        ball.borderWidth = 3
        ball.collisionBoundsType = .ellipse
        let x = bounds.width / 3.0 + Double(i) * ballSize
        let y = bounds.height / 1.5
        ball.position = Point(x, y)
        balls.append(ball)

        let blueBox = Layer()  // createAnchorForBall
        blueBox.name = "anchor-\(i)"
        blueBox.bounds = Rect(0, 0, 10, 10)
        blueBox.backgroundColor = .blue
        blueBox.position = Point(x, y - bounds.height / 4.0)
        anchors.append(blueBox)
      }
      for anchor in anchors { scene.addLayer(anchor) }
      for ball in balls { scene.addLayer(ball) }

      // applyDynamicBehaviors
      // The user's drag, scripted: the first ball pulled out to the left and let go.
      let behavior = self.behavior(
        balls: balls, anchors: anchors.map(\.position), push: Point(-0.5, 0))
      scene.dynamicAnimator.addBehavior(behavior)

      scene.onFrame { [unowned scene] _ in
        var path = Path()
        for (ball, anchor) in zip(balls, anchors) {
          path.move(to: anchor.position)
          path.addLine(to: scene.dynamicState(of: ball)?.center ?? ball.position)
        }
        ropes.path = path
      }
    }
  }

  /// The article's `applyDynamicBehaviors`: each ball hung from its anchor by an attachment, under
  /// gravity, colliding elastically (elasticity 1, no rotation, `resistance`), and the first ball
  /// pushed instantaneously by `push` when it is given. The demo, the dynamics benchmark and the
  /// physics tests all build their cradles with it.
  ///
  /// - Parameters:
  ///   - gravity: the gravity magnitude (1 is 1,000 points/s²; the article's is 10).
  ///   - resistance: linear damping (the article's is 1, which all but stops it in 5 s).
  public static func behavior(
    balls: [DynamicItem], anchors: [Point], gravity: Double = 10, resistance: Double = 1,
    push: Point? = nil
  ) -> DynamicBehavior {
    let behavior = DynamicBehavior()
    for (ball, anchor) in zip(balls, anchors) {
      behavior.addChildBehavior(AttachmentBehavior(item: ball, attachedToAnchor: anchor))
    }
    let gravityBehavior = GravityBehavior(items: balls)
    gravityBehavior.magnitude = gravity
    behavior.addChildBehavior(gravityBehavior)
    behavior.addChildBehavior(CollisionBehavior(items: balls))
    let itemBehavior = DynamicItemBehavior(items: balls)
    itemBehavior.elasticity = 1
    itemBehavior.allowsRotation = false
    itemBehavior.resistance = resistance
    behavior.addChildBehavior(itemBehavior)
    if let push, let first = balls.first {
      let pushBehavior = PushBehavior(items: [first], mode: .instantaneous)
      pushBehavior.pushDirection = push
      behavior.addChildBehavior(pushBehavior)
    }
    return behavior
  }
}
