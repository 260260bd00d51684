import Foundation
import Parallelism
import Synchronization
import Testing

@Suite struct OrderedJobsTests {
  @Test(arguments: [1, 2, 3, 8])
  func deliversEveryResultInOrder(threads: Int) throws {
    var seen: [Int] = []
    try OrderedJobs.run(
      count: 100, threads: threads, window: 2 * threads, makeState: { 0 },
      job: { calls, i in
        calls += 1
        return i * i
      }
    ) { i, square in
      #expect(square == i * i)
      seen.append(i)
    }
    #expect(seen == Array(0..<100))
  }

  /// Balanced: threads take the next free index, whatever the jobs' lengths; the results still
  /// come in order, each index exactly once, and no thread runs past the window.
  @Test(arguments: [1, 2, 3])
  func balancedRunsDeliverEveryResultOnceInOrder(threads: Int) throws {
    let runs = Mutex([Int](repeating: 0, count: 60))
    let next = Atomic<Int>(0)
    let violations = Atomic<Int>(0)
    var seen: [Int] = []
    try OrderedJobs.run(
      count: 60, threads: threads, window: threads + 1, balanced: true, makeState: { () },
      job: { _, i in
        if i > next.load(ordering: .acquiring) + threads + 1 {
          violations.add(1, ordering: .relaxed)
        }
        runs.withLock { $0[i] += 1 }
        var x = 0
        for k in 0..<(i % 7 == 0 ? 200_000 : 10) { x &+= k }  // some jobs are much longer
        return i + (x & 0)
      }
    ) { i, value in
      #expect(value == i)
      seen.append(i)
      next.store(i + 1, ordering: .releasing)
    }
    #expect(seen == Array(0..<60))
    #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 60))
    #expect(violations.load(ordering: .relaxed) == 0)
  }

  /// A job starts only below `next + window`, `next` being taken before delivery: at most one
  /// past the count delivered so far (`delivered + window`).
  @Test func neverRunsMoreThanTheWindowAhead() throws {
    let next = Atomic<Int>(0)
    let violations = Atomic<Int>(0)
    try OrderedJobs.run(
      count: 200, threads: 3, window: 4, makeState: { () },
      job: { _, i in
        if i > next.load(ordering: .acquiring) + 4 { violations.add(1, ordering: .relaxed) }
        return i
      }
    ) { i, _ in next.store(i + 1, ordering: .releasing) }
    #expect(violations.load(ordering: .relaxed) == 0)
  }

  struct Boom: Error, Equatable { var index: Int }

  @Test func aJobErrorStopsEverything() {
    var delivered = 0
    #expect(throws: Boom(index: 7)) {
      try OrderedJobs.run(
        count: 1000, threads: 2, window: 4, makeState: { () },
        job: { _, i in
          if i == 7 { throw Boom(index: 7) }
          return i
        }
      ) { _, _ in delivered += 1 }
    }
    #expect(delivered <= 7)
  }

  /// Seventeenth hostile pass: the error said was the first in time, so a render whose frames
  /// 6 and 7 both fail named frame 6 or 7 by the threads' timing. The lowest-indexed job's
  /// error is said, whatever the threads and timing, after the jobs before it are delivered.
  @Test(arguments: [2, 3, 8])
  func theLowestFailingJobsErrorIsSaid(threads: Int) {
    var delivered: [Int] = []
    #expect(throws: Boom(index: 7)) {
      try OrderedJobs.run(
        count: 1000, threads: threads, window: 2 * threads, makeState: { () },
        job: { _, i in
          if i == 7 {
            usleep(50_000)  // the later failures come first in time
            throw Boom(index: 7)
          }
          if i > 7 { throw Boom(index: i) }
          return i
        }
      ) { i, _ in delivered.append(i) }
    }
    #expect(delivered == Array(0..<7))
  }

  @Test func aDeliveryErrorStopsEverything() {
    #expect(throws: Boom(index: 3)) {
      try OrderedJobs.run(count: 1000, threads: 2, window: 4, makeState: { () }, job: { _, i in i })
      { i, _ in
        if i == 3 { throw Boom(index: 3) }
      }
    }
  }

  @Test func aStateErrorStopsEverything() {
    #expect(throws: Boom(index: -1)) {
      try OrderedJobs.run(
        count: 10, threads: 2, window: 4, makeState: { () throws -> Int in throw Boom(index: -1) },
        job: { _, i in i }
      ) { _, _ in }
    }
  }
}

@Suite struct SerialStageTests {
  @Test(arguments: [false, true])
  func processesInOrderWithItsOwnState(threaded: Bool) {
    let stage = SerialStage<[Int], Int, Int>(state: [], capacity: 2, threaded: threaded) {
      seen, x in
      seen.append(x)
      return seen.count * 1000 + x
    }
    var outputs: [Int] = []
    for x in 0..<50 {
      stage.submit(x)
      outputs += stage.takeReady()
    }
    outputs += stage.finish()
    #expect(outputs == (0..<50).map { ($0 + 1) * 1000 + $0 })
  }

  @Test func aStageDroppedUnfinishedStopsItsThread() {
    var stage: SerialStage<Int, Int, Int>? = SerialStage(state: 0, capacity: 1, threaded: true) {
      n, x in
      n += x
      return n
    }
    stage?.submit(1)
    stage = nil
    #expect(stage == nil)
  }
}

@Suite struct BandsTests {
  @Test(arguments: [1, 2, 5])
  func returnsResultsInOrder(threads: Int) {
    #expect(Bands.map(count: 37, threads: threads) { $0 * 3 } == (0..<37).map { $0 * 3 })
    #expect(Bands.map(count: 0, threads: threads) { $0 }.isEmpty)
  }
}

/// The memory a parallel job's workers may hold together.
@Suite struct MemoryBudgetTests {
  @Test func givesAsManyWorkersAsFitAndAtLeastOne() {
    let budget = MemoryBudget(limit: 100)
    #expect(budget.acquire(workers: 16, bytesPerWorker: 30) == 3)
    #expect(budget.bytesInUse == 90)
    #expect(budget.acquire(workers: 4, bytesPerWorker: 10) == 1)  // the 10 bytes left
    budget.release(workers: 1, bytesPerWorker: 10)
    budget.release(workers: 3, bytesPerWorker: 30)
    #expect(budget.bytesInUse == 0)
    // One worker over the whole budget still runs when it is alone.
    #expect(budget.acquire(workers: 8, bytesPerWorker: 500) == 1)
    budget.release(workers: 1, bytesPerWorker: 500)
    #expect(budget.acquire(workers: 5, bytesPerWorker: 0) == 5)
  }

  /// A job that does not fit waits until the bytes are given back, then runs.
  @Test func waitsForTheBytesOthersHold() async {
    let budget = MemoryBudget(limit: 100)
    #expect(budget.acquire(workers: 1, bytesPerWorker: 80) == 1)
    let got = Atomic<Int>(0)
    let waiter = Thread {
      got.store(budget.acquire(workers: 4, bytesPerWorker: 40), ordering: .sequentiallyConsistent)
    }
    waiter.start()
    try? await Task.sleep(for: .milliseconds(100))
    #expect(got.load(ordering: .sequentiallyConsistent) == 0)
    budget.release(workers: 1, bytesPerWorker: 80)
    while got.load(ordering: .sequentiallyConsistent) == 0 { await Task.yield() }
    #expect(got.load(ordering: .sequentiallyConsistent) == 2)
  }
}
