import DemoApp
import Foundation
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

/// The list's help, naming the steps undo and redo would take.
private func listHelp(undo: String? = nil, redo: String? = nil) -> String {
  helpRows(
    ["↑/↓ move", "space toggle", "enter open", "a add", "d delete", "/ search", "g group"]
      + undoKeys(undo: undo, redo: redo) + ["q quit", "^G graph"])
}

/// The detail's help, naming the steps undo and redo would take.
private func detailHelp(undo: String? = nil, redo: String? = nil) -> String {
  helpRows(
    ["space toggle", "e edit text", "d delete"] + undoKeys(undo: undo, redo: redo)
      + ["esc/b back", "q quit", "^G graph"])
}
private let editHelp = "enter save  esc cancel  ←/→ move  backspace erase  ctrl-u clear  ^G graph"
private let date = "2026-11-21 10:00:00 +0000"

@MainActor
@Suite("The app")
struct DemoAppTests {
  @Test func helpGoesToStandardOutput() async {
    #expect(
      await runScript("", arguments: ["--help"])
        == Transcript(
          status: 0,
          output: """
            pomvvm-demo: the POMVVM sample app, rendered as text.

            USAGE: pomvvm-demo [FEATURE] [--script] [--quiet] [--clock DATE] [--store FILE] [--latency MS]

            With standard input on a terminal, a full-screen terminal UI opens (it needs
            a window of 20×3 or more; Ctrl-Z suspends it where job control is on, and
            'fg' brings it back). Otherwise (or with --script), standard input is a
            script: one command per line, and the screen is printed after each, so an
            empty script prints nothing: 'render' prints the screen as it is. Type
            'help' in a script for the commands of the current screen.

            FEATURES (default: master-detail):
              master-detail  a list of dated items with switches, and a detail screen
              login          a login form validated as you type
              todo           a to-do list of at most 10 items in a store, and an item editor
              movies         a movie catalog: paged loading, errors and retry, a detail loaded as a chain

            OPTIONS:
              --script        read a script from standard input, even from a terminal
              --quiet         in a script, print the screen only for 'render'
              --clock DATE    fix the clock to an ISO 8601 date: --clock 2026-11-21T10:00:00Z
              --store FILE    keep the to-do list in FILE, a SQLite database, saved as it
                              changes; todo.json moves into todo.sqlite on the first run
                              (todo only: the other features refuse it)
              --latency MS    make every request of the movie catalog take MS milliseconds
              -h, --help      show this help

            SHEETS AND ALERTS (drawn under the screen they belong to):
              master-detail  'delete' on a detail asks first: 'yes' or 'no' (keys: d, then
                             left/right and enter, esc for no)
              todo           'edit N' opens a sheet with a draft: 'title TEXT', 'toggle',
                             then 'done' (one undoable step) or 'cancel' (keys: e, enter, esc)
              movies         a detail that fails to load shows an alert: 'retry' or 'cancel'
                             (keys: r, c or esc)

            STORE FILE (--store):
              A SQLite database, saved after every change, atomically, and before the
              app exits. A name ending in .json is a JSON store file of an earlier
              version: the first run moves its items into the same name ending in
              .sqlite and leaves the JSON file as it is. Several apps may share one
              database: each one's changes show in the others by themselves. An item
              that another app changed since this one read it is never saved over:
              the change fails, both are kept. A file with a field this version does
              not know is refused. A save that fails (a full disk, a file-size limit)
              shows its error and keeps the change in memory; the next save that
              succeeds writes it.

            EXIT STATUS:
              0    success
              1    a script command failed, or the terminal failed
              2    bad arguments
              74   standard output could not be written (a full disk, say)
              130  Ctrl-C
              141  standard output was closed, as by '| head': the run ends quietly

            """))
  }

  @Test func badArgumentsExitWithStatus2AndTheUsage() async {
    #expect(
      await runScript("add first", arguments: ["--frob"])
        == Transcript(
          status: 2, output: "",
          error: """
            error: unknown option '--frob'
            USAGE: pomvvm-demo [FEATURE] [--script] [--quiet] [--clock DATE] [--store FILE] [--latency MS]
              See 'pomvvm-demo --help' for more information.

            """))
    #expect(
      await runScript("add first", arguments: ["--clock", "2026-13-45T99:00:00Z"])
        == Transcript(
          status: 2, output: "",
          error: """
            error: '2026-13-45T99:00:00Z' is not a date: --clock takes ISO 8601, such as --clock 2026-11-21T10:00:00Z
            USAGE: pomvvm-demo [FEATURE] [--script] [--quiet] [--clock DATE] [--store FILE] [--latency MS]
              See 'pomvvm-demo --help' for more information.

            """))
  }

  @Test func aStoreForAScreenThatKeepsNoFileExitsWithStatus2() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pomvvm-store-\(UUID().uuidString)")
    let file = directory.appendingPathComponent("items.json")
    #expect(
      await runScript("add first", arguments: ["master-detail", "--store", file.path])
        == Transcript(
          status: 2, output: "",
          error: """
            error: --store: master-detail keeps no file; only todo does, as in 'todo --store FILE'
            USAGE: pomvvm-demo [FEATURE] [--script] [--quiet] [--clock DATE] [--store FILE] [--latency MS]
              See 'pomvvm-demo --help' for more information.

            """))
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func theFeatureCanBeNamed() async {
    #expect(
      await runScript("add first", arguments: ["master-detail"] + fixedClock)
        == Transcript(status: 0, output: "Items (open switches: 0)\n  1. [ ] first\n"))
  }

  @Test func scriptModeRunsOnATerminalWhenAsked() async {
    let terminal = VirtualTerminal(typing: ["q"])
    var output = ""
    var error = ""
    let status = await DemoApp.run(
      arguments: ["--script"] + fixedClock, input: ["add first"], output: &output, error: &error,
      isTerminal: true, terminal: terminal)
    #expect(
      Transcript(status: status, output: output, error: error)
        == Transcript(status: 0, output: "Items (open switches: 0)\n  1. [ ] first\n"))
    #expect(terminal.screens.isEmpty, "the terminal was not used")
  }

  @Test func interactiveModeShowsEveryStepAndRestoresTheTerminal() async {
    let (transcript, terminal) = await runInteractive(typing: [
      "a", "a", "j", " ", "\r", "e", "\u{15}", "café 漢字 👍", "\u{7F}", "ok", "\r", "\u{1B}", "j",
      "d", "q",
    ])
    #expect(transcript == Transcript(status: 0, output: ""))
    #expect(terminal.wasRestored && !terminal.isFullScreen)
    #expect(
      terminal.screens == [
        screen(
          "Items (open switches: 0)\n  No items yet: press a to add one.", help: listHelp()),
        screen("Items (open switches: 0)\n> 1. [ ] \(date)", help: listHelp(undo: "Add")),
        screen(
          "Items (open switches: 0)\n> 1. [ ] \(date)\n  2. [ ] \(date)",
          help: listHelp(undo: "Add")),
        screen(
          "Items (open switches: 0)\n  1. [ ] \(date)\n> 2. [ ] \(date)",
          help: listHelp(undo: "Add")),
        screen(
          "Items (open switches: 1)\n  1. [ ] \(date)\n> 2. [x] \(date)",
          help: listHelp(undo: "Toggle")),
        screen(
          "Detail\n  Date:   \(date)\n  Text:   \(date)\n  Switch: [x]",
          help: detailHelp(undo: "Toggle")),
        screen("Detail\n  Date:   \(date)\n  Text:   \(date)\n  Switch: [x]", help: editHelp),
        screen("Detail\n  Date:   \(date)\n  Text:\n  Switch: [x]", help: editHelp),
        screen("Detail\n  Date:   \(date)\n  Text:   café 漢字 👍\n  Switch: [x]", help: editHelp),
        screen("Detail\n  Date:   \(date)\n  Text:   café 漢字\n  Switch: [x]", help: editHelp),
        screen("Detail\n  Date:   \(date)\n  Text:   café 漢字 ok\n  Switch: [x]", help: editHelp),
        screen(
          "Detail\n  Date:   \(date)\n  Text:   café 漢字 ok\n  Switch: [x]",
          help: detailHelp(undo: "Rename")),
        screen(
          "Items (open switches: 1)\n  1. [ ] \(date)\n> 2. [x] café 漢字 ok",
          help: listHelp(undo: "Rename")),
        screen("Items (open switches: 0)\n> 1. [ ] \(date)", help: listHelp(undo: "Delete")),
      ])
  }

  @Test func interactiveModeRedrawsOnlyTheRowsThatChanged() async {
    // With the clock fixed, every new item has the same text.
    let (_, terminal) = await runInteractive(typing: ["a", "a", "a", "j", " ", "k", "\r", " "])
    #expect(
      terminal.rowsWritten == [
        Array(0..<24),  // the first frame: the whole screen
        // "a": the first row replaces the hint; the help (two rows) says "u undo: Add"
        [1, 22, 23],
        [2],  // "a": row 1 looks the same (a new item, selected); row 2 is new
        [3],  // "a": likewise
        [1, 2],  // "j": the selection moves from row 1 to row 2
        [0, 2, 23],  // space: the header's count, the toggled row, "u undo: Toggle"
        [1, 2],  // "k": the selection moves back
        [0, 1, 2, 3, 22, 23],  // enter: the detail's four lines and its help
        [3],  // space: the switch (the help still says "u undo: Toggle")
      ])
  }

  @Test func theCursorShowsOnlyWhileEditingText() async {
    let (_, terminal) = await runInteractive(typing: ["a", "\r", "e", "x", "\r", "q"])
    #expect(terminal.screens.count == 6)
    #expect(!terminal.isCursorVisible)
    let (_, editing) = await runInteractive(typing: ["a", "\r", "e", "\u{2}\u{2}"])
    #expect(editing.isCursorVisible)
    #expect(editing.cursor == Position(row: 2, column: 33), "two characters before the end")
  }

  @Test func longTextsAreCutToTheWidthByDisplayWidth() async {
    let (_, terminal) = await runInteractive(
      typing: ["a", "\r", "e", "\u{15}", String(repeating: "漢字👍 ", count: 3_000), "\r", "b"],
      size: TerminalSize(width: 40, height: 6))
    #expect(
      terminal.screens.last == """
        Items (open switches: 0)
        > 1. [ ] 漢字👍 漢字👍 漢字👍 漢字👍 漢…

        ↑/↓ move  space toggle  enter open
        a add  d delete  / search  g group
        u undo: Rename  U redo  q quit  ^G graph
        """, "the help line wraps rather than being cut at 40 columns")
  }

  @Test func ctrlCQuitsWithStatus130AndRestoresTheTerminal() async {
    let (transcript, terminal) = await runInteractive(typing: ["a", "e\u{03}", "a"])
    #expect(transcript == Transcript(status: 130, output: ""))
    #expect(terminal.wasRestored && !terminal.isFullScreen)
    #expect(terminal.screens.count == 2, "nothing after Ctrl-C was read")
  }

  @Test func theEndOfInputQuitsAndRestoresTheTerminal() async {
    let (transcript, terminal) = await runInteractive(typing: ["a"])
    #expect(transcript == Transcript(status: 0, output: ""))
    #expect(terminal.wasRestored)
  }
}
