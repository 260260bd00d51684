import Dynamics
import Foundation
import LayerTree
import Geometry

/// Why a scene could not show a time.
public enum SceneError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A number of seconds as a message shows it: whole numbers without a fraction.
  static func text(_ x: Double) -> String { shortestNumber(x) }

  /// The scene's timeline has already run past `requested` and the scene has no builder to
  /// make a replica that shows it (events mutate the model, which only moves forward).
  case timeWentBackwards(current: Double, requested: Double)
  /// The scene has no builder, so it cannot make replicas (to render on other threads).
  case notReplicable
  /// The closure given to `Scene.rebuild(with:)` failed with this message.
  case rebuildFailed(String)
  /// A layer of the scene was given an animation `Layer.add(_:forKey:)` refused (an unknown key
  /// path or a value of the wrong kind); the scene does not render until it is fixed.
  case invalidAnimation(AnimationKeyPathError)
  /// The scene simulates (dynamics, timeline events or display-link hooks) and `requested` is
  /// past `Scene.maximumSimulatedTime`: reaching it would step the simulation for hours.
  case simulatedTimeTooLong(requested: Double, limit: Double)
  /// The scene's dynamics did `DynamicAnimator.maximumCollisionWork` (or more than
  /// `DynamicAnimator.maximumStepWork` in one step) before reaching `requested` (seconds), at
  /// `reached`: so many items in contact, or attachments, for so long would take many minutes
  /// (or gigabytes) to simulate.
  case simulationTooCostly(requested: Double, reached: Double)
  /// The scene's dynamics overflowed at `reached` seconds (an item's position stopped being a
  /// finite number) before `requested`.
  case simulationDiverged(requested: Double, reached: Double)

  /// A one-line message.
  public var description: String {
    switch self {
    case .timeWentBackwards(let current, let requested):
      return
        "the scene's timeline has run to \(current) s and cannot show \(requested) s; build the scene with Scene(size:...) { scene in ... } so it can rewind"
    case .notReplicable:
      return
        "the scene was built without a builder and cannot be copied for other threads; build it with Scene(size:...) { scene in ... }"
    case .rebuildFailed(let message):
      return "the scene could not be built again: \(message)"
    case .invalidAnimation(let error):
      return error.description
    case .simulationDiverged(let requested, let reached):
      let shown = SceneError.text((reached * 100).rounded(.down) / 100)
      return "the dynamics overflow at \(shown) s, before the \(SceneError.text(requested)) s "
        + "asked for: an item's position is no longer a finite number (velocities, forces, "
        + "frequencies or friction too large)"
    case .simulationTooCostly(let requested, let reached):
      let shown = SceneError.text((reached * 100).rounded(.down) / 100)
      // One short line: what the units count is the README's (Limits, collision work).
      return "the dynamics reach only \(shown) s of \(SceneError.text(requested)) s within "
        + "\(DynamicAnimator.maximumCollisionWork / 1_000_000) million units of collision work "
        + "(\(DynamicAnimator.maximumStepWork / 1_000_000) million a step): use fewer colliding "
        + "items, boundary segments or attachments, or a shorter time"
    case .simulatedTimeTooLong(let requested, _):
      return "the time \(SceneError.text(requested)) s is \(descriptionAfterTime)"
    }
  }

  /// The message for a caller that has said the time it is about already (`at 3600.05 s (frame
  /// 1): past the limit ...`): without the time, for the errors that name it first.
  public var descriptionAfterTime: String {
    guard case .simulatedTimeTooLong(_, let limit) = self else { return description }
    return "past the limit of \(SceneError.text(limit)) s for a scene that simulates (dynamics, "
      + "timeline events or display-link hooks step through every instant before it)"
  }
}

extension Scene {
  /// The rate of `onFrame` hooks: 60 ticks per second of scene time, as a display link on a
  /// 60 Hz screen, whatever the output frame rate.
  public static let displayLinkRate = 60

  /// The latest time a scene that simulates (dynamics, timeline events, display-link hooks) may
  /// show: one hour, `maximumDuration`. Such a scene reaches a time by stepping through every
  /// instant before it, so a later time is refused (`SceneError.simulatedTimeTooLong`) rather
  /// than simulated for hours. Scenes that only animate show any time.
  public static let maximumSimulatedTime: Double = maximumDuration

  /// The most body steps (dynamic items x steps at 240 a second) a scene's dynamics may
  /// simulate: 20,000,000, about 1 GB of recorded states. A scene with many items reaches
  /// `maximumSimulatedTime` sooner: 10,000 items may be simulated for 8 s.
  public static let maximumSimulatedBodySteps = 20_000_000

  /// The bytes the scene's dynamics recording holds once it has been simulated to `time`
  /// (seconds): each body's state after every step, `MemoryLayout<DynamicItemState>.stride`
  /// (48) bytes a body a step, within `maximumSimulatedBodySteps` (about 1 GB); 0 for a scene
  /// without dynamics. A batch counts it before rendering, so that animations side by side
  /// whose simulations are long wait for one another (eight 670 KB scenes of 5,000 items
  /// simulated for 16 s held 7.1 GB at `--jobs 8`).
  public func simulationMemory(through time: Double) -> Int {
    guard let animator = dynamicAnimatorIfUsed, time > 0 else { return 0 }
    let bodies = Swift.max(1, animator.dynamicItems.count)
    let steps = Swift.min(
      (Swift.min(time, Scene.maximumSimulatedTime) * Double(DynamicAnimator.stepsPerSecond))
        .rounded(.up),
      Double(Scene.maximumSimulatedBodySteps / bodies))
    return (Int(steps) + 1) * bodies * MemoryLayout<DynamicItemState>.stride
  }

  /// Runs `action` once, at scene time `time` (seconds), before any frame at or after that time
  /// is shown. The action receives the time it runs for; it may add and remove layers, add
  /// animations, or schedule more events.
  public func at(_ time: Double, _ action: @escaping (_ time: Double) -> Void) {
    precondition(time.isFinite, "Event times must be finite, got \(time)")
    timeline.append(
      TimelineEvent(start: time, interval: nil, action: action, order: timeline.count))
  }

  /// Runs `action` at `start` and then every `interval` seconds, forever (as a repeating
  /// `NSTimer`, whose first firing is one interval after it is scheduled: `start` defaults to
  /// `interval`). Occurrence k runs at `start + k * interval`, computed, never accumulated.
  public func every(
    _ interval: Double, startingAt start: Double? = nil,
    _ action: @escaping (_ time: Double) -> Void
  ) {
    precondition(
      interval > 0 && interval.isFinite,
      "A repeating event needs an interval greater than 0, got \(interval)")
    timeline.append(
      TimelineEvent(
        start: start ?? interval, interval: interval, action: action, order: timeline.count))
  }

  /// Runs `action` on every tick of a 60 Hz display link (`CADisplayLink`): at scene times
  /// `k / 60` for k = 0, 1, 2, ..., whatever the output frame rate, with that time. Use it to
  /// update model properties each frame, such as a shape's path.
  public func onFrame(_ action: @escaping (_ time: Double) -> Void) {
    displayLinkHooks.append(action)
  }

  /// Whether the scene has timeline events or display-link hooks (so its model changes over
  /// time, and an earlier time than `modelTime` is shown by a replica).
  public var hasTimeline: Bool { !timeline.isEmpty || !displayLinkHooks.isEmpty }

  /// The latest time the scene may be shown at, when it simulates: `maximumSimulatedTime`,
  /// or sooner with many dynamic items (each step of each body is simulated and kept, 48
  /// bytes: `maximumSimulatedBodySteps` in all); `nil` when nothing simulates. Known once the
  /// scene is read, so a command can refuse a time before it shows any.
  public var simulatedTimeLimit: Double? {
    var limit: Double? = hasTimeline ? Scene.maximumSimulatedTime : nil
    if let animator = dynamicAnimatorIfUsed {
      let bodies = Double(Swift.max(1, animator.dynamicItems.count))
      let stepsPerSecond = Double(DynamicAnimator.stepsPerSecond)
      let byMemory = Double(Scene.maximumSimulatedBodySteps) / (stepsPerSecond * bodies)
      limit = Swift.min(Scene.maximumSimulatedTime, byMemory.rounded(.down))
    }
    return limit
  }

  /// Runs every timeline event and display-link tick due at or before `time` that has not run
  /// yet, in time order (at equal times: events in the order they were scheduled, then the
  /// display link).
  ///
  /// This moves this instance's model, which only moves forward; `presentationTree(at:)` and
  /// `makeFrame(at:)` show any time.
  ///
  /// - Throws: `SceneError.timeWentBackwards` when the scene has timeline events or hooks and
  ///   has already run past `time`; `SceneError.simulatedTimeTooLong` past
  ///   `simulatedTimeLimit`.
  public func advance(to time: Double) throws(SceneError) {
    if let limit = simulatedTimeLimit, time > limit {
      throw .simulatedTimeTooLong(requested: time, limit: limit)
    }
    if time < modelTime {
      if !hasTimeline {
        try advanceDynamics(to: time)  // looked up in the recording
        return
      }
      throw .timeWentBackwards(current: modelTime, requested: time)
    }
    while true {
      var next: Double = .infinity
      var eventIndex: Int? = nil
      for (i, event) in timeline.enumerated() {
        let t = event.nextTime
        if t <= time && t < next {
          next = t
          eventIndex = i
        }
      }
      let tick = Double(nextTick) / Double(Scene.displayLinkRate)
      let tickDue = !displayLinkHooks.isEmpty && tick <= time && tick < next
      if tickDue {
        nextTick += 1
        // Hooks see the simulation as it is at their time (to draw ropes to moving balls).
        try advanceDynamics(to: tick)
        for hook in displayLinkHooks { hook(tick) }
        continue
      }
      guard let i = eventIndex else { break }
      let t = timeline[i].nextTime
      timeline[i].occurrence += 1
      try advanceDynamics(to: t)
      timeline[i].action(t)
    }
    modelTime = time
    try advanceDynamics(to: time)
  }

  /// Moves the dynamics to `time`, refusing it when the simulation runs out of collision work
  /// on the way.
  private func advanceDynamics(to time: Double) throws(SceneError) {
    guard let animator = dynamicAnimatorIfUsed else { return }
    animator.advance(to: time)
    if animator.diverged {
      throw .simulationDiverged(requested: time, reached: animator.elapsedTime)
    }
    if animator.reachedWorkLimit {
      let reached =
        animator.refusedUpFront
        ? Double(animator.lastAffordableStep) / Double(DynamicAnimator.stepsPerSecond)
        : animator.elapsedTime
      throw .simulationTooCostly(requested: time, reached: reached)
    }
  }
}

/// A scheduled action: once (`interval` nil) or repeating.
struct TimelineEvent {
  let start: Double
  let interval: Double?
  let action: (Double) -> Void
  let order: Int
  var occurrence = 0

  /// When the next occurrence runs (infinity when a one-off event has run).
  var nextTime: Double {
    if let interval { return start + Double(occurrence) * interval }
    return occurrence == 0 ? start : .infinity
  }
}

/// How to make a scene: a closure that makes a new, identical instance each time it is called.
///
/// A `Scene` is a class that belongs to one thread; a recipe is the `Sendable` value that
/// crosses threads, which is why it stays: each worker of a parallel render calls it for its
/// own instance (`FrameRenderer`, `Export`). Get one from a scene built by a builder with
/// `Scene.recipe` (or pass the scene to `FrameRenderer(scene:scale:jobs:)`), or write one; the
/// closure must be deterministic (seed any random generator inside it).
public struct SceneRecipe: Sendable {
  /// Makes a new instance.
  public let make: @Sendable () throws -> Scene

  /// Creates a recipe from a closure that builds the scene.
  public init(_ make: @escaping @Sendable () throws -> Scene) {
    self.make = make
  }

  /// A recipe whose first instance is `first`, a scene made as `make` makes them that nothing
  /// else uses any more (the one a command read to check the file, say): it is not made again.
  /// Later instances come from `make`.
  public init(first: Scene, then make: @escaping @Sendable () throws -> Scene) {
    let held = HeldScene(first)
    self.init { try held.take() ?? make() }
  }

  /// A recipe whose instances record their dynamics in `recording`: sound for any scenes,
  /// since a recording shares a simulation only between identical starting worlds, and it makes
  /// the instances of one render (one per thread) step each simulation once.
  func recording(into recording: DynamicsRecording) -> SceneRecipe {
    SceneRecipe { [make] in
      let scene = try make()
      scene.adopt(recording)
      return scene
    }
  }
}

/// How to make replicas of a scene, on any thread: fresh instances, built the way the scene
/// was, that record dynamics in the scene's recording.
struct SceneBlueprint: Sendable {
  /// A scene's settings: those a builder's scene starts with, or those a replica takes.
  struct Settings: Sendable {
    var size: Size
    var scale: Double
    var duration: Double
    var fps: Double
    var backgroundColor: Color?
    var loopCount: Int

    /// The settings of `scene`.
    init(of scene: Scene) {
      (size, scale, duration, fps) = (scene.size, scene.scale, scene.duration, scene.fps)
      (backgroundColor, loopCount) = (scene.backgroundColor, scene.loopCount)
    }

    /// Gives `scene` these settings.
    func apply(to scene: Scene) {
      (scene.size, scene.scale, scene.duration, scene.fps) = (size, scale, duration, fps)
      (scene.backgroundColor, scene.loopCount) = (backgroundColor, loopCount)
    }
  }

  enum Source: Sendable {
    /// A new scene with these settings, given to the builder.
    case builder(Settings, @Sendable (Scene) -> Void)
    /// A closure that builds the whole scene.
    case rebuild(@Sendable () throws -> Scene)
  }

  let source: Source
  let recording: DynamicsRecording

  /// A new instance, at no time yet (`modelTime` is -infinity).
  func makeInstance() throws -> Scene {
    let scene: Scene
    switch source {
    case .builder(let s, let build):
      scene = Scene(
        size: s.size, scale: s.scale, duration: s.duration, fps: s.fps,
        backgroundColor: s.backgroundColor, loopCount: s.loopCount)
      scene.adopt(recording)
      build(scene)
    case .rebuild(let make):
      scene = try make()
      scene.adopt(recording)
    }
    scene.blueprint = self
    return scene
  }
}

/// A scene handed once to whichever thread asks first (`SceneRecipe.init(first:then:)`).
private final class HeldScene: @unchecked Sendable {
  private let lock = NSLock()
  private var scene: Scene?

  init(_ scene: Scene) { self.scene = scene }

  /// The scene the first time, then `nil`.
  func take() -> Scene? {
    lock.lock()
    defer { lock.unlock() }
    let taken = scene
    scene = nil
    return taken
  }
}
