import DemoApp
import Foundation
import Testing

/// Script input is data, never control: what a script or a file holds is
/// shown with its control characters made visible, and never sent raw to the
/// terminal.
@MainActor
@Suite("Script input")
struct ScriptInputTests {
  @Test func aTitleWithAnEscapeSequenceIsShownVisibly() async {
    let transcript = await runScript("add \u{1B}[31mred\nrender\n", arguments: ["todo", "--quiet"])
    #expect(transcript.output.contains("3. \\u{1B}[31mred"))
    #expect(!transcript.output.contains("\u{1B}"))
  }

  @Test func anErrorEchoesControlCharactersVisiblyOnOneLine() async {
    let transcript = await runScript("bogus\r\u{1B}]0;title\u{7}\nnope\u{0}x\n")
    let lines = transcript.error.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3, "two error lines and the final line feed: \(transcript.error)")
    #expect(lines[0].hasPrefix("error: unknown command 'bogus\\u{0D}\\u{1B}]0;title\\u{07}'"))
    #expect(lines[1].hasPrefix("error: unknown command 'nope\\u{00}x'"))
    #expect(!transcript.error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test func aTextThatBeginsWithACombiningMarkIsAnArgument() async {
    let transcript = await runScript("add \u{300}x\nrender\n", arguments: ["todo", "--quiet"])
    #expect(transcript.error == "")
    #expect(transcript.output.contains("3. \u{300}x"))
  }

  @Test(arguments: ["\n", "\r\n"])
  func aNULByteDoesNotCutTheErrorLine(lineEnding: String) async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let script = ["bogus\u{0}tail", "worse\u{0}\u{0}end", "quit"].joined(separator: lineEnding)
    let run = try await runDemoProcess(
      executable, arguments: ["--quiet"], input: Data((script + lineEnding).utf8))
    let error = String(decoding: run.error, as: UTF8.self)
    #expect(run.status == 1)
    #expect(
      error == """
        error: unknown command 'bogus\\u{00}tail'; on the list screen use: \(listUsage)
        error: unknown command 'worse\\u{00}\\u{00}end'; on the list screen use: \(listUsage)

        """)
  }

  @Test func standardInputSplitsAtLineFeedsAndKeepsOtherBytesAsData() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    var script = Data("bogus\u{0}tail\r\nbad".utf8)
    script += [0xFF, 0xFE, 0xC3]
    // A carriage return alone ends no line: it is data, shown visibly.
    script += Data("bytes\none\rtwo\rquit\r\nquit".utf8)
    let run = try await runDemoProcess(executable, arguments: ["--quiet"], input: script)
    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(
      String(decoding: run.error, as: UTF8.self) == """
        error: unknown command 'bogus\\u{00}tail'; on the list screen use: \(listUsage)
        error: unknown command 'bad\u{FFFD}\u{FFFD}\u{FFFD}bytes'; on the list screen use: \(listUsage)
        error: unknown command 'one\\u{0D}two\\u{0D}quit'; on the list screen use: \(listUsage)

        """)
  }

  @Test func commandLineErrorsShowControlCharactersVisibly() async {
    let transcript = await runScript("", arguments: ["--clock", "\u{1B}[2J\r"])
    #expect(transcript.status == 2)
    #expect(
      transcript.error.hasPrefix(
        "error: '\\u{1B}[2J\\u{0D}' is not a date: --clock takes ISO 8601, such as --clock "))
    #expect(!transcript.error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test func aStoreErrorShowsThePathsControlCharactersVisibly() async {
    let transcript = await runScript(
      "render\n", arguments: ["todo", "--store", "/nonexistent-pomvvm/\u{1B}[31m\u{7}/t.json"])
    #expect(transcript.status == 1)
    #expect(transcript.error.hasPrefix("error: "))
    // The database that `t.json` moves into.
    #expect(transcript.error.contains("/nonexistent-pomvvm/\\u{1B}[31m\\u{07}/t.sqlite"))
    #expect(transcript.error.filter { $0 == "\n" }.count == 1, "one line: \(transcript.error)")
    #expect(!transcript.error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  /// The commands of the Master-Detail list screen, as errors list them.
  private var listUsage: String {
    MasterDetailFeature.screens[0].usageList
  }
}
