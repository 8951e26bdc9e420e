import DemoApp
import Foundation
import POMVVM
import Testing
import ToDo

/// The to-do list's store file, as the store writes it.
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

/// The list that `--store url` keeps, read from its database and written
/// out as the JSON store file the list kept before (``storeFile(_:next:)``).
@MainActor
private func saved(_ url: URL) throws -> String {
  let store = try Store<ToDoItem>(database: ToDoFeature.storeFiles(for: url).database)
  let next = store.nextSequenceNumber
  return storeFile(store.items.map { ($0.id, $0.title) }, next: next > 1 ? next : nil)
}

/// Undo and redo on the to-do screens, in script mode, in memory and with
/// `--store`: an undone change is saved like any other, and a restart
/// finds the undone state (with nothing to undo: the history is not kept).
@MainActor
@Suite("To-do undo and redo")
struct ToDoUndoTests {
  @Test func undoAndRedoInMemoryOnBothScreens() async {
    #expect(
      await runScript(
        """
        undo
        add Buy milk
        open 3
        title Call mom
        undo
        render
        redo
        delete
        undo
        render
        undo
        undo
        undo
        redo
        render
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 1,
          output: """
            To-do item
              Title: Buy milk

            To-do (3 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
              3. Call mom
            Last change: insert [2]

            To-do (3 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
              3. Buy milk
            Last change: insert [2]

            """,
          error: "error: nothing to undo\nerror: nothing to undo\n"))
  }

  /// An undo that deletes the item the detail shows leaves the detail
  /// detached; the redo that brings the item back makes it editable again,
  /// as a notes app's editor comes back with ⇧⌘Z.
  @Test func theDetailEditsAgainAnItemThatARedoBroughtBack() async {
    #expect(
      await runScript(
        """
        add Buy milk
        open 3
        undo
        render
        redo
        title Call mom
        render
        back
        render
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 0,
          output: """
            To-do item
              Title: Buy milk
              (deleted: this item is no longer in the list)

            To-do item
              Title: Call mom

            To-do (3 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
              3. Call mom
            Last change: update [2]

            """,
          error: ""))
  }

  /// Issue #31's repro: with a reused id, the editor of "b" came back on
  /// "a" after two undos, and renamed it.
  @Test func anUndoNeverSwitchesAnOpenEditorToAnotherItem() async {
    let transcript = await runScript(
      """
      add a
      delete 3
      add b
      open 3
      undo
      undo
      title edited
      back
      render
      """, arguments: ["todo", "--quiet"])
    #expect(
      transcript
        == Transcript(
          status: 1,
          output: """
            To-do (3 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
              3. a
            Last change: insert [2]

            """,
          error: "error: the item was deleted and takes no more edits; use: back\n"))
  }

  @Test func anUndoneChangeIsSavedAndARestartFindsIt() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-undo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let arguments = ["todo", "--quiet", "--store", url.path]
    #expect(
      await runScript(
        """
        undo
        open 1
        title Buy milk
        back
        delete 2
        add Call mom
        undo
        undo
        """, arguments: arguments)
        == Transcript(status: 1, output: "", error: "error: nothing to undo\n"),
      "the sample items of a new file are not a change to undo")
    #expect(
      try saved(url)
        == storeFile([(1, "Buy milk"), (2, "ToDo Item 2")], next: 4))

    #expect(
      await runScript("render\nundo\nredo\nadd\nundo\nrender", arguments: arguments)
        == Transcript(
          status: 1,
          output: """
            To-do (2 of 10, add: enabled)
              1. Buy milk
              2. ToDo Item 2
            Last change: none

            To-do (2 of 10, add: enabled)
              1. Buy milk
              2. ToDo Item 2
            Last change: remove [2]

            """,
          error: "error: nothing to undo\nerror: nothing to redo\n"))
    #expect(
      try saved(url)
        == storeFile([(1, "Buy milk"), (2, "ToDo Item 2")], next: 5))

    #expect(
      await runScript("undo\nredo\nrender", arguments: arguments)
        == Transcript(
          status: 1,
          output: """
            To-do (2 of 10, add: enabled)
              1. Buy milk
              2. ToDo Item 2
            Last change: none

            """,
          error: "error: nothing to undo\nerror: nothing to redo\n"))
  }

  @Test func theKeysUndoAndRedoOnBothScreensAndTheHelpNamesTheStep() throws {
    let feature = try ToDoFeature(environment: FeatureEnvironment())
    #expect(feature.keyHelp.contains("  u undo  U redo  "))
    try feature.perform(ScriptCommand(word: "open", argument: "2"))
    try feature.perform(ScriptCommand(word: "title", argument: "Call mom"))
    #expect(feature.keyHelp.contains("  u undo: Rename  U redo  "))
    #expect(feature.handle(.character("u")) == .continue)
    #expect(feature.lines == ["To-do item", "  Title: ToDo Item 2"])
    #expect(feature.keyHelp.contains("  u undo  U redo: Rename  "))
    #expect(feature.handle(.character("U")) == .continue)
    #expect(feature.lines == ["To-do item", "  Title: Call mom"])
  }
}
