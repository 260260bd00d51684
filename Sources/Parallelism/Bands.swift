import Dispatch

/// Parallel work over bands: `map(count:threads:_:)` runs `count` independent jobs on up to
/// `threads` threads (the caller's and dedicated ones) and returns their results in index order.
///
/// Jobs are taken in index order from a shared counter, so a slow band does not hold the others
/// back; each result is stored once, by its job, and read after every job has finished. The
/// result does not depend on `threads`.
///
/// ```swift
/// let sums = Bands.map(count: 8, threads: 2) { k in rows(k).reduce(0, +) }
/// ```
public enum Bands {
  /// Runs `body(0) ... body(count - 1)` and returns their results in order.
  public static func map<T: Sendable>(
    count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> T
  ) -> [T] {
    guard count > 0 else { return [] }
    let threads = Swift.max(1, Swift.min(threads, count))
    if threads == 1 { return (0..<count).map(body) }
    let monitor = Monitor(Work<T>(results: [T?](repeating: nil, count: count)))
    let work: @Sendable () -> Void = {
      while true {
        let k = monitor.update { w -> Int? in
          guard w.taken < count else { return nil }
          w.taken += 1
          return w.taken - 1
        }
        guard let k else { return }
        let result = body(k)
        monitor.update { $0.results[k] = result }
      }
    }
    let group = DispatchGroup()
    for t in 1..<threads { startThread("flipbook.bands.\(t)", group: group, work) }
    work()
    group.wait()
    return monitor.update { w in w.results.map { $0! } }
  }

  /// The next band to take and the results so far.
  private struct Work<T: Sendable>: Sendable {
    var results: [T?]
    var taken = 0
  }
}
