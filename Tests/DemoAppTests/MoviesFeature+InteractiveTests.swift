import DemoApp
import Movies
import Testing
import TextUI

/// A terminal that waits for the app's requests: a `.settle` step answers
/// every read with a timeout as "timed out" (the session yields, so the
/// requests finish, and redraws) until the app asks for input without a
/// timeout — it is idle — and only then moves on.
@MainActor
private final class SettlingTerminal: TerminalDevice {
  enum Step {
    case keys(String)
    case settle
  }

  private let display: VirtualTerminal
  private var steps: [Step]
  private(set) var screens: [String] = []

  init(_ steps: [Step], size: TerminalSize = .standard) {
    display = VirtualTerminal(reads: [], size: size)
    self.steps = steps
  }

  func enterFullScreen() { display.enterFullScreen() }
  func leaveFullScreen() { display.leaveFullScreen() }
  func size() -> TerminalSize { display.size() }
  func write(_ text: String) { display.write(text) }

  func read(timeout: Duration?) -> TerminalInput {
    if case .settle = steps.first {
      guard timeout == nil else { return .timedOut }
      steps.removeFirst()
      screens.append(display.screen)
    }
    guard !steps.isEmpty else { return .endOfInput }
    switch steps.removeFirst() {
    case .keys(let keys): return .bytes(Array(keys.utf8))
    case .settle: return read(timeout: timeout)
    }
  }
}

private let listHelp = helpRows([
  "l load", "↑/↓ move", "←/→ page", "enter open", "/ search", "r retry", "f fail next", "q quit",
  "^G graph",
])
private let detailHelp = "esc/b back  r retry  f fail next  q quit  ^G graph"

@MainActor
@Suite("Movies, interactive mode")
struct MoviesFeatureInteractiveTests {
  /// An 80 x 8 screen: the lines, then the help line's rows.
  private func screen(_ body: String, help: String = listHelp) -> String {
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let help = help.split(separator: "\n").map(String.init)
    return (lines + Array(repeating: "", count: 8 - help.count - lines.count) + help)
      .joined(separator: "\n")
  }

  private func run(_ steps: [SettlingTerminal.Step]) async -> [String] {
    let feature = MoviesFeature(environment: FeatureEnvironment(latency: .milliseconds(5)))
    let terminal = SettlingTerminal(steps, size: TerminalSize(width: 80, height: 8))
    _ = try? await FullScreenSession(device: terminal).run(InteractiveShell(feature: feature))
    return terminal.screens
  }

  @Test func loadsMovesOpensAndGoesBackWhileRequestsRun() async {
    let screens = await run([
      .settle, .keys("l"), .settle, .keys("jj\r"), .settle, .keys("b"), .settle, .keys("\u{1B}[C"),
      .settle,
    ])
    #expect(
      screens == [
        screen("Movies: idle\n  Press l to load the catalog."),
        screen(
          """
          Movies: page 1 of 8
          > 1. The Quiet Harbor (1957)
            2. The Quiet Signal (1964)
            3. The Quiet Orchard (1971)
            4. The Quiet Lighthouse (1978)
            5. The Quiet Engine (1985)
          """),
        screen(
          """
          Movie: The Quiet Orchard (1971)
            Cast:    Kofi Mensah, Elena Ruiz, Jade Moreau
            Reviews: ★★★★☆ The score does the heavy lifting.
                     ★☆☆☆☆ Worth it for the last ten minutes.
          """, help: detailHelp),
        screen(
          """
          Movies: page 1 of 8
            1. The Quiet Harbor (1957)
            2. The Quiet Signal (1964)
          > 3. The Quiet Orchard (1971)
            4. The Quiet Lighthouse (1978)
            5. The Quiet Engine (1985)
          """),
        screen(
          """
          Movies: page 2 of 8
          > 1. The Quiet Garden (1992)
            2. A Distant Harbor (1999)
            3. A Distant Signal (2006)
            4. A Distant Orchard (2013)
            5. A Distant Lighthouse (1950)
          """),
      ])
  }

  @Test func aFailureShowsAndRetryRecovers() async {
    let screens = await run([.keys("f"), .keys("l"), .settle, .keys("r"), .settle])
    #expect(screens.first == screen("Movies: error: the catalog is unavailable"))
    #expect(screens.last?.hasPrefix("Movies: page 1 of 8\n> 1. The Quiet Harbor (1957)") == true)
  }

  @Test func aFailedDetailShowsAnAlertThatCCancelsAndRRetries() async {
    let screens = await run([
      .settle, .keys("l"), .settle, .keys("f\r"), .settle, .keys("c"), .settle, .keys("r"),
      .settle,
    ])
    #expect(screens.count == 5)
    guard screens.count == 5 else { return }
    #expect(
      screens[2]
        == screen(
          """
          Movie: error: the catalog is unavailable
            Cast:    -
            Reviews: -

            Couldn't load the movie
            the catalog is unavailable
            [Retry] [Cancel]
          """, help: "r retry  c/esc cancel  q quit  ^G graph"))
    #expect(
      screens[3]
        == screen(
          "Movie: error: the catalog is unavailable\n  Cast:    -\n  Reviews: -",
          help: detailHelp))
    #expect(screens[4].hasPrefix("Movie: The Quiet Harbor (1957)"))
  }

  @Test func fSaysThatTheNextRequestWillFailUntilOneDoes() async {
    let screens = await run([
      .settle, .keys("f"), .settle, .keys("f"), .settle, .keys("l"), .settle,
    ])
    #expect(
      screens == [
        screen("Movies: idle\n  Press l to load the catalog."),
        screen("Movies: idle\n  Press l to load the catalog.\n\n  The next request will fail (f)."),
        screen(
          "Movies: idle\n  Press l to load the catalog.\n\n  The next 2 requests will fail (f)."),
        screen("Movies: error: the catalog is unavailable\n\n  The next request will fail (f)."),
      ])
  }

  @Test func theScreenShowsLoadingWhileARequestRuns() async {
    let feature = MoviesFeature(environment: FeatureEnvironment(latency: .seconds(60)))
    _ = feature.handle(.character("l"))
    #expect(feature.hasPendingWork)
    #expect(feature.body(size: .standard).lines.first?.text == "Movies: loading")
    #expect(feature.keyHelp.contains("l load"))
  }
}
