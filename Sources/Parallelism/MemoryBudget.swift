/// Bytes shared by the threads of a process, given out a worker's worth at a time: how many
/// workers a parallel job may start so that the memory they hold together stays within
/// `limit`. Each job gets at least one worker (when others hold bytes it waits for them first,
/// so jobs running side by side, such as a batch's animations, share the one budget); a job
/// alone gets one worker even if that worker alone is over the limit (it is not refused here:
/// the frame size limits bound it).
public final class MemoryBudget: Sendable {
  /// The bytes given out at most at once, unless one worker alone needs more.
  public let limit: Int
  private let used: Monitor<Int>

  /// Creates a budget of `limit` bytes.
  public init(limit: Int) {
    self.limit = limit
    used = Monitor(0)
  }

  /// How many workers, from 1 to `wanted`, a job whose workers hold `bytesPerWorker` each may
  /// start now: waits until at least one fits (or nothing is given out), then takes the bytes
  /// for as many as fit. Give them back with `release(workers:bytesPerWorker:)`.
  public func acquire(workers wanted: Int, bytesPerWorker: Int) -> Int {
    let each = Swift.max(0, bytesPerWorker)
    return used.wait { used -> Int? in
      let free = limit - used
      guard used == 0 || each <= free else { return nil }
      let fit = each == 0 ? wanted : free / each
      let workers = Swift.max(1, Swift.min(Swift.max(1, wanted), fit))
      used += workers.multipliedReportingOverflow(by: each).partialValue
      return workers
    }
  }

  /// Gives back what `acquire` took.
  public func release(workers: Int, bytesPerWorker: Int) {
    let each = Swift.max(0, bytesPerWorker)
    used.update { $0 -= workers * each }
  }

  /// The bytes given out now.
  public var bytesInUse: Int { used.wait { $0 } }
}
