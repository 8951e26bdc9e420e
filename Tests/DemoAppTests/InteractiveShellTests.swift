import DemoApp
import Testing
import TextUI

@MainActor
@Suite("Interactive shell")
struct InteractiveShellTests {
  @Test func theHelpLineIsAlwaysOnTheLastRow() {
    let shell = InteractiveShell(feature: Counter(environment: FeatureEnvironment()))
    #expect(
      shell.frame(size: TerminalSize(width: 20, height: 4))
        == Frame(lines: [
          Frame.Line("Count: 0"), Frame.Line(""),
          Frame.Line("+ up  q quit", style: .dim), Frame.Line("^G graph", style: .dim),
        ]))
  }

  @Test func aBodyTallerThanTheScreenIsCutAboveTheHelpLine() {
    let feature = Counter(environment: FeatureEnvironment())
    let shell = InteractiveShell(feature: feature)
    #expect(
      shell.frame(size: TerminalSize(width: 30, height: 1))
        == Frame(lines: [Frame.Line("+ up  q quit  ^G graph", style: .dim)]))
    #expect(shell.frame(size: TerminalSize(width: 20, height: 0)) == Frame(lines: []))
  }

  @Test func aHelpLineWiderThanTheScreenWrapsBetweenItsEntries() {
    let shell = InteractiveShell(feature: Counter(environment: FeatureEnvironment()))
    #expect(
      shell.frame(size: TerminalSize(width: 8, height: 4))
        == Frame(lines: [
          Frame.Line("Count: 0"), Frame.Line("+ up", style: .dim),
          Frame.Line("q quit", style: .dim), Frame.Line("^G graph", style: .dim),
        ]))
    #expect(
      shell.frame(size: TerminalSize(width: 8, height: 2))
        == Frame(lines: [Frame.Line("Count: 0"), Frame.Line("^G graph", style: .dim)]),
      "the body keeps a row; the last entries of the help stay")
  }

  @Test func keysGoToTheFeature() {
    let feature = Counter(environment: FeatureEnvironment())
    let shell = InteractiveShell(feature: feature)
    #expect(shell.handle(.character("+")) == .continue)
    #expect(shell.handle(.character("q")) == .quit)
    #expect(feature.count == 1)
  }
}
