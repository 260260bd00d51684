import Geometry

/// The simulation behind a `DynamicAnimator`: bodies, joints, collision groups and pushes, stepped
/// at a fixed 1/240 s (docs/dynamics.md §4 and §5).
final class World {
  static let stepsPerSecond = 240
  static let h = 1.0 / Double(stepsPerSecond)
  /// Impacts slower than this (points per second) do not bounce (Box2D's 1 m/s).
  static let restitutionThreshold = 100.0
  static let velocityIterations = 8
  /// `DynamicAnimator.maximumSpeed`, points per second.
  static let maximumSpeed = 12_000.0
  /// `DynamicAnimator.maximumAngularSpeed`, radians per second.
  static let maximumAngularSpeed = 30 * Double.pi
  /// How many times a step finds its contacts again when impacts sped a body past the margin
  /// they were found with.
  static let contactRounds = 4

  var bodies: [Body]
  /// Each body's collision shape, in its own frame.
  let shapes: [Shape]
  var joints: [Joint]
  var groups: [CollisionGroup]
  var pushes: [Push]
  /// Whole steps taken.
  var step = 0

  struct Joint {
    enum Kind { case distance, snap }
    var kind: Kind
    var a: Int?  // nil: a fixed anchor
    var b: Int
    var localA: Point  // on A (or the anchor's world point)
    var localB: Point
    var length: Double
    var frequency: Double
    var dampingRatio: Double
    var impulse = Point.zero
    var isRigid: Bool { kind == .distance && frequency <= 0 }
  }

  struct CollisionGroup {
    var members: [Int]
    var itemsCollide: Bool
    var boundaries: [(Point, Point)]
  }

  struct Push {
    var bodies: [Int]
    var continuous: Bool
    var vector: Point  // 100 × magnitude × direction
    var offset: Point
    var begin: Double
    var end: Double
    var fired = false
  }

  struct Contact {
    var a: Int
    var b: Int?  // nil: a boundary
    var normal: Point
    var rA: Point
    var rB: Point
    var separation: Double
    var elasticity: Double
    var friction: Double
    var normalMass: Double
    var tangentMass: Double
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    /// Whether the contact has bounced in this step (`resolveImpacts`).
    var struck = false
  }

  /// For each body, a bit per collision group it is in whose items collide with each other.
  private let itemGroupMasks: [UInt64]
  /// Whether more than 64 groups make the masks unusable (then pairs are checked group by group).
  private let manyGroups: Bool
  /// Bodies sorted by the left edge of their bounding circle, kept from step to step.
  private var sweepOrder: [Int]
  // Buffers reused from step to step (a step allocates nothing once they have grown).
  private var contactBuffer: [Contact] = []
  private var placements: [Placed] = []
  /// The step each body's placement is for (-1: none yet).
  private var placedAt: [Int] = []
  private var leftEdges: [Double] = []
  private var reachBuffer: [Double] = []
  /// The collision work done so far: bodies, candidate pairs and contacts, and joints solved,
  /// summed over steps.
  private(set) var work = 0
  /// The most collision work one step may do (`DynamicAnimator.maximumStepWork`).
  var stepWorkLimit: Int
  /// Whether the last step was abandoned because it would have done more than
  /// `stepWorkLimit` (so many items on one another that their pairs and contacts alone would
  /// take gigabytes): the world stays as it was after the step before.
  private(set) var overloaded = false
  /// Whether a body's position or angle stopped being a finite number (extreme velocities,
  /// forces or spring constants overflowed).
  private(set) var diverged = false
  private var lowEdges: [Double] = []
  /// Bodies sorted by the low edge of their reach in y, for steps swept on y.
  private var sweepOrderY: [Int]
  private var pairBuffer: [(Int, Int)] = []
  /// How many joints are rigid rods (projected after each step).
  private let rigidJointCount: Int
  private var startBuffer: [Point] = []
  private var shiftBuffer: [Point] = []
  /// For each body, the distance from its center to the nearest point of its shape's outline.
  private let innerRadii: [Double]

  init(
    bodies: [Body], shapes: [Shape], joints: [Joint], groups: [CollisionGroup], pushes: [Push],
    stepWorkLimit: Int = DynamicAnimator.maximumStepWork
  ) {
    self.stepWorkLimit = stepWorkLimit
    self.bodies = bodies
    self.shapes = shapes
    self.joints = joints
    rigidJointCount = joints.filter(\.isRigid).count
    self.groups = groups
    self.pushes = pushes
    manyGroups = groups.count > 64
    var masks = [UInt64](repeating: 0, count: bodies.count)
    if !manyGroups {
      for (g, group) in groups.enumerated() where group.itemsCollide {
        for i in group.members { masks[i] |= 1 << UInt64(g) }
      }
    }
    itemGroupMasks = masks
    // Only bodies that collide with other bodies are swept: the others never make a pair.
    let swept = manyGroups ? Array(bodies.indices) : bodies.indices.filter { masks[$0] != 0 }
    sweepOrder = swept
    innerRadii = shapes.map(\.innerRadius)
    sweepOrderY = swept
    firePushes(at: 0)
  }

  var time: Double { Double(step) / Double(World.stepsPerSecond) }

  // MARK: Stepping

  /// Steps until `count` whole steps have been taken.
  func run(toStep count: Int) {
    while step < count { stepOnce() }
  }

  private func firePushes(at t: Double) {
    for k in pushes.indices
    where !pushes[k].continuous && !pushes[k].fired && pushes[k].begin <= t + 1e-9 {
      pushes[k].fired = true
      for i in pushes[k].bodies where !bodies[i].isStatic {
        bodies[i].velocity = bodies[i].velocity + pushes[k].vector * bodies[i].inverseMass
        let r = pushes[k].offset.rotated(cos: bodies[i].cosAngle, sin: bodies[i].sinAngle)
        bodies[i].angularVelocity += r.cross(pushes[k].vector) * bodies[i].inverseInertia
      }
    }
  }

  func stepOnce() {
    guard !overloaded else { return }
    let h = World.h
    let t = time
    firePushes(at: t)
    for k in pushes.indices where pushes[k].continuous && pushes[k].begin <= t && t < pushes[k].end
    {
      for i in pushes[k].bodies {
        bodies[i].force = bodies[i].force + pushes[k].vector
        let r = pushes[k].offset.rotated(cos: bodies[i].cosAngle, sin: bodies[i].sinAngle)
        bodies[i].torque += r.cross(pushes[k].vector)
      }
    }
    // 1. Integrate velocities, with Padé damping.
    bodies.withUnsafeMutableBufferPointer { all in
      for i in all.indices where !all[i].isStatic {
        let b = all[i]
        all[i].velocity =
          (b.velocity + (b.gravity + b.force * b.inverseMass) * h) / (1 + h * b.resistance)
        all[i].angularVelocity =
          (b.angularVelocity + h * b.torque * b.inverseInertia) / (1 + h * b.angularResistance)
        all[i].force = .zero
        all[i].torque = 0
      }
    }
    // 2. Contacts at the current positions. A step that would do more than its share of work
    // is abandoned here: the simulation stops (its recorded states end at the step before).
    var contacts = findContacts()
    defer { contactBuffer = contacts }
    guard !overloaded else { return }
    // Each joint is solved once per velocity iteration, rigid ones projected three more times.
    work &+= joints.count * World.velocityIterations + rigidJointCount * 3
    // 3. Restitution: pairwise impacts with the current velocities, until nothing approaches.
    resolveImpacts(&contacts)
    // Impacts can send a body farther this step than the margin its contacts were found with
    // (a body at rest struck hard, or an elasticity above 1 adding energy): find them again
    // with the new speeds, so nothing passes through what it has not been tested against.
    for _ in 0..<World.contactRounds {
      guard let outran = bodiesOutrunningTheirContacts() else { break }
      var found = findContacts(refreshing: outran)
      guard !overloaded else { return }
      // A boundary contact found again keeps having bounced (it adds energy once a step).
      for k in found.indices {
        found[k].struck = contacts.contains {
          $0.struck && $0.b == nil && $0.a == found[k].a && $0.normal == found[k].normal
        }
      }
      contacts.removeAll { $0.b == nil && outran[$0.a] }
      contacts.append(contentsOf: found)
      resolveImpacts(&contacts)
    }
    // 4. Velocity solve.
    var starts = startBuffer
    starts.removeAll(keepingCapacity: true)
    for i in bodies.indices { starts.append(bodies[i].position) }
    defer { startBuffer = starts }
    prepareJoints()
    for _ in 0..<World.velocityIterations {
      solveJoints()
      solveContacts(&contacts)
    }
    // 5. Integrate positions, at most at the top speeds (as Box2D clamps each step's motion).
    bodies.withUnsafeMutableBufferPointer { all in
      for i in all.indices where !all[i].isStatic {
        World.limitSpeed(&all[i])
        all[i].position = all[i].position + all[i].velocity * h
        if all[i].angularVelocity != 0 {
          all[i].turn(to: all[i].angle + all[i].angularVelocity * h)
        }
      }
    }
    // 6. Projection: rigid rods exact (SHAKE/RATTLE), overlaps pushed out.
    projectRigidJoints(starts: starts)
    pushOutOverlaps(contacts)
    keepCentersInsideBoundaries(starts: starts)
    step += 1
    // Values so extreme that the solver's arithmetic overflowed: stop here (the recording
    // refuses to go on, and a scene names the time).
    if !diverged {
      diverged = bodies.contains {
        !($0.position.x.isFinite && $0.position.y.isFinite && $0.angle.isFinite)
      }
    }
  }

  // MARK: Contacts

  /// The contacts of this step. `sweepOnY` picks the sweep (tests compare the two); by default
  /// the one along the axis where the bodies spread most: both give the same contacts.
  /// With `refreshing`, only the boundary contacts of the bodies it marks, found again at their
  /// present speeds (each body's reach is then at least the one its contacts were last found
  /// with). Pairs of items keep the contacts of the step's start: a row of balls struck at one
  /// end passes the impact on one step per ball, as docs/dynamics.md §5 has it.
  func findContacts(sweepOnY: Bool? = nil, refreshing: [Bool]? = nil) -> [Contact] {
    let h = World.h
    var contacts = contactBuffer
    contactBuffer = []
    contacts.removeAll(keepingCapacity: true)
    contacts.reserveCapacity(bodies.count * 2)
    // World-space shapes, built at most once per body per step, into storage kept between steps.
    if placements.count != bodies.count {
      placements = shapes.indices.map {
        Placed(shapes[$0], at: bodies[$0].position, angle: bodies[$0].angle)
      }
      placedAt = [Int](repeating: -1, count: bodies.count)
    }
    func placed(_ i: Int) -> Placed {
      if placedAt[i] != step {
        placements[i].place(shapes[i], at: bodies[i].position, angle: bodies[i].angle)
        placedAt[i] = step
      }
      return placements[i]
    }
    // Candidate pairs: those whose x extents overlap as the sweep on x has always taken them
    // (ordered by left edge, the later one's left edge within the earlier one's reach), and
    // whose y distance the exact test below can accept (1 + relative speed × h on top of the
    // radii is at most 1 + the two bodies' reaches). The set is the same however it is
    // enumerated: by a sweep on x, or, where the bodies spread more in y than in x (a pile in
    // a column, where nearly every pair overlaps in x), by a sweep on y.
    var left = leftEdges
    left.removeAll(keepingCapacity: true)
    var reach = reachBuffer
    reach.removeAll(keepingCapacity: true)
    var spreadX = (min: Double.infinity, max: -Double.infinity)
    var spreadY = (min: Double.infinity, max: -Double.infinity)
    for (i, b) in bodies.enumerated() {
      left.append(b.position.x - b.boundingRadius)
      reach.append(refreshing == nil ? World.reach(b) : Swift.max(World.reach(b), reachBuffer[i]))
      spreadX = (Swift.min(spreadX.min, b.position.x), Swift.max(spreadX.max, b.position.x))
      spreadY = (Swift.min(spreadY.min, b.position.y), Swift.max(spreadY.max, b.position.y))
    }
    defer { (leftEdges, reachBuffer) = (left, reach) }
    var pairs = pairBuffer
    pairs.removeAll(keepingCapacity: true)
    defer { pairBuffer = pairs }
    // Pairs the sweep looked at and item-boundary tests made: the work this step does.
    var tested = 0
    func right(_ i: Int) -> Double {
      bodies[i].position.x + bodies[i].boundingRadius + 1 + 2 * reach[i] + 400 * h
    }
    /// Sorts `order` by `low` (insertion sort: it changes little between steps), then takes
    /// each body against the following ones whose `low` is within its `high`, keeping the pairs
    /// `accept`s and whose items collide.
    func sweep(
      _ order: inout [Int], low: [Double], high: (Int) -> Double, accept: (Int, Int) -> Bool
    ) {
      World.insertionSort(&order, by: low)
      for x in order.indices {
        let i = order[x]
        let limit = high(i)
        var y = x + 1
        while y < order.count {
          let j = order[y]
          y += 1
          if low[j] > limit { break }
          tested &+= 1
          if tested > stepWorkLimit { return }
          guard accept(i, j), collide(i, j) else { continue }
          pairs.append((Swift.min(i, j), Swift.max(i, j)))
        }
      }
    }
    if refreshing != nil {
      // Boundaries only: no pairs.
    } else if sweepOnY ?? (spreadY.max - spreadY.min > 2 * (spreadX.max - spreadX.min)) {
      // On y over the intervals y ± (radius + reach + 1), which overlap exactly when the pair
      // is near in y; then the x condition, from the pair's order by left edge.
      var low = lowEdges
      low.removeAll(keepingCapacity: true)
      for i in bodies.indices {
        low.append(bodies[i].position.y - bodies[i].boundingRadius - reach[i] - 1)
      }
      defer { lowEdges = low }
      sweep(
        &sweepOrderY, low: low,
        high: { bodies[$0].position.y + bodies[$0].boundingRadius + reach[$0] + 1 },
        accept: { i, j in
          let (first, second) = (left[i], i) < (left[j], j) ? (i, j) : (j, i)
          return left[second] <= right(first)
        })
    } else {
      // On x by left edge, each body against the following ones within its reach; then the
      // y condition.
      sweep(
        &sweepOrder, low: left, high: right,
        accept: { i, j in
          abs(bodies[j].position.y - bodies[i].position.y)
            <= bodies[i].boundingRadius + bodies[j].boundingRadius + 2 + reach[i] + reach[j]
        })
    }
    // Past the step's share of work (thousands of items on one another), nothing more is
    // looked at: the step is abandoned.
    func overloading() -> Bool {
      if bodies.count + tested + contacts.count > stepWorkLimit { overloaded = true }
      return overloaded
    }
    if overloading() { return contacts }
    pairs.sort { $0 < $1 }  // a fixed order whatever the sweep
    for (i, j) in pairs {
      if overloading() { return contacts }
      let a = bodies[i], b = bodies[j]
      let relative =
        (b.velocity - a.velocity).length + abs(a.angularVelocity) * a.boundingRadius + abs(
          b.angularVelocity) * b.boundingRadius
      let margin = 1 + relative * h
      guard
        (b.position - a.position).lengthSquared
          <= pow2(a.boundingRadius + b.boundingRadius + margin),
        let manifold = Collide.manifold(placed(i), placed(j), margin: margin)
      else { continue }
      add(manifold, i, j, &contacts)
    }
    for group in groups where !group.boundaries.isEmpty {
      for (from, to) in group.boundaries {
        let minX = Swift.min(from.x, to.x), maxX = Swift.max(from.x, to.x)
        let minY = Swift.min(from.y, to.y), maxY = Swift.max(from.y, to.y)
        var segment: Placed? = nil
        tested &+= group.members.count
        if overloading() { return contacts }
        for i in group.members where !bodies[i].isStatic && refreshing?[i] != false {
          let a = bodies[i]
          let margin = 1 + reach[i]
          let r = a.boundingRadius + margin
          guard a.position.x + r >= minX, a.position.x - r <= maxX, a.position.y + r >= minY,
            a.position.y - r <= maxY
          else { continue }
          if segment == nil { segment = Placed(segmentFrom: from, to: to) }
          guard let m = Collide.manifold(segment!, placed(i), margin: margin) else { continue }
          // The boundary is A; store with the item as A and the normal from the item outward.
          add(Manifold(normal: -m.normal, points: m.points), i, nil, &contacts)
        }
      }
    }
    // Collision work: a body, a pair or boundary looked at, or a contact.
    if overloading() { return contacts }
    work &+= bodies.count + tested + contacts.count
    return contacts
  }

  /// Slows a body to `maximumSpeed` and `maximumAngularSpeed`, keeping its direction. A speed
  /// that is not a number stays so (the step then reports divergence).
  @inline(__always) private static func limitSpeed(_ b: inout Body) {
    let speed = b.velocity.length
    if speed > maximumSpeed {
      // Components past 1e154 square to infinity: scale them down first, or the velocity
      // would become 0 and a body pushed that hard would stand still.
      let large = max(abs(b.velocity.x), abs(b.velocity.y))
      let v = speed.isFinite || !large.isFinite ? b.velocity : b.velocity / large
      b.velocity = v * (maximumSpeed / v.length)
    }
    if abs(b.angularVelocity) > maximumAngularSpeed {
      b.angularVelocity = b.angularVelocity < 0 ? -maximumAngularSpeed : maximumAngularSpeed
    }
  }

  /// How far a body's points can move in one step at its current speeds, in points.
  @inline(__always) private static func reach(_ b: Body) -> Double {
    (b.velocity.length + abs(b.angularVelocity) * b.boundingRadius) * h
  }

  /// The bodies that can now move farther in this step than the reach their contacts were
  /// found with (`reachBuffer`, kept by `findContacts`) and half the 1-point margin every test
  /// adds, marked by index; nil when there are none.
  private func bodiesOutrunningTheirContacts() -> [Bool]? {
    func outran(_ i: Int) -> Bool {
      !bodies[i].isStatic && World.reach(bodies[i]) > reachBuffer[i] + 0.5
    }
    guard bodies.indices.contains(where: outran) else { return nil }
    return bodies.indices.map(outran)
  }

  /// Sorts `order` (body indices) by `key`, ties by index: insertion sort, fast when the order
  /// changed little since the last step.
  private static func insertionSort(_ order: inout [Int], by key: [Double]) {
    for k in 1..<Swift.max(1, order.count) {
      let item = order[k]
      var m = k - 1
      while m >= 0 && (key[order[m]], order[m]) > (key[item], item) {
        order[m + 1] = order[m]
        m -= 1
      }
      order[m + 1] = item
    }
  }

  /// Whether bodies `i` and `j` are in a common collision group whose items collide.
  @inline(__always) private func collide(_ i: Int, _ j: Int) -> Bool {
    if bodies[i].isStatic && bodies[j].isStatic { return false }
    if !manyGroups { return itemGroupMasks[i] & itemGroupMasks[j] != 0 }
    return groups.contains { $0.itemsCollide && $0.members.contains(i) && $0.members.contains(j) }
  }

  private func add(_ m: Manifold, _ i: Int, _ j: Int?, _ contacts: inout [Contact]) {
    let a = bodies[i]
    let b = j.map { bodies[$0] }
    let elasticity = Swift.max(a.elasticity, b?.elasticity ?? 0)
    let friction = (a.friction * (b?.friction ?? a.friction)).squareRoot()
    let tangent = m.normal.perpendicular
    for (point, separation) in m.points {
      let rA = point - a.position
      let rB = b.map { point - $0.position } ?? .zero
      let wB = b?.inverseMass ?? 0, iB = b?.inverseInertia ?? 0
      let kn =
        a.inverseMass + wB + a.inverseInertia * pow2(rA.cross(m.normal)) + iB
        * pow2(rB.cross(m.normal))
      let kt =
        a.inverseMass + wB + a.inverseInertia * pow2(rA.cross(tangent)) + iB
        * pow2(rB.cross(tangent))
      guard kn > 0 else { continue }
      contacts.append(
        Contact(
          a: i, b: j, normal: m.normal, rA: rA, rB: rB, separation: separation,
          elasticity: elasticity, friction: friction,
          normalMass: 1 / kn, tangentMass: kt > 0 ? 1 / kt : 0))
    }
  }

  @inline(__always) private static func relativeVelocity(
    _ c: Contact, _ bodies: UnsafeMutableBufferPointer<Body>
  ) -> Point {
    let a = bodies[c.a]
    let va = a.velocity + cross(a.angularVelocity, c.rA)
    guard let j = c.b else { return -va }
    let b = bodies[j]
    return b.velocity + cross(b.angularVelocity, c.rB) - va
  }

  @inline(__always) private static func applyImpulse(
    _ c: Contact, _ p: Point, _ bodies: UnsafeMutableBufferPointer<Body>
  ) {
    bodies[c.a].velocity = bodies[c.a].velocity - p * bodies[c.a].inverseMass
    bodies[c.a].angularVelocity -= bodies[c.a].inverseInertia * c.rA.cross(p)
    if let j = c.b {
      bodies[j].velocity = bodies[j].velocity + p * bodies[j].inverseMass
      bodies[j].angularVelocity += bodies[j].inverseInertia * c.rB.cross(p)
    }
  }

  /// Impacts fast enough to bounce, resolved one pair at a time with current velocities and
  /// swept again until nothing approaches (docs/dynamics.md §5, step 4): a row of balls passes an
  /// impact along instead of moving as one block.
  ///
  /// An elasticity above 1 adds energy once per contact point and step, at its first impact:
  /// when the point strikes again in the same step (a spinning box rocking between a floor and
  /// a wall), it bounces back at most as fast as it came. The gain is then the elasticity's per
  /// bounce, and not its power over the 32 sweeps.
  private func resolveImpacts(_ contacts: inout [Contact]) {
    let h = World.h
    bodies.withUnsafeMutableBufferPointer { bodies in
      for _ in 0..<32 {
        var fired = false
        for k in contacts.indices where contacts[k].elasticity > 0 {
          let c = contacts[k]
          let vn = World.relativeVelocity(c, bodies).dot(c.normal)
          guard -vn > World.restitutionThreshold, c.separation + vn * h <= 0 else { continue }
          let e = c.struck ? Swift.min(c.elasticity, 1) : c.elasticity
          World.applyImpulse(c, c.normal * (-(1 + e) * vn * c.normalMass), bodies)
          contacts[k].struck = true
          fired = true
        }
        if !fired { break }
      }
    }
  }

  private func solveContacts(_ contacts: inout [Contact]) {
    let h = World.h
    bodies.withUnsafeMutableBufferPointer { bodies in
      contacts.withUnsafeMutableBufferPointer { contacts in
        for k in contacts.indices {
          var c = contacts[k]
          // Normal: never approach faster than closes the gap in one step.
          let vn = World.relativeVelocity(c, bodies).dot(c.normal)
          let target = -Swift.max(c.separation, 0) / h
          let lambda = -(vn - target) * c.normalMass
          let total = Swift.max(c.normalImpulse + lambda, 0)
          let applied = total - c.normalImpulse
          c.normalImpulse = total
          World.applyImpulse(c, c.normal * applied, bodies)
          // Friction.
          if c.friction > 0 {
            let tangent = c.normal.perpendicular
            let vt = World.relativeVelocity(c, bodies).dot(tangent)
            let limit = c.friction * c.normalImpulse
            let newTangent = Swift.max(
              -limit, Swift.min(limit, c.tangentImpulse - vt * c.tangentMass))
            World.applyImpulse(c, tangent * (newTangent - c.tangentImpulse), bodies)
            c.tangentImpulse = newTangent
          }
          contacts[k] = c
        }
      }
    }
  }

  private func pushOutOverlaps(_ contacts: [Contact]) {
    var shift = shiftBuffer
    shift.removeAll(keepingCapacity: true)
    shift.append(contentsOf: repeatElement(Point.zero, count: bodies.count))
    defer { shiftBuffer = shift }
    for _ in 0..<4 {
      var moved = false
      for c in contacts {
        let current = c.separation + c.normal.dot((c.b.map { shift[$0] } ?? .zero) - shift[c.a])
        guard current < -0.5 else { continue }
        let wA = bodies[c.a].inverseMass, wB = c.b.map { bodies[$0].inverseMass } ?? 0
        guard wA + wB > 0 else { continue }
        let correction = 0.2 * (-current - 0.5)
        shift[c.a] = shift[c.a] - c.normal * (correction * wA / (wA + wB))
        if let j = c.b { shift[j] = shift[j] + c.normal * (correction * wB / (wA + wB)) }
        moved = true
      }
      if !moved { break }
    }
    for i in bodies.indices { bodies[i].position = bodies[i].position + shift[i] }
  }

  /// Continuous collision with boundaries, the last guard of a step: a body whose center
  /// crossed a boundary segment during the step (moving farther than its contacts could see,
  /// or pushed through by others) is put back on the side it started from, at most its inner
  /// radius from the segment, and bounces off it as an impact would. Boundaries are static, so
  /// this keeps every item in the region its boundaries enclose, whatever its speed.
  private func keepCentersInsideBoundaries(starts: [Point]) {
    for group in groups where !group.boundaries.isEmpty {
      // Put back from one segment, a body can cross another it had passed beside (a corner):
      // the segments are looked at again, a few times at most.
      for i in group.members where !bodies[i].isStatic {
        let start = starts[i]
        var moved = true
        for _ in 0..<4 where moved {
          moved = false
          for (from, to) in group.boundaries where keepCenter(i, from: start, across: from, to) {
            moved = true
          }
        }
      }
    }
  }

  /// Puts body `i` back, at most its inner radius from the segment `from`...`to`, when its center
  /// crossed the segment on its way from `start`; says whether it did.
  private func keepCenter(_ i: Int, from start: Point, across from: Point, _ to: Point) -> Bool {
    let end = bodies[i].position
    guard start != end else { return false }
    let edge = to - from
    let length = edge.length
    guard length > 0 else { return false }
    // The segment's unit normal toward the side the body started on.
    var n = Point(x: -edge.y, y: edge.x) / length
    var before = n.dot(start - from)
    if before < 0 { (n, before) = (-n, -before) }
    let after = n.dot(end - from)
    // Ending on the line counts as crossing it: a body left there starts its next step on
    // neither side, and nothing holds it any more.
    guard before > 0, after <= 0 else { return false }
    // Where the center's path meets the segment's line: inside the segment?
    let t = before / (before - after)
    let u = (start + (end - start) * t - from).dot(edge) / (length * length)
    guard u >= 0, u <= 1 else { return false }
    // Never onto the line itself: a body of no area (a shape layer whose bounds were never
    // set) was left exactly on it, started the next step on neither side of it, and fell
    // through the floor for ever. A hair's breadth inside, however small the body.
    let hair = Swift.max(1e-6, (Swift.abs(end.x) + Swift.abs(end.y)) * 1e-12)
    bodies[i].position = end + n * (Swift.min(before, Swift.max(innerRadii[i], hair)) - after)
    // The impact its contacts missed, at most as fast as it came.
    let vn = bodies[i].velocity.dot(n)
    if vn < 0 {
      let e = Swift.min(bodies[i].elasticity, 1)
      bodies[i].velocity = bodies[i].velocity - n * ((1 + e) * vn)
    }
    return true
  }

  // MARK: Joints

  /// The world point of a joint's end on body `i` (or the anchor).
  @inline(__always) private func worldPoint(_ i: Int?, _ local: Point) -> Point {
    guard let i else { return local }
    return bodies[i].world(local)
  }

  private func prepareJoints() {
    for k in joints.indices { joints[k].impulse = .zero }
  }

  private func solveJoints() {
    let h = World.h
    bodies.withUnsafeMutableBufferPointer { bodies in
      for k in joints.indices {
        let j = joints[k]
        let pA = j.a.map { bodies[$0].world(j.localA) } ?? j.localA,
          pB = bodies[j.b].world(j.localB)
        let rA = j.a.map { pA - bodies[$0].position } ?? .zero
        let rB = pB - bodies[j.b].position
        let wA = j.a.map { bodies[$0].inverseMass } ?? 0,
          iA = j.a.map { bodies[$0].inverseInertia } ?? 0
        let wB = bodies[j.b].inverseMass, iB = bodies[j.b].inverseInertia
        let vA = j.a.map { bodies[$0].velocity + cross(bodies[$0].angularVelocity, rA) } ?? .zero
        let vB = bodies[j.b].velocity + cross(bodies[j.b].angularVelocity, rB)
        switch j.kind {
        case .distance:
          let d = pB - pA
          let distance = d.length
          guard distance > 1e-9 else { continue }
          let n = d / distance
          let kEff = wA + wB + iA * pow2(rA.cross(n)) + iB * pow2(rB.cross(n))
          guard kEff > 0 else { continue }
          let cdot = (vB - vA).dot(n)
          var lambda: Double
          if j.isRigid {
            lambda = -cdot / kEff
          } else {
            let mass = 1 / kEff, omega = 2 * Double.pi * j.frequency
            let stiffness = mass * omega * omega, damper = 2 * mass * j.dampingRatio * omega
            let gamma = 1 / (h * (damper + h * stiffness))
            let bias = (distance - j.length) * h * stiffness * gamma
            lambda = -(cdot + bias + gamma * j.impulse.x) / (kEff + gamma)
            joints[k].impulse.x += lambda
          }
          World.apply(j, n * lambda, rA, rB, bodies)
        case .snap:
          // A soft point constraint to a fixed point, on each axis.
          let mass = wB > 0 ? 1 / wB : 0
          let omega = 2 * Double.pi * j.frequency
          let stiffness = mass * omega * omega, damper = 2 * mass * j.dampingRatio * omega
          guard stiffness > 0 else { continue }
          let gamma = 1 / (h * (damper + h * stiffness))
          let error = pB - pA
          let bias = error * (h * stiffness * gamma)
          let p = (vB + bias + j.impulse * gamma) * (-1 / (wB + gamma))
          joints[k].impulse = joints[k].impulse + p
          bodies[j.b].velocity = bodies[j.b].velocity + p * wB
          // Turn back toward no rotation, as softly.
          if iB > 0 {
            let angularMass = 1 / iB
            let aStiffness = angularMass * omega * omega,
              aDamper = 2 * angularMass * j.dampingRatio * omega
            let aGamma = 1 / (h * (aDamper + h * aStiffness))
            let w = bodies[j.b].angularVelocity
            let angleError = bodies[j.b].angle - bodies[j.b].angle0
            let q = -(w + angleError * h * aStiffness * aGamma) / (iB + aGamma)
            bodies[j.b].angularVelocity += q * iB
          }
        }
      }
    }
  }

  private static func apply(
    _ j: Joint, _ p: Point, _ rA: Point, _ rB: Point, _ bodies: UnsafeMutableBufferPointer<Body>
  ) {
    if let a = j.a {
      bodies[a].velocity = bodies[a].velocity - p * bodies[a].inverseMass
      bodies[a].angularVelocity -= bodies[a].inverseInertia * rA.cross(p)
    }
    bodies[j.b].velocity = bodies[j.b].velocity + p * bodies[j.b].inverseMass
    bodies[j.b].angularVelocity += bodies[j.b].inverseInertia * rB.cross(p)
  }

  /// SHAKE/RATTLE: rigid rods get exactly their length back, moving along the rod's direction at
  /// the start of the step, and the velocity gets the same correction (so no energy is lost).
  private func projectRigidJoints(starts: [Point]) {
    let h = World.h
    for _ in 0..<3 {
      for j in joints where j.isRigid {
        let wA = j.a.map { bodies[$0].inverseMass } ?? 0, wB = bodies[j.b].inverseMass
        guard wA + wB > 0 else { continue }
        let startA =
          j.a.map { starts[$0] + (worldPoint($0, j.localA) - bodies[$0].position) } ?? j.localA
        let startB = starts[j.b] + (worldPoint(j.b, j.localB) - bodies[j.b].position)
        let n = (startB - startA).normalized
        let q = worldPoint(j.b, j.localB) - worldPoint(j.a, j.localA)
        // |q + s n| = L: the root nearest zero.
        let qn = q.dot(n)
        let discriminant = qn * qn - q.lengthSquared + j.length * j.length
        guard discriminant >= 0 else { continue }
        let root = discriminant.squareRoot()
        let s = abs(-qn + root) < abs(-qn - root) ? -qn + root : -qn - root
        let shareB = wB / (wA + wB), shareA = wA / (wA + wB)
        bodies[j.b].position = bodies[j.b].position + n * (s * shareB)
        bodies[j.b].velocity = bodies[j.b].velocity + n * (s * shareB / h)
        if let a = j.a {
          bodies[a].position = bodies[a].position - n * (s * shareA)
          bodies[a].velocity = bodies[a].velocity - n * (s * shareA / h)
        }
      }
    }
  }
}

@inline(__always) func pow2(_ x: Double) -> Double { x * x }
