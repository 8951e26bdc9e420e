import DemoApp
import POMVVMTesting
import Testing
import TextUI

/// The terminal's keys for the samples' timers, on a manual clock (the
/// terminal uses real time; the feature takes whatever clock it is given).
@MainActor
@Suite("Interactive keys for the timers")
struct TimeKeysTests {
  @Test func spaceTogglesARowAndTheListSortsASecondLater() async throws {
    let clock = ManualClock()
    let feature = try ToDoFeature(environment: FeatureEnvironment(clock: clock))
    _ = feature.handle(.character(" "))
    #expect(
      feature.lines.prefix(3) == [
        "To-do (2 of 10, add: enabled)", "  1. ToDo Item 1 (done)", "  2. ToDo Item 2",
      ])
    #expect(feature.hasPendingWork, "the terminal redraws until the sort")
    await clock.advance(by: .milliseconds(999))
    #expect(feature.lines[1] == "  1. ToDo Item 1 (done)")
    await clock.advance(by: .milliseconds(1))
    #expect(
      feature.lines.prefix(3) == [
        "To-do (2 of 10, add: enabled)", "  1. ToDo Item 2", "  2. ToDo Item 1 (done)",
      ])
    #expect(!feature.hasPendingWork)
  }

  @Test func slashTypesInTheSearchFieldAndResultsFollowTheQuiet() async {
    let clock = ManualClock()
    let feature = MoviesFeature(environment: FeatureEnvironment(clock: clock))
    _ = feature.handle(.character("/"))
    #expect(feature.keyHelp == "type to search  enter/esc done")
    for key in "dist" { _ = feature.handle(.character(key)) }
    #expect(feature.search.query.value == "dist")
    #expect(feature.hasPendingWork)
    #expect(
      feature.body(size: TerminalSize(width: 80, height: 8)).lines.map(\.text)
        == [
          "Movies: idle", "  Press l to load the catalog.", "", "Search: dist",
          "Search \"dist\": waiting",
        ])
    await clock.advance(by: .milliseconds(300))
    await feature.settle()
    #expect(feature.lines.first == "Movies: idle")
    #expect(feature.lines.dropFirst().first == "Search \"dist\": 6 found")
    _ = feature.handle(.enter)
    #expect(!feature.hasPendingWork)
    #expect(feature.keyHelp.hasPrefix("l load"))
  }
}
