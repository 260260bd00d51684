import Glibc

/// One background thread that runs submitted jobs in order, at most `capacity` queued at once
/// (a submitter waits for room). The GIF encoder uses it to code frames while the next one is
/// being prepared. Errors stop the worker; the next `submit` or `drain` throws the first one.
final class SerialWorker<Failure: Error>: @unchecked Sendable {
  // Every field below is read and written with `mutex` held.
  private var mutex = pthread_mutex_t()
  private var changed = pthread_cond_t()
  private var jobs: [() throws(Failure) -> Void] = []
  private var running = false
  private var stopping = false
  private var failure: Failure? = nil
  private var thread = pthread_t()
  private let capacity: Int

  init(capacity: Int = 3) {
    self.capacity = capacity
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&changed, nil)
  }

  /// Starts the thread; call once, before `submit`.
  func start() {
    var handle = pthread_t()
    pthread_create(&handle, nil, serialWorkerEntry, Unmanaged.passRetained(self as AnyObject).toOpaque())
    thread = handle
  }

  /// The thread's body (called through `serialWorkerEntry`).
  func run() { loop() }

  deinit {
    pthread_cond_destroy(&changed)
    pthread_mutex_destroy(&mutex)
  }

  private func loop() {
    pthread_mutex_lock(&mutex)
    while true {
      while jobs.isEmpty && !stopping { pthread_cond_wait(&changed, &mutex) }
      if jobs.isEmpty && stopping { break }
      let job = jobs.removeFirst()
      running = true
      pthread_mutex_unlock(&mutex)
      var error: Failure? = nil
      do throws(Failure) { try job() } catch let e { error = e }
      pthread_mutex_lock(&mutex)
      running = false
      if let error, failure == nil {
        failure = error
        jobs.removeAll()
      }
      pthread_cond_broadcast(&changed)
    }
    pthread_mutex_unlock(&mutex)
  }

  /// Queues `job`, waiting while the queue is full.
  func submit(_ job: @escaping () throws(Failure) -> Void) throws(Failure) {
    pthread_mutex_lock(&mutex)
    while jobs.count >= capacity && failure == nil { pthread_cond_wait(&changed, &mutex) }
    if let failure {
      pthread_mutex_unlock(&mutex)
      throw failure
    }
    jobs.append(job)
    pthread_cond_broadcast(&changed)
    pthread_mutex_unlock(&mutex)
  }

  /// Waits until every queued job has run, then stops the thread.
  func drain() throws(Failure) {
    pthread_mutex_lock(&mutex)
    while (!jobs.isEmpty || running) && failure == nil { pthread_cond_wait(&changed, &mutex) }
    stopping = true
    pthread_cond_broadcast(&changed)
    let failure = self.failure
    pthread_mutex_unlock(&mutex)
    pthread_join(thread, nil)
    if let failure { throw failure }
  }
}

/// What the worker threads start in: runs the worker passed as context.
private func serialWorkerEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  let object = Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue()
  (object as? SerialWorkerRunnable)?.run()
  return nil
}

/// Lets the entry point run a worker whatever its failure type.
protocol SerialWorkerRunnable: AnyObject {
  func run()
}

extension SerialWorker: SerialWorkerRunnable {}
