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
