import Dispatch
import Synchronization

/// A value guarded by a mutex that threads can wait on: the one waiting primitive under
/// `OrderedJobs`, `SerialStage` and `Bands`.
///
/// Built from `Mutex` and one `DispatchSemaphore` per waiting call, with no condition variable:
/// - `state` is read and written only inside `Mutex.withLock`.
/// - A waiter checks its condition and, when it does not hold, registers its own semaphore in
///   `sleepers` in the same critical section, then waits on that semaphore outside the lock.
///   Every change (`update`, or a `wait` whose check succeeded, which may have changed the state)
///   removes every registered semaphore and signals it once, inside the lock. So a change made
///   after a waiter's check always finds the waiter registered: no wake-up is lost.
/// - A semaphore is registered at most once per sleep and signalled only when removed, so its
///   count never exceeds 1 and the waiter's next `wait()` consumes it; when `wait` returns its
///   semaphore is neither registered nor signalled (and is back at its initial value, as
///   libdispatch requires when it is freed).
/// - Waiters re-check their condition after every wake-up: wake-ups may be spurious.
/// - ThreadSanitizer cannot see `Mutex`'s ordering on Linux when the lock is contended (its
///   slow path waits on a futex in the uninstrumented standard library) and reports the guarded
///   state as raced. So every critical section also does an acquiring load of `order` at its
///   start and a releasing increment at its end: redundant for the hardware (the mutex already
///   orders them), visible to the sanitizer.
/// Waits block a thread: call `wait` only on dedicated threads (the callers' threads, or the
/// `DispatchQueue`s these helpers create), never on Swift concurrency's cooperative pool.
final class Monitor<State: Sendable>: Sendable {
  private struct Guarded: Sendable {
    var state: State
    var sleepers: [DispatchSemaphore] = []
  }
  private let guarded: Mutex<Guarded>
  /// Tells ThreadSanitizer what the mutex orders (see above).
  private let order = Atomic<Int>(0)

  init(_ state: State) { guarded = Mutex(Guarded(state: state)) }

  /// Runs `body` holding the lock, with the sanitizer's ordering around it.
  private func locked<R: Sendable>(_ body: (inout Guarded) -> R) -> R {
    guarded.withLock { g in
      _ = order.load(ordering: .acquiring)
      defer { order.wrappingAdd(1, ordering: .releasing) }
      return body(&g)
    }
  }

  /// Changes the state under the lock and wakes every waiter.
  @discardableResult
  func update<R: Sendable>(_ body: (inout State) -> R) -> R {
    locked { g in
      let result = body(&g.state)
      Monitor.wakeAll(&g)
      return result
    }
  }

  /// Blocks until `check` returns a value (it runs under the lock and may change the state),
  /// then returns that value.
  func wait<R: Sendable>(until check: (inout State) -> R?) -> R {
    let semaphore = DispatchSemaphore(value: 0)
    while true {
      let result: R? = locked { g in
        if let result = check(&g.state) {
          Monitor.wakeAll(&g)
          return result
        }
        g.sleepers.append(semaphore)
        return nil
      }
      if let result { return result }
      semaphore.wait()
    }
  }

  private static func wakeAll(_ g: inout Guarded) {
    for sleeper in g.sleepers { sleeper.signal() }
    g.sleepers.removeAll(keepingCapacity: true)
  }
}

/// Starts `body` on a dedicated thread (a serial `DispatchQueue` of its own, which libdispatch
/// backs with an overcommitting thread, so blocking in it never starves other work) as part of
/// `group`.
func startThread(_ label: String, group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
  DispatchQueue(label: label).async(group: group, execute: body)
}
