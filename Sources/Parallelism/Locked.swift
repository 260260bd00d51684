import Synchronization

/// A value guarded by a `Mutex` whose ordering ThreadSanitizer can see.
///
/// `Mutex`'s slow path waits on a futex inside the uninstrumented standard library, so under
/// contention ThreadSanitizer reports the guarded value as raced (see `Monitor`). Every critical
/// section here also does an acquiring load of `order` at its start and a releasing increment at
/// its end: redundant for the hardware, visible to the sanitizer. Use it for state shared by
/// rendering threads (caches, recordings).
package final class Locked<Value: ~Copyable>: Sendable {
  private let mutex: Mutex<Value>
  private let order = Atomic<Int>(0)

  /// Guards `value`.
  package init(_ value: consuming sending Value) { mutex = Mutex(value) }

  /// Runs `body` with the value, holding the lock.
  package func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      _ = order.load(ordering: .acquiring)
      defer { order.wrappingAdd(1, ordering: .releasing) }
      return try body(&value)
    }
  }
}
