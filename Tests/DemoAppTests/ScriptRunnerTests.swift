import DemoApp
import Testing

@MainActor
@Suite("Script runner")
struct ScriptRunnerTests {
  private func run(_ script: String, isQuiet: Bool = false) async -> Transcript {
    var output = ""
    var error = ""
    let status = await ScriptRunner(isQuiet: isQuiet).run(
      Counter(environment: FeatureEnvironment()),
      lines: script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
      output: &output, error: &error)
    return Transcript(status: status, output: output, error: error)
  }

  @Test func printsTheScreenAfterEveryCommandWithABlankLineBetween() async {
    #expect(
      await run("up\nup 2\nsettings\ndone\n")
        == Transcript(
          status: 0, output: "Count: 1\n\nCount: 3\n\nSettings\n\nCount: 3\n"))
  }

  @Test func skipsBlankLinesAndComments() async {
    #expect(
      await run("# setup\n\n   \nup\n  # indented comment\n\t\nup\n")
        == Transcript(status: 0, output: "Count: 1\n\nCount: 2\n"))
  }

  @Test func quietPrintsOnlyForRenderAndHelp() async {
    #expect(
      await run("up\nup\nrender\nup\nhelp\n", isQuiet: true)
        == Transcript(
          status: 0,
          output: """
            Count: 2

            Commands on the counter screen:
              up [N]        count up by N, or 1
              settings      go
              render        print the screen
              graph [dot]   print the screen's live binding graph (dot: for Graphviz)
              trace on|off  print every step of the propagations of later commands
              help          print the commands of this screen
              quit          end the script

            """))
  }

  @Test func aBadCommandPrintsOneErrorLineChangesNothingAndTheScriptGoesOn() async {
    #expect(
      await run("up x\ndone\nfrob\nup\n")
        == Transcript(
          status: 1,
          output: "Count: 1\n",
          error: """
            error: 'x' is not a number: up [N]
            error: 'done' is a settings command; on the counter screen use: up [N], settings, render, graph [dot], trace on|off, help, quit
            error: unknown command 'frob'; on the counter screen use: up [N], settings, render, graph [dot], trace on|off, help, quit

            """))
  }

  @Test func quitEndsTheScriptWithoutReadingFurther() async {
    var output = ""
    var error = ""
    let lines = RecordingLines(lines: ["up", "quit", "up", "up"])
    let status = await ScriptRunner().run(
      Counter(environment: FeatureEnvironment()), lines: lines, output: &output, error: &error)
    #expect(
      Transcript(status: status, output: output, error: error)
        == Transcript(status: 0, output: "Count: 1\n"))
    #expect(lines.progress.linesRead == 2)
  }

  @Test func theStatusRemembersAFailureBeforeQuit() async {
    #expect(
      await run("frob\nquit\nup\n")
        == Transcript(
          status: 1, output: "",
          error:
            "error: unknown command 'frob'; on the counter screen use: up [N], settings, render, graph [dot], trace on|off, help, quit\n"
        ))
    #expect(
      await run("quit now\nup\n")
        == Transcript(
          status: 1, output: "Count: 1\n",
          error: "error: quit takes no argument, got 'now': use 'quit' alone\n"))
  }

  @Test func anEmptyScriptSucceedsSilently() async {
    #expect(await run("") == Transcript(status: 0, output: ""))
  }
}
