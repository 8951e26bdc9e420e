import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A model that lives outside any view model: an ``ObservableArray`` that
/// several view models observe at once, optionally kept in a JSON file or
/// a SQLite database.
///
/// A list view model and an editor view model share a store; every change
/// either makes reaches the other through the array's change sets — no
/// delegate passes edits back and forth:
///
/// ```swift
/// let store = try Store<ToDoItem>(contentsOf: fileURL)   // missing file: empty
/// store.items.append(ToDoItem(title: "ToDo Item 1"))    // saved soon, in the background
/// store.flush()                                         // on disk now
/// ```
///
/// ## Persistence
///
/// A store has two back ends with this one surface: a JSON file
/// (``init(contentsOf:fileID:line:)``), described here, and a SQLite
/// database (``init(database:fileID:line:)``), which saves each burst as
/// the rows it changed and shares the store with other processes; see
/// <doc:KeepingTheStoreInADatabase>.
///
/// A store kept in a JSON file loads its file when it is created and saves the whole
/// array after changes, off the main actor and coalesced: the first change
/// schedules a save a few milliseconds later, and every change until it
/// starts is part of it, so a burst of edits is one write and the main
/// actor never waits for the disk. ``flush(isolation:)`` writes what is pending and
/// waits for it; call it before the program exits. A store that is
/// released flushes too. ``waitUntilSaved()`` suspends until the
/// background save ends, without forcing it: what a test awaits.
///
/// Saves run on a thread of the store's own, which sleeps between bursts,
/// not on Dispatch's or Swift concurrency's shared workers: a save makes
/// progress however busy or blocked those are, and its outcome reaches the
/// main actor directly.
///
/// Every save is atomic and durable: it writes a temporary file with a
/// unique name beside the file, flushes it to disk, renames it over the old
/// one and flushes the directory, so a crash, a kill or a failed write
/// never leaves a half-written file, only the previous one or a newer
/// one. The new file keeps the old one's permissions and, where the system
/// allows, its owner. A path that is a symbolic link is saved through: the
/// link's target is replaced, in its own directory, and the link stays.
/// Temporary files that a killed process left behind are removed when a
/// store next opens the file.
///
/// A store can also hand out numbers that only grow, for ids that are never
/// reused (``takeSequenceNumber(atLeast:)``); it saves the sequence with
/// the elements.
///
/// A file that cannot be read — not JSON, not the right shape, two elements
/// with the same id, not a file — makes the initializer throw a
/// ``StoreError`` naming it, and is never overwritten.
///
/// One store at a time owns a file: the store locks it (an advisory
/// `flock(2)`) from loading until it is released, and a second store on the
/// same file, in this process or another, is refused with
/// ``StoreError/Kind-swift.enum/inUse`` instead of the two overwriting each
/// other's changes.
///
/// Another program's edit is never saved over. Before each save the store
/// checks that the file is still the one it last read or wrote — the same
/// file (identity), size and times, and, where those disagree or are too
/// recent to tell, the same contents by hash. If another program replaced
/// it (renamed a new file over it) or rewrote it in place (as
/// `echo … > file` and many editors do), the save is refused with
/// ``StoreError/Kind-swift.enum/changedOnDisk``: the other program's file
/// stays as it is and the store's changes stay in memory. A file only
/// touched, its contents unchanged, still takes the save. A file deleted
/// while the store is open is created again by the next save.
///
/// A file with more than one name (a hard link) is refused with
/// ``StoreError/Kind-swift.enum/hardLinked``, when the store opens it and
/// before a save: a save renames a new file over one name, which would
/// split it from the others, and the lock would not hold a store opened
/// through another name.
///
/// Nothing in a file is dropped silently: a field that the elements, once
/// decoded, would not write back (one a newer version of the app added,
/// say) would be lost by the next save, so a file holding one is refused
/// as ``StoreError/Kind-swift.enum/corrupt``, with a reason that names the
/// element and the field. The check encodes the decoded elements and
/// compares the keys, so an element type that reads a field only to
/// migrate it must write it back, or migrate the file itself. A field
/// whose value is `null` holds nothing to lose and is accepted.
///
/// A failed save — a read-only file (which the store refuses to replace),
/// a full disk — is published in ``saveError`` on the main actor and
/// reported to ``Diagnostics``, naming the line that created the store (a
/// save runs for many changes, in the background); the change stays in
/// memory, and the next successful save writes it and clears the error.
///
/// A file-size limit (`ulimit -f`, `RLIMIT_FSIZE`) sends `SIGXFSZ` to a
/// process that writes past it, and that signal's default action kills
/// the process mid-save. The store leaves signal dispositions to the app:
/// an app that keeps a store should ignore `SIGXFSZ`
/// (`signal(SIGXFSZ, SIG_IGN)`, as the sample app does), so that the write
/// fails with `EFBIG` and the save fails like one on a full disk.
@MainActor
public final class Store<Element: Identifiable> {
  /// The store's elements; every change to them is published to their
  /// observers, and saved if the store has a file.
  public let items: ObservableArray<Element>

  /// The store's file, if it has one, as it was given (a symbolic link
  /// stays a link).
  public let fileURL: URL?

  /// The error of the last save, or `nil` if it succeeded (or the store has
  /// no file).
  ///
  /// Saves run in the background; their outcome is published here, on the
  /// main actor, once they end — and before ``flush(isolation:)`` returns on the main
  /// actor.
  public let saveError: Observable<StoreError?>

  /// How long the first change of a burst waits for more before it is
  /// written.
  static var saveDelay: DispatchTimeInterval { .milliseconds(20) }

  /// The least number ``takeSequenceNumber(atLeast:)`` hands out next.
  ///
  /// It is one more than the last number handed out, loaded with the file
  /// and saved with the elements, and it never goes down.
  public private(set) var nextSequenceNumber = 1

  /// Whether the store keeps a sequence: a number was taken, or the file
  /// held one.
  private var keepsSequence = false
  /// Whether a number was taken since the last save was submitted.
  private var sequenceIsUnsaved = false
  private var persisting: Subscription?
  let writer: (any _StoreSaving)?
  /// The database back end's work on the main actor; `nil` for other
  /// stores.
  var session: (any _StoreSession)?
  /// Submits a change (`nil`: only the sequence changed) for a save.
  private var submit: (@MainActor (ArrayChange<Element>?) -> Void)?
  // The outcome of a save made off the main actor, on its way to it.
  nonisolated private let outcomes = _OutcomeMailbox()
  // Changes are numbered; a save's outcome is published only if it is newer
  // than the one published last.
  private var changeCount = 0
  private var publishedCount = 0
  private var publishedAttempt = 0
  // Where the store was created: the culprit of its reports.
  private let fileID: StaticString
  private let line: UInt

  /// Creates a store kept in memory.
  ///
  /// - Parameters:
  ///   - elements: The initial elements; their ids must be unique.
  ///   - fileID: Where the store is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the store is made; by default, the caller's line.
  public init(_ elements: [Element] = [], fileID: StaticString = #fileID, line: UInt = #line) {
    items = ObservableArray(elements, fileID: fileID, line: line)
    saveError = Observable(nil, fileID: fileID, line: line)
    fileURL = nil
    writer = nil
    self.fileID = fileID
    self.line = line
  }

  /// Creates a store that a back end keeps: the elements it read, and the
  /// writer that saves their changes (``persistChanges(_:)`` connects the
  /// two).
  init(
    _ elements: [Element], fileURL: URL, writer: any _StoreSaving, nextSequenceNumber: Int?,
    fileID: StaticString, line: UInt
  ) {
    self.fileID = fileID
    self.line = line
    items = ObservableArray(elements, fileID: fileID, line: line)
    saveError = Observable(nil, fileID: fileID, line: line)
    self.fileURL = fileURL
    self.writer = writer
    if let nextSequenceNumber {
      self.nextSequenceNumber = nextSequenceNumber
      keepsSequence = true
    }
  }

  /// Where a back end sends the outcome of each save made in the
  /// background: to the main actor, through the mailbox.
  var reportOutcome: @Sendable (_SaveOutcome) -> Void {
    let mailbox = outcomes
    return { [weak self] outcome in
      guard mailbox.put(outcome) else { return }
      Task { @MainActor in self?.publishWaitingOutcome() }
    }
  }

  /// Numbers a change for its save, and gives the sequence to save with
  /// it, if the store keeps one.
  func numberChange() -> (generation: Int, nextSequenceNumber: Int?) {
    sequenceIsUnsaved = false
    changeCount += 1
    return (changeCount, keepsSequence ? nextSequenceNumber : nil)
  }

  /// Takes in a sequence that another process advanced: the store's never
  /// goes down.
  func adoptSequence(_ next: Int) {
    nextSequenceNumber = Swift.max(nextSequenceNumber, next)
    keepsSequence = true
  }

  /// Hands every change of the elements to `submit`, which numbers it
  /// (``numberChange()``) and gives it to the back end's writer; `submit`
  /// gets `nil` when only the sequence changed.
  func persistChanges(_ submit: @escaping @MainActor (ArrayChange<Element>?) -> Void) {
    self.submit = submit
    persisting = items.observeChanges { [weak self] change in
      self?.submit?(change)
    }
  }

  /// Hands out the next number of the store's sequence, which only grows:
  /// ids that are never reused, even after the elements that had them are
  /// deleted and the file is saved and loaded again (as SQLite's
  /// `AUTOINCREMENT` keeps the largest id in the database).
  ///
  /// ```swift
  /// let id = store.takeSequenceNumber(atLeast: (store.items.map(\.id).max() ?? 0) + 1)
  /// store.items.append(Note(id: id!, text: "new"))
  /// ```
  ///
  /// A store with a file saves the sequence with the elements: once a
  /// number was taken, the file is a JSON object, `{"elements": [...],
  /// "nextSequenceNumber": N}`, instead of the array of elements. A file of
  /// either shape loads; an array has no sequence yet, so pass `minimum`
  /// to start past the ids it holds.
  ///
  /// Taking a number writes nothing by itself: the number is saved with the
  /// next change of the elements (the element you add with it), or by
  /// ``flush(isolation:)``. So a change that cannot be saved leaves the file exactly
  /// as it was, and a number that no saved element ever had needs no
  /// saving.
  ///
  /// - Parameter minimum: The least number to hand out, such as one more
  ///   than the largest id in use; the sequence jumps to it if it is
  ///   behind.
  /// - Returns: A number at least `minimum`, larger than every number
  ///   handed out before; `nil` once the sequence has reached `Int.max`
  ///   (nothing is handed out then).
  /// - Complexity: O(1).
  public func takeSequenceNumber(atLeast minimum: Int = 1) -> Int? {
    let number = Swift.max(nextSequenceNumber, minimum)
    guard number < Int.max else { return nil }
    nextSequenceNumber = number + 1
    keepsSequence = true
    sequenceIsUnsaved = true
    return number
  }

  deinit {
    writer?.close()
  }

  /// Whether a change is not saved yet: a save is scheduled or under way,
  /// or its outcome has not reached ``saveError`` yet.
  ///
  /// A failed save ends it too: the change stays unsaved until the next
  /// change is saved, but nothing is under way. ``waitUntilSaved()`` waits
  /// until it is `false`.
  public var isSaving: Bool { publishedCount < changeCount }

  /// Writes the changes not saved yet (numbers taken from the sequence
  /// included), and waits until they are on disk (or their save failed).
  ///
  /// It blocks the calling thread for one write at most. Call it where
  /// losing a change would be worse than waiting: before the program
  /// exits, at the end of a batch, in a handler of a terminating signal.
  ///
  /// Call it as `store.flush()`: `isolation` is the caller's own, which
  /// decides what it does.
  /// - From main-actor code, everything taken or changed before the call
  ///   is on disk when it returns, numbers taken from the sequence alone
  ///   included, and ``saveError`` holds the outcome. This holds on
  ///   whichever thread the main actor runs: on Linux that thread changes
  ///   (under `swift test`, or after `dispatch_main()`), so the store asks
  ///   the caller's isolation, never the thread's identity.
  /// - From anywhere else (another actor, a detached task, a signal
  ///   handler's thread), it writes the changes of the elements made so
  ///   far, which the save thread already holds, and the outcome reaches
  ///   ``saveError`` on the main actor soon after. A number taken from the
  ///   sequence with no change of the elements since is main-actor state
  ///   that it cannot read: it is saved by the next flush on the main
  ///   actor, or the next change.
  ///
  /// A store without a file has nothing to flush.
  ///
  /// - Parameter isolation: The caller's isolation; leave it out.
  public func flush(isolation: isolated (any Actor)? = #isolation) {
    guard let writer else { return }
    guard isolation is MainActor else {
      let outcome = writer.flush()
      guard outcomes.put(outcome) else { return }
      Task { @MainActor [weak self] in self?.publishWaitingOutcome() }
      return
    }
    MainActor.assumeIsolated { submitSequenceIfUnsaved() }
    let outcome = writer.flush()
    MainActor.assumeIsolated { publish(outcome) }
  }

  /// Waits until every change made so far is saved, or its save failed,
  /// and the outcome is in ``saveError``: until ``isSaving`` is `false`.
  ///
  /// Unlike ``flush(isolation:)``, it does not write at once or block the thread: it
  /// suspends until the background save, coalesced as usual, ends. It
  /// depends on nothing but the store's own save thread and the main
  /// actor, so a test that awaits it needs no deadline or polling:
  ///
  /// ```swift
  /// store.items.append(note)
  /// await store.waitUntilSaved()
  /// #expect(store.saveError.value == nil)   // and the file holds the note
  /// ```
  ///
  /// It returns at once when nothing is being saved, or when the store has
  /// no file; and early if the task is cancelled.
  public func waitUntilSaved() async {
    let mailbox = outcomes
    while isSaving && !Task.isCancelled {
      if let outcome = mailbox.take() {
        publish(outcome)
        continue
      }
      await withTaskCancellationHandler {
        await mailbox.waitForOutcome()
      } onCancel: {
        mailbox.wakeWaiters()
      }
    }
    // An outcome put while this task waited is this task's to publish: no
    // other task was scheduled for it.
    publishWaitingOutcome()
  }

  /// Submits a save for numbers taken since the last one.
  private func submitSequenceIfUnsaved() {
    if sequenceIsUnsaved {
      submit?(nil)
    }
  }

  /// How many times the file was written, or a write was attempted; for
  /// tests of coalescing.
  package var _writeCount: Int { writer?.writeCount ?? 0 }

  /// How many tasks carried save outcomes to the main actor; for tests of
  /// memory that stays flat.
  package var _outcomeTaskCount: Int { outcomes.taskCount }

  private func publishWaitingOutcome() {
    if let outcome = outcomes.take() {
      publish(outcome)
    }
  }

  private func publish(_ outcome: _SaveOutcome) {
    // A database store keeps a failed burst and writes it again: that
    // write's outcome has the same number, and a later attempt.
    guard
      outcome.generation > publishedCount
        || (outcome.generation == publishedCount && outcome.attempt > publishedAttempt)
    else { return }
    // A retry that fails as the last write did is no news: reported once.
    let isRepeated = outcome.generation == publishedCount && outcome.error == saveError.value
    publishedCount = outcome.generation
    publishedAttempt = outcome.attempt
    if !isSaving {
      // A task in `waitUntilSaved()` may wait for an outcome that a flush
      // published without the mailbox.
      outcomes.wakeWaiters()
    }
    session?.published(outcome)
    saveError.value = outcome.error
    if let error = outcome.error, !isRepeated {
      Diagnostics.report(error.description, fileID: fileID, line: line)
    }
  }

}
