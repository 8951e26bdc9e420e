import DemoApp
import Testing

@Suite("Script commands")
struct ScriptCommandTests {
  @Test(
    arguments: [
      ("toggle 2", "toggle", "2"),
      ("add", "add", nil),
      ("add ", "add", ""),
      ("text  two  spaces ", "text", " two  spaces "),
      ("  open 1", "open", "1"),
      ("\ttoggle 1", "toggle", "1"),
      ("back\r", "back", nil),
      ("text café 漢字 👍\r", "text", "café 漢字 👍"),
      ("TOGGLE 1", "TOGGLE", "1"),
      // A space and the combining mark after it are one character: the
      // line splits at the space all the same, and the mark is the
      // argument's.
      ("add \u{300}x", "add", "\u{300}x"),
      ("text  \u{301}", "text", " \u{301}"),
      (" \u{300}add x", "\u{300}add", "x"),
      ("a\u{1B}[31m b\u{0}", "a\u{1B}[31m", "b\u{0}"),
    ] as [(String, String, String?)])
  func splitsTheWordFromEverythingAfterTheFirstSpace(
    line: String, word: String, argument: String?
  ) {
    #expect(ScriptCommand(line: line) == ScriptCommand(word: word, argument: argument))
  }

  @Test(arguments: ["", "   ", "\t", "\r", "# a comment", "  # indented comment", "#add 1"])
  func blankLinesAndCommentsAreNotCommands(line: String) {
    #expect(ScriptCommand(line: line) == nil)
  }

  private func rowNumber(_ line: String, rowCount: Int) -> Result<Int, ScriptError> {
    Result { () throws(ScriptError) -> Int in
      let command = ScriptCommand(line: line) ?? ScriptCommand(word: "")
      return try command.rowNumber(usage: "\(command.word) N", rowCount: rowCount)
    }
  }

  @Test func rowNumbersAreCheckedWithMessagesThatSayWhatIsAccepted() {
    let results = [
      rowNumber("toggle 2", rowCount: 2),
      rowNumber("toggle  1 ", rowCount: 2),
      rowNumber("toggle +1", rowCount: 2),
      rowNumber("toggle", rowCount: 2),
      rowNumber("toggle ", rowCount: 2),
      rowNumber("toggle x", rowCount: 2),
      rowNumber("toggle 1 2", rowCount: 2),
      rowNumber("toggle 1.5", rowCount: 2),
      rowNumber("toggle 99999999999999999999", rowCount: 2),
      rowNumber("toggle 5", rowCount: 2),
      rowNumber("toggle 0", rowCount: 2),
      rowNumber("toggle -1", rowCount: 2),
      rowNumber("open 1", rowCount: 0),
      rowNumber("open", rowCount: 0),
      rowNumber("delete 2", rowCount: 1),
    ]
    #expect(
      results == [
        .success(2),
        .success(1),
        .success(1),
        .failure(ScriptError("toggle needs a row number: toggle N (1-2)")),
        .failure(ScriptError("toggle needs a row number: toggle N (1-2)")),
        .failure(ScriptError("'x' is not a row number: toggle N (1-2)")),
        .failure(ScriptError("'1 2' is not a row number: toggle N (1-2)")),
        .failure(ScriptError("'1.5' is not a row number: toggle N (1-2)")),
        .failure(ScriptError("'99999999999999999999' is not a row number: toggle N (1-2)")),
        .failure(ScriptError("row 5 is out of range: rows 1-2")),
        .failure(ScriptError("row 0 is out of range: rows 1-2")),
        .failure(ScriptError("row -1 is out of range: rows 1-2")),
        .failure(ScriptError("row 1 is out of range: the list is empty")),
        .failure(ScriptError("open needs a row number: open N (the list is empty)")),
        .failure(ScriptError("row 2 is out of range: rows 1-1")),
      ])
  }

  @Test func aCommandWithoutArgumentsRefusesOne() throws {
    try ScriptCommand(word: "back").expectNoArgument()
    try ScriptCommand(word: "back", argument: "  ").expectNoArgument()
    #expect(throws: ScriptError("back takes no argument, got 'now': use 'back' alone")) {
      try ScriptCommand(word: "back", argument: " now ").expectNoArgument()
    }
  }

  @Test func aRequiredArgumentIsKeptExactly() throws {
    #expect(
      try ScriptCommand(word: "text", argument: "  spaced  ").requiredArgument(
        "the new text", usage: "text TEXT") == "  spaced  ")
    #expect(
      try ScriptCommand(word: "text", argument: "").requiredArgument(
        "the new text", usage: "text TEXT") == "")
    #expect(throws: ScriptError("text needs the new text: text TEXT")) {
      try ScriptCommand(word: "text").requiredArgument("the new text", usage: "text TEXT")
    }
  }
}
