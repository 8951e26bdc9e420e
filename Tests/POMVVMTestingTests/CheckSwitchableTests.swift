import MasterDetail
import POMVVMTesting
import Testing

/// A switch whose toggle does nothing, though it says it did.
@MainActor
private final class StuckToggleViewModel: ViewModel, Switchable {
  let on = Observable(false)

  func toggleSwitch() -> Bool { true }
}

/// A switch on a cell that notifies even when nothing changes.
@MainActor
private final class ChattySwitchViewModel: ViewModel, Switchable {
  let on = Observable(false, isDuplicate: nil)
}

/// A switch that, once detached, refuses silently: no diagnostic says why.
@MainActor
private final class SilentlyDetachedViewModel: ViewModel, Switchable {
  let on = Observable(false)
  var isDetached = false

  func openSwitch() -> Bool { isDetached ? false : on.set(true) }
  func closeSwitch() -> Bool { isDetached ? false : on.set(false) }
  func toggleSwitch() -> Bool { isDetached ? false : on.set(!on.value) }
}

/// A switch that, once "detached", keeps taking edits: a ghost.
@MainActor
private final class GhostSwitchViewModel: ViewModel, Switchable {
  let on = Observable(false)
  var isDetached = false
}

@MainActor
@Suite("checkSwitchable")
struct CheckSwitchableTests {
  @Test func theSampleRowViewModelIsSwitchable() {
    let master = makeMaster()
    checkSwitchable(
      { required(master.cellViewModel(for: master.insertNowDate(text: "row").id), "row") },
      detach: { master.delete(id: $0.id) })
  }

  @Test func theSampleDetailViewModelIsSwitchable() {
    let master = makeMaster()
    checkSwitchable(
      { required(master.detailViewModel(for: master.insertNowDate(text: "row").id), "detail") },
      detach: { $0.delete() })
  }

  @Test func aViewModelWithAStoredSwitchIsSwitchable() {
    checkSwitchable(LampViewModel.init)
  }

  @Test func aToggleThatDoesNothingFailsTheToggleLaws() {
    let line = #line + 1
    let failures = recordedFailures { checkSwitchable(StuckToggleViewModel.init) }
    #expect(
      failures.laws == [
        "toggle flips the switch", "observers are told in order",  // starting off
        "toggle flips the switch", "observers are told in order",  // starting on
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message == """
        Switchable law 'toggle flips the switch' failed for StuckToggleViewModel: \
        expected returned [true, true], observers told [true, false], ends off, \
        saw returned [true, true], observers told [], ends off
        Trace:
          - checkSwitchable(StuckToggleViewModel)
          - starting off
        """)
  }

  @Test func aSwitchThatNotifiesTwiceFailsIdempotenceAndItsCellsLaws() {
    let line = #line + 1
    let failures = recordedFailures { checkSwitchable(ChattySwitchViewModel.init) }
    #expect(
      failures.laws == [
        "no notification on equal sets",  // the layer: checkObservableLaws(on)
        "close turns the switch off", "open twice is open once",  // starting off
        "close twice is close once",
        "open turns the switch on", "open twice is open once",  // starting on
        "close twice is close once",
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message.hasSuffix(
        """
        Trace:
          - checkSwitchable(ChattySwitchViewModel)
          - checkObservableLaws(on)
          - setting equal values
        """) == true)
  }

  @Test func aDetachedSwitchMustReportItsRefusals() {
    let line = #line + 2
    let failures = recordedFailures {
      checkSwitchable(SilentlyDetachedViewModel.init, detach: { $0.isDetached = true })
    }
    #expect(failures.laws == ["each refusal is reported"])
    #expect(failures.locations == [here(line)])
    #expect(failures.first?.message.contains("sent [0, 0, 0] reports") == true)
  }

  @Test func aDetachedSwitchMustRefuse() {
    let line = #line + 2
    let failures = recordedFailures {
      checkSwitchable(GhostSwitchViewModel.init, detach: { $0.isDetached = true })
    }
    #expect(failures.laws == ["a detached switch refuses", "each refusal is reported"])
    #expect(failures.locations == [here(line)])
  }

  @Test func failuresAreReportedWhereTheCallerSays() {
    let failures = recordedFailures {
      checkSwitchable(
        StuckToggleViewModel.init, fileID: "App/Helpers.swift", filePath: "/App/Helpers.swift",
        line: 7, column: 3)
    }
    #expect(failures.locations == ["Helpers.swift:7"])
  }
}
