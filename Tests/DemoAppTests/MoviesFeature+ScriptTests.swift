import DemoApp
import Movies
import Testing

/// Runs a script on the movies feature, in-process.
@MainActor
private func runMovies(_ script: String, latency: Duration = .zero) async -> Transcript {
  let feature = MoviesFeature(environment: FeatureEnvironment(latency: latency))
  var output = ""
  var error = ""
  let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let status = await ScriptRunner().run(feature, lines: lines, output: &output, error: &error)
  return Transcript(status: status, output: output, error: error)
}

private let pageOne = """
  Movies: page 1 of 8
    1. The Quiet Harbor (1957)
    2. The Quiet Signal (1964)
    3. The Quiet Orchard (1971)
    4. The Quiet Lighthouse (1978)
    5. The Quiet Engine (1985)
  """

private let pageTwo = """
  Movies: page 2 of 8
    1. The Quiet Garden (1992)
    2. A Distant Harbor (1999)
    3. A Distant Signal (2006)
    4. A Distant Orchard (2013)
    5. A Distant Lighthouse (1950)
  """

@MainActor
@Suite("Movies, script mode")
struct MoviesFeatureScriptTests {
  @Test func loadsPagesOpensAMovieAndGoesBack() async {
    #expect(
      await runMovies("render\nload\nnext\nprev\nnext\nopen 2\nback\n")
        == Transcript(
          status: 0,
          output: """
            Movies: idle

            \(pageOne)

            \(pageTwo)

            \(pageOne)

            \(pageTwo)

            Movie: A Distant Harbor (1999)
              Cast:    Farah Haddad, Kofi Mensah, Elena Ruiz
              Reviews: ★★★☆☆ A quiet triumph.
                       ★★★★★ The score does the heavy lifting.

            \(pageTwo)

            """))
  }

  @Test func aFailedLoadShowsTheErrorAndRetrySucceeds() async {
    #expect(
      await runMovies("fail next\nload\nretry\n")
        == Transcript(
          status: 0,
          output: """
            Movies: idle

            Movies: error: the catalog is unavailable

            \(pageOne)

            """))
  }

  @Test func eachStageOfTheDetailCanFailAndBeRetried() async {
    #expect(
      await runMovies("load\nfail next\nopen 1\nretry\n")
        == Transcript(
          status: 0,
          output: """
            \(pageOne)

            Movies: page 1 of 8
              1. The Quiet Harbor (1957)
              2. The Quiet Signal (1964)
              3. The Quiet Orchard (1971)
              4. The Quiet Lighthouse (1978)
              5. The Quiet Engine (1985)

            Movie: error: the catalog is unavailable
              Cast:    -
              Reviews: -

              Couldn't load the movie
              the catalog is unavailable
              [Retry] [Cancel]

            Movie: The Quiet Harbor (1957)
              Cast:    Hana Sato, Ben Okafor, Gus Lindqvist
              Reviews: ★★☆☆☆ Slow, but it stays with you.
                       ★★★★☆ An honest, warm film.

            """))
  }

  @Test func aFailedLoadShowsAnAlertThatCancelDismissesAndRetryAnswers() async {
    #expect(
      await runMovies("load\nfail next\nopen 1\ncancel\ncancel\n")
        == Transcript(
          status: 1,
          output: """
            \(pageOne)

            \(pageOne)

            Movie: error: the catalog is unavailable
              Cast:    -
              Reviews: -

              Couldn't load the movie
              the catalog is unavailable
              [Retry] [Cancel]

            Movie: error: the catalog is unavailable
              Cast:    -
              Reviews: -

            """,
          error: "error: no alert is shown; use: retry, back\n"))
  }

  @Test func latencyChangesNothingButTheWait() async {
    let script = "load\nnext\nopen 3\nback\nprev\n"
    #expect(await runMovies(script, latency: .milliseconds(15)) == (await runMovies(script)))
  }

  @Test(arguments: [
    ("next\n", "error: no page is shown; use: load\n"),
    ("prev\n", "error: no page is shown; use: load\n"),
    ("open 1\n", "error: no page is shown; use: load\n"),
    ("retry\n", "error: nothing failed to retry; use: load\n"),
    ("load\nload\n", "error: the movies are already loaded; use: next, open N\n"),
    ("load\nprev\n", "error: page 1 of 8 is the first; use: next, open N\n"),
    ("load\nopen 9\n", "error: row 9 is out of range: rows 1-5\n"),
    ("load\nopen\n", "error: open needs a row number: open N (1-5)\n"),
    ("fail\n", "error: fail takes 'next': fail next\n"),
    ("fail everything\n", "error: fail takes 'next': fail next\n"),
    ("load now\n", "error: load takes no argument, got 'now': use 'load' alone\n"),
  ])
  func badCommandsAreErrorsThatChangeNothing(script: String, error: String) async {
    let transcript = await runMovies(script)
    #expect(transcript.error == error)
    #expect(transcript.status == 1)
  }

  @Test func theLastPageRefusesNext() async {
    let script = "load\n" + String(repeating: "next\n", count: 7) + "next\nrender\n"
    let transcript = await runMovies(script)
    #expect(transcript.error == "error: page 8 of 8 is the last; use: prev, open N\n")
    #expect(transcript.status == 1)
    #expect(transcript.output.hasSuffix("\n\nMovies: page 8 of 8\n  1. Northern Garden (1992)\n"))
  }

  @Test func listCommandsOnTheDetailSayWhereTheyBelong() async {
    let transcript = await runMovies("load\nopen 1\nnext\nback\nback\n")
    #expect(
      transcript.error == """
        error: 'next' is a movies command; on the movie screen use: retry, back, cancel, fail next, render, graph [dot], trace on|off, help, quit
        error: 'back' is a movie command; on the movies screen use: load, retry, next, prev, open N, search [TEXT], wait DURATION, fail next, render, graph [dot], trace on|off, help, quit

        """)
    #expect(transcript.status == 1)
  }
}

@MainActor
@Suite("Movies, from the command line")
struct MoviesCommandLineTests {
  @Test func theMoviesFeatureRunsWithLatencyAndFailures() async {
    let transcript = await runScript(
      "fail next\nload\nretry\nopen 1\nback\n",
      arguments: ["movies", "--latency", "5"] + fixedClock)
    #expect(transcript.status == 0)
    #expect(transcript.error == "")
    #expect(
      transcript.output.hasPrefix("Movies: idle\n\nMovies: error: the catalog is unavailable\n"))
    #expect(transcript.output.hasSuffix("\(pageOne)\n"))
  }

  @Test func aBadLatencyIsAUsageError() async {
    let transcript = await runScript("load", arguments: ["movies", "--latency", "soon"])
    #expect(transcript.status == 2)
    #expect(
      transcript.error.hasPrefix(
        "error: 'soon' is not a number of milliseconds: --latency takes a whole number, such as --latency 300\n"
      ))
  }
}
