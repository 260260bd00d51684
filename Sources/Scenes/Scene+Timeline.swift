/// Why a scene could not show a time.
public enum SceneError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The scene's timeline has already run past `requested`: events mutate the model, so an
  /// earlier instant needs a new scene instance (see `SceneRecipe`).
  case timeWentBackwards(current: Double, requested: Double)

  /// A one-line message.
  public var description: String {
    switch self {
    case .timeWentBackwards(let current, let requested):
      return "the scene's timeline has run to \(current) s and cannot show \(requested) s; build a new instance of the scene"
    }
  }
}

extension Scene {
  /// The rate of `onFrame` hooks: 60 ticks per second of scene time, as a display link on a
  /// 60 Hz screen, whatever the output frame rate.
  public static let displayLinkRate = 60

  /// Runs `action` once, at scene time `time` (seconds), before any frame at or after that time
  /// is shown. The action receives the time it runs for; it may add and remove layers, add
  /// animations, or schedule more events.
  public func at(_ time: Double, _ action: @escaping (_ time: Double) -> Void) {
    precondition(time.isFinite, "Event times must be finite, got \(time)")
    timeline.append(TimelineEvent(start: time, interval: nil, action: action, order: timeline.count))
  }

  /// Runs `action` at `start` and then every `interval` seconds, forever (as a repeating
  /// `NSTimer`, whose first firing is one interval after it is scheduled: `start` defaults to
  /// `interval`). Occurrence k runs at `start + k * interval`, computed, never accumulated.
  public func every(_ interval: Double, startingAt start: Double? = nil, _ action: @escaping (_ time: Double) -> Void) {
    precondition(interval > 0 && interval.isFinite, "A repeating event needs an interval greater than 0, got \(interval)")
    timeline.append(TimelineEvent(start: start ?? interval, interval: interval, action: action, order: timeline.count))
  }

  /// Runs `action` on every tick of a 60 Hz display link (`CADisplayLink`): at scene times
  /// `k / 60` for k = 0, 1, 2, ..., whatever the output frame rate, with that time. Use it to
  /// update model properties each frame, such as a shape's path.
  public func onFrame(_ action: @escaping (_ time: Double) -> Void) {
    displayLinkHooks.append(action)
  }

  /// Whether the scene has timeline events or display-link hooks (so its model changes over
  /// time and frames must be made in increasing time order on one instance).
  public var hasTimeline: Bool { !timeline.isEmpty || !displayLinkHooks.isEmpty }

  /// Runs every timeline event and display-link tick due at or before `time` that has not run
  /// yet, in time order (at equal times: events in the order they were scheduled, then the
  /// display link).
  ///
  /// - Throws: `SceneError.timeWentBackwards` when the scene has already run past `time`.
  public func advance(to time: Double) throws(SceneError) {
    if time < modelTime {
      if !hasTimeline {
        dynamicAnimatorIfUsed?.advance(to: time)  // the simulation replays from the start
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
        dynamicAnimatorIfUsed?.advance(to: tick)
        for hook in displayLinkHooks { hook(tick) }
        continue
      }
      guard let i = eventIndex else { break }
      let t = timeline[i].nextTime
      timeline[i].occurrence += 1
      dynamicAnimatorIfUsed?.advance(to: t)
      timeline[i].action(t)
    }
    modelTime = time
    dynamicAnimatorIfUsed?.advance(to: time)
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

/// How to build a scene: a closure that makes a new, identical instance each time it is called.
///
/// Renders that need several instances use it: each worker of a parallel render gets its own,
/// and showing an earlier time than a scene's timeline has reached builds a fresh one. The
/// closure must be deterministic (seed any random generator inside it).
public struct SceneRecipe: Sendable {
  /// Makes a new instance.
  public let make: @Sendable () throws -> Scene

  /// Creates a recipe from a closure that builds the scene.
  public init(_ make: @escaping @Sendable () throws -> Scene) {
    self.make = make
  }
}
