import Dispatch

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

/// What a save loop writes: the changes of one burst, which take in the
/// changes made after them until the burst is written.
protocol _SaveBurst: SendableMetatype {
  /// Takes in the changes of a later burst: for a snapshot, replaces it;
  /// for a list of changes, appends to it.
  mutating func absorb(_ later: Self)
}

/// Writes a store's changes on a thread of its own, coalesced; what the
/// two back ends share.
///
/// The first change of a burst schedules a write `delay` later, and every
/// change until that write starts is absorbed into the burst it writes.
/// Changes made while a write is under way are written together once it
/// ends, after the delay.
///
/// The thread is the loop's own (a `pthread`, not a Dispatch queue or a
/// task): a save makes progress however busy or blocked the workers of
/// Dispatch and of Swift concurrency are, and its delay is measured on the
/// monotonic clock. It sleeps between bursts and ends when the loop is
/// closed. A back end that watches for other processes' changes gives it
/// `poll`, which the thread runs every `pollInterval` and on request.
///
/// The schedule (`pending`, `dueAt`, `isClosed`, `writes`, the poll's) is
/// guarded by `signal`; writes and polls are serialized by `writing`,
/// which a flush also takes, so that the main actor never waits for the
/// disk to submit a change.
final class _SaveLoop<Burst: _SaveBurst>: @unchecked Sendable {
  /// Writes a burst, holding `writing`; returns the error if it failed.
  typealias Write = (Burst) -> (error: StoreError?, failed: Burst?)

  private let delay: UInt64
  private let signal = _SaveSignal()
  /// Serializes writes and polls, and holds the outcome of the last write.
  private let writing = _Locked(_SaveOutcome(generation: 0, error: nil))
  private let report = _Locked<(@Sendable (_SaveOutcome) -> Void)?>(nil)
  private let write: Write
  private let poll: (() -> Void)?
  private let pollInterval: UInt64
  /// How long a failed burst that was kept waits before it is written
  /// again, unless a change or a flush comes first; `nil`: not retried by
  /// itself.
  private let retryDelay: UInt64?

  // Guarded by `signal`.
  private var pending: (generation: Int, burst: Burst)?
  /// When the scheduled write is due, on ``_SaveSignal/now``; `nil` when
  /// none is scheduled.
  private var dueAt: UInt64?
  private var isClosed = false
  private var writes = 0
  /// When the next poll is due; `nil` without a poll.
  private var pollAt: UInt64?
  /// What waits for the next poll to end.
  private var pollWaiters: [@Sendable () -> Void] = []

  /// Starts the loop's thread.
  ///
  /// - Parameters:
  ///   - delay: How long the first change of a burst waits for more.
  ///   - retryDelay: How long a failed burst that `write` hands back waits
  ///     before it is written again by itself; `nil` for never (it is
  ///     written with the next change, or by a flush).
  ///   - pollInterval: How often `poll` runs.
  ///   - poll: Work the thread does between writes, holding the write
  ///     lock.
  ///   - write: Writes a burst; on failure, returns the error and,
  ///     to keep the burst for the next write, the burst.
  init(
    delay: DispatchTimeInterval, retryDelay: DispatchTimeInterval? = nil,
    pollInterval: DispatchTimeInterval = .never, poll: (() -> Void)? = nil,
    write: @escaping Write
  ) {
    self.delay = Self.nanoseconds(of: delay)
    self.retryDelay = retryDelay.map(Self.nanoseconds(of:))
    self.pollInterval = Self.nanoseconds(of: pollInterval)
    self.poll = poll
    self.write = write
    if poll != nil {
      pollAt = _SaveSignal.now + self.pollInterval
    }
    let started = _startThread { [self] in run() }
    if !started {
      // No thread to spare: a Dispatch thread runs the same loop instead.
      DispatchQueue(label: "POMVVM.Store.save", qos: .utility).async { [self] in run() }
    }
  }

  /// Sets where the outcome of every background write goes (on the
  /// loop's thread); before the first change.
  func onOutcome(_ report: @escaping @Sendable (_SaveOutcome) -> Void) {
    self.report.withLock { $0 = report }
  }

  /// Takes the changes of a burst; they are written soon, with the changes
  /// not written yet.
  func submit(_ burst: Burst, generation: Int) {
    signal.withLock {
      guard !isClosed else { return }
      if var current = pending?.burst {
        pending = nil
        current.absorb(burst)
        pending = (generation, current)
      } else {
        pending = (generation, burst)
      }
      if dueAt == nil {
        dueAt = _SaveSignal.now + delay
        signal.signal()
      }
    }
  }

  /// Writes the changes not written yet, and waits until they are on disk.
  func flush() -> _SaveOutcome {
    writing.withLock { last in
      writePending(&last)
      return last
    }
  }

  /// Flushes, then stops the thread; `finish` runs last, holding the write
  /// lock (it releases the file).
  func close(_ finish: () -> Void) {
    writing.withLock { last in
      writePending(&last)
      let waiters = signal.withLock {
        isClosed = true
        pending = nil
        signal.signal()
        defer { pollWaiters = [] }
        return pollWaiters
      }
      finish()
      for waiter in waiters { waiter() }
    }
  }

  /// Polls as soon as the thread can, and calls `done` (on the thread)
  /// once that poll ended; at once if the loop is closed or has no poll.
  func pollNow(then done: @escaping @Sendable () -> Void) {
    let isWaiting = signal.withLock {
      guard !isClosed, poll != nil else { return false }
      pollWaiters.append(done)
      pollAt = 0
      signal.signal()
      return true
    }
    if !isWaiting { done() }
  }

  var writeCount: Int { signal.withLock { writes } }

  private enum Work {
    case write
    case poll
  }

  /// The save thread: sleeps until a write or a poll is due, does it,
  /// reports; until the loop is closed.
  private func run() {
    while true {
      let work: Work? = signal.withLock {
        while true {
          if isClosed { return nil }
          let now = _SaveSignal.now
          if let dueAt, now >= dueAt {
            self.dueAt = nil
            return .write
          }
          if let pollAt, now >= pollAt {
            self.pollAt = now + pollInterval
            return .poll
          }
          let next = [dueAt, pollAt].compactMap { $0 }.min()
          signal.wait(until: next)
        }
      }
      switch work {
      case nil:
        return
      case .write:
        let outcome = writing.withLock { last -> _SaveOutcome? in
          guard writePending(&last) else { return nil }
          return last
        }
        if let outcome, let report = report.withLock({ $0 }) {
          report(outcome)
        }
      case .poll:
        let waiters = signal.withLock {
          defer { pollWaiters = [] }
          return pollWaiters
        }
        writing.withLock { _ in poll?() }
        for waiter in waiters { waiter() }
      }
    }
  }

  /// Writes the burst not written yet, if any; holding `writing`, whose
  /// value `last` becomes the write's outcome.
  ///
  /// - Returns: Whether there was a burst to write.
  @discardableResult
  private func writePending(_ last: inout _SaveOutcome) -> Bool {
    let taken = signal.withLock { () -> (generation: Int, burst: Burst)? in
      guard !isClosed, let taken = pending else { return nil }
      pending = nil
      return taken
    }
    guard let (generation, burst) = taken else { return false }
    let (error, failed) = write(burst)
    signal.withLock {
      writes += 1
      last = _SaveOutcome(generation: generation, error: error, attempt: writes)
      guard var failed, !isClosed else { return }
      // Kept for the next write, before the changes made meanwhile.
      if let newer = pending {
        pending = nil
        failed.absorb(newer.burst)
        pending = (newer.generation, failed)
      } else {
        pending = (generation, failed)
        if let retryDelay, error?.kind != .conflict, dueAt == nil {
          dueAt = _SaveSignal.now + retryDelay
        }
      }
    }
    return true
  }

  /// `interval` in nanoseconds; "never" is a long time.
  static func nanoseconds(of interval: DispatchTimeInterval) -> UInt64 {
    func scaled(_ value: Int, by factor: Int) -> Int {
      let (product, overflow) = value.multipliedReportingOverflow(by: factor)
      return overflow ? (value < 0 ? 0 : Int.max / 2) : product
    }
    let nanoseconds: Int
    switch interval {
    case .seconds(let value): nanoseconds = scaled(value, by: 1_000_000_000)
    case .milliseconds(let value): nanoseconds = scaled(value, by: 1_000_000)
    case .microseconds(let value): nanoseconds = scaled(value, by: 1_000)
    case .nanoseconds(let value): nanoseconds = value
    case .never: nanoseconds = Int.max / 2
    @unknown default: nanoseconds = 20_000_000
    }
    return UInt64(max(0, nanoseconds))
  }
}
