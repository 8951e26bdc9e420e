import DemoApp
import Foundation
import POMVVM
import Testing
import TextUI

/// `graph`, `graph dot` and `trace on|off` on every screen, and the graph
/// pane of interactive mode.
@MainActor
@Suite("Graph and trace in the sample")
struct GraphAndTraceTests {
  @Test(arguments: [
    ("master-detail", "aggregate<Int> \"open switches\" = 0"),
    ("login", "derived<Bool> \"login button enabled\" = false"),
    ("todo", "aggregate<Int> \"item count\" = 2"),
    ("movies", "derived<State> \"catalog state\" = idle"),
  ])
  func graphPrintsTheScreensLiveGraphEvenWhenQuiet(feature: String, role: String) async {
    let transcript = await runScript(
      "graph\ngraph dot\n", arguments: fixedClock + [feature, "--quiet"])
    #expect(transcript.status == 0)
    #expect(transcript.error == "")
    let blocks = transcript.output.components(separatedBy: "\n\n")
    #expect(blocks.count == 2)
    #expect(blocks[0].split(separator: "\n").contains { $0.contains(role) }, "\(blocks[0])")
    #expect(blocks[1].hasPrefix("digraph POMVVM {\n  rankdir=LR;\n"))
    #expect(blocks[1].hasSuffix("}\n"))
  }

  @Test func theDetailsSwitchIsNamedInTheGraph() async {
    let transcript = await runScript(
      "add first\nopen 1\ngraph\n", arguments: fixedClock + ["--quiet"])
    #expect(transcript.output.contains("cell<Bool> \"detail switch\" = false"))
  }

  @Test func aDetailOpenedAndClosedLeavesNothingInTheGraph() async {
    let transcript = await runScript(
      "add first\nadd second\ngraph\nopen 2\nback\ngraph\nopen 2\nback\nopen 1\nback\ngraph\n",
      arguments: fixedClock + ["--quiet"])
    #expect(transcript.status == 0)
    let graphs = transcript.output.components(separatedBy: "\n\n")
    let lineCounts = graphs.map { $0.split(separator: "\n").count }
    // The detail's labels keep the text they showed last; no node is left.
    #expect(lineCounts.count == 3 && Set(lineCounts).count == 1, "\(transcript)")
  }

  @Test func traceOnPrintsEveryStepOfTheNextCommandsUntilTraceOff() async {
    let transcript = await runScript(
      "add first\ntrace on\ntoggle 1\ntrace off\ntoggle 1\n", arguments: fixedClock + ["--quiet"])
    #expect(transcript.status == 0)
    let lines = transcript.output.split(separator: "\n").map(String.init)
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.hasPrefix("trace: ") })
    #expect(lines.contains("trace:     open switches updated = 1"))
    #expect(lines.contains { $0.contains("→ binding ") })
    // The second toggle, after `trace off`, prints nothing.
    #expect(!lines.contains("trace:     open switches updated = 0"))
  }

  @Test func traceLinesComeBeforeTheScreenTheyChanged() async {
    let transcript = await runScript("trace on\nusername alice_w\n", arguments: ["login"])
    let blocks = transcript.output.components(separatedBy: "\n\n")
    #expect(blocks.count == 2)
    #expect(blocks[0].split(separator: "\n").allSatisfy { $0.hasPrefix("trace: ") })
    #expect(blocks[0].contains(" = alice_w"))
    #expect(blocks[1].hasPrefix("Login"))
  }

  @Test(arguments: [
    ("graph bogus", "error: graph takes nothing or 'dot', got 'bogus': use 'graph' or 'graph dot'"),
    ("trace", "error: trace takes 'on' or 'off', got nothing: use 'trace on' or 'trace off'"),
    ("trace maybe", "error: trace takes 'on' or 'off', got 'maybe': use 'trace on' or 'trace off'"),
  ])
  func badArgumentsSayWhatIsAccepted(line: String, message: String) async {
    let transcript = await runScript(line + "\n", arguments: fixedClock + ["--quiet"])
    #expect(transcript.status == 1)
    #expect(transcript.error == message + "\n")
    #expect(transcript.output == "")
  }

  /// Master-Detail with one item, `first`, in the interactive shell.
  private func masterDetailWithOneItem() throws
    -> (MasterDetailFeature, InteractiveShell<MasterDetailFeature>)
  {
    let feature = MasterDetailFeature(
      environment: FeatureEnvironment(now: { Date(timeIntervalSince1970: 1_795_255_200) }))
    try feature.perform(ScriptCommand(word: "add", argument: "first"))
    return (feature, InteractiveShell(feature: feature))
  }

  @Test func ctrlGShowsTheGraphInAScrollablePaneAndEscapeGoesBack() throws {
    let (feature, shell) = try masterDetailWithOneItem()
    let size = TerminalSize(width: 200, height: 6)
    let screen = shell.frame(size: size)
    #expect(shell.handle(.control("g")) == .continue)
    let pane = shell.frame(size: size)
    #expect(pane.lines.first?.text.hasPrefix("array<Item> \"master.items\" = 1 element") == true)
    #expect(
      pane.lines.last == Frame.Line("↑/↓ scroll  t trace on  ^G/esc close graph", style: .dim))
    _ = shell.handle(.down)
    let scrolled = shell.frame(size: size)
    #expect(scrolled.lines.first == pane.lines.dropFirst().first)
    // Keys other than scrolling reach nothing while the pane shows.
    let before = feature.lines
    _ = shell.handle(.character("a"))
    #expect(feature.lines == before)
    #expect(shell.handle(.escape) == .continue)
    #expect(shell.frame(size: size) == screen)
  }

  @Test func tInTheGraphPaneTracesTheNextKeys() throws {
    let (_, shell) = try masterDetailWithOneItem()
    let size = TerminalSize(width: 200, height: 40)
    for key in [Key.control("g"), .character("t")] {
      _ = shell.handle(key)
    }
    let empty = shell.frame(size: size).lines.map(\.text)
    #expect(empty.prefix(2) == ["Trace of the last key:", "trace: (the last key changed nothing)"])
    #expect(
      shell.frame(size: size).lines.last?.text == "↑/↓ scroll  t trace off  ^G/esc close graph")
    for key in [Key.escape, .character(" "), .control("g")] {
      _ = shell.handle(key)
    }
    let traced = shell.frame(size: size).lines.map(\.text)
    #expect(traced.first == "Trace of the last key:")
    #expect(traced.contains("trace:     open switches updated = 1"))
    #expect(traced.contains("trace:         list.rows[0].switchControl = true"))
    #expect(traced.contains("Graph:"))
    _ = shell.handle(.character("t"))
    #expect(!PropagationTrace.isOn)
    #expect(shell.frame(size: size).lines.first?.text.hasPrefix("array<Item>") == true)
  }
}
