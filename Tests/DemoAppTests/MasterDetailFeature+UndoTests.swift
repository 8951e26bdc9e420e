import DemoApp
import Testing

/// Undo and redo on the Master-Detail screens, in script mode: every edit
/// can be taken back, and a deleted item comes back with its switch, to
/// the list and to a detail screen that still shows it.
@MainActor
@Suite("Master-Detail undo and redo")
struct MasterDetailUndoTests {
  @Test func withNothingToTakeBackUndoAndRedoAreErrors() async {
    #expect(
      await runScript("undo\nredo\nadd first\nredo\nundo now\nundo\nundo")
        == Transcript(
          status: 1,
          output: """
            Items (open switches: 0)
              1. [ ] first

            Items (open switches: 0)

            """,
          error: """
            error: nothing to undo
            error: nothing to redo
            error: nothing to redo
            error: undo takes no argument, got 'now': use 'undo' alone
            error: nothing to undo

            """))
  }

  @Test func deletingTheOpenItemThenUndoingBringsItBackWithItsSwitch() async {
    #expect(
      await runScript(
        """
        add first
        add second
        open 1
        on
        delete
        yes
        undo
        render
        redo
        render
        undo
        open 1
        text renamed
        render
        undo
        render
        """, arguments: fixedClock + ["--quiet"])
        == Transcript(
          status: 0,
          output: """
            Items (open switches: 1)
              1. [x] second
              2. [ ] first

            Items (open switches: 0)
              1. [ ] first

            Detail
              Date:   2026-11-21 10:00:00 +0000
              Text:   renamed
              Switch: [x]

            Detail
              Date:   2026-11-21 10:00:00 +0000
              Text:   second
              Switch: [x]

            """))
  }

  @Test func anUndoThatRemovesTheOpenItemClosesItsDetailAndARedoDoesNotReopenIt() async {
    // The detail is tied to its item: when the undo removes the item, the
    // detail leaves the stack; the redo brings the item back, not the
    // screen, which the user opens again.
    #expect(
      await runScript(
        """
        add a
        open 1
        undo
        render
        redo
        render
        open 1
        render
        """, arguments: fixedClock + ["--quiet"])
        == Transcript(
          status: 0,
          output: """
            Items (open switches: 0)

            Items (open switches: 0)
              1. [ ] a

            Detail
              Date:   2026-11-21 10:00:00 +0000
              Text:   a
              Switch: [ ]

            """))
  }

  @Test func theHelpLineNamesWhatUndoAndRedoWouldDo() throws {
    let feature = MasterDetailFeature(environment: FeatureEnvironment())
    #expect(feature.keyHelp.contains("  u undo  U redo  "))
    try feature.perform(ScriptCommand(word: "add", argument: "first"))
    try feature.perform(ScriptCommand(word: "toggle", argument: "1"))
    #expect(feature.keyHelp.contains("  u undo: Toggle  U redo  "))
    #expect(feature.handle(.character("u")) == .continue)
    #expect(feature.keyHelp.contains("  u undo: Add  U redo: Toggle  "))
    #expect(feature.lines == ["Items (open switches: 0)", "  1. [ ] first"])
    #expect(feature.handle(.character("U")) == .continue)
    #expect(feature.lines == ["Items (open switches: 1)", "  1. [x] first"])
  }
}
