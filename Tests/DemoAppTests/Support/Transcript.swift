import DemoApp
import TextUI

/// Everything a run of the app printed, and its exit status.
struct Transcript: Equatable, CustomStringConvertible {
  var status: Int32
  var output: String
  var error: String = ""

  var description: String {
    "status \(status)\n--- output\n\(output)--- error\n\(error)"
  }
}

/// The arguments that fix the clock at 2026-11-21 10:00:00 UTC.
let fixedClock = ["--clock", "2026-11-21T10:00:00Z"]

/// Runs the app on a script, in-process, as `pomvvm-demo` with standard
/// input not a terminal.
@MainActor
func runScript(_ script: String, arguments: [String] = fixedClock) async -> Transcript {
  var output = ""
  var error = ""
  let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let status = await DemoApp.run(
    arguments: arguments, input: lines, output: &output, error: &error, isTerminal: false)
  return Transcript(status: status, output: output, error: error)
}

/// Runs the app in interactive mode on a virtual terminal.
@MainActor
func runInteractive(
  typing reads: [String], arguments: [String] = fixedClock, size: TerminalSize = .standard
) async -> (transcript: Transcript, terminal: VirtualTerminal) {
  let terminal = VirtualTerminal(typing: reads, size: size)
  var output = ""
  var error = ""
  let status = await DemoApp.run(
    arguments: arguments, input: [String](), output: &output, error: &error, isTerminal: true,
    terminal: terminal)
  return (Transcript(status: status, output: output, error: error), terminal)
}
