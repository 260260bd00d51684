import Geometry

/// Runs UIKit-Dynamics-style behaviors over items, offline and deterministically
/// (`UIDynamicAnimator`).
///
/// The simulation steps at a fixed 1/240 s, whatever the frame rate: the state at a time t is
/// the state after the last whole step at or before t, never interpolated, so renders at 24, 30
/// or 60 fps see the same states at the times they share. Units are UIKit's (docs/dynamics.md §1):
/// points, seconds, radians; gravity magnitude 1.0 is 1,000 points/s²; mass is density × area /
/// 10,000.
///
/// ```swift
/// let animator = DynamicAnimator(referenceBounds: Rect(0, 0, 320, 480))
/// let gravity = GravityBehavior(items: balls)
/// gravity.magnitude = 10
/// animator.addBehavior(gravity)
/// animator.addBehavior(CollisionBehavior(items: balls))
/// animator.advance(to: 1.5)
/// let ball = animator.state(of: balls[0])
/// ```
///
/// The items' starting state and the behaviors are read when the simulation first runs; adding
/// or removing a behavior afterwards starts it again from the beginning.
///
/// The state after each step is recorded, so any time can be shown after any other: an earlier
/// time is looked up, never simulated again. Animators given the same recording (the replicas
/// of one scene) share every simulation whose starting world is the same, so each is stepped
/// once (`DynamicsRecording`).
public final class DynamicAnimator {
  /// Steps per second of simulated time: 240 (a step divides 1/24, 1/30, 1/48, 1/60 and 1/120 s).
  public static let stepsPerSecond = World.stepsPerSecond

  /// The most collision work one simulation may do: 150,000,000 units, where each step costs
  /// one unit per item, per pair of items and per item and boundary segment tested, and per
  /// contact, and eight per attachment or snap (solved once per velocity iteration; three more
  /// for a rigid attachment, projected after the step): about six million units a second of
  /// solving contacts (some 25 s for a pile of 5,000 items in contact, while 1,000 items
  /// falling into a pile for 10 s need about 45 million), some 30 million of attachments (5,000
  /// attachments reach 10 s of simulated time in about five seconds). Past it the simulation
  /// stops: `reachedWorkLimit` turns true, and a `Scene` refuses the time with
  /// `SceneError.simulationTooCostly` rather than run for many minutes.
  public static let maximumCollisionWork = 150_000_000

  /// The most collision work one step may do: 1,000,000 units (a pile of 10,000 items does
  /// about 100,000). Items by the thousand on one another make millions of pairs and contacts
  /// in one step (5,000 at one spot: 12.5 million pairs, 5 GB of contacts); the step is
  /// abandoned before they are all made, and the simulation stops there as at
  /// `maximumCollisionWork`.
  public static let maximumStepWork = 1_000_000
  /// The fastest an item moves, in points per second: 12,000, Box2D's 2 m per 1/60 s step at
  /// 100 points a meter (UIKit's 1000 pt/s² of gravity is about 10 m/s²). Faster items are
  /// slowed to it, keeping their direction, as Box2D (and so UIKit) clamps each step's motion.
  /// It is what keeps an item that gains energy at every bounce (an elasticity above 1) moving
  /// at a bounded speed inside its boundaries, where its speed would otherwise grow without end.
  public static let maximumSpeed = World.maximumSpeed
  /// The fastest an item turns, in radians per second: 30π (Box2D's quarter turn per 1/60 s
  /// step, 15 turns a second).
  public static let maximumAngularSpeed = World.maximumAngularSpeed

  /// Whether the last `advance(to:)` stopped short of its time because the simulation did
  /// `maximumCollisionWork`; the states are then those of the last step it reached.
  public private(set) var reachedWorkLimit = false

  /// Whether the last `advance(to:)` stopped short of its time because an item's position or
  /// angle stopped being a finite number (values so extreme that the solver overflowed); the
  /// states are those of the step where it happened.
  public private(set) var diverged = false

  /// The last whole step any simulation of these behaviors can reach within the work limits,
  /// from the work every step does whatever happens: a unit per item, per item and boundary
  /// segment its collision behaviors test, and eight per attachment or snap. `Int.max` when
  /// that is nothing.
  public var lastAffordableStep: Int {
    prepare()
    guard fixedStepWork > 0 else { return .max }
    guard fixedStepWork <= DynamicAnimator.maximumStepWork else { return 0 }
    return DynamicAnimator.maximumCollisionWork / fixedStepWork
  }
  private var fixedStepWork = 0

  /// Whether the last `advance(to:)` was refused before any step was simulated: the steps to
  /// its time would do more than `maximumCollisionWork` whatever happens (`lastAffordableStep`).
  public private(set) var refusedUpFront = false

  /// The reference bounds: the coordinate space, and the boundary a collision behavior's
  /// `translatesReferenceBoundsIntoBoundary` adds.
  public let referenceBounds: Rect
  /// The behaviors added, in order.
  public private(set) var behaviors: [DynamicBehavior] = []

  /// Where simulations are recorded (shared by the replicas of a scene).
  package private(set) var recording: DynamicsRecording
  /// The key of the current simulation in `recording`; `nil` until the behaviors are read.
  private var simulation: String?
  /// The steps taken so far in the current simulation, and each item's state after them.
  private var step = 0
  private var states: [DynamicItemState] = []
  private var index: [ObjectIdentifier: Int] = [:]
  private var items: [DynamicItem] = []

  /// Creates an animator over `referenceBounds`.
  public init(referenceBounds: Rect) {
    self.referenceBounds = referenceBounds
    recording = DynamicsRecording()
  }

  /// Creates an animator over `referenceBounds` that records its simulations in `recording`.
  package init(referenceBounds: Rect, recording: DynamicsRecording) {
    self.referenceBounds = referenceBounds
    self.recording = recording
  }

  /// Records in `recording` from now on, unless the simulation has already started (it then
  /// keeps its own recording, so what it shows never changes).
  package func adopt(_ recording: DynamicsRecording) {
    if simulation == nil { self.recording = recording }
  }

  /// Adds a behavior (and its children).
  public func addBehavior(_ behavior: DynamicBehavior) {
    behaviors.append(behavior)
    simulation = nil
  }

  /// Removes a behavior.
  public func removeBehavior(_ behavior: DynamicBehavior) {
    behaviors.removeAll { $0 === behavior }
    simulation = nil
  }

  /// Removes every behavior.
  public func removeAllBehaviors() {
    behaviors.removeAll()
    simulation = nil
  }

  /// The simulated time reached, in seconds (a whole number of steps).
  public var elapsedTime: Double {
    simulation == nil ? 0 : Double(step) / Double(World.stepsPerSecond)
  }

  /// Every item some behavior acts on, in the order first met.
  public var dynamicItems: [DynamicItem] {
    prepare()
    return items
  }

  /// Moves to the last whole step at or before `time`, in either direction: steps not taken
  /// before are simulated, the others looked up. A simulation that reaches
  /// `maximumCollisionWork` first stops there (`reachedWorkLimit`).
  public func advance(to time: Double) {
    prepare()
    guard let simulation else { return }
    // Clamped as a Double: a time below Int.min steps (-3.84e16 s) trapped when converted.
    let steps = (time * Double(World.stepsPerSecond) + 1e-9).rounded(.down)
    let target = steps > 0 ? Int(Swift.min(steps, Double(Int.max / 2))) : 0
    // Past what the work limit affords whatever happens (80,000 boundary segments stepped for
    // most of a minute before the limit stopped them): refused before a step is taken.
    refusedUpFront = target > lastAffordableStep
    if refusedUpFront {
      (reachedWorkLimit, diverged) = (true, false)
      return
    }
    if target != step {
      step = target
      let (reached, reachedStep) = recording.states(key: simulation, step: target)
      (states, step) = (reached, reachedStep)
      let short = reachedStep < target
      diverged = short && recording.diverged(key: simulation)
      reachedWorkLimit = short && !diverged
    } else {
      (reachedWorkLimit, diverged) = (false, false)
    }
  }

  /// Where `item` is after the steps run so far; `nil` for an item no behavior acts on.
  public func state(of item: DynamicItem) -> DynamicItemState? {
    prepare()
    guard let i = index[ObjectIdentifier(item)] else { return nil }
    return states[i]
  }

  // MARK: Building the world

  private func prepare() {
    guard simulation == nil else { return }
    let all = behaviors.flatMap(\.flattened)
    items = []
    index = [:]
    func register(_ item: DynamicItem) -> Int {
      if let i = index[ObjectIdentifier(item)] { return i }
      index[ObjectIdentifier(item)] = items.count
      items.append(item)
      return items.count - 1
    }
    for behavior in all {
      switch behavior {
      case let g as GravityBehavior: g.items.forEach { _ = register($0) }
      case let a as AttachmentBehavior:
        _ = register(a.item)
        if let other = a.otherItem { _ = register(other) }
      case let c as CollisionBehavior: c.items.forEach { _ = register($0) }
      case let d as DynamicItemBehavior: d.items.forEach { _ = register($0) }
      case let p as PushBehavior: p.items.forEach { _ = register($0) }
      case let s as SnapBehavior: _ = register(s.item)
      default: break
      }
    }
    // Item settings: the last behavior to set a property wins.
    var density = [Double](repeating: 1, count: items.count)
    var elasticity = [Double](repeating: 0, count: items.count)
    var friction = [Double](repeating: 0, count: items.count)
    var resistance = [Double](repeating: 0, count: items.count)
    var angularResistance = [Double](repeating: 0, count: items.count)
    var rotates = [Bool](repeating: true, count: items.count)
    var anchored = [Bool](repeating: false, count: items.count)
    var addedVelocity = [Point](repeating: .zero, count: items.count)
    var addedSpin = [Double](repeating: 0, count: items.count)
    for case let d as DynamicItemBehavior in all {
      for item in d.items {
        let i = index[ObjectIdentifier(item)]!
        if let v = d.density { density[i] = v }
        if let v = d.elasticity { elasticity[i] = v }
        if let v = d.friction { friction[i] = v }
        if let v = d.resistance { resistance[i] = v }
        if let v = d.angularResistance { angularResistance[i] = v }
        if let v = d.allowsRotation { rotates[i] = v }
        if let v = d.isAnchored { anchored[i] = v }
      }
      for (item, v) in d.addedLinearVelocity {
        addedVelocity[index[ObjectIdentifier(item)]!] =
          addedVelocity[index[ObjectIdentifier(item)]!] + v
      }
      for (item, w) in d.addedAngularVelocity { addedSpin[index[ObjectIdentifier(item)]!] += w }
    }
    var bodies: [Body] = []
    var shapes: [Shape] = []
    for (i, item) in items.enumerated() {
      let size = item.dynamicBounds.standardized.size
      let (w, h) = (size.width, size.height)
      let ellipse = item.collisionBoundsType == .ellipse
      // An item of no width or height collides as one a thousandth of a point across: with no
      // inside, its contacts with slanted or curved boundaries had no normal, and it fell
      // through them (its mass, below, is still that of no area).
      let (sw, sh) = (Swift.max(w, 0.001), Swift.max(h, 0.001))
      let shape: Shape = ellipse ? .ellipse(width: sw, height: sh) : .box(width: sw, height: sh)
      let area = ellipse ? Double.pi * w * h / 4 : w * h
      // An item of no mass (no area, or density 0) has mass 1, as Box2D gives every dynamic
      // body a positive mass: gravity and pushes move it (it stood still, held as if anchored),
      // and with no inertia it does not turn.
      let computed = Swift.max(density[i], 0) * area / 10_000
      let mass = computed > 0 ? computed : 1
      let inertia =
        computed > 0 ? (ellipse ? mass * (w * w + h * h) / 16 : mass * (w * w + h * h) / 12) : 0
      let movable = !anchored[i]
      var body = Body(
        position: item.dynamicCenter, angle: 0, angle0: 0, inverseMass: movable ? 1 / mass : 0,
        inverseInertia: movable && rotates[i] && inertia > 0 ? 1 / inertia : 0, mass: mass,
        inertia: inertia,
        boundingRadius: shape.boundingRadius)
      shapes.append(shape)
      body.elasticity = elasticity[i]
      body.friction = friction[i]
      body.resistance = resistance[i]
      body.angularResistance = angularResistance[i]
      if movable {
        body.velocity = addedVelocity[i]
        body.angularVelocity = rotates[i] ? addedSpin[i] : 0
      }
      bodies.append(body)
    }
    for case let g as GravityBehavior in all {
      let acceleration = Point(x: cos(g.angle), y: sin(g.angle)) * (1000 * g.magnitude)
      for item in g.items {
        let i = index[ObjectIdentifier(item)]!
        bodies[i].gravity = bodies[i].gravity + acceleration
      }
    }
    var joints: [World.Joint] = []
    var groups: [World.CollisionGroup] = []
    var pushes: [World.Push] = []
    for behavior in all {
      switch behavior {
      case let a as AttachmentBehavior:
        let b = index[ObjectIdentifier(a.item)]!
        let other = a.otherItem.map { index[ObjectIdentifier($0)]! }
        let pB = bodies[b].position + a.offset
        let pA = other.map { bodies[$0].position + a.otherOffset } ?? a.anchorPoint
        joints.append(
          World.Joint(
            kind: .distance, a: other, b: b, localA: other == nil ? a.anchorPoint : a.otherOffset,
            localB: a.offset,
            length: a.length ?? (pB - pA).length, frequency: a.frequency, dampingRatio: a.damping))
      case let s as SnapBehavior:
        let b = index[ObjectIdentifier(s.item)]!
        joints.append(
          World.Joint(
            kind: .snap, a: nil, b: b, localA: s.snapPoint, localB: .zero, length: 0, frequency: 2,
            dampingRatio: 0.1 + 0.9 * Swift.min(Swift.max(s.damping, 0), 1)))
      case let c as CollisionBehavior:
        var boundaries = c.collisionMode == .items ? [] : c.boundaries.map { ($0.from, $0.to) }
        if c.translatesReferenceBoundsIntoBoundary && c.collisionMode != .items {
          let r = referenceBounds.standardized
          let corners = [
            Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY),
            Point(r.minX, r.maxY),
          ]
          for k in 0..<4 { boundaries.append((corners[k], corners[(k + 1) % 4])) }
        }
        groups.append(
          World.CollisionGroup(
            members: c.items.map { index[ObjectIdentifier($0)]! },
            itemsCollide: c.collisionMode != .boundaries, boundaries: boundaries))
      case let p as PushBehavior:
        pushes.append(
          World.Push(
            bodies: p.items.map { index[ObjectIdentifier($0)]! }, continuous: p.mode == .continuous,
            vector: Point(x: cos(p.angle), y: sin(p.angle)) * (100 * p.magnitude),
            offset: p.targetOffsetFromCenter,
            begin: p.beginTime, end: p.endTime))
      default:
        break
      }
    }
    fixedStepWork =
      bodies.count + 8 * joints.count
      + groups.reduce(0) { $0 + $1.members.count * $1.boundaries.count }
    let key = DynamicsRecording.key(bodies, shapes, joints, groups, pushes)
    recording.add(key: key) { [bodies, shapes, joints, groups, pushes] in
      World(bodies: bodies, shapes: shapes, joints: joints, groups: groups, pushes: pushes)
    }
    simulation = key
    step = 0
    states = recording.states(key: key, step: 0).states
  }
}
