import DemoApp
import Foundation
import Testing
import TextUI

/// Master-Detail's screens and keys, driven directly (the app tests drive
/// them through a terminal).
@MainActor
@Suite("Master-Detail in interactive mode")
struct MasterDetailInteractiveTests {
  private let feature = MasterDetailFeature(
    environment: FeatureEnvironment(now: { Date(timeIntervalSince1970: 1_795_255_200) }))

  /// The body as text (see `renderedBody(width:height:)`).
  private func body(width: Int = 40, height: Int = 6) -> String {
    feature.renderedBody(width: width, height: height)
  }

  private func press(
    _ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation
  ) {
    feature.press(keys, sourceLocation: sourceLocation)
  }

  private func add(_ texts: String...) throws {
    for text in texts {
      try feature.perform(ScriptCommand(word: "add", argument: text))
    }
  }

  @Test func anEmptyListSaysHowToAddAnItem() {
    #expect(
      body() == """
        Items (open switches: 0) |bold
          No items yet: press a to add one. |dim
        """)
    press(.enter, .character(" "), .character("d"), .down, .up)
    #expect(feature.currentScreen.name == "list")
    #expect(feature.lines == ["Items (open switches: 0)"])
  }

  @Test func theSelectedRowIsMarkedAndMovesWithArrowsAndVimKeys() throws {
    try add("c", "b", "a")
    #expect(
      body() == """
        Items (open switches: 0) |bold
        > 1. [ ] a |reverse,accent
          2. [ ] b |accent
          3. [ ] c |accent
        """)
    var selections: [String] = []
    for key in [Key.down, .character("j"), .down, .up, .character("k"), .up, .end, .home] {
      press(key)
      selections.append(
        body().split(separator: "\n").first { $0.hasPrefix(">") }.map(String.init) ?? "none")
    }
    #expect(
      selections == [
        "> 2. [ ] b |reverse,accent", "> 3. [ ] c |reverse,accent", "> 3. [ ] c |reverse,accent",
        "> 2. [ ] b |reverse,accent", "> 1. [ ] a |reverse,accent", "> 1. [ ] a |reverse,accent",
        "> 3. [ ] c |reverse,accent", "> 1. [ ] a |reverse,accent",
      ])
  }

  @Test func aLongListScrollsToKeepTheSelectionInView() throws {
    for index in 1...20 {
      try add("item \(index)")
    }
    // A page is as many rows as the last frame showed.
    _ = body(height: 4)
    press(.pageDown)
    #expect(
      body(height: 4) == """
        Items (open switches: 0) |bold
           2. [ ] item 19 |accent
           3. [ ] item 18 |accent
        >  4. [ ] item 17 |reverse,accent
        """)
    press(.end)
    #expect(
      body(height: 4) == """
        Items (open switches: 0) |bold
          18. [ ] item 3 |accent
          19. [ ] item 2 |accent
        > 20. [ ] item 1 |reverse,accent
        """)
    press(.pageUp, .up)
    #expect(
      body(height: 4) == """
        Items (open switches: 0) |bold
        > 16. [ ] item 5 |reverse,accent
          17. [ ] item 4 |accent
          18. [ ] item 3 |accent
        """)
  }

  @Test func spaceTogglesAddAddsAtTheTopAndDeleteDeletesTheSelection() throws {
    try add("first")
    press(.character(" "), .character("a"), .down, .character("d"))
    #expect(
      body() == """
        Items (open switches: 0) |bold
        > 1. [ ] 2026-11-21 10:00:00 +0000 |reverse,accent
        """)
  }

  @Test func theDetailTogglesEditsDeletesAndGoesBack() throws {
    try add("second", "first")
    press(.enter)
    #expect(
      body() == """
        Detail |bold
          Date:   2026-11-21 10:00:00 +0000
          Text:   first |bold
          Switch: [ ]
        """)
    #expect(
      feature.keyHelp
        == "space toggle  e edit text  d delete  u undo: Add  U redo  esc/b back  q quit")
    press(.character(" "), .character("e"), .backspace, .backspace, .character("漢"))
    #expect(
      body() == """
        Detail |bold
          Date:   2026-11-21 10:00:00 +0000
          Text:   fir漢 |underline
          Switch: [x]
        cursor at 2,15
        """)
    #expect(feature.keyHelp == "enter save  esc cancel  ←/→ move  backspace erase  ctrl-u clear")
    #expect(feature.handle(.character("q")) == .continue, "q is text while editing")
    press(.escape)
    #expect(feature.lines[2] == "  Text:   first", "escape cancels the edit")
    press(.character("e"), .control("u"), .character("1"), .enter)
    #expect(feature.lines[2] == "  Text:   1")
    press(.character("b"))
    #expect(
      body() == """
        Items (open switches: 1) |bold
        > 1. [x] 1 |reverse,accent
          2. [ ] second |accent
        """)
    press(.down, .enter, .character("d"))
    #expect(feature.currentScreen.name == "delete confirmation")
    #expect(feature.keyHelp == "←/→ choose  enter confirm  esc cancel")
    #expect(
      body() == """
        Detail |bold
          Date:   2026-11-21 10:00:00 +0000
          Text:   second |bold
          Switch: [ ]

          Delete “second”? |bold
          Undo brings it back.
          [Delete]  Cancel |reverse
        """)
    press(.right)
    #expect(feature.lines.last == "   Delete  [Cancel]", "the right arrow selects Cancel")
    press(.enter)
    #expect(feature.currentScreen.name == "detail", "Cancel keeps the item")
    press(.character("d"), .escape)
    #expect(feature.currentScreen.name == "detail", "escape cancels")
    press(.character("d"), .enter)
    #expect(
      body() == """
        Items (open switches: 1) |bold
        > 1. [x] 1 |reverse,accent
        """)
    press(.enter, .left)
    #expect(feature.currentScreen.name == "list", "the left arrow goes back too")
    #expect(feature.handle(.character("q")) == .quit)
  }

  @Test func theEditorScrollsALongTextAroundTheCursor() throws {
    try add(String(repeating: "abcdefghij", count: 10))
    press(.enter, .character("e"))
    #expect(
      body(width: 30) == """
        Detail |bold
          Date:   2026-11-21 10:00:00 +0000
          Text:   …cdefghijabcdefghij |underline
          Switch: [ ]
        cursor at 2,29
        """)
    press(.home)
    #expect(
      body(width: 30).split(separator: "\n")[2] == "  Text:   abcdefghijabcdefghi… |underline")
  }
}

/// Searching and grouping from the keyboard.
@MainActor
@Suite("Master-Detail search and grouping in interactive mode")
struct MasterDetailSearchInteractiveTests {
  private let feature = MasterDetailFeature(
    environment: FeatureEnvironment(now: { Date(timeIntervalSince1970: 1_795_255_200) }))

  private func body(width: Int = 40, height: Int = 8) -> String {
    feature.renderedBody(width: width, height: height)
  }

  @Test func slashSearchesAsYouTypeAndEscClears() throws {
    for text in ["first", "second", "fir tree"] {
      try feature.perform(ScriptCommand(word: "add", argument: text))
    }
    feature.press([.character("/"), .character("F"), .character("I")])
    #expect(
      body() == """
        Items (open switches: 0) |bold
          Search: FI |underline
          1. [ ] fir tree |accent
          2. [ ] first |accent
        cursor at 1,12
        """)
    feature.press([.enter])
    #expect(
      feature.lines == [
        "Items (open switches: 0)", "  Search: FI", "  1. [ ] fir tree", "  2. [ ] first",
      ])
    feature.press([.character("/"), .escape])
    #expect(feature.lines.count == 4)
    #expect(feature.lines[1] == "  1. [ ] fir tree")
  }

  @Test func gGroupsBySwitchStateAndARowToggledOnTheDetailMoves() throws {
    for text in ["first", "second"] {
      try feature.perform(ScriptCommand(word: "add", argument: text))
    }
    feature.press([.character("g")])
    #expect(
      feature.lines == ["Items (open switches: 0)", "Off", "  1. [ ] second", "  2. [ ] first"])
    feature.press([.enter, .character(" ")])
    #expect(feature.currentScreen.name == "detail")
    feature.press([.escape])
    #expect(
      feature.lines == [
        "Items (open switches: 1)", "Off", "  1. [ ] first", "On", "  2. [x] second",
      ])
    feature.press([.character("g")])
    #expect(feature.lines == ["Items (open switches: 1)", "  1. [x] second", "  2. [ ] first"])
  }
}
