import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one write of a store's file came to: the last change it holds, and
/// its error, if it failed.
struct _SaveOutcome: Sendable {
  /// The number of the last change the write held; 0 before any write.
  var generation: Int
  var error: StoreError?
}

/// The newest save outcome that has not reached the main actor yet, and
/// the tasks that wait for one.
///
/// Outcomes of background saves go to the main actor in a task. A main
/// actor that does not suspend for a long time (a script of a million
/// commands, read from a pipe) runs none of those tasks meanwhile; with one
/// task per outcome they queued up without bound. The mailbox keeps only
/// the newest outcome — an older one would not be published anyway — and a
/// task is scheduled only when the mailbox was empty, so at most one waits.
///
/// A task in ``Store/waitUntilSaved()`` waits here too: an outcome put in
/// the mailbox resumes it directly, on the main actor, and it takes the
/// outcome itself (no task is scheduled then), so that waiting for a save
/// depends on nothing but the save thread and the main actor, and the
/// outcome's report goes to the waiting task's `Diagnostics` capture.
final class _OutcomeMailbox: Sendable {
  private struct State {
    var newest: _SaveOutcome?
    var tasks = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = _Locked(State())

  /// Keeps an outcome, unless a newer one is waiting, and resumes the
  /// waiting tasks, which take it.
  ///
  /// - Returns: Whether the caller schedules the task that takes the
  ///   outcome: the mailbox was empty, and no task waited.
  func put(_ outcome: _SaveOutcome) -> Bool {
    let (schedules, waiters) = state.withLock { state in
      let wasEmpty = state.newest == nil
      if (state.newest?.generation ?? -1) < outcome.generation {
        state.newest = outcome
      }
      let waiters = state.waiters
      state.waiters = []
      let schedules = wasEmpty && waiters.isEmpty
      if schedules {
        state.tasks += 1
      }
      return (schedules, waiters)
    }
    for waiter in waiters {
      waiter.resume()
    }
    return schedules
  }

  /// Takes the waiting outcome, if any, and empties the mailbox.
  func take() -> _SaveOutcome? {
    state.withLock { state in
      defer { state.newest = nil }
      return state.newest
    }
  }

  /// Returns when an outcome is in the mailbox, when ``wakeWaiters()`` is
  /// called, or at once if an outcome is there already.
  func waitForOutcome(isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) { continuation in
      let isWaiting = state.withLock { state in
        guard state.newest == nil else { return false }
        state.waiters.append(continuation)
        return true
      }
      if !isWaiting {
        continuation.resume()
      }
    }
  }

  /// Resumes every waiting task: an outcome was published without the
  /// mailbox, or a waiting task was cancelled.
  func wakeWaiters() {
    let waiters = state.withLock { state in
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters {
      waiter.resume()
    }
  }

  /// How many tasks ``put(_:)`` asked for; for tests.
  var taskCount: Int { state.withLock { $0.tasks } }
}

/// What a ``Store`` needs of its writer, whatever its element type.
protocol _StoreSaving: AnyObject, Sendable {
  /// Writes the changes not written yet, and waits until they are on disk.
  func flush() -> _SaveOutcome
  /// Flushes, then releases the file's lock; the writer takes no more
  /// changes.
  func close()
  /// How many times the file was written (or a write was attempted).
  var writeCount: Int { get }
}

/// Writes a store's changes to its file on a thread of its own, coalesced.
///
/// The first change of a burst schedules a write `delay` later, and every
/// change until that write starts replaces the snapshot it writes. Changes
/// made while a write is under way are written together once it ends,
/// after the delay.
///
/// The thread is the writer's own (a `pthread`, not a Dispatch queue or a
/// task): a save makes progress however busy or blocked the workers of
/// Dispatch and of Swift concurrency are, and its delay is measured on the
/// monotonic clock. It sleeps between bursts and ends when the writer is
/// closed.
///
/// The schedule (`pending`, `dueAt`, `isClosed`, `writes`) is guarded by
/// `signal`; writes are serialized by `writing`, which a flush also takes,
/// so that the main actor never waits for the disk to submit a change.
final class _StoreWriter<Element: Encodable & Sendable>: _StoreSaving, @unchecked Sendable {
  private let file: _JSONFile
  private let delay: UInt64
  private let signal = _SaveSignal()
  /// Serializes writes and holds the outcome of the last one.
  private let writing = _Locked(_SaveOutcome(generation: 0, error: nil))
  private let report = _Locked<(@Sendable (_SaveOutcome) -> Void)?>(nil)

  // Guarded by `signal`.
  private var pending: (generation: Int, elements: [Element], nextSequenceNumber: Int?)?
  /// When the scheduled write is due, on ``_SaveSignal/now``; `nil` when
  /// none is scheduled.
  private var dueAt: UInt64?
  private var isClosed = false
  private var writes = 0

  init(file: _JSONFile, delay: DispatchTimeInterval) {
    self.file = file
    self.delay = Self.nanoseconds(of: delay)
    let started = _startThread { [self] in run() }
    if !started {
      // No thread to spare: a Dispatch thread runs the same loop instead.
      DispatchQueue(label: "POMVVM.Store.save", qos: .utility).async { [self] in run() }
    }
  }

  /// Sets where the outcome of every background write goes (on the
  /// writer's thread); before the first change.
  func onOutcome(_ report: @escaping @Sendable (_SaveOutcome) -> Void) {
    self.report.withLock { $0 = report }
  }

  /// Takes the contents after a change, with the store's sequence if it
  /// keeps one; they are written soon.
  func submit(_ elements: [Element], nextSequenceNumber: Int?, generation: Int) {
    signal.withLock {
      guard !isClosed else { return }
      pending = (generation, elements, nextSequenceNumber)
      if dueAt == nil {
        dueAt = _SaveSignal.now + delay
        signal.signal()
      }
    }
  }

  func flush() -> _SaveOutcome {
    writing.withLock { last in
      writePending(&last)
      return last
    }
  }

  func close() {
    writing.withLock { last in
      writePending(&last)
      signal.withLock {
        isClosed = true
        pending = nil
        signal.signal()
      }
      file.unlock()
    }
  }

  var writeCount: Int { signal.withLock { writes } }

  /// The save thread: sleeps until a write is due, writes, reports; until
  /// the writer is closed.
  private func run() {
    while true {
      let isDue: Bool? = signal.withLock {
        while true {
          if isClosed { return nil }
          guard let dueAt else {
            signal.wait(until: nil)
            continue
          }
          if _SaveSignal.now >= dueAt {
            self.dueAt = nil
            return true
          }
          signal.wait(until: dueAt)
        }
      }
      guard isDue != nil else { return }
      let outcome = writing.withLock { last -> _SaveOutcome? in
        guard writePending(&last) else { return nil }
        return last
      }
      if let outcome, let report = report.withLock({ $0 }) {
        report(outcome)
      }
    }
  }

  /// Writes the last snapshot taken, if it was not written yet; holding
  /// `writing`, whose value `last` becomes the write's outcome.
  ///
  /// - Returns: Whether there was a snapshot to write.
  @discardableResult
  private func writePending(_ last: inout _SaveOutcome) -> Bool {
    let taken = signal.withLock { () -> (Int, [Element], Int?)? in
      guard !isClosed, let pending else { return nil }
      self.pending = nil
      return pending
    }
    guard let (generation, elements, nextSequenceNumber) = taken else { return false }
    do throws(StoreError) {
      try file.save(encode(elements, nextSequenceNumber: nextSequenceNumber))
      last = _SaveOutcome(generation: generation, error: nil)
    } catch {
      last = _SaveOutcome(generation: generation, error: error)
    }
    signal.withLock { writes += 1 }
    return true
  }

  /// `interval` in nanoseconds; "never" is a long time.
  private static func nanoseconds(of interval: DispatchTimeInterval) -> UInt64 {
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

  /// The file's contents: the array of elements, or, for a store that
  /// keeps a sequence, an object with the elements and the sequence's next
  /// number.
  private func encode(_ elements: [Element], nextSequenceNumber: Int?) throws(StoreError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      if let nextSequenceNumber {
        return try encoder.encode(
          _SequencedContents(elements: elements, nextSequenceNumber: nextSequenceNumber))
      }
      return try encoder.encode(elements)
    } catch {
      throw StoreError(.unwritable, path: file.path, reason: "\(error)")
    }
  }
}

/// A store file that keeps a sequence: its elements, and the number the
/// sequence hands out next.
struct _SequencedContents<Element> {
  var elements: [Element]
  var nextSequenceNumber: Int

  /// The fields of the file's top-level object.
  static var fields: Set<String> { ["elements", "nextSequenceNumber"] }
}

extension _SequencedContents: Encodable where Element: Encodable {}
extension _SequencedContents: Decodable where Element: Decodable {}
