import Demos
import Dynamics
import Geometry
import Glibc
import Testing

/// Newton's cradle (docs/dynamics.md §5, step 4): lift one, one flies out; lift two, two fly out.
@Suite struct CradleTests {
  let length = 100.0, size = 25.0, gap = 1.0, gravityMagnitude = 1.0

  struct Cradle {
    var balls: [Ball]
    var anchors: [Point]
    var animator: DynamicAnimator
  }

  /// Five balls hanging in a row, `lifted` of them from the left raised to `angle` radians.
  func cradle(lifted: Int, angle: Double = Double.pi / 4, resistance: Double = 0) -> Cradle {
    let spacing = size + gap
    let anchors: [Point] = (0..<5).map { (i: Int) -> Point in
      Point(x: 400 + Double(i) * spacing, y: 200)
    }
    let balls = anchors.enumerated().map { i, anchor -> Ball in
      let a = i < lifted ? angle : 0
      return Ball(Point(x: anchor.x - length * sin(a), y: anchor.y + length * cos(a)), size: size)
    }
    let animator = DynamicAnimator(referenceBounds: Rect(0, 0, 1200, 800))
    animator.addBehavior(
      NewtonsCradle.behavior(
        balls: balls, anchors: anchors, gravity: gravityMagnitude, resistance: resistance))
    return Cradle(balls: balls, anchors: anchors, animator: animator)
  }

  func energy(_ c: Cradle) -> Double {
    let mass = Double.pi * size * size / 4 / 10_000
    return c.balls.reduce(0.0) { total, ball in
      let s = c.animator.state(of: ball)!
      return total + 0.5 * mass * (s.velocity.x * s.velocity.x + s.velocity.y * s.velocity.y) - mass
        * 1000 * gravityMagnitude * s.center.y
    }
  }

  /// Height above the bottom of the swing.
  func height(_ c: Cradle, _ i: Int) -> Double {
    length - (c.animator.state(of: c.balls[i])!.center.y - c.anchors[i].y)
  }

  @Test func liftOneAndOnlyTheFarBallFliesOutAsHigh() throws {
    let c = cradle(lifted: 1)
    let lifted = height(c, 0)
    // Find the first impact: the far ball starts moving.
    var t = 0.0
    while c.animator.state(of: c.balls[4])!.velocity.magnitude < 1 && t < 1 {
      t += 1.0 / 240
      c.animator.advance(to: t)
    }
    c.animator.advance(to: t + 0.05)
    let speeds = c.balls.map { c.animator.state(of: $0)!.velocity.magnitude }
    for i in 0..<4 {
      #expect(
        speeds[i] < 0.05 * speeds[4],
        "ball \(i) moves at \(speeds[i]) pt/s, the far ball at \(speeds[4])")
    }
    // The far ball swings out to the lifted height.
    var highest = 0.0
    for k in 1...120 {
      c.animator.advance(to: t + 0.05 + Double(k) / 240)
      highest = Swift.max(highest, height(c, 4))
    }
    #expect(
      abs(highest - lifted) / lifted < 0.05,
      "far ball rose to \(highest) pt, the lifted one started at \(lifted) pt")
  }

  @Test func energyIsKeptForTenSecondsWithoutResistance() {
    let c = cradle(lifted: 1)
    let start = energy(c)
    let bottom = energy(cradle(lifted: 0))
    c.animator.advance(to: 10)
    // Compare the swinging energy (above the resting cradle's).
    let kept = (energy(c) - bottom) / (start - bottom)
    #expect(abs(kept - 1) < 0.10, "energy after 10 s: \(kept) of the start")
  }

  @Test func liftTwoAndTwoFlyOut() throws {
    let c = cradle(lifted: 2)
    var t = 0.0
    while c.animator.state(of: c.balls[4])!.velocity.magnitude < 1 && t < 1 {
      t += 1.0 / 240
      c.animator.advance(to: t)
    }
    c.animator.advance(to: t + 0.06)
    let speeds = c.balls.map { c.animator.state(of: $0)!.velocity.magnitude }
    #expect(speeds[3] > 0.8 * speeds[4] && speeds[4] > 0, "speeds \(speeds)")
    for i in 0..<3 {
      #expect(speeds[i] < 0.1 * speeds[4], "ball \(i) moves at \(speeds[i]) pt/s; speeds \(speeds)")
    }
  }

  @Test func resistanceDampsTheSwing() {
    let c = cradle(lifted: 1, resistance: 1)
    let start = energy(c) - energy(cradle(lifted: 0))
    c.animator.advance(to: 5)
    let left = energy(c) - energy(cradle(lifted: 0))
    #expect(left < 0.05 * start)
  }
}

/// The same scene gives the same state, bit for bit, however it is sampled.
@Suite struct DeterminismTests {
  func scene() -> (DynamicAnimator, [Ball]) {
    var balls: [Ball] = []
    for i in 0..<30 {
      balls.append(
        Ball(
          Point(100 + Double(i % 6) * 70 + Double(i / 6) * 7, 100 + Double(i / 6) * 60),
          size: 30 + Double(i % 3) * 10, ellipse: i % 2 == 0))
    }
    let animator = DynamicAnimator(referenceBounds: Rect(0, 0, 600, 600))
    animator.addBehavior(GravityBehavior(items: balls))
    let collision = CollisionBehavior(items: balls)
    collision.translatesReferenceBoundsIntoBoundary = true
    animator.addBehavior(collision)
    let material = DynamicItemBehavior(items: balls)
    material.elasticity = 0.4
    material.friction = 0.3
    animator.addBehavior(material)
    return (animator, balls)
  }

  /// FNV-1a over the bit patterns of every state.
  func hash(_ animator: DynamicAnimator, _ balls: [Ball]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in balls {
      let s = animator.state(of: b)!
      for x in [s.center.x, s.center.y, s.angle, s.velocity.x, s.velocity.y, s.angularVelocity] {
        h = (h ^ x.bitPattern) &* 0x100_0000_01b3
      }
    }
    return h
  }

  @Test func sameSceneSameBytesWhateverTheFrameRate() {
    let (a, ballsA) = scene(), (b, ballsB) = scene(), (c, ballsC) = scene()
    for i in 0...240 { a.advance(to: Double(i) / 24) }
    for i in 0...600 { b.advance(to: Double(i) / 60) }
    c.advance(to: 10)
    #expect(hash(a, ballsA) == hash(b, ballsB))
    #expect(hash(a, ballsA) == hash(c, ballsC))
    // Going back replays from the start.
    c.advance(to: 2)
    let (d, ballsD) = scene()
    d.advance(to: 2)
    #expect(hash(c, ballsC) == hash(d, ballsD))
  }

  @Test func theStateAfterTenSecondsIsPinned() {
    let (a, balls) = scene()
    a.advance(to: 10)
    #expect(
      hash(a, balls) == DeterminismTests.pinned,
      "hash \(String(hash(a, balls), radix: 16)); if the solver changed on purpose, pin the new value"
    )
  }

  /// Pinned on x86_64 Linux with glibc's libm (sin and cos enter the simulation through rotations);
  /// another libm may legitimately differ in the last bits.
  static let pinned: UInt64 = 1_618_392_869_901_965_325
}

extension Point {
  /// The vector's length.
  var magnitude: Double { (x * x + y * y).squareRoot() }
}
