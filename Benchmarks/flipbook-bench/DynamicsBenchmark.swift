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
