import Testing
import TextUI

@Suite("Line editor")
struct LineEditorTests {
  /// Applies keys in order and records the text, with `|` at the cursor,
  /// after each one.
  private func history(from text: String = "", _ keys: [Key]) -> [String] {
    var editor = LineEditor(text: text)
    return keys.map { key in
      editor.handle(key)
      return Self.show(editor)
    }
  }

  private static func show(_ editor: LineEditor) -> String {
    var text = editor.text
    text.insert("|", at: text.index(text.startIndex, offsetBy: editor.cursor))
    return text
  }

  private func typing(_ text: String) -> [Key] {
    text.map(Key.character)
  }

  @Test func startsWithTheCursorAtTheEnd() {
    #expect(Self.show(LineEditor(text: "café")) == "café|")
    #expect(Self.show(LineEditor()) == "|")
  }

  @Test func insertsUTF8TextAtTheCursor() {
    #expect(
      history(typing("漢字") + [.left] + typing("👍") + [.home] + typing("é"))
        == ["漢|", "漢字|", "漢|字", "漢👍|字", "|漢👍字", "é|漢👍字"])
  }

  @Test func backspaceRemovesAWholeGrapheme() {
    #expect(
      history(from: "e\u{301}👍🏽🇯🇵x", [.backspace, .backspace, .backspace, .backspace, .backspace])
        == ["e\u{301}👍🏽🇯🇵|", "e\u{301}👍🏽|", "e\u{301}|", "|", "|"])
  }

  @Test func aCombiningMarkTypedAfterALetterJoinsIt() {
    var editor = LineEditor()
    editor.handle(.character("e"))
    editor.handle(.character("\u{301}"))
    #expect(editor.text == "e\u{301}")
    #expect(editor.cursor == 1)
    editor.handle(.backspace)
    #expect(editor.text.isEmpty)
  }

  @Test func anEmojiSequenceTypedInPiecesIsOneCharacter() {
    #expect(
      history(
        typing("a👩") + [.character("\u{200D}"), .character("👧"), .character("🏽")] + [.backspace])
        == ["a|", "a👩|", "a👩\u{200D}|", "a👩‍👧|", "a👩‍👧🏽|", "a|"])
  }

  @Test func aLongPasteStaysFast() {
    var editor = LineEditor()
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for character in String(repeating: "漢字👍 ", count: 3_000) {
        editor.handle(.character(character))
      }
    }
    #expect(editor.cursor == 12_000)
    #expect(elapsed < .seconds(2), "typing 12,000 characters took \(elapsed)")
  }

  @Test func movesAndDeletesAroundTheCursor() {
    #expect(
      history(
        from: "abc",
        [
          .left, .left, .delete, .right, .right, .home, .delete, .end, .control("a"),
          .control("e"), .left, .control("u"), .delete, .delete,
        ])
        == [
          "ab|c", "a|bc", "a|c", "ac|", "ac|", "|ac", "|c", "c|", "|c", "c|", "|c", "|c", "|",
          "|",
        ])
  }

  @Test func enterCommitsAndEscapeCancels() {
    var editor = LineEditor(text: "draft")
    #expect(editor.handle(.character("!")) == .editing)
    #expect(editor.handle(.up) == .editing)
    #expect(editor.handle(.enter) == .committed("draft!"))
    #expect(editor.handle(.escape) == .cancelled)
  }

  @Test(arguments: [
    ("short", 5, 10, "short", 5),
    ("a long line of text", 19, 8, "…f text", 7),
    ("a long line of text", 0, 8, "a long …", 0),
    ("a long line of text", 8, 8, "…long l…", 7),
    ("漢字漢字漢字", 6, 8, "…字漢字", 7),
    ("漢字漢字漢字", 1, 8, "漢字漢…", 2),
  ])
  func showsTheTextAroundTheCursor(
    text: String, cursor: Int, width: Int, shown: String, column: Int
  ) {
    var editor = LineEditor(text: text)
    editor.handle(.home)
    for _ in 0..<cursor { editor.handle(.right) }
    let visible = editor.visible(inWidth: width)
    #expect(visible.text == shown)
    #expect(visible.cursorColumn == column)
    #expect(visible.text.displayWidth <= width)
  }
}
