import Dispatch
import Synchronization

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

/// The newest save outcome that has not reached the main actor yet.
///
/// Outcomes of background saves go to the main actor in a task. A main
/// actor that does not suspend for a long time (a script of a million
/// commands, read from a pipe) runs none of those tasks meanwhile; with one
/// task per outcome they queued up without bound. The mailbox keeps only
/// the newest outcome — an older one would not be published anyway — and a
/// task is scheduled only when the mailbox was empty, so at most one waits.
final class _OutcomeMailbox: Sendable {
  private let state = Mutex<(newest: _SaveOutcome?, tasks: Int)>((nil, 0))

  /// Keeps an outcome, unless a newer one is waiting.
  ///
  /// - Returns: Whether the mailbox was empty: then the caller schedules
  ///   the task that takes the outcome.
  func put(_ outcome: _SaveOutcome) -> Bool {
    state.withLock { state in
      let wasEmpty = state.newest == nil
      if (state.newest?.generation ?? -1) < outcome.generation {
        state.newest = outcome
      }
      if wasEmpty {
        state.tasks += 1
      }
      return wasEmpty
    }
  }

  /// Takes the waiting outcome, if any, and empties the mailbox.
  func take() -> _SaveOutcome? {
    state.withLock { state in
      defer { state.newest = nil }
      return state.newest
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

/// Writes a store's changes to its file on a serial queue of its own,
/// coalesced.
///
/// The first change of a burst schedules a write `delay` later, and every
/// change until that write starts replaces the snapshot it writes. Changes
/// made while a write is under way are written together once it ends,
/// after the delay.
///
/// Its mutable state is confined to `queue`.
final class _StoreWriter<Element: Encodable & Sendable>: _StoreSaving, @unchecked Sendable {
  private let file: _JSONFile
  private let queue = DispatchQueue(label: "POMVVM.Store.save", qos: .utility)
  private let delay: DispatchTimeInterval
  private var report: (@Sendable (_SaveOutcome) -> Void)?

  // On `queue` only.
  private var pending: (generation: Int, elements: [Element], nextSequenceNumber: Int?)?
  private var isScheduled = false
  private var isClosed = false
  private var lastOutcome = _SaveOutcome(generation: 0, error: nil)
  private var writes = 0

  init(file: _JSONFile, delay: DispatchTimeInterval) {
    self.file = file
    self.delay = delay
  }

  /// Sets where the outcome of every background write goes (on the
  /// writer's queue); before the first change.
  func onOutcome(_ report: @escaping @Sendable (_SaveOutcome) -> Void) {
    queue.sync { self.report = report }
  }

  /// Takes the contents after a change, with the store's sequence if it
  /// keeps one; they are written soon.
  func submit(_ elements: [Element], nextSequenceNumber: Int?, generation: Int) {
    queue.async { [self] in
      guard !isClosed else { return }
      pending = (generation, elements, nextSequenceNumber)
      guard !isScheduled else { return }
      isScheduled = true
      queue.asyncAfter(deadline: .now() + delay) { [self] in
        isScheduled = false
        if let outcome = writePending() {
          report?(outcome)
        }
      }
    }
  }

  func flush() -> _SaveOutcome {
    queue.sync {
      _ = writePending()
      return lastOutcome
    }
  }

  func close() {
    queue.sync {
      _ = writePending()
      isClosed = true
      file.unlock()
    }
  }

  var writeCount: Int { queue.sync { writes } }

  /// Writes the last snapshot taken, if it was not written yet.
  private func writePending() -> _SaveOutcome? {
    guard !isClosed, let (generation, elements, nextSequenceNumber) = pending else { return nil }
    pending = nil
    writes += 1
    do throws(StoreError) {
      try file.save(encode(elements, nextSequenceNumber: nextSequenceNumber))
      lastOutcome = _SaveOutcome(generation: generation, error: nil)
    } catch {
      lastOutcome = _SaveOutcome(generation: generation, error: error)
    }
    return lastOutcome
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
