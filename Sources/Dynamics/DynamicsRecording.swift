import Geometry
import Parallelism

/// The simulations dynamic animators have run, recorded step by step and shared by every
/// animator given the same recording, so that a simulation is stepped once however many
/// animators (the replicas of one scene, one per rendering thread) and in whatever time order
/// they ask for it.
///
/// Invariants:
/// - A simulation is keyed by its starting world as values (every body, shape, joint, collision
///   group and push, doubles by their bits), and the solver is deterministic, so two animators
///   share a simulation only when they would have computed the same one.
/// - `states` of a simulation holds, for every step k taken, each body's state after k steps; it
///   only grows, and a step is taken only to reach a step nobody has asked for before.
/// - Everything is read and written under one lock; what leaves it is plain values.
///
/// Memory: 48 bytes per body per step (240 steps per simulated second), kept as long as the
/// recording is.
package final class DynamicsRecording: Sendable {
  private struct Simulation {
    let world: World
    var states: [DynamicItemState]
    let bodyCount: Int

    init(world: World) {
      self.world = world
      bodyCount = world.bodies.count
      states = []
      record()
    }

    mutating func record() {
      for b in world.bodies {
        states.append(
          DynamicItemState(
            center: b.position, angle: b.angle - b.angle0, velocity: b.velocity,
            angularVelocity: b.angularVelocity))
      }
    }

    /// Each body's state after `step` steps, stepping the world first as far as needed, and
    /// the step they are for: fewer than `step` when the world's collision work passed
    /// `workLimit` before it got there.
    mutating func states(
      after step: Int, workLimit: Int, taken: inout Int
    ) -> (states: [DynamicItemState], step: Int) {
      // Room for every state up to `step` before stepping (at least doubling, so that frames
      // asked for one after another still grow it geometrically): the steps then append into
      // one contiguous buffer, with no regrowth or copy along the way.
      let (needed, overflow) = (step + 1).multipliedReportingOverflow(by: bodyCount)
      if world.step < step, !overflow, states.capacity < needed {
        states.reserveCapacity(Swift.max(needed, 2 * states.capacity))
      }
      while world.step < step, world.work <= workLimit, !world.diverged, !world.overloaded {
        world.stepOnce()
        if world.overloaded { break }  // abandoned: no state for it
        taken += 1
        record()
      }
      let reached = Swift.min(step, world.step)
      let start = reached * bodyCount
      return (Array(states[start..<start + bodyCount]), reached)
    }
  }

  private struct Store {
    var simulations: [String: Simulation] = [:]
    var stepsTaken = 0
  }

  private let store = Locked(Store())

  /// The collision work each simulation may do (`DynamicAnimator.maximumCollisionWork`).
  let workLimit: Int
  /// The collision work each step may do (`DynamicAnimator.maximumStepWork`).
  let stepWorkLimit: Int

  /// Creates an empty recording whose simulations stop after `workLimit` units of collision
  /// work, or at a step of more than `stepWorkLimit` (tests give small ones).
  package init(
    workLimit: Int = DynamicAnimator.maximumCollisionWork,
    stepWorkLimit: Int = DynamicAnimator.maximumStepWork
  ) {
    self.workLimit = workLimit
    self.stepWorkLimit = stepWorkLimit
  }

  /// How many solver steps every simulation in the recording has taken together.
  package var stepsTaken: Int { store.withLock { $0.stepsTaken } }

  /// Adds the world `make` builds, not yet stepped, under `key` unless a simulation with that key
  /// is there.
  func add(key: String, _ make: @Sendable () -> World) {
    store.withLock { store in
      guard store.simulations[key] == nil else { return }
      let world = make()
      world.stepWorkLimit = stepWorkLimit
      store.simulations[key] = Simulation(world: world)
    }
  }

  /// Each body's state after `step` steps of the simulation under `key` (which `add` put there),
  /// stepping it first if nobody has asked for that step before, and the step they are for
  /// (earlier when the simulation ran out of collision work).
  func states(key: String, step: Int) -> (states: [DynamicItemState], step: Int) {
    store.withLock { store -> ([DynamicItemState], Int) in
      var taken = 0
      let states = store.simulations[key]!.states(after: step, workLimit: workLimit, taken: &taken)
      store.stepsTaken += taken
      return states
    }
  }

  /// Whether the simulation under `key` stopped because its values overflowed.
  func diverged(key: String) -> Bool {
    store.withLock { $0.simulations[key]?.world.diverged ?? false }
  }

  /// A key naming `parts` by value: equal keys mean equal values (doubles compared by bits).
  static func key(_ parts: Any...) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    describe(parts, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `value`'s description: doubles as the hex digits of their bits, integers and
  /// booleans as themselves, points directly (the most common leaf), anything else through its
  /// mirror, as `(label:child,...)`. Written as ASCII bytes, so that no double's digits become a
  /// string of their own (the key is built once per simulation, for every replica).
  private static func describe(_ value: Any, into out: inout [UInt8]) {
    switch value {
    case let d as Double: appendHex(d.bitPattern, to: &out)
    case let p as Point: appendPoint(p, to: &out)
    case let segments as [(Point, Point)]:
      // Collision boundaries, up to a million segments: as the mirrors of the list and its
      // tuples would write them, without making the mirrors (1.7 s for a million).
      out.append(UInt8(ascii: "("))
      for (from, to) in segments {
        out += ":(.0:".utf8
        appendPoint(from, to: &out)
        out += ",.1:".utf8
        appendPoint(to, to: &out)
        out += ",),".utf8
      }
      out.append(UInt8(ascii: ")"))
    case let i as Int: out += String(i).utf8
    case let b as Bool: out.append(b ? UInt8(ascii: "t") : UInt8(ascii: "f"))
    default:
      let mirror = Mirror(reflecting: value)
      if mirror.children.isEmpty {
        out += String(describing: value).utf8
      } else {
        out.append(UInt8(ascii: "("))
        for child in mirror.children {
          if let label = child.label { out += label.utf8 }
          out.append(UInt8(ascii: ":"))
          describe(child.value, into: &out)
          out.append(UInt8(ascii: ","))
        }
        out.append(UInt8(ascii: ")"))
      }
    }
  }

  /// Appends `p` as `(x:X,y:Y,)`, its coordinates' bits in hexadecimal.
  private static func appendPoint(_ p: Point, to out: inout [UInt8]) {
    out += "(x:".utf8
    appendHex(p.x.bitPattern, to: &out)
    out += ",y:".utf8
    appendHex(p.y.bitPattern, to: &out)
    out += ",)".utf8
  }

  /// Appends `bits` in hexadecimal without leading zeros (`String(bits, radix: 16)`'s digits).
  private static func appendHex(_ bits: UInt64, to out: inout [UInt8]) {
    var shift = 60
    while shift > 0 && (bits >> UInt64(shift)) & 0xf == 0 { shift -= 4 }
    while shift >= 0 {
      let nibble = UInt8((bits >> UInt64(shift)) & 0xf)
      out.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
      shift -= 4
    }
  }
}
