import DemoApp
import Testing

/// Virtual time in script mode: `wait DURATION` moves the runner's clock,
/// and the samples' timers (the search's debounce, the to-do sort) follow
/// it, so a script's output is the same on every run.
@MainActor
@Suite("Script mode: virtual time")
struct VirtualClockTests {
  @Test(arguments: [
    ("300ms", Duration.milliseconds(300)), ("1s", .seconds(1)), ("1.5s", .milliseconds(1_500)),
    ("0ms", .zero), ("0.25s", .milliseconds(250)), ("3600s", .seconds(3_600)),
  ])
  func durationsAreANumberAndAUnit(text: String, duration: Duration) {
    #expect(VirtualClock.duration(from: text) == duration)
  }

  @Test(arguments: [
    "", "300", "ms", "s", "-1s", "1.2345s", "1.5ms", "1e3ms", " 1s", "1 s", "3601s",
    "99999999999999999999s", "1..2s", ".5s", "5.s", "١s",
  ])
  func anythingElseIsNotADuration(text: String) {
    #expect(VirtualClock.duration(from: text) == nil)
  }

  @Test func aBadWaitSaysWhatItTakesAndTheScriptGoesOn() async {
    #expect(
      await runScript(
        "wait\nwait 2x\nwait -1s\nwait 1.2345s\nwait \u{1B}[2J\nrender\n", arguments: ["todo"])
        == Transcript(
          status: 1,
          output: """
            To-do (2 of 10, add: enabled)
              1. ToDo Item 1
              2. ToDo Item 2
            Last change: insert [1]

            """,
          error: """
            error: wait takes a duration: use 'wait 300ms' or 'wait 1s'
            error: wait takes a duration such as 300ms, 1s or 1.5s (at most 3600s), got '2x'
            error: wait takes a duration such as 300ms, 1s or 1.5s (at most 3600s), got '-1s'
            error: wait takes a duration such as 300ms, 1s or 1.5s (at most 3600s), got '1.2345s'
            error: wait takes a duration such as 300ms, 1s or 1.5s (at most 3600s), got '\\u{1B}[2J'

            """))
  }

  @Test func theToDoListSortsDoneItemsLastASecondAfterTheLastToggle() async {
    #expect(
      await runScript(
        """
        add
        toggle 1
        wait 500ms
        toggle 2
        wait 999ms
        render
        wait 1ms
        """, arguments: ["todo", "--quiet"])
        == Transcript(
          status: 0,
          output: """
            To-do (3 of 10, add: enabled)
              1. ToDo Item 1 (done)
              2. ToDo Item 2 (done)
              3. ToDo Item 3
            Last change: update [1]

            """,
          error: ""))
    #expect(
      await runScript("add\ntoggle 1\ntoggle 2\nwait 1s\n", arguments: ["todo"]).output.hasSuffix(
        """
        To-do (3 of 10, add: enabled)
          1. ToDo Item 3
          2. ToDo Item 1 (done)
          3. ToDo Item 2 (done)
        Last change: move [2->0]

        """))
  }

  @Test func theMovieSearchAsksOnce300msAfterTheLastKeystroke() async {
    #expect(
      await runScript(
        """
        search h
        search harbor
        wait 299ms
        wait 1ms
        search zzz
        wait 300ms
        search
        """, arguments: ["movies"])
        == Transcript(
          status: 0,
          output: """
            Movies: idle
            Search "h": waiting

            Movies: idle
            Search "harbor": waiting

            Movies: idle
            Search "harbor": waiting

            Movies: idle
            Search "harbor": 6 found
              - The Quiet Harbor (1957)
              - A Distant Harbor (1999)
              - Midnight Harbor (1971)
              - The Last Harbor (2013)
              - Paper Harbor (1985)
              … and 1 more

            Movies: idle
            Search "zzz": waiting

            Movies: idle
            Search "zzz": no movie found

            Movies: idle

            """,
          error: ""))
  }

  @Test func aSearchBeforeItsQuietTimeIsReplacedByTheNextQuery() async {
    let transcript = await runScript(
      "search harbor\nwait 200ms\nsearch signal\nwait 200ms\nrender\nwait 100ms\n",
      arguments: ["movies", "--quiet"])
    #expect(transcript.output == "Movies: idle\nSearch \"signal\": waiting\n")
    #expect(transcript.status == 0)
  }

  @Test func aSearchedQueryShowsControlCharactersVisibly() async {
    let transcript = await runScript(
      "search \u{1B}[2J\nwait 300ms\nrender\n", arguments: ["movies", "--quiet"])
    #expect(transcript.output == "Movies: idle\nSearch \"\\u{1B}[2J\": no movie found\n")
  }
}
