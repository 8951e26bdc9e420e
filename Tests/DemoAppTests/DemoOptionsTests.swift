import DemoApp
import Foundation
import Testing

@MainActor
@Suite("Command line")
struct DemoOptionsTests {
  @Test func theDefaultsAreMasterDetailInAutomaticModeWithTheRealClock() throws {
    let options = try DemoOptions.parse([])
    #expect(options.feature.name == "master-detail")
    #expect(!options.forcesScript && !options.isQuiet && !options.showsHelp)
    #expect(options.clock == nil)
  }

  @Test func readsEveryOption() throws {
    let options = try DemoOptions.parse([
      "--quiet", "master-detail", "--script", "--clock", "2026-11-21T10:00:00Z",
    ])
    #expect(options.feature.name == "master-detail")
    #expect(options.forcesScript && options.isQuiet && !options.showsHelp)
    #expect(options.clock == Date(timeIntervalSince1970: 1_795_255_200))
  }

  @Test func theClockTakesAnISO8601DateWithAnyOffset() throws {
    #expect(
      try DemoOptions.parse(["--clock=2026-11-21T11:30:00+01:30"]).clock
        == Date(timeIntervalSince1970: 1_795_255_200))
  }

  @Test(arguments: [["--help"], ["-h"], ["--frob", "--help"], ["--clock", "-h"]])
  func helpWinsOverEverythingElse(arguments: [String]) throws {
    #expect(try DemoOptions.parse(arguments).showsHelp)
  }

  @Test(arguments: [
    (["--frob"], "unknown option '--frob'"),
    (["-q"], "unknown option '-q'"),
    (["--clock"], "--clock needs a date, such as --clock 2026-11-21T10:00:00Z"),
    (
      ["--clock", "tomorrow"],
      "'tomorrow' is not a date: --clock takes ISO 8601, such as --clock 2026-11-21T10:00:00Z"
    ),
    (
      ["--clock=2026-11-21"],
      "'2026-11-21' is not a date: --clock takes ISO 8601, such as --clock 2026-11-21T10:00:00Z"
    ),
    (["--quiet=yes"], "--quiet takes no value, got 'yes'"),
    (["frob"], "unknown feature 'frob'; features: master-detail, login, todo, movies"),
    (
      ["master-detail", "master-detail"],
      "unexpected argument 'master-detail': name one feature at most"
    ),
    (
      ["--store", "items.json"],
      "--store: master-detail keeps no file; only todo does, as in 'todo --store FILE'"
    ),
    (
      ["login", "--store=items.json"],
      "--store: login keeps no file; only todo does, as in 'todo --store FILE'"
    ),
    (
      ["--store", "items.json", "movies"],
      "--store: movies keeps no file; only todo does, as in 'todo --store FILE'"
    ),
  ])
  func badArgumentsSayWhatWasWrong(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) {
      try DemoOptions.parse(arguments)
    }
  }

  @Test func theStoreIsTakenByTheToDoList() throws {
    let options = try DemoOptions.parse(["todo", "--store", "items.json"])
    #expect(options.storeURL?.lastPathComponent == "items.json")
  }
}
