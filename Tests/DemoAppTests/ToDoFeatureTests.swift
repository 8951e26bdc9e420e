import DemoApp
import Foundation
import POMVVM
import POMVVMTesting
import Testing
import ToDo

/// A new, empty temporary directory; the caller removes it.
private func makeTemporaryDirectory() throws -> URL {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("pomvvm-todo-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}

/// A store file as the store writes it: pretty-printed JSON, keys sorted.
private func storeFile(_ items: [(id: Int, title: String)], next: Int? = nil) -> String {
  let indent = next == nil ? "" : "  "
  let objects = items.map { item in
    "\(indent)  {\n\(indent)    \"id\" : \(item.id),\n\(indent)    \"title\" : \"\(item.title)\"\n"
      + "\(indent)  }"
  }
  let array = "[\n" + objects.joined(separator: ",\n") + "\n\(indent)]"
  guard let next else { return array }
  // A list that has added an item keeps the store's sequence beside it.
  return "{\n  \"elements\" : \(array),\n  \"nextSequenceNumber\" : \(next)\n}"
}

/// What the list keeps for `--store url`: its database, written out as
/// the JSON store file that the list kept before it moved to a database
/// (``storeFile(_:next:)``), or, where no database was made, the file's own
/// text.
@MainActor
private func contents(of url: URL) throws -> String {
  let database = ToDoFeature.storeFiles(for: url).database
  guard FileManager.default.fileExists(atPath: database.path) else {
    return try String(contentsOf: url, encoding: .utf8)
  }
  let store = try Store<ToDoItem>(database: database)
  let next = store.nextSequenceNumber
  return storeFile(store.items.map { ($0.id, $0.title) }, next: next > 1 ? next : nil)
}

/// Makes a file read-only, or writable again: the store refuses to replace
/// a read-only file, so its saves fail (even for the superuser).
private func setReadOnly(_ url: URL, _ isReadOnly: Bool) throws {
  try FileManager.default.setAttributes(
    [.posixPermissions: isReadOnly ? 0o444 : 0o644], ofItemAtPath: url.path)
}

/// The message of a save refused because the file is read-only.
private func readOnlyFailure(_ url: URL) -> String {
  "cannot save \(url.path): the file is read-only (permissions r--r--r--); "
    + "the file on disk was not changed"
}

/// The to-do feature's store: persistence across runs, files it cannot read,
/// saves that fail, and its object graph.
@MainActor
@Suite("To-do store")
struct ToDoFeatureTests {
  @Test func theListPersistsAcrossRunsWithStore() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let arguments = ["todo", "--quiet", "--store", url.path]
    #expect(
      await runScript(
        """
        add Buy milk
        open 1
        title Call mom
        back
        delete 2
        render
        """, arguments: arguments)
        == Transcript(
          status: 0,
          output: """
            To-do (2 of 10, add: enabled)
              1. Call mom
              2. Buy milk
            Last change: remove [1]

            """))
    #expect(try contents(of: url) == storeFile([(1, "Call mom"), (3, "Buy milk")], next: 4))

    #expect(
      await runScript("render\nadd", arguments: ["todo", "--store", url.path])
        == Transcript(
          status: 0,
          output: """
            To-do (2 of 10, add: enabled)
              1. Call mom
              2. Buy milk
            Last change: none

            To-do (3 of 10, add: enabled)
              1. Call mom
              2. Buy milk
              3. ToDo Item 4
            Last change: insert [2]

            """))
    #expect(
      try contents(of: url)
        == storeFile([(1, "Call mom"), (3, "Buy milk"), (4, "ToDo Item 4")], next: 5))

    #expect(
      await runScript("delete 1\ndelete 1\ndelete 1", arguments: arguments)
        == Transcript(status: 0, output: ""))
    #expect(
      await runScript("render", arguments: arguments)
        == Transcript(
          status: 0, output: "To-do (0 of 10, add: enabled)\nLast change: none\n"),
      "an emptied list stays empty: only a new file starts with the sample items")
    #expect(try contents(of: url) == storeFile([], next: 5))
  }

  @Test func theIdOfADeletedItemIsNotReusedAfterARestart() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let arguments = ["todo", "--quiet", "--store", url.path]
    #expect(await runScript("add a\ndelete 3", arguments: arguments).status == 0)
    #expect(try contents(of: url) == storeFile([(1, "ToDo Item 1"), (2, "ToDo Item 2")], next: 4))
    #expect(await runScript("add", arguments: arguments).status == 0)
    #expect(
      try contents(of: url)
        == storeFile([(1, "ToDo Item 1"), (2, "ToDo Item 2"), (4, "ToDo Item 4")], next: 5))
  }

  /// A JSON store file of an earlier version moves into a database on the
  /// first run, and stays as it was.
  @Test func aFileOfAnEarlierVersionMovesIntoADatabaseAndItsIdsAreNotReused() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let earlier = storeFile([(1, "one"), (7, "seven")])
    try earlier.write(to: url, atomically: false, encoding: .utf8)
    #expect(
      await runScript("add", arguments: ["todo", "--quiet", "--store", url.path])
        == Transcript(status: 0, output: ""))
    #expect(
      try contents(of: url) == storeFile([(1, "one"), (7, "seven"), (8, "ToDo Item 8")], next: 9))
    #expect(try String(contentsOf: url, encoding: .utf8) == earlier)
    #expect(
      await runScript("render", arguments: ["todo", "--store", url.path]).output.contains(
        "3. ToDo Item 8"),
      "a later run opens the database, not the JSON file")
  }

  @Test func aStoreFileThatIsNotAValidStoreStopsTheAppAndIsLeftUntouched() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let corrupt = #"[{"id": 1}]"#
    try corrupt.write(to: url, atomically: false, encoding: .utf8)
    #expect(
      await runScript("add\nrender", arguments: ["todo", "--store", url.path])
        == Transcript(
          status: 1, output: "",
          error: "error: cannot read \(url.path): it is not a valid store file "
            + "(missing the field 'title'); the file was left untouched\n"))
    #expect(try contents(of: url) == corrupt)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["todo.json"])
  }

  /// Files whose error text comes from Foundation: the expected message is
  /// the store's own error for the file.
  @Test(arguments: ["not JSON", "{\"id\": 1, \"title\": \"an object, not an array\"}", "[1, 2]"])
  func aStoreFileThatIsNotJSONOrNotAListIsRefused(text: String) async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    try text.write(to: url, atomically: false, encoding: .utf8)
    let storeError = #expect(throws: StoreError.self) { try Store<ToDoItem>(contentsOf: url) }
    #expect(storeError?.kind == .corrupt)
    #expect(
      await runScript("render", arguments: ["todo", "--store", url.path])
        == Transcript(status: 1, output: "", error: "error: \(storeError?.description ?? "")\n"))
    #expect(try contents(of: url) == text)
  }

  @Test func aStorePathThatIsADirectoryIsRefused() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    let storeError = #expect(throws: StoreError.self) { try Store<ToDoItem>(contentsOf: url) }
    #expect(storeError?.kind == .unreadable)
    #expect(storeError?.description.hasPrefix("cannot read \(url.path): ") == true)
    #expect(
      await runScript("render", arguments: ["todo", "--store", url.path])
        == Transcript(status: 1, output: "", error: "error: \(storeError?.description ?? "")\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: url.path).isEmpty)
  }

  @Test func aNewStoreFileThatCannotBeWrittenStopsTheApp() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("missing/todo.json")
    let database = ToDoFeature.storeFiles(for: url).database
    #expect(
      await runScript("render", arguments: ["todo", "--store", url.path])
        == Transcript(
          status: 1, output: "",
          error: "error: cannot save \(database.path): unable to open database file; "
            + "the file on disk was not changed\n"))
  }

  @Test func aChangeThatCannotBeSavedIsAnErrorAndTheScreenSaysSo() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.sqlite")
    let arguments = ["todo", "--store", url.path]
    #expect(await runScript("", arguments: arguments) == Transcript(status: 0, output: ""))
    let saved = try contents(of: url)
    #expect(saved == storeFile([(1, "ToDo Item 1"), (2, "ToDo Item 2")], next: 3))
    try setReadOnly(url, true)
    let failure = readOnlyFailure(url)

    var transcript = Transcript(status: -1, output: "")
    let reports = await Diagnostics.capturing {
      transcript = await runScript(
        """
        add Buy milk
        render
        open 1
        title Call mom
        back
        delete 2
        render
        """, arguments: arguments)
    }
    #expect(
      transcript
        == Transcript(
          status: 1,
          output: """
            To-do (3 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
              3. Buy milk
            Last change: insert [2]
            Save failed: \(failure)

            To-do item
              Title: ToDo Item 1
            Save failed: \(failure)

            To-do (3 of 10, add: enabled)
              1. Call mom
              2. ToDo Item 2
              3. Buy milk
            Last change: update [0]
            Save failed: \(failure)

            To-do (2 of 10, add: enabled)
              1. Call mom
              2. Buy milk
            Last change: remove [1]
            Save failed: \(failure)

            """,
          error: """
            error: the change was made but not saved: \(failure)
            error: the change was made but not saved: \(failure)
            error: the change was made but not saved: \(failure)

            """))
    #expect(reports.isEmpty, "the save errors were reported once, as the commands' errors")
    #expect(try contents(of: url) == saved)
    #expect(
      try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        == 0o444)
  }

  @Test func theNextSaveThatSucceedsWritesEverythingAndClearsTheError() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.sqlite")
    let feature = try ToDoFeature(environment: FeatureEnvironment(storeURL: url))
    try setReadOnly(url, true)
    #expect(throws: ScriptError("the change was made but not saved: \(readOnlyFailure(url))")) {
      try feature.perform(ScriptCommand(word: "add", argument: "Buy milk"))
    }
    #expect(feature.lines.last == "Save failed: \(readOnlyFailure(url))")
    try setReadOnly(url, false)
    try feature.perform(ScriptCommand(word: "delete", argument: "1"))
    #expect(
      feature.lines == [
        "To-do (2 of 10, add: enabled)", "  1. ToDo Item 2", "  2. Buy milk",
        "Last change: remove [0]",
      ])
    #expect(try contents(of: url) == storeFile([(2, "ToDo Item 2"), (3, "Buy milk")], next: 4))
  }

  @Test func theEditSheetSavesOnlyOnDoneAndIsReleasedWhenClosed() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let feature = try ToDoFeature(environment: FeatureEnvironment(storeURL: url))
    let saved = try contents(of: url)
    weak var cancelled: ToDoEditViewModel?
    try feature.perform(ScriptCommand(word: "edit", argument: "1"))
    cancelled = feature.list.sheet.destination
    try feature.perform(ScriptCommand(word: "title", argument: "Buy milk"))
    try feature.perform(ScriptCommand(word: "cancel", argument: nil))
    #expect(cancelled == nil)
    #expect(try contents(of: url) == saved)
    weak var finished: ToDoEditViewModel?
    try feature.perform(ScriptCommand(word: "edit", argument: "1"))
    finished = feature.list.sheet.destination
    try feature.perform(ScriptCommand(word: "title", argument: "Buy milk"))
    try feature.perform(ScriptCommand(word: "done", argument: nil))
    #expect(finished == nil)
    #expect(try contents(of: url) == storeFile([(1, "Buy milk"), (2, "ToDo Item 2")], next: 3))
    #expect(feature.currentScreen == ToDoFeature.listScreen)
  }

  /// A file the list cannot have written is refused, and left untouched.
  ///
  /// Items that repeat an id, and more items than the list holds (refused
  /// rather than shown as "To-do (600000 of 10)"), each with its reason.
  @Test(arguments: [
    (
      #"[{"id":1,"title":"a"},{"id":1,"title":"b"}]"#,
      "more than one element has the id 1"
    ),
    (
      storeFile((1...11).map { ($0, "item \($0)") }),
      "it holds 11 items; a to-do list holds at most 10"
    ),
  ])
  func aStoreFileTheListCannotHaveWrittenIsRefusedAndLeftUntouched(
    text: String, reason: String
  ) async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    try text.write(to: url, atomically: false, encoding: .utf8)
    #expect(
      await runScript("render", arguments: ["todo", "--store", url.path])
        == Transcript(
          status: 1, output: "",
          error: "error: cannot read \(url.path): it is not a valid store file "
            + "(\(reason)); the file was left untouched\n"))
    #expect(try contents(of: url) == text)
  }

  @Test func anItemWithTheLargestIdDoesNotBreakAdd() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    try storeFile([(Int.max, "last")]).write(to: url, atomically: false, encoding: .utf8)
    #expect(
      await runScript("render\nadd", arguments: ["todo", "--store", url.path])
        == Transcript(
          status: 0,
          output: """
            To-do (1 of 10, add: enabled)
              1. last
            Last change: none

            To-do (2 of 10, add: enabled)
              1. last
              2. ToDo Item 1
            Last change: insert [1]

            """))
    #expect(try contents(of: url) == storeFile([(Int.max, "last"), (1, "ToDo Item 1")]))
  }

  /// A list kept in a database takes in another store's commit by itself,
  /// without a command or a key, and the terminal wakes to draw it; a list
  /// kept in memory has nothing to watch.
  @Test func anotherStoresCommitArrivesInTheListByItself() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.sqlite")
    let feature = try ToDoFeature(environment: FeatureEnvironment(storeURL: url))
    #expect(feature.watchesForOutsideChanges)
    #expect(try !ToDoFeature(environment: FeatureEnvironment()).watchesForOutsideChanges)
    let other = try Store<ToDoItem>(database: url)
    await withCheckedContinuation { (arrived: CheckedContinuation<Void, Never>) in
      var waiting: Subscription?
      waiting = feature.list.store.items.observeChanges { _ in
        waiting?.cancel()
        waiting = nil
        arrived.resume()
      }
      other.items.append(ToDoItem(id: 9, title: "from another store"))
      other.flush()
    }
    #expect(feature.lines.contains("  3. from another store"))
  }

  /// Two runs may keep the same database open: what one saves reaches the
  /// other when it next looks.
  @Test func aSecondRunOnTheSameDatabaseSharesIt() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.sqlite")
    let other = try ToDoFeature(environment: FeatureEnvironment(storeURL: url))
    #expect(
      await runScript("add", arguments: ["todo", "--quiet", "--store", url.path])
        == Transcript(status: 0, output: ""))
    await other.settle()
    #expect(
      other.lines == [
        "To-do (3 of 10, add: enabled)", "  1. ToDo Item 1", "  2. ToDo Item 2",
        "  3. ToDo Item 3", "Last change: insert [2]",
      ])
    #expect(
      try contents(of: url)
        == storeFile([(1, "ToDo Item 1"), (2, "ToDo Item 2"), (3, "ToDo Item 3")], next: 4))
  }

  /// Interactive changes are saved in the background; `finish()`, which
  /// the app calls however the run ends, writes what is still pending.
  @Test func finishWritesTheChangesNotSavedYet() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let feature = try ToDoFeature(environment: FeatureEnvironment(storeURL: url))
    #expect(feature.handle(.character("a")) == .continue)
    #expect(feature.handle(.character("a")) == .continue)
    feature.finish()
    #expect(!feature.hasPendingWork)
    #expect(
      try contents(of: url)
        == storeFile(
          [
            (1, "ToDo Item 1"), (2, "ToDo Item 2"), (3, "ToDo Item 3"), (4, "ToDo Item 4"),
          ], next: 5))
  }

  @Test func theFeatureReleasesItsViewsAndViewModels() throws {
    checkNoLeaks {
      do {
        let feature = try ToDoFeature(environment: FeatureEnvironment())
        try feature.perform(ScriptCommand(word: "add", argument: "Buy milk"))
        try feature.perform(ScriptCommand(word: "open", argument: "3"))
        let editor: [AnyObject] = feature.editorView.viewModel.map { [$0, $0.title.base] } ?? []
        try feature.perform(ScriptCommand(word: "title", argument: "Call mom"))
        try feature.perform(ScriptCommand(word: "back"))
        try feature.perform(ScriptCommand(word: "open", argument: "1"))
        return [
          feature, feature.list, feature.list.store, feature.list.store.items, feature.listView,
          feature.editorView, feature.saveStatus,
        ] + editor
      } catch {
        Issue.record("the commands failed: \(error)")
        return []
      }
    }
  }
}
