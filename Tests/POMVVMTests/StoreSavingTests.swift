import Foundation
import Testing

@testable import POMVVM

/// When a persistent store saves: in the background, a burst of changes in
/// one write, everything written by `flush()` and on release, and the
/// outcome published on the main actor.
@MainActor
@Suite("Store saving")
struct StoreSavingTests {
  typealias Note = StoreTests.Note
  typealias Directory = StoreTests.Directory

  @Test func aBurstOfEditsIsOneWrite() throws {
    let directory = try Directory()
    // A burst is the changes made within the save delay. The default 20 ms
    // is a burst of typing; under a sanitizer, with the suite sharing two
    // cores, 14 edits can take longer, so this store waits 30 s: the
    // flushes below write at once.
    let store = try Store<Note>(
      contentsOf: directory.file(), saveDelay: .seconds(30), fileID: #fileID, line: #line)
    store.items.append(contentsOf: (1...1_000).map { Note(id: $0, title: "item \($0)") })
    store.flush()
    let writes = store._writeCount
    let title = try #require(store.items.cell(for: 500, \.title))
    for character in "Buy oat milk!!" {
      title.value.append(character)
    }
    store.flush()
    #expect(store._writeCount == writes + 1)
    #expect(store.saveError.value == nil)
    #expect(!store.isSaving)
    let saved = try JSONDecoder().decode([Note].self, from: Data(contentsOf: directory.file()))
    #expect(saved.count == 1_000)
    #expect(saved[499].title == "item 500Buy oat milk!!")
  }

  /// At most one task waits to bring saves' outcomes to a busy main actor.
  ///
  /// A main actor that does not suspend (a script of a million commands
  /// read from a pipe) runs none of those tasks meanwhile; one per save
  /// grew the memory without bound.
  @Test func savesThatEndWhileTheMainActorIsBusyQueueOneTaskForTheirOutcomes() throws {
    let directory = try Directory()
    let store = try Store<Note>(
      contentsOf: directory.file(), saveDelay: .milliseconds(1), fileID: #fileID, line: #line)
    for id in 1...20 {
      let writes = store._writeCount
      store.items.append(Note(id: id, title: "x"))
      // Blocks the main actor until the background save has run.
      let deadline = ContinuousClock.now + .seconds(20)
      while store._writeCount == writes && ContinuousClock.now < deadline {
        usleep(500)
      }
    }
    #expect(store._writeCount == 20)
    #expect(store._outcomeTaskCount == 1)
  }

  @Test func changesAreSavedInTheBackgroundWithoutAFlush() async throws {
    let directory = try Directory()
    let store = try Store<Note>(contentsOf: directory.file())
    store.items.append(Note(id: 1, title: "a"))
    store.items.append(Note(id: 2, title: "b"))
    #expect(store.isSaving)
    await store.waitUntilSaved()
    #expect(!store.isSaving)
    #expect(try StoreTests().contents(of: directory.file()) == [1, 2])
    #expect(store._writeCount == 1)
  }

  @Test func aFailedSaveNamesTheLineThatCreatedTheStore() throws {
    let directory = try Directory()
    try Data("[]".utf8).write(to: directory.file())
    chmod(directory.file().path, 0o444)
    let line: UInt = #line + 1
    let store = try Store<Note>(contentsOf: directory.file())
    let reports = Diagnostics.capturingReports {
      store.items.append(Note(id: 1, title: "a"))
      store.flush()
    }
    let error = StoreError(.readOnly, path: directory.file().path, reason: "permissions r--r--r--")
    #expect(reports == [Diagnostics.Report(error.description, fileID: #fileID, line: line)])
  }

  /// A failed save is reported to `Diagnostics` as well; to keep reports
  /// inside this test's own (synchronous) capture, the failure is flushed,
  /// and the background save is the one that succeeds.
  @Test func aBackgroundSavePublishesItsOutcomeOnTheMainActor() async throws {
    let directory = try Directory()
    try Data("[]".utf8).write(to: directory.file())
    chmod(directory.file().path, 0o444)
    let store = try Store<Note>(contentsOf: directory.file())
    let published = Recording<StoreError?>()
    let subscription = store.saveError.observeChanges { error in
      MainActor.assertIsolated()
      published.events.append(error)
    }
    let reports = Diagnostics.capturing {
      store.items.append(Note(id: 1, title: "a"))
      store.flush()
    }
    let error = StoreError(.readOnly, path: directory.file().path, reason: "permissions r--r--r--")
    #expect(reports == [error.description])
    chmod(directory.file().path, 0o644)
    store.items.append(Note(id: 2, title: "b"))
    #expect(store.isSaving)
    await store.waitUntilSaved()
    #expect(!store.isSaving)
    #expect(published.events == [error, nil])
    #expect(try StoreTests().contents(of: directory.file()) == [1, 2])
    withExtendedLifetime(subscription) {}
  }

  @Test func flushFromAnotherThreadWritesAndPublishesOnTheMainActorAfterwards() async throws {
    let directory = try Directory()
    let store = try Store<Note>(contentsOf: directory.file())
    store.items.append(Note(id: 1, title: "a"))
    await Task.detached { store.flush() }.value
    #expect(try StoreTests().contents(of: directory.file()) == [1])
    await store.waitUntilSaved()
    #expect(!store.isSaving)
    #expect(store.saveError.value == nil)
  }

  /// A number taken alone and flushed from main-actor code is on disk
  /// when the flush returns, and the outcome is published, whichever
  /// thread the main actor runs on.
  ///
  /// On Linux the main actor does not keep one thread: under `swift test`
  /// its jobs run on whichever thread drains the main queue. A flush that
  /// asked the thread's identity took the path for other threads there,
  /// which neither submits a number taken alone nor publishes before it
  /// returns. Each round makes the main actor resume on another thread
  /// (`resumeOnAnotherThread(than:)`) before it takes a number and
  /// flushes; the rounds go on until it has moved five times. That takes
  /// one round per move when the main queue goes idle between jobs (this
  /// test alone, or once the tests beside it end); while other tests keep
  /// the main queue busy, the thread that drains it keeps the main actor.
  /// If it never moved in 400 rounds, the test says so as a known issue:
  /// it did not see the case it checks.
  @Test func aNumberTakenAloneIsSavedByFlushWhicheverThreadRunsTheMainActor() async throws {
    let directory = try Directory()
    let store = try Store<Note>(contentsOf: directory.file())
    store.items.append(Note(id: 1, title: "a"))
    store.flush()
    var moves = 0
    var rounds = 0
    while moves < 5 && rounds < 400 {
      rounds += 1
      let before = pthread_self()
      await Self.resumeOnAnotherThread(than: before)
      if pthread_equal(before, pthread_self()) == 0 { moves += 1 }
      let number = try #require(store.takeSequenceNumber(atLeast: 100))
      store.flush()
      #expect(!store.isSaving, "round \(rounds)")
      #expect(store.saveError.value == nil)
      let text = try String(contentsOf: directory.file(), encoding: .utf8)
      #expect(text.contains("\"nextSequenceNumber\" : \(number + 1)"), "round \(rounds)")
    }
    if moves == 0 {
      withKnownIssue("the main queue never went idle: the main actor kept its thread") {
        Issue.record("the main actor never changed threads in \(rounds) rounds")
      }
    }
  }

  /// Suspends the caller, a main-actor task running on `thread`, and
  /// resumes it while `thread` is kept busy, so that another thread drains
  /// the main queue.
  ///
  /// A thread of the pool that goes idle is the first one given new work.
  /// So blocks are started on serial queues one after another, each kept
  /// waiting, until one runs on `thread` (idle once the caller suspended
  /// and the main queue went idle) or 16 were tried; that block resumes
  /// the caller, and every block is let go once the caller runs again.
  static func resumeOnAnotherThread(than thread: pthread_t) async {
    let hold = DispatchSemaphore(value: 0)
    let parked = DispatchGroup()
    await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
      Self.park(until: thread, attempt: 0, hold: hold, parked: parked) { resume.resume() }
    }
    // Every block entered `parked` before the last one resumed the caller.
    let count = Self.parkedCount.withLock { count in
      defer { count = 0 }
      return count
    }
    for _ in 0..<count { hold.signal() }
    parked.wait()
  }

  /// How many blocks ``park(until:attempt:hold:parked:resume:)`` keeps
  /// waiting.
  nonisolated static let parkedCount = _Locked(0)

  /// Starts a block that waits on `hold`; the one that runs on `thread`,
  /// or the 16th, calls `resume` first.
  nonisolated static func park(
    until thread: pthread_t, attempt: Int, hold: DispatchSemaphore, parked: DispatchGroup,
    resume: @escaping @Sendable () -> Void
  ) {
    parked.enter()
    DispatchQueue(label: "park \(attempt)").async {
      parkedCount.withLock { $0 += 1 }
      if pthread_equal(pthread_self(), thread) != 0 || attempt == 15 {
        resume()
      } else {
        park(until: thread, attempt: attempt + 1, hold: hold, parked: parked, resume: resume)
      }
      hold.wait()
      parked.leave()
    }
  }

  @Test func releasingTheStoreWritesItsLastChanges() throws {
    let directory = try Directory()
    do {
      let store = try Store<Note>(contentsOf: directory.file())
      store.items.append(Note(id: 1, title: "a"))
    }
    #expect(try StoreTests().contents(of: directory.file()) == [1])
  }

  @Test func waitingUntilSavedReturnsAtOnceWhenNothingIsPending() async throws {
    let directory = try Directory()
    let store = try Store<Note>(contentsOf: directory.file())
    await store.waitUntilSaved()
    store.items.append(Note(id: 1, title: "a"))
    store.flush()
    await store.waitUntilSaved()
    #expect(!store.isSaving)
    #expect(store._writeCount == 1)
    let memory = Store([Note(id: 1, title: "a")])
    memory.items.append(Note(id: 2, title: "b"))
    await memory.waitUntilSaved()
    #expect(!memory.isSaving)
  }

  /// A failed background save ends the wait too, with its error published.
  @Test func waitingUntilSavedEndsWithAFailedSave() async throws {
    let directory = try Directory()
    try Data("[]".utf8).write(to: directory.file())
    chmod(directory.file().path, 0o444)
    let store = try Store<Note>(contentsOf: directory.file())
    let reports = await Diagnostics.capturing {
      store.items.append(Note(id: 1, title: "a"))
      await store.waitUntilSaved()
    }
    let error = StoreError(.readOnly, path: directory.file().path, reason: "permissions r--r--r--")
    #expect(!store.isSaving)
    #expect(store.saveError.value == error)
    #expect(reports == [error.description])
  }

  /// Every change made before the wait is saved when it returns, however
  /// many writes the changes took (each write is coalesced as usual).
  @Test func waitingUntilSavedCoversChangesMadeDuringTheSave() async throws {
    let directory = try Directory()
    let store = try Store<Note>(
      contentsOf: directory.file(), saveDelay: .milliseconds(1), fileID: #fileID, line: #line)
    for id in 1...50 {
      store.items.append(Note(id: id, title: "note \(id)"))
      if id.isMultiple(of: 10) {
        await store.waitUntilSaved()
        #expect(try StoreTests().contents(of: directory.file()) == Array(1...id))
      }
    }
    #expect(!store.isSaving)
  }

  /// Two tasks wait at once; a flush on the main actor publishes the
  /// outcome without the mailbox, and both still return.
  @Test func waitersReturnWhenAFlushPublishesTheOutcome() async throws {
    let directory = try Directory()
    let store = try Store<Note>(
      contentsOf: directory.file(), saveDelay: .seconds(3_600), fileID: #fileID, line: #line)
    store.items.append(Note(id: 1, title: "a"))
    let first = Task { await store.waitUntilSaved() }
    let second = Task { await store.waitUntilSaved() }
    await Task.yield()
    store.flush()
    await first.value
    await second.value
    #expect(!store.isSaving)
    #expect(try StoreTests().contents(of: directory.file()) == [1])
  }

  /// A cancelled wait returns though the save is not due for an hour.
  @Test func aCancelledWaitReturnsEarly() async throws {
    let directory = try Directory()
    let store = try Store<Note>(
      contentsOf: directory.file(), saveDelay: .seconds(3_600), fileID: #fileID, line: #line)
    store.items.append(Note(id: 1, title: "a"))
    let wait = Task { await store.waitUntilSaved() }
    wait.cancel()
    await wait.value
    #expect(store.isSaving)
    store.flush()
    #expect(!store.isSaving)
  }

  @Test func aStoreInMemoryHasNothingToFlush() {
    let store = Store([Note(id: 1, title: "a")])
    store.items.append(Note(id: 2, title: "b"))
    store.flush()
    #expect(!store.isSaving)
    #expect(store._writeCount == 0)
  }
}

/// Values recorded in order, on the main actor.
@MainActor
private final class Recording<Value> {
  var events: [Value] = []
}
