import POMVVM
import POMVVMTesting
import Testing
import ToDo

/// The delayed sort, tested as the DocC article "Time, effects and testing
/// them" walks through it: toggles, a manual clock, and the sort's effect
/// seen by the state recorder.
@MainActor
@Suite("To-do, delayed sort")
struct ToDoListSortTests {
  private func list(_ titles: [String], clock: ManualClock) throws -> ToDoListViewModel {
    let list = ToDoListViewModel(store: Store(), clock: clock)
    for title in titles { try list.add(title: title) }
    return list
  }

  @Test func completedItemsSortLastOneSecondAfterTheLastToggle() async throws {
    let clock = ManualClock()
    let list = try list(["milk", "eggs", "bread"], clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.exhaustivity = .off

    // 1. Toggle: the item is done at once; the order waits.
    try recorder.perform {
      try list.toggle(row: 1)
    } expecting: {
      $0.changed(\.store.items) { $0.changeSet.updates.map(\.newElement.isCompleted) == [true] }
    }

    // 2. 900 ms later, another toggle restarts the second.
    await recorder.perform {
      await clock.advance(by: .milliseconds(900))
    }
    try recorder.perform {
      try list.toggle(row: 2)
    } expecting: {
      $0.changed(\.store.items) { $0.changeSet.updates.map(\.newElement.title) == ["eggs"] }
    }
    await recorder.perform {
      await clock.advance(by: .milliseconds(999))
    }
    #expect(list.store.items.map(\.title) == ["milk", "eggs", "bread"])

    // 3. One second after the last toggle: the completed items move down.
    await recorder.perform {
      await clock.advance(by: .milliseconds(1))
    } expecting: {
      $0.changed(\.store.items) { $0.newElements.map(\.title) == ["bread", "milk", "eggs"] }
    }
    #expect(list.effects.inFlight.value == 0)
    recorder.finish()
  }

  @Test func theSortIsNotAnEditToUndo() async throws {
    let clock = ManualClock()
    let list = try list(["milk", "eggs"], clock: clock)
    try list.toggle(row: 1)
    await clock.advance(by: .seconds(1))
    #expect(list.store.items.map(\.title) == ["eggs", "milk"])
    #expect(list.history.undoActionName.value == "Toggle")
    list.history.undo()
    #expect(list.store.items.map(\.isCompleted) == [false, false])
  }

  @Test func finishNamesTheSortATestForgotToWaitFor() throws {
    let clock = ManualClock()
    let list = try list(["milk"], clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.exhaustivity = .off
    try recorder.perform { try list.toggle(row: 1) }
    withKnownIssue {
      recorder.finish()
    } matching: { issue in
      // The line is the `effects.run` in `toggle(row:)`, wherever it moves.
      issue.comments.map(\.rawValue).joined()
        .wholeMatch(
          of: #/1 effect still running: "sort" \(started at ToDoListViewModel\.swift:\d+\)/#)
        != nil
    }
  }

  @Test func aToggleOfARowThatDoesNotExistIsRefused() throws {
    let list = try list(["milk"], clock: ManualClock())
    #expect(throws: ToDoRefusal.noSuchRow(2, count: 1)) { try list.toggle(row: 2) }
  }
}
