import DemoApp
import Foundation
import POMVVM
import Testing
import TextUI

/// A whole 80×24 screen: the given lines at the top, blank rows, and the
/// help line's rows at the bottom.
private func screen(_ top: String, help: String) -> String {
  let lines = top.split(separator: "\n", omittingEmptySubsequences: false)
  let help = help.split(separator: "\n", omittingEmptySubsequences: false)
  return (lines + Array(repeating: "", count: 24 - help.count - lines.count) + help)
    .joined(separator: "\n")
}

/// The list's help, naming the step undo would take.
private func listHelp(undo: String? = nil) -> String {
  helpRows(
    ["↑/↓ move", "enter open", "e edit", "space toggle", "f filter", "a add", "d delete"]
      + undoKeys(undo: undo)
      + ["q quit", "^G graph"])
}

/// The full list's help, naming the step undo would take.
private func fullListHelp(undo: String? = nil) -> String {
  helpRows(
    ["↑/↓ move", "enter open", "e edit", "space toggle", "f filter", "a add (full)", "d delete"]
      + undoKeys(undo: undo)
      + ["q quit", "^G graph"])
}

/// The detail's help, naming the step undo would take.
private func detailHelp(undo: String? = nil) -> String {
  helpRows(
    ["e edit title", "d delete"] + undoKeys(undo: undo) + ["esc/b back", "q quit", "^G graph"])
}
/// The edit sheet's help.
private let sheetHelp = helpRows(
  ["e edit title", "space toggle", "enter done", "esc cancel", "q quit", "^G graph"])
private let editHelp = "enter save  esc cancel  ←/→ move  backspace erase  ctrl-u clear  ^G graph"

/// The first screen of the to-do list.
private let start = """
  To-do (2 of 10, add: enabled)
  > 1. ToDo Item 1
    2. ToDo Item 2
  Last change: insert [1]
  """

/// The to-do list's screens and keys, on a virtual terminal and driven
/// directly.
@MainActor
@Suite("To-do in interactive mode")
struct ToDoInteractiveTests {
  @Test func moveOpenEditTheTitleGoBackAddAndDelete() async {
    let (transcript, terminal) = await runInteractive(
      typing: [
        "j", "\r", "e", "\u{15}", "Buy 牛乳 🥛", "\u{7F}", "\r", "b", "a", "k", "d", "q", "a",
      ], arguments: ["todo"])
    #expect(transcript == Transcript(status: 0, output: ""))
    #expect(terminal.wasRestored && !terminal.isFullScreen)
    #expect(
      terminal.screens == [
        screen(start, help: listHelp()),
        screen(
          """
          To-do (2 of 10, add: enabled)
            1. ToDo Item 1
          > 2. ToDo Item 2
          Last change: insert [1]
          """, help: listHelp()),
        screen("To-do item\n  Title: ToDo Item 2", help: detailHelp()),
        screen("To-do item\n  Title: ToDo Item 2", help: editHelp),
        screen("To-do item\n  Title:", help: editHelp),
        screen("To-do item\n  Title: Buy 牛乳 🥛", help: editHelp),
        screen("To-do item\n  Title: Buy 牛乳", help: editHelp),
        screen("To-do item\n  Title: Buy 牛乳", help: detailHelp(undo: "Rename")),
        screen(
          """
          To-do (2 of 10, add: enabled)
            1. ToDo Item 1
          > 2. Buy 牛乳
          Last change: update [1]
          """, help: listHelp(undo: "Rename")),
        screen(
          """
          To-do (3 of 10, add: enabled)
            1. ToDo Item 1
            2. Buy 牛乳
          > 3. ToDo Item 3
          Last change: insert [2]
          """, help: listHelp(undo: "Add")),
        screen(
          """
          To-do (3 of 10, add: enabled)
            1. ToDo Item 1
          > 2. Buy 牛乳
            3. ToDo Item 3
          Last change: insert [2]
          """, help: listHelp(undo: "Add")),
        screen(
          """
          To-do (2 of 10, add: enabled)
            1. ToDo Item 1
          > 2. ToDo Item 3
          Last change: remove [1]
          """, help: listHelp(undo: "Delete")),
      ], "q quit before the last a was read")
  }

  @Test func addIsDisabledAtTenItemsAndSaysSoWhenPressed() async {
    /// Rows as the list numbers them, right-aligned past row 9.
    func numbered(_ titles: [String]) -> [String] {
      titles.enumerated().map { row, title in
        (row + 1 < 10 && titles.count >= 10 ? "   " : "  ") + "\(row + 1). \(title)"
      }
    }
    let titles = (1...10).map { "ToDo Item \($0)" }
    let rows = numbered(titles)
    func list(_ rows: [String], header: String, lastChange: String, cursor: Int) -> String {
      var rows = rows
      rows[cursor] = ">" + rows[cursor].dropFirst()
      return ([header] + rows + ["Last change: \(lastChange)"]).joined(separator: "\n")
    }
    let full = list(
      rows, header: "To-do (10 of 10, add: disabled)", lastChange: "insert [9]", cursor: 9)
    let (_, terminal) = await runInteractive(
      typing: ["aaaaaaaa", "a", "k", "d", "a"], arguments: ["todo"])
    #expect(
      terminal.screens == [
        screen(start, help: listHelp()),
        screen(full, help: fullListHelp(undo: "Add")),
        screen(
          full + "\n\n  the list is full: at most 10 items; press d to delete one",
          help: fullListHelp(undo: "Add")),
        screen(
          list(
            rows, header: "To-do (10 of 10, add: disabled)", lastChange: "insert [9]", cursor: 8),
          help: fullListHelp(undo: "Add")),
        screen(
          list(
            numbered(Array(titles.prefix(8)) + ["ToDo Item 10"]),
            header: "To-do (9 of 10, add: enabled)", lastChange: "remove [8]", cursor: 8),
          help: listHelp(undo: "Delete")),
        screen(
          list(
            numbered(Array(titles.prefix(8)) + ["ToDo Item 10", "ToDo Item 11"]),
            header: "To-do (10 of 10, add: disabled)", lastChange: "insert [9]", cursor: 9),
          help: fullListHelp(undo: "Add")),
      ])
  }

  @Test func aTitleWithControlCharactersIsDrawnVisiblyAndEditedAsTyped() async throws {
    let feature = try ToDoFeature(environment: FeatureEnvironment())
    try feature.perform(ScriptCommand(word: "add", argument: "\u{1B}[31mred\rX"))
    let terminal = VirtualTerminal(typing: ["j", "j", "\r", "e", "\u{7F}", "!", "\r"])
    let end = try await FullScreenSession(device: terminal).run(InteractiveShell(feature: feature))
    #expect(end == .endOfInput)
    let list = """
      To-do (3 of 10, add: enabled)
        1. ToDo Item 1
        2. ToDo Item 2
      > 3. \\u{1B}[31mred\\u{0D}X
      Last change: insert [2]
      """
    #expect(
      terminal.screens == [
        screen(
          list.replacing("> 3.", with: "  3.").replacing("  1.", with: "> 1."),
          help: listHelp(undo: "Add")),
        screen(
          list.replacing("> 3.", with: "  3.").replacing("  2.", with: "> 2."),
          help: listHelp(undo: "Add")),
        screen(list, help: listHelp(undo: "Add")),
        screen("To-do item\n  Title: \\u{1B}[31mred\\u{0D}X", help: detailHelp(undo: "Add")),
        screen("To-do item\n  Title: \\u{1B}[31mred\\u{0D}X", help: editHelp),
        screen("To-do item\n  Title: \\u{1B}[31mred\\u{0D}", help: editHelp),
        screen("To-do item\n  Title: \\u{1B}[31mred\\u{0D}!", help: editHelp),
        screen("To-do item\n  Title: \\u{1B}[31mred\\u{0D}!", help: detailHelp(undo: "Rename")),
      ], "no escape reached the terminal raw (the virtual terminal records any)")
    #expect(
      feature.lines == ["To-do item", "  Title: \u{1B}[31mred\r!"],
      "the view keeps the text as typed")
  }

  @Test func deleteOnTheDetailGoesBackAndAnEmptyListSaysHowToAdd() async {
    let (transcript, terminal) = await runInteractive(
      typing: ["\r", "d", "\r", "\u{1B}", "d", "\r", "d", "k", "q"], arguments: ["todo"])
    #expect(transcript == Transcript(status: 0, output: ""))
    let empty = """
      To-do (0 of 10, add: enabled)
        No items: press a to add one.
      Last change: remove [0]
      """
    #expect(
      terminal.screens == [
        screen(start, help: listHelp()),
        screen("To-do item\n  Title: ToDo Item 1", help: detailHelp()),
        screen(
          "To-do (1 of 10, add: enabled)\n> 1. ToDo Item 2\nLast change: remove [0]",
          help: listHelp(undo: "Delete")),
        screen("To-do item\n  Title: ToDo Item 2", help: detailHelp(undo: "Delete")),
        screen(empty, help: listHelp(undo: "Delete")),
        screen(empty, help: listHelp(undo: "Delete")),
        screen(empty, help: listHelp(undo: "Delete")),
        screen(empty, help: listHelp(undo: "Delete")),
      ], "escape went back, then d deleted the last row; enter, d and k do nothing")
  }

  @Test func eOpensTheEditSheetOverTheListThatEscCancelsAndEnterWrites() async {
    let (transcript, terminal) = await runInteractive(
      typing: [
        "j", "e", "e", "\u{15}", "Milk", "\r", " ", "\u{1B}", "e", "e", "!", "\r", "\r", "q",
      ],
      arguments: ["todo"])
    #expect(transcript == Transcript(status: 0, output: ""))
    let list = """
      To-do (2 of 10, add: enabled)
        1. ToDo Item 1
      > 2. ToDo Item 2
      Last change: insert [1]
      """
    func sheet(title: String, done: Bool = false) -> String {
      list + "\n\n  Edit to-do item\n    Title: \(title)\n    Done: \(done ? "yes" : "no")\n"
        + "  [Cancel] [Done]"
    }
    #expect(
      terminal.screens == [
        screen(start, help: listHelp()),
        screen(list, help: listHelp()),
        screen(sheet(title: "ToDo Item 2"), help: sheetHelp),
        screen(sheet(title: "ToDo Item 2"), help: editHelp),
        screen(sheet(title: "").replacing("Title: \n", with: "Title:\n"), help: editHelp),
        screen(sheet(title: "Milk"), help: editHelp),
        screen(sheet(title: "Milk"), help: sheetHelp),
        screen(sheet(title: "Milk", done: true), help: sheetHelp),
        // Esc waits for the next key (it could start a sequence): one frame
        // shows the cancel and the sheet opened again, with a new draft.
        screen(sheet(title: "ToDo Item 2"), help: sheetHelp),
        screen(sheet(title: "ToDo Item 2"), help: editHelp),
        screen(sheet(title: "ToDo Item 2!"), help: editHelp),
        screen(sheet(title: "ToDo Item 2!"), help: sheetHelp),
        screen(
          """
          To-do (2 of 10, add: enabled)
            1. ToDo Item 1
          > 2. ToDo Item 2!
          Last change: update [1]
          """, help: listHelp(undo: "Edit")),
      ])
  }
}

/// The to-do list's frames, with styles and the cursor, driven directly.
@MainActor
@Suite("To-do frames")
struct ToDoFrameTests {
  private let feature: ToDoFeature

  init() throws {
    feature = try ToDoFeature(environment: FeatureEnvironment())
  }

  /// The body as text (see `renderedBody(width:height:)`).
  private func body(width: Int = 40, height: Int = 20) -> String {
    feature.renderedBody(width: width, height: height)
  }

  private func press(
    _ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation
  ) {
    feature.press(keys, sourceLocation: sourceLocation)
  }

  @Test func fCyclesTheFilterAndTheRowsAreTheFiltersRows() {
    press(.character(" "), .character("f"))
    #expect(
      body() == """
        To-do (2 of 10, add: enabled), showing active |bold
        > 1. ToDo Item 2 |reverse
        Last change: update [0] |dim
        """)
    press(.character("f"))
    #expect(
      body() == """
        To-do (2 of 10, add: enabled), showing completed |bold
        > 1. ToDo Item 1 (done) |reverse
        Last change: update [0] |dim
        """)
    press(.character("d"), .character("f"))
    #expect(
      body() == """
        To-do (1 of 10, add: enabled) |bold
        > 1. ToDo Item 2 |reverse
        Last change: remove [0] |dim
        """)
  }

  @Test func theSelectionIsReversedAndTheEditorShowsTheCursor() {
    #expect(
      body() == """
        To-do (2 of 10, add: enabled) |bold
        > 1. ToDo Item 1 |reverse
          2. ToDo Item 2
        Last change: insert [1] |dim
        """)
    press(.end, .enter, .character("e"), .left, .left)
    #expect(
      body() == """
        To-do item |bold
          Title: ToDo Item 2 |underline
        cursor at 1,18
        """)
    #expect(feature.handle(.character("q")) == .continue, "q is text while editing")
    press(.escape)
    #expect(feature.lines == ["To-do item", "  Title: ToDo Item 2"], "escape cancels the edit")
    press(.left)
    #expect(feature.currentScreen.name == "list", "the left arrow goes back too")
    #expect(feature.handle(.character("q")) == .quit)
  }

  @Test func theEditorsCursorCountsAControlCharacterAsItsVisibleEscape() throws {
    try feature.perform(ScriptCommand(word: "open", argument: "1"))
    try feature.perform(ScriptCommand(word: "title", argument: "a\u{1B}b"))
    press(.character("e"), .left)
    #expect(
      body() == """
        To-do item |bold
          Title: a\u{1B}b |underline
        cursor at 1,16
        """, "after \"  Title: a\" and the six columns of \\u{1B}")
  }

  @Test func aSmallTerminalScrollsTheListToKeepTheSelectionInView() {
    for _ in 1...8 {
      press(.character("a"))
    }
    #expect(
      body(height: 6) == """
        To-do (10 of 10, add: disabled) |bold
           7. ToDo Item 7
           8. ToDo Item 8
           9. ToDo Item 9
        > 10. ToDo Item 10 |reverse
        Last change: insert [9] |dim
        """)
    press(.home, .down)
    #expect(
      body(height: 6) == """
        To-do (10 of 10, add: disabled) |bold
        >  2. ToDo Item 2 |reverse
           3. ToDo Item 3
           4. ToDo Item 4
           5. ToDo Item 5
        Last change: insert [9] |dim
        """, "the view scrolls just enough to show the selection")
  }

  @Test func aFailedBackgroundSaveShowsUnderTheScreen() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-todo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("t.sqlite")
    let feature = try ToDoFeature(environment: FeatureEnvironment(storeURL: url))
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
    #expect(feature.handle(.character("d")) == .continue)
    #expect(feature.hasPendingWork, "the save runs in the background")
    // The failure is reported to `Diagnostics` too: wait for the background
    // save without letting the main actor run, then publish its outcome
    // inside a capture of this test's own (other tests report meanwhile).
    let deadline = ContinuousClock.now + .seconds(10)
    while feature.list.store._writeCount < 2 && ContinuousClock.now < deadline {
      usleep(1_000)
    }
    let reports = Diagnostics.capturing { feature.finish() }
    #expect(!feature.hasPendingWork)
    let failure =
      "cannot save \(url.path): the file is read-only (permissions r--r--r--); "
      + "the file on disk was not changed"
    #expect(reports == [failure])
    let frame = feature.body(size: TerminalSize(width: 200, height: 20))
    #expect(
      frame.lines == [
        Frame.Line("To-do (1 of 10, add: enabled)", style: .bold),
        Frame.Line("> 1. ToDo Item 2", style: .reverse),
        Frame.Line("Last change: remove [0]", style: .dim),
        Frame.Line("Save failed: \(failure)", style: .bold),
      ])
  }

  @Test func theSheetIsDrawnUnderTheListAndItsTitleEditorShowsTheCursor() throws {
    try feature.perform(ScriptCommand(word: "add", argument: "a\u{1B}b"))
    press(.end, .character("e"))
    #expect(
      body() == """
        To-do (3 of 10, add: enabled) |bold
          1. ToDo Item 1
          2. ToDo Item 2
        > 3. a\u{1B}b |reverse
        Last change: insert [2] |dim

          Edit to-do item |bold
            Title: a\\u{1B}b
            Done: no
          [Cancel] [Done] |reverse
        """)
    press(.character("e"), .left)
    #expect(
      body() == """
        To-do (3 of 10, add: enabled) |bold
          1. ToDo Item 1
          2. ToDo Item 2
        > 3. a\u{1B}b |reverse
        Last change: insert [2] |dim

          Edit to-do item |bold
            Title: a\u{1B}b |underline
            Done: no
          [Cancel] [Done] |reverse
        cursor at 7,18
        """, "after \"    Title: a\" and the six columns of \\u{1B}")
    #expect(feature.handle(.character("q")) == .continue, "q is text while editing")
    press(.escape)
    #expect(feature.currentScreen.name == "edit", "escape ends the title's edit only")
    press(.escape)
    #expect(feature.currentScreen.name == "list")
    #expect(feature.list.store.items[2].title == "a\u{1B}b", "cancel left the item")
  }

  @Test func aSmallTerminalKeepsTheSheetAndTheSelectedRowInView() {
    press(.end, .character("e"))
    #expect(
      body(height: 8) == """
        To-do (2 of 10, add: enabled) |bold
        > 2. ToDo Item 2 |reverse
        Last change: insert [1] |dim

          Edit to-do item |bold
            Title: ToDo Item 2
            Done: no
          [Cancel] [Done] |reverse
        """)
  }
}
