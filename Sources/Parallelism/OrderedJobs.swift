import Dispatch

/// Runs `count` indexed jobs on up to `threads` dedicated threads and hands their results to the
/// calling thread in index order, with back-pressure.
///
/// Thread `w` runs jobs `w`, `w + threads`, `w + 2 × threads`, ... in increasing order, each with
/// the per-thread state `makeState` built on that thread (so state that is not `Sendable`, such as
/// a scene and its canvas, never crosses threads). A job starts only when its index is below
/// `next + window`, `next` being the index the caller takes next: at most `window` results wait,
/// whatever `count` is. The results, and so anything built from them, do not depend on
/// `threads`. An error stops every thread and is rethrown: a job's, that of the lowest-indexed
/// job that fails (the jobs before it still run and are delivered), so which error is said does
/// not depend on `threads` or on timing either; the first from `makeState` or `deliver` at
/// once. `run` returns only after every thread has finished.
///
/// ```swift
/// try OrderedJobs.run(count: 300, threads: 2, window: 4, makeState: { try Worker() },
///                     job: { worker, i in try worker.frame(i) }) { i, frame in try sink(frame) }
/// ```
///
/// With `balanced: true` a thread takes the lowest index no thread has taken yet instead of
/// its fixed stride, so jobs of very different lengths (whole animations of a batch) keep every
/// thread busy; a job's result must then not depend on the per-thread state it ran with.
public enum OrderedJobs {
  /// Runs the jobs; with one thread (or one job) everything runs on the calling thread.
  public static func run<State, Output: Sendable>(
    count: Int, threads: Int, window: Int,
    balanced: Bool = false,
    makeState: @escaping @Sendable () throws -> State,
    job: @escaping @Sendable (inout State, Int) throws -> Output,
    deliver: (Int, Output) throws -> Void
  ) throws {
    guard count > 0 else { return }
    let threads = Swift.max(1, Swift.min(threads, count))
    if threads == 1 {
      var state = try makeState()
      for i in 0..<count { try deliver(i, try job(&state, i)) }
      return
    }
    precondition(window >= threads, "the window must let every thread run a job")
    let monitor = Monitor(Progress<Output>())
    let group = DispatchGroup()
    for w in 0..<threads {
      startThread("flipbook.ordered-jobs.\(w)", group: group) {
        do {
          var state = try makeState()
          var i = w
          while i < count {
            // Wait for room in the window; stop when anything failed.
            let taken = monitor.wait { p -> Int?? in
              if p.failure != nil { return .some(nil) }
              let end = p.firstFailedJob ?? count  // jobs past a failed one need not run
              if balanced {
                guard p.claimed < end else { return .some(nil) }
                guard p.claimed < p.next + window else { return nil }  // not yet: wait
                p.claimed += 1
                return p.claimed - 1
              }
              guard i < end else { return .some(nil) }
              guard i < p.next + window else { return nil }  // not yet: wait
              return i
            }
            guard let index = taken else { break }
            let output: Output
            do {
              output = try job(&state, index)
            } catch {
              // Said when the caller reaches it; this thread's later jobs are past it.
              monitor.update { p in
                p.jobErrors[index] = error
                p.firstFailedJob = Swift.min(p.firstFailedJob ?? index, index)
              }
              break
            }
            monitor.update { $0.ready[index] = output }
            i = balanced ? 0 : i + threads
          }
        } catch {
          monitor.update { p in if p.failure == nil { p.failure = error } }
        }
      }
    }
    // However this returns, stop the threads and wait for them.
    defer {
      monitor.update { p in if p.failure == nil { p.failure = Stopped() } }
      group.wait()
    }
    for i in 0..<count {
      let taken = monitor.wait { p -> Result<Output, any Error>? in
        if let failure = p.failure { return .failure(failure) }
        if let error = p.jobErrors[i] { return .failure(error) }
        guard let output = p.ready.removeValue(forKey: i) else { return nil }
        p.next = i + 1
        return .success(output)
      }
      let output = try taken.get()
      do {
        try deliver(i, output)
      } catch {
        monitor.update { p in if p.failure == nil { p.failure = error } }
        throw error
      }
    }
  }

  /// What the threads share (inside the monitor).
  private struct Progress<Output: Sendable>: Sendable {
    /// Finished results not yet taken, by index.
    var ready: [Int: Output] = [:]
    /// The index the caller takes next.
    var next = 0
    /// Balanced runs: how many indices threads have taken (the next one to take).
    var claimed = 0
    /// The first error from `makeState` or `deliver`; set, it stops every thread.
    var failure: (any Error)? = nil
    /// The errors of failed jobs, by index, and the lowest such index: no job past it starts.
    var jobErrors: [Int: any Error] = [:]
    var firstFailedJob: Int? = nil
  }

  /// Tells the threads to stop once the caller is done (not an error anyone sees).
  private struct Stopped: Error {}
}
