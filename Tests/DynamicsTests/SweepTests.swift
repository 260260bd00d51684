import Geometry
import Testing

@testable import Dynamics

/// The broad phase finds the same contacts whichever axis it sweeps: bodies piled in a column
/// (where a sweep on x keeps nearly every pair) are swept on y.
@Suite struct SweepTests {
  /// `count` circles of radius 3 in `columns` columns, 5.5 points apart (most touching their
  /// neighbours within the contact margin), with seeded velocities.
  func world(columns: Int, count: Int) -> World {
    var seed: UInt64 = 42
    func random() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53) * 2 - 1
    }
    var bodies: [Body] = []
    for i in 0..<count {
      var body = Body(
        position: Point(x: 100 + Double(i % columns) * 5.5, y: 20 + Double(i / columns) * 5.5),
        angle: 0, angle0: 0, inverseMass: 1, inverseInertia: 1, mass: 1, inertia: 1,
        boundingRadius: 3)
      body.velocity = Point(x: 40 * random(), y: 40 * random())
      bodies.append(body)
    }
    return World(
      bodies: bodies, shapes: Array(repeating: .circle(radius: 3), count: count), joints: [],
      groups: [World.CollisionGroup(members: Array(0..<count), itemsCollide: true, boundaries: [])],
      pushes: [])
  }

  func pairs(_ contacts: [World.Contact]) -> [String] {
    contacts.map { "\($0.a)-\($0.b ?? -1) \($0.separation)" }
  }

  @Test(arguments: [(3, 300), (40, 400), (1, 50)])
  func bothSweepsFindTheSameContacts(columns: Int, count: Int) {
    let w = world(columns: columns, count: count)
    let onX = pairs(w.findContacts(sweepOnY: false))
    let onY = pairs(w.findContacts(sweepOnY: true))
    #expect(!onX.isEmpty)
    #expect(onX == onY)
    #expect(pairs(w.findContacts()) == onX)
  }
}

/// A simulation that would take many minutes stops at its collision-work limit, and a scene
/// refuses the time it could not reach (README, Limits).
@Suite struct CollisionWorkTests {
  /// `count` boxes dropped into a 200 x 200 box: they pile up and stay in contact.
  func pile(_ count: Int, workLimit: Int) -> (DynamicAnimator, [Ball]) {
    let balls = (0..<count).map {
      Ball(Point(20 + Double($0 % 16) * 10, 20 + Double($0 / 16) * 10), size: 8)
    }
    let animator = DynamicAnimator(
      referenceBounds: Rect(0, 0, 200, 200), recording: DynamicsRecording(workLimit: workLimit))
    animator.addBehavior(GravityBehavior(items: balls))
    let collision = CollisionBehavior(items: balls)
    collision.translatesReferenceBoundsIntoBoundary = true
    animator.addBehavior(collision)
    return (animator, balls)
  }

  @Test func aSimulationStopsAtItsWorkLimitAndSaysSo() throws {
    let (animator, _) = pile(200, workLimit: 200_000)
    animator.advance(to: 0.1)
    #expect(!animator.reachedWorkLimit)
    animator.advance(to: 60)
    #expect(animator.reachedWorkLimit)
    #expect(animator.elapsedTime > 0.1 && animator.elapsedTime < 60)
    // Earlier times are still shown, from the recording.
    animator.advance(to: 0.05)
    #expect(!animator.reachedWorkLimit && animator.elapsedTime == 12.0 / 240)
  }

  /// Issue 18, fifth pass: 5,000 items at one spot made 12.5 million pairs and took 5 GB and
  /// half a minute before the work limit stopped them. A step past its share of work is now
  /// abandoned while its pairs are being looked at, and the time is refused at once.
  @Test func aStepOfItemsPiledOnOneAnotherIsAbandoned() throws {
    let balls = (0..<400).map { _ in Ball(Point(100, 100), size: 8) }
    let animator = DynamicAnimator(
      referenceBounds: Rect(0, 0, 200, 200),
      recording: DynamicsRecording(stepWorkLimit: 20_000))  // 79,800 pairs
    animator.addBehavior(GravityBehavior(items: balls))
    animator.addBehavior(CollisionBehavior(items: balls))
    animator.advance(to: 0.1)
    #expect(animator.reachedWorkLimit && animator.elapsedTime == 0)
    // At the real limit: 2,000 items at one spot (two million pairs).
    let many = (0..<2000).map { _ in Ball(Point(100, 100), size: 8) }
    let real = DynamicAnimator(referenceBounds: Rect(0, 0, 200, 200))
    real.addBehavior(CollisionBehavior(items: many))
    real.advance(to: 1)
    #expect(real.reachedWorkLimit && real.elapsedTime == 0)
    #expect(real.state(of: many[0])?.center == Point(100, 100))
  }

  /// Attachments and snaps are solved eight times a step: they count towards the work, so
  /// thousands of them cannot run for minutes unrefused.
  @Test func attachmentsAndSnapsCountAsWork() throws {
    let balls = (0..<100).map { Ball(Point(Double($0 % 10) * 20, Double($0 / 10) * 20), size: 8) }
    let animator = DynamicAnimator(
      referenceBounds: Rect(0, 0, 200, 200), recording: DynamicsRecording(workLimit: 100_000))
    animator.addBehavior(GravityBehavior(items: balls))
    for ball in balls.prefix(50) {
      animator.addBehavior(AttachmentBehavior(item: ball, attachedToAnchor: Point(100, 0)))
    }
    for ball in balls.dropFirst(50) {
      animator.addBehavior(SnapBehavior(item: ball, snapTo: Point(100, 100)))
    }
    // Each step: 100 items, 100 joints solved 8 times and 50 rigid rods projected 3 times
    // (1,050 units): the limit is passed after 96 steps, 0.4 s.
    animator.advance(to: 1)
    #expect(animator.reachedWorkLimit)
    #expect(animator.elapsedTime == 96.0 / 240)
  }

  @Test func theSameSimulationWithinTheLimitIsUnchanged() throws {
    let (limited, a) = pile(60, workLimit: 100_000_000)
    let (plain, b) = pile(60, workLimit: DynamicAnimator.maximumCollisionWork)
    limited.advance(to: 2)
    plain.advance(to: 2)
    #expect(!limited.reachedWorkLimit)
    for (x, y) in zip(a, b) { #expect(limited.state(of: x) == plain.state(of: y)) }
  }
}

/// Values so extreme that the solver overflows stop the simulation instead of drawing nothing.
@Suite struct DivergenceTests {
  @Test func anOverflowingSimulationStopsAndSaysSo() {
    let ball = Ball(Point(100, 100), size: 10)
    let animator = DynamicAnimator(referenceBounds: Rect(0, 0, 200, 200))
    let push = PushBehavior(items: [ball], mode: .instantaneous)
    push.magnitude = .greatestFiniteMagnitude  // 100 × magnitude overflows
    animator.addBehavior(push)
    animator.advance(to: 1)
    #expect(animator.diverged && !animator.reachedWorkLimit)
    #expect(animator.elapsedTime < 1)
  }

  @Test func ordinarySimulationsDoNotDiverge() {
    let ball = Ball(Point(100, 100), size: 10)
    let animator = DynamicAnimator(referenceBounds: Rect(0, 0, 200, 200))
    animator.addBehavior(GravityBehavior(items: [ball]))
    animator.advance(to: 1)
    #expect(!animator.diverged && animator.elapsedTime == 1)
  }
}
