#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock and a condition, on the monotonic clock: what a store's save
/// thread sleeps on.
///
/// Built on `pthread` directly, not on Dispatch or Swift concurrency: a
/// store's save must make progress when every worker of those pools is busy
/// or blocked, and its delay must not move with the wall clock.
final class _SaveSignal: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    #if canImport(Darwin)
    pthread_cond_init(condition, nil)
    #else
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
    #endif
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Runs `body` holding the lock.
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Wakes the thread that waits; call it holding the lock.
  func signal() {
    pthread_cond_broadcast(condition)
  }

  /// Waits, holding the lock (released while waiting), until signalled or,
  /// if given, until `deadline` (nanoseconds of ``now``); it may also wake
  /// early, so the caller checks its state again.
  func wait(until deadline: UInt64?) {
    guard let deadline else {
      pthread_cond_wait(condition, mutex)
      return
    }
    #if canImport(Darwin)
    let remaining = deadline > Self.now ? deadline - Self.now : 0
    var interval = timespec(
      tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
    pthread_cond_timedwait_relative_np(condition, mutex, &interval)
    #else
    var time = timespec(
      tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    pthread_cond_timedwait(condition, mutex, &time)
    #endif
  }

  /// The monotonic clock, in nanoseconds.
  static var now: UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}

/// Starts a thread of its own that runs `body`, detached: it ends when
/// `body` returns.
///
/// - Returns: Whether the thread started.
func _startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
  final class Box: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  #if canImport(Darwin)
  var thread: pthread_t?
  #else
  var thread = pthread_t()
  #endif
  let result = pthread_create(
    &thread, nil,
    { context in
      // `context` is optional on some platforms, not on others.
      let pointer: UnsafeMutableRawPointer? = context
      guard let pointer else { return nil }
      Unmanaged<Box>.fromOpaque(pointer).takeRetainedValue().body()
      return nil
    }, context)
  guard result == 0 else {
    Unmanaged<Box>.fromOpaque(context).release()
    return false
  }
  #if canImport(Darwin)
  if let thread { pthread_detach(thread) }
  #else
  pthread_detach(thread)
  #endif
  return true
}
