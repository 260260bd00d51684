import Dispatch
import Synchronization

/// One stage of a pipeline: inputs submitted in order are processed in order, by a state that
/// only the stage touches, on a dedicated thread (or, when `threaded` is false, at once on the
/// submitting thread: same results, no thread).
///
/// At most `capacity` inputs wait (`submit` blocks while the queue is full); outputs wait in
/// order until `takeReady()` or `finish()` collects them, so the caller does the rest of the work
/// (the GIF encoder: its LZW coding) while the stage works on the next input. The state moves
/// into the stage when it is made (`sending`) and lives in a `Mutex` that only the stage's thread
/// locks, once per input, until `finish()` has stopped that thread.
///
/// ```swift
/// let stage = SerialStage(state: Mapper(), capacity: 3, threaded: true) { mapper, frame in mapper.map(frame) }
/// for frame in frames { try stage.submit(frame); for out in stage.takeReady() { write(out) } }
/// for out in stage.finish() { write(out) }
/// ```
public final class SerialStage<State, Input: Sendable, Output: Sendable> {
  private let shared: Shared
  private let group = DispatchGroup()
  private let threaded: Bool
  private var finished = false

  /// What the stage's thread and its owner share: the state (only ever locked by one thread at a
  /// time: the stage's thread, or the owner when not threaded), the queue, and the body.
  fileprivate final class Shared: Sendable {
    let state: Mutex<State>
    let queue: Monitor<Queue>
    let capacity: Int
    let body: @Sendable (inout State, Input) -> Output

    init(
      state: sending State, capacity: Int, body: @escaping @Sendable (inout State, Input) -> Output
    ) {
      self.state = Mutex(state)
      queue = Monitor(Queue())
      self.capacity = capacity
      self.body = body
    }

    func process(_ input: Input) -> Output {
      state.withLock { state in body(&state, input) }
    }
  }

  /// The inputs waiting, the outputs made, and whether the thread is busy or told to stop.
  fileprivate struct Queue: Sendable {
    var inputs: [Input] = []
    var outputs: [Output] = []
    var busy = false
    var stopping = false
  }

  /// Makes a stage that runs `body` on each input with `state`.
  public init(
    state: sending State, capacity: Int = 3, threaded: Bool,
    body: @escaping @Sendable (inout State, Input) -> Output
  ) {
    precondition(capacity >= 1, "a stage holds at least one input")
    shared = Shared(state: state, capacity: capacity, body: body)
    self.threaded = threaded
    if threaded {
      let shared = self.shared
      startThread("flipbook.serial-stage", group: group) { SerialStage.loop(shared) }
    }
  }

  deinit {
    // A stage dropped before `finish()` stops its thread (queued inputs are abandoned).
    if threaded && !finished {
      shared.queue.update {
        $0.stopping = true; $0.inputs.removeAll()
      }
      group.wait()
    }
  }

  /// The thread's body: takes inputs in order until told to stop.
  private static func loop(_ shared: Shared) {
    while true {
      let next = shared.queue.wait { q -> Next? in
        if !q.inputs.isEmpty {
          q.busy = true
          return .input(q.inputs.removeFirst())
        }
        return q.stopping ? .stop : nil
      }
      guard case .input(let input) = next else { return }
      let output = shared.process(input)
      shared.queue.update { q in
        q.outputs.append(output)
        q.busy = false
      }
    }
  }

  private enum Next: Sendable {
    case input(Input)
    case stop
  }

  /// Queues `input`, waiting while `capacity` inputs are already queued (threaded), or processes
  /// it now (not threaded).
  public func submit(_ input: Input) {
    precondition(!finished, "submit after finish")
    inlet.submit(input)
  }

  /// A handle that submits inputs to this stage from another thread: from the body of the stage
  /// before it, so that a pipeline's stages pass work along without waiting for their owner.
  /// Submitting through it after `finish()` has begun is a programming error the stage does not
  /// check: the stage before must have finished first.
  public var inlet: Inlet { Inlet(shared: shared, threaded: threaded) }

  /// Submits inputs to a stage from any thread (see `inlet`).
  public struct Inlet: Sendable {
    fileprivate let shared: Shared
    fileprivate let threaded: Bool

    /// Queues `input`, waiting while the stage's queue is full (threaded), or processes it now
    /// on this thread (not threaded), as `SerialStage.submit(_:)` does.
    public func submit(_ input: Input) {
      guard threaded else {
        let output = shared.process(input)
        shared.queue.update { $0.outputs.append(output) }
        return
      }
      let capacity = shared.capacity
      _ = shared.queue.wait { q -> Bool? in
        guard q.inputs.count < capacity else { return nil }
        q.inputs.append(input)
        return true
      }
    }
  }

  /// The outputs made so far and not yet taken, in order, without waiting.
  public func takeReady() -> [Output] {
    shared.queue.update { q in
      defer { q.outputs.removeAll() }
      return q.outputs
    }
  }

  /// Waits until every input has been processed, stops the thread, and returns the outputs not
  /// yet taken, in order.
  public func finish() -> [Output] {
    guard !finished else { return [] }
    finished = true
    guard threaded else { return takeReady() }
    let outputs = shared.queue.wait { q -> [Output]? in
      guard q.inputs.isEmpty && !q.busy else { return nil }
      q.stopping = true
      defer { q.outputs.removeAll() }
      return q.outputs
    }
    group.wait()
    return outputs
  }
}
