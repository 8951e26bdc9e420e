#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread` mutex.
///
/// The kit locks with `pthread` rather than `Mutex` where threads contend
/// (the store's save thread, the registry of the kit's tasks): a contended
/// `Mutex` waits in a futex that the thread sanitizer cannot see, so it
/// would report the value's accesses as races.
package final class _Locked<Value>: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var value: Value

  package init(_ value: Value) {
    self.value = value
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, holding the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
