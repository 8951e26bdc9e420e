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
  /// thread the main actor runs on (issue 53), in a JSON file and in a
  /// database.
  ///
  /// On Linux the main actor does not keep one thread: under `swift test`,
  /// or once an async main parks the main thread in `dispatch_main()`, its
  /// jobs run on whichever thread drains the main queue. A flush that
  /// asked the thread's identity took the path for other threads there,
  /// which neither submits a number taken alone nor publishes before it
  /// returns.
  ///
  /// The rounds run in a process of their own, `pomvvm-store-process
  /// flush-moving-main-actor` (Tests/StoreProcess/FlushMovingMainActor.swift):
  /// each moves the main actor to another thread on purpose, takes a
  /// number and flushes. In this process other tests keep the main queue
  /// busy, and the thread that drains it keeps the main actor; in the
  /// child nothing else runs on the main actor, so it moves in nearly
  /// every round. The test asks for at least 5 moves, so it cannot pass
  /// without seeing the case. The child's output is attached
  /// (`swift test --attachments-path DIR` keeps it).
  ///
  /// On Apple platforms an async main runs the main run loop on the main
  /// thread, so the main actor never moves there and the test is off.
  @Test(
    .disabled(if: mainActorKeepsTheMainThread, "the main actor keeps the main thread"),
    arguments: ["file", "database"])
  func aNumberTakenAloneIsSavedByFlushWhicheverThreadRunsTheMainActor(_ kind: String)
    async throws
  {
    let directory = try Directory()
    let path = directory.file(kind == "file" ? "items.json" : "items.sqlite").path
    let (status, output) = try await StoreDatabaseProcessTests.blocking {
      try Self.run(["flush-moving-main-actor", kind, path])
    }
    Attachment.record(output, named: "flush-moving-main-actor-\(kind).txt")
    // The last line is "moves M rounds R failures F".
    let words = output.split(separator: "\n").last?.split(separator: " ") ?? []
    var result: [Substring: Int] = [:]
    for index in stride(from: 0, to: words.count - 1, by: 2) {
      result[words[index]] = Int(words[index + 1])
    }
    let comment = Comment(rawValue: "the child wrote:\n\(output)")
    #expect(status == 0, comment)
    #expect(result["failures"] == 0, comment)
    #expect(
      result["moves", default: 0] >= 5, "the main actor changed threads too seldom; \(comment)")
  }

  /// Whether an async main runs the main actor on the main thread alone:
  /// on Apple platforms, where it runs the main run loop.
  nonisolated static var mainActorKeepsTheMainThread: Bool {
    #if canImport(Darwin)
    true
    #else
    false
    #endif
  }

  /// Runs `pomvvm-store-process` with `arguments` until it exits.
  ///
  /// Returns its exit status and what it wrote on standard output. What it
  /// writes on standard error (a sanitizer's report) goes to this
  /// process's.
  nonisolated static func run(_ arguments: [String]) throws -> (Int32, String) {
    let executable = try #require(StoreDatabaseProcessTests.executable, "build the package first")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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
