import DemoApp
import Foundation
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

  @Test func aWindowBelowTheMinimumShowsOneLineThatSaysSo() {
    let shell = InteractiveShell(feature: Counter(environment: FeatureEnvironment()))
    let sizes = [(80, 2), (19, 24), (30, 1), (12, 2), (5, 5)]
    #expect(
      sizes.map { shell.frame(size: TerminalSize(width: $0.0, height: $0.1)).lines } == [
        [Frame.Line("Window too small (80×2): make it 20×3 or more", style: .accent)],
        [Frame.Line("Window too small", style: .accent)],
        [Frame.Line("Window too small: 20×3 or more", style: .accent)],
        [Frame.Line("Too small", style: .accent)],
        [Frame.Line("Too s", style: .accent)],
      ])
    #expect(shell.frame(size: TerminalSize(width: 20, height: 0)) == Frame(lines: []))
  }

  @Test func aHelpLineWiderThanTheScreenWrapsBetweenItsEntries() {
    let shell = InteractiveShell(feature: Counter(environment: FeatureEnvironment()))
    #expect(
      shell.frame(size: TerminalSize(width: 20, height: 3))
        == Frame(lines: [
          Frame.Line("Count: 0"), Frame.Line("+ up  q quit", style: .dim),
          Frame.Line("^G graph", style: .dim),
        ]))
  }

  /// At 20×5 the help wraps onto four rows; the screen comes first, and
  /// the help keeps its last rows.
  @Test func aTinyWindowShowsTheContentFirst() {
    let feature = MasterDetailFeature(
      environment: FeatureEnvironment(now: { Date(timeIntervalSince1970: 1_795_255_200) }))
    let shell = InteractiveShell(feature: feature)
    _ = shell.handle(.character("a"))
    _ = shell.handle(.character("a"))
    let frame = shell.frame(size: TerminalSize(width: 20, height: 5))
    #expect(
      frame.lines.map(\.text) == [
        "Items (open switches: 0)", "> 1. [ ] 2026-11-21 10:00:00 +0000",
        "  2. [ ] 2026-11-21 10:00:00 +0000", "U redo  q quit", "^G graph",
      ])
  }

  /// The login form's focused field, and its cursor, show in a tiny window
  /// even when the field is the last of the form.
  @Test func aTinyWindowKeepsTheFocusedFieldAndItsCursor() {
    let shell = InteractiveShell(feature: LoginFeature(environment: FeatureEnvironment()))
    var frame = shell.frame(size: TerminalSize(width: 20, height: 5))
    #expect(frame.lines.prefix(2).map(\.text) == ["Login", "  Username:    "])
    #expect(frame.cursor == Position(row: 1, column: 15))
    _ = shell.handle(.tab)
    frame = shell.frame(size: TerminalSize(width: 20, height: 3))
    #expect(
      frame.lines.map(\.text) == ["  Username:    ", "  Password:    ", "esc quit  ^G graph"])
    #expect(frame.cursor == Position(row: 1, column: 15))
  }

  @Test func keysGoToTheFeature() {
    let feature = Counter(environment: FeatureEnvironment())
    let shell = InteractiveShell(feature: feature)
    #expect(shell.handle(.character("+")) == .continue)
    #expect(shell.handle(.character("q")) == .quit)
    #expect(feature.count == 1)
  }
}
