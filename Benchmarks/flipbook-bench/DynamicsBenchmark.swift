import Demos
import Flipbook

/// A plain item for the dynamics benchmarks.
final class BenchItem: DynamicItem {
  let dynamicCenter: Point
  let dynamicBounds: Rect
  let collisionBoundsType: CollisionBoundsType
  init(_ center: Point, _ size: Size, _ type: CollisionBoundsType) {
    dynamicCenter = center
    dynamicBounds = Rect(origin: .zero, size: size)
    collisionBoundsType = type
  }
}

/// The cradle demo (5 balls, rigid attachments, collisions, a push) for 10 s, and 200 colliding
/// items falling into a box for 10 s.
func dynamicsBenchmark() {
  let cradle = median(iterations: 5) { _ in
    // The demo's cradle, simulated 10 s (twice the demo's length).
    NewtonsCradle.makeScene().dynamicAnimator.advance(to: 10)
  }
  print(
    "dynamics-cradle           \(format(cradle / 10)) ms per simulated second  (5 balls, attachments, collisions)"
  )
  let pile = median(iterations: 3) { _ in
    var items: [BenchItem] = []
    for i in 0..<200 {
      let type: CollisionBoundsType = i % 3 == 0 ? .rectangle : .ellipse
      items.append(
        BenchItem(Point(40 + Double(i % 20) * 36, 40 + Double(i / 20) * 36), Size(24, 24), type))
    }
    let animator = DynamicAnimator(referenceBounds: Rect(0, 0, 800, 800))
    animator.addBehavior(GravityBehavior(items: items))
    let collision = CollisionBehavior(items: items)
    collision.translatesReferenceBoundsIntoBoundary = true
    animator.addBehavior(collision)
    let material = DynamicItemBehavior(items: items)
    material.elasticity = 0.3
    material.friction = 0.4
    animator.addBehavior(material)
    animator.advance(to: 10)
  }
  print(
    "dynamics-200-items        \(format(pile)) ms for 10 simulated seconds  (200 colliding items in a box)"
  )
}

/// The cradle as the benchmark before the architecture step (9314566) built it: the animator
/// alone, no scene or layers (the demo's scene adds its layers and `resistance`), so that this
/// build and that one run the same simulation code for the same 10 s; median of 15.
func plainCradleBenchmark() {
  let cradle = median(iterations: 15) { _ in
    let balls = (0..<5).map {
      BenchItem(Point(106.7 + Double($0) * 26.67, 320), Size(25.67, 25.67), .ellipse)
    }
    let animator = DynamicAnimator(referenceBounds: Rect(0, 0, 320, 480))
    for (i, ball) in balls.enumerated() {
      animator.addBehavior(
        AttachmentBehavior(item: ball, attachedToAnchor: Point(106.7 + Double(i) * 26.67, 200)))
    }
    let gravity = GravityBehavior(items: balls)
    gravity.magnitude = 10
    animator.addBehavior(gravity)
    animator.addBehavior(CollisionBehavior(items: balls))
    let material = DynamicItemBehavior(items: balls)
    material.elasticity = 1
    material.allowsRotation = false
    animator.addBehavior(material)
    let push = PushBehavior(items: [balls[0]], mode: .instantaneous)
    push.pushDirection = Point(-0.5, 0)
    animator.addBehavior(push)
    animator.advance(to: 10)
  }
  print(
    "dynamics-cradle-plain     \(format(cradle / 10)) ms per simulated second  (the animator alone, as 9314566's benchmark)"
  )
}
