import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A model that lives outside any view model: an ``ObservableArray`` that
/// several view models observe at once, optionally kept in a JSON file.
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
/// A persistent store loads its file when it is created and saves the whole
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
  private let writer: (any _StoreSaving)?
  /// Submits the contents and the sequence for a save.
  private var submit: (@MainActor ([Element]) -> Void)?
  // The outcome of a save made off the main actor, on its way to it.
  nonisolated private let outcomes = _OutcomeMailbox()
  // Changes are numbered; a save's outcome is published only if it is newer
  // than the one published last.
  private var changeCount = 0
  private var publishedCount = 0
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

  /// Creates a store kept in a JSON file: loads and locks the file now, and
  /// saves it in the background after changes.
  ///
  /// - Parameters:
  ///   - fileURL: The file; if it does not exist, the store starts empty
  ///     and creates it on the first save. A symbolic link is followed.
  ///   - fileID: The culprit's file in the reports of failed saves, and
  ///     where the store's cells were made for ``BindingGraph``; by
  ///     default, the caller's.
  ///   - line: The culprit's line in the reports of failed saves, and where
  ///     the store's cells were made; by default, the caller's.
  /// - Throws: ``StoreError`` if the file exists but cannot be read, is not
  ///   a valid store file (which includes two elements with the same id,
  ///   and a field the element type does not know), has more than one hard
  ///   link, or another store has it open; the file is left untouched.
  public convenience init(
    contentsOf fileURL: URL, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(StoreError)
  where Element: Codable & Sendable {
    try self.init(contentsOf: fileURL, saveDelay: Self.saveDelay, fileID: fileID, line: line)
  }

  /// Creates a store kept in a JSON file whose bursts of changes wait
  /// `saveDelay` for more before they are written (tests of coalescing use
  /// a long one, so that a slow run's burst is still one).
  init(
    contentsOf fileURL: URL, saveDelay: DispatchTimeInterval, fileID: StaticString,
    line: UInt
  ) throws(StoreError)
  where Element: Codable & Sendable {
    self.fileID = fileID
    self.line = line
    let file = _JSONFile(path: fileURL.path)
    let (elements, nextSequenceNumber) = try Self.decode(file.load(), path: file.path)
    let writer = _StoreWriter<Element>(file: file, delay: saveDelay)
    items = ObservableArray(elements, fileID: fileID, line: line)
    saveError = Observable(nil, fileID: fileID, line: line)
    self.fileURL = fileURL
    self.writer = writer
    let mailbox = outcomes
    writer.onOutcome { [weak self] outcome in
      guard mailbox.put(outcome) else { return }
      Task { @MainActor in self?.publishWaitingOutcome() }
    }
    if let nextSequenceNumber {
      self.nextSequenceNumber = nextSequenceNumber
      keepsSequence = true
    }
    submit = { [weak self] elements in
      guard let self else { return }
      sequenceIsUnsaved = false
      changeCount += 1
      writer.submit(
        elements, nextSequenceNumber: keepsSequence ? self.nextSequenceNumber : nil,
        generation: changeCount)
    }
    persisting = items.observeChanges { [weak self] change in
      self?.submit?(change.newElements)
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
      submit?(items.elements)
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
    guard outcome.generation > publishedCount else { return }
    publishedCount = outcome.generation
    if !isSaving {
      // A task in `waitUntilSaved()` may wait for an outcome that a flush
      // published without the mailbox.
      outcomes.wakeWaiters()
    }
    saveError.value = outcome.error
    if let error = outcome.error {
      Diagnostics.report(error.description, fileID: fileID, line: line)
    }
  }

  /// The elements of a file's contents, checked, and the next number of
  /// its sequence if it keeps one: a store file is a JSON array of elements
  /// whose ids are unique, and that hold no field the element type would
  /// drop when it is saved again; or an object with such an array as
  /// `elements` and the sequence's `nextSequenceNumber`, and no other field.
  nonisolated private static func decode(_ data: Data?, path: String) throws(StoreError)
    -> (elements: [Element], nextSequenceNumber: Int?) where Element: Codable
  {
    guard let data else { return ([], nil) }
    let elements: [Element]
    var nextSequenceNumber: Int?
    let read: [_JSONShape]?
    do {
      switch try? JSONDecoder().decode(_JSONShape.self, from: data) {
      case .object(let fields):
        if let field = fields.keys.sorted().first(where: {
          !_SequencedContents<Element>.fields.contains($0)
        }) {
          throw StoreError(
            .corrupt, path: path,
            reason: "the file has the field '\(field)', which this version does not know, and "
              + "saving would drop it; open it with the version that wrote it")
        }
        let contents = try JSONDecoder().decode(_SequencedContents<Element>.self, from: data)
        guard contents.nextSequenceNumber >= 1 else {
          throw StoreError(
            .corrupt, path: path,
            reason: "nextSequenceNumber is \(contents.nextSequenceNumber); it must be 1 or more")
        }
        elements = contents.elements
        nextSequenceNumber = contents.nextSequenceNumber
        if case .array(let shapes) = fields["elements"] { read = shapes } else { read = nil }
      default:
        elements = try JSONDecoder().decode([Element].self, from: data)
        read = try? JSONDecoder().decode([_JSONShape].self, from: data)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(.corrupt, path: path, reason: describe(error))
    }
    var ids = Set<Element.ID>(minimumCapacity: elements.count)
    for element in elements where !ids.insert(element.id).inserted {
      throw StoreError(
        .corrupt, path: path, reason: "more than one element has the id \(element.id)")
    }
    if let read, let (index, field) = firstUnknownField(in: read, of: elements) {
      throw StoreError(
        .corrupt, path: path,
        reason: "element \(index + 1) (id \(elements[index].id)) has the field '\(field)', which "
          + "this version does not know, and saving would drop it; open it with the version "
          + "that wrote it")
    }
    return (elements, nextSequenceNumber)
  }

  /// The first field of a file's elements (`read`, their shapes) that
  /// encoding the decoded elements again does not write, and its element's
  /// index: data that a save would lose, such as a field a newer version of
  /// the app added.
  nonisolated private static func firstUnknownField(in read: [_JSONShape], of elements: [Element])
    -> (index: Int, field: String)? where Element: Encodable
  {
    let decoder = JSONDecoder()
    guard let encoded = try? JSONEncoder().encode(elements),
      let written = try? decoder.decode([_JSONShape].self, from: encoded)
    else { return nil }
    for (index, (element, saved)) in zip(read, written).enumerated() {
      if let field = element.firstField(missingFrom: saved) {
        return (index, field)
      }
    }
    return nil
  }

  nonisolated private static func describe(_ error: any Error) -> String {
    switch error {
    case let error as DecodingError:
      switch error {
      case .dataCorrupted(let context): context.debugDescription
      case .keyNotFound(let key, _): "missing the field '\(key.stringValue)'"
      case .typeMismatch(_, let context), .valueNotFound(_, let context):
        context.debugDescription
      @unknown default: "\(error)"
      }
    default:
      "\(error)"
    }
  }
}
