#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread` mutex.
///
/// The package (the kit, its testing library, the sample apps and the
/// tests) locks with this rather than `Mutex`: a contended `Mutex` on Linux
/// waits in a priority-inheritance futex, which the kernel hands over
/// without an atomic the thread sanitizer can see, so it would report the
/// value's accesses as races (it did, for the incrementing UUID generator's
/// count, under CI's load).
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
