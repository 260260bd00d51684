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

    /// Each body's state after `step` steps, stepping the world first as far as needed.
    mutating func states(after step: Int, taken: inout Int) -> [DynamicItemState] {
      while world.step < step {
        world.stepOnce()
        taken += 1
        record()
      }
      let start = step * bodyCount
      return Array(states[start..<start + bodyCount])
    }
  }

  private struct Store {
    var simulations: [String: Simulation] = [:]
    var stepsTaken = 0
  }

  private let store = Locked(Store())

  /// Creates an empty recording.
  package init() {}

  /// How many solver steps every simulation in the recording has taken together.
  package var stepsTaken: Int { store.withLock { $0.stepsTaken } }

  /// Adds the world `make` builds, not yet stepped, under `key` unless a simulation with that key
  /// is there.
  func add(key: String, _ make: @Sendable () -> World) {
    store.withLock { store in
      if store.simulations[key] == nil { store.simulations[key] = Simulation(world: make()) }
    }
  }

  /// Each body's state after `step` steps of the simulation under `key` (which `add` put there),
  /// stepping it first if nobody has asked for that step before.
  func states(key: String, step: Int) -> [DynamicItemState] {
    store.withLock { store -> [DynamicItemState] in
      var taken = 0
      let states = store.simulations[key]!.states(after: step, taken: &taken)
      store.stepsTaken += taken
      return states
    }
  }

  /// A key naming `parts` by value: equal keys mean equal values (doubles compared by bits).
  static func key(_ parts: Any...) -> String {
    var out = ""
    describe(parts, into: &out)
    return out
  }

  private static func describe(_ value: Any, into out: inout String) {
    switch value {
    case let d as Double: out += String(d.bitPattern, radix: 16)
    case let i as Int: out += String(i)
    case let b as Bool: out += b ? "t" : "f"
    default:
      let mirror = Mirror(reflecting: value)
      if mirror.children.isEmpty {
        out += String(describing: value)
      } else {
        out += "("
        for child in mirror.children {
          out += child.label ?? ""
          out += ":"
          describe(child.value, into: &out)
          out += ","
        }
        out += ")"
      }
    }
  }
}
