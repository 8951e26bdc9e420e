import MasterDetail
import Testing

@testable import POMVVMTesting

/// A form with a cell, a derived cell, an array, and two event streams.
@MainActor
private final class FormViewModel: ViewModel {
  struct Tag: Identifiable, Equatable {
    var id: Int
    var name: String
  }

  let name = Observable("")
  let valid: Derived<Bool>
  let tags = ObservableArray([Tag(id: 1, name: "a"), Tag(id: 2, name: "b")])
  let saved = EventStream<String>()
  let tapped = EventStream<Void>()

  init() {
    valid = name.map { !$0.isEmpty }
  }

  /// A cell made anew at each read: not state the form stores.
  var fresh: Observable<Int> { Observable(0) }
}

/// A list screen: the sample's items, a row view model per item kept in
/// step with them (as a list view keeps its rows), and a detail.
@MainActor
private final class ListScreen {
  let master: MasterViewModel
  private(set) var rows: [DateCellViewModel] = []
  let detail: DetailViewModel
  private var subscription: Subscription?

  init(_ texts: [String]) {
    master = makeMaster(texts)
    detail = required(master.detailViewModel(for: master.items[0].id), "detail")
    rows = master.items.indices.map { required(master.cellViewModel(at: $0), "row") }
    subscription = master.items.observeChanges { [weak self] _ in self?.keepRowsInStep() }
  }

  /// Keeps the rows of items still there, makes rows for new ones.
  private func keepRowsInStep() {
    let existing = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
    rows = master.items.map { existing[$0.id] ?? required(master.cellViewModel(for: $0.id), "row") }
  }
}

/// A screen whose detail is optional: there only while an item is open.
@MainActor
private final class OptionalDetailScreen {
  @MainActor final class Detail: ViewModel {
    let on = Observable(false)
    let tags = ObservableArray([FormViewModel.Tag(id: 1, name: "a")])
    let saved = EventStream<String>()
    let tapped = EventStream<Void>()
  }

  var detail: Detail? = Detail()
}

@MainActor
@Suite("StateRecorder")
struct StateRecorderTests {
  @Test func findsEveryCellArrayAndStreamByItsPropertyPath() {
    let recorder = StateRecorder(of: FormViewModel())
    #expect(recorder.recordedPaths == ["name", "saved", "tags", "tapped", "valid"])
  }

  @Test func aFullyAssertedStepRecordsNoIssue() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    recorder.perform {
      form.name.value = "Ada"
      form.saved.send("Ada")
      form.tapped.send()
      form.tags.append(.init(id: 3, name: "c"))
    } expecting: {
      $0.changed(\.name, to: "Ada")
      $0.changed(\.valid, to: true)
      $0.sent(\.saved, ["Ada"])
      $0.sent(\.tapped)
      $0.changed(\.tags) { $0.changeSet.insertions.map(\.index) == [2] }
    }
    recorder.finish()
  }

  @Test func aCellThatChangesTwiceIsExpectedTwiceInOrder() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    recorder.perform {
      form.name.value = "A"
      form.name.value = "Ad"
    } expecting: {
      $0.changed(\.name, to: "A")
      $0.changed(\.name, to: "Ad")
      $0.changed(\.valid, to: true)
    }
  }

  /// A helper that forwards its caller's location, as `#expect` helpers do.
  private func rename(
    _ form: FormViewModel, to name: String, in recorder: StateRecorder<FormViewModel>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    recorder.perform(
      { form.name.value = name }, expecting: { $0.changed(\.name, to: name) },
      sourceLocation: sourceLocation)
  }

  @Test func aHelperThatForwardsItsCallersLocationHasFailuresReportedThere() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let line = #line + 2
    let failures = recordedFailures {
      rename(form, to: "Ada", in: recorder)  // `valid` changes too: not expected
    }
    #expect(failures.locations == [here(line)])
    #expect(failures.map(\.message).first?.contains("Unexpected change of valid") == true)
    let issue = recordedIssues {
      rename(form, to: "", in: recorder)
    }
    #expect(issue.map(\.fileID) == ["POMVVMTestingTests/StateRecorderTests.swift"])
    #expect(issue.map(\.line) == [#line - 3])
  }

  @Test func finishAndAnAsyncStepTakeAForwardedLocationToo() async {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form, sourceLocation: #_sourceLocation)
    let location = SourceLocation(
      fileID: "App/Helpers.swift", filePath: "/app/Helpers.swift", line: 7, column: 3)
    var issues = await recordedIssues {
      await recorder.perform(
        {
          await Task.yield()
          form.saved.send("x")
        }, sourceLocation: location)
    }
    form.tapped.send()
    issues += recordedIssues {
      recorder.finish(sourceLocation: location)
    }
    #expect(issues.map(\.fileID) == ["App/Helpers.swift", "App/Helpers.swift"])
    #expect(issues.map(\.line) == [7, 7])
  }

  @Test func anUnassertedChangeFailsWithItsOldAndNewValue() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let line = #line + 2
    let failures = recordedFailures {
      recorder.perform {
        form.name.value = "Ada"
      } expecting: {
        $0.changed(\.name, to: "Ada")
      }
    }
    #expect(failures.locations == [here(line)])
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected change of valid:
          - false
          + true
        """
      ])
  }

  @Test func aWrongValueFailsWithADiffOfExpectedAndActual() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let failures = recordedFailures {
      recorder.perform {
        form.tags.replace(at: 1, with: .init(id: 2, name: "B"))
      } expecting: {
        $0.changed(\.tags, to: [.init(id: 1, name: "a"), .init(id: 2, name: "bee")])
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Wrong change of tags (- expected, + actual):
            [
              … (1 unchanged)
              [1]: Tag(
          -     name: "bee"
          +     name: "B"
                … (1 unchanged)
              )
            ]
        """
      ])
  }

  @Test func aMissingChangeFails() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let failures = recordedFailures {
      recorder.perform {
        form.name.value = ""
      } expecting: {
        $0.changed(\.name, to: "Ada")
        $0.sent(\.saved, ["Ada"])
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 2 problems in this step:
        Missing change of name: expected "Ada"
        Missing event from saved: expected "Ada"
        """
      ])
  }

  @Test func anUnassertedEventFails() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let failures = recordedFailures {
      recorder.perform {
        form.saved.send("draft")
        form.saved.send("final")
        form.tapped.send()
      } expecting: {
        $0.sent(\.saved, ["draft"])
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 2 problems in this step:
        Unexpected event sent by saved: "final"
        Unexpected event sent by tapped: ()
        """
      ])
  }

  @Test func aLateChangeIsCaughtByFinish() async {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let gate = AsyncGate()
    let effect = Task { @MainActor in
      await gate.wait()
      form.name.value = "late"
    }
    recorder.perform {
      gate.open()
    }
    await effect.value
    let line = #line + 1
    let failures = recordedFailures { recorder.finish() }
    #expect(failures.locations == [here(line)])
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder.finish() found 2 changes after the last step that no step reported:
        Unexpected change of name (made after the previous step ended):
          - ""
          + "late"
        Unexpected change of valid (made after the previous step ended):
          - false
          + true
        """
      ])
  }

  @Test func aLateChangeCanBeAssertedByTheNextStep() async {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let effect = Task { @MainActor in form.name.value = "late" }
    await recorder.perform {
      await effect.value
    } expecting: {
      $0.changed(\.name, to: "late")
      $0.changed(\.valid, to: true)
    }
    recorder.finish()
  }

  @Test func aRecorderReleasedWithUnreportedChangesFailsWhereItWasMade() {
    let form = FormViewModel()
    var line = 0
    let failures = recordedFailures {
      line = #line + 1
      let recorder = StateRecorder(of: form)
      form.saved.send("unseen")
      _ = recorder
    }
    #expect(failures.locations == [here(line)])
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder released with 1 unreported change; assert them in a step, or call finish():
        Unexpected event sent by saved (made before the first step): "unseen"
        """
      ])
  }

  @Test func aRecorderReleasedWithNothingUnreportedPasses() {
    let form = FormViewModel()
    do {
      let recorder = StateRecorder(of: form)
      recorder.perform {
        form.tapped.send()
      } expecting: {
        $0.sent(\.tapped)
      }
    }
    #expect(form.tapped.observerCount == 0)
  }

  @Test func exhaustivityOffIgnoresUnnamedChanges() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    recorder.exhaustivity = .off
    recorder.perform {
      form.name.value = "A"
      form.name.value = "Ada"
      form.saved.send("Ada")
    } expecting: {
      $0.changed(\.name, to: "Ada")
    }
    recorder.finish()
  }

  @Test func exhaustivityOffStillFailsAnExpectationThatIsNotMet() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    recorder.exhaustivity = .off
    let failures = recordedFailures {
      recorder.perform {
        form.name.value = "Ad"
      } expecting: {
        $0.changed(\.name, to: "Ada")
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Wrong change of name (- expected, + actual):
          - "Ada"
          + "Ad"
        """
      ])
  }

  @Test func exhaustivityOffCanListWhatItSkippedWithoutFailing() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    recorder.exhaustivity = .off(showSkippedChanges: true)
    recorder.perform {
      form.name.value = "Ada"
    } expecting: {
      $0.changed(\.name, to: "Ada")
    }
    #expect(
      recorder.skippedInLastStep == [
        """
        Unexpected change of valid:
          - false
          + true
        """
      ])
  }

  @Test func aStepAfterFinishIsAMisuseAndRunsNothing() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    recorder.finish()
    var ran = false
    let failures = recordedFailures {
      recorder.perform { ran = true }
    }
    #expect(!ran)
    #expect(
      failures.map(\.message) == [
        "StateRecorder.perform cannot run: the recorder was finished"
      ])
    #expect(form.name.observerCount == 0, "finish() ends every observation")
  }

  @Test func finishSkipsLateChangesWhenExhaustivityIsOff() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    recorder.exhaustivity = .off
    form.name.value = "late"
    recorder.finish()
    // A failure recorded by finish() would fail this test.
    #expect(form.name.observerCount == 0, "finish() ends every observation")
  }

  @Test func aNewRowIsExpectedWholeAndADeletedRowIsForgotten() {
    let screen = ListScreen(["a", "b"])
    let recorder = StateRecorder(of: screen)
    #expect(recorder.recordedPaths.contains("rows[1].on"))
    let inserted = recorder.recordedPaths.count
    recorder.perform {
      screen.master.insertNowDate(text: "new")
    } expecting: {
      $0.changed(\.master.items) { $0.changeSet.insertions.map(\.element.text) == ["new"] }
      $0.added(\.rows[0]) { $0.text.value == "new" && !$0.on.value }
    }
    #expect(recorder.recordedPaths.count == inserted + 2)
    recorder.perform {
      screen.rows[0].toggleSwitch()
    } expecting: {
      $0.changed(\.rows[0].on, to: true)
      $0.changed(\.master.openSwitchCount, to: 1)
      $0.changed(\.master.items) { $0.changeSet.updates.map(\.newIndex) == [0] }
    }
    recorder.perform {
      screen.master.delete(at: 0)
    } expecting: {
      $0.changed(\.master.openSwitchCount, to: 0)
      $0.changed(\.master.items) { $0.changeSet.removals.map(\.element.text) == ["new"] }
    }
    #expect(recorder.recordedPaths.count == inserted)
    recorder.finish()
  }

  @Test func anExpectationOnStateTheRecorderDoesNotFollowFails() {
    let form = FormViewModel()
    let recorder = StateRecorder(of: form)
    let failures = recordedFailures {
      recorder.perform {
        form.fresh.value = 1
      } expecting: {
        $0.changed(\.fresh, to: 1)
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Expected a change of a computed Observable<Int> of FormViewModel, which is not state \
        the recorder follows (it is not stored in FormViewModel's properties)
        """
      ])
  }

  @Test func keyPathsMayChainThroughOptionals() {
    let screen = OptionalDetailScreen()
    let recorder = StateRecorder(of: screen)
    #expect(
      recorder.recordedPaths == ["detail.on", "detail.saved", "detail.tags", "detail.tapped"])
    recorder.perform {
      screen.detail?.on.value = true
      screen.detail?.tags.append(.init(id: 2, name: "b"))
      screen.detail?.saved.send("x")
      screen.detail?.tapped.send()
    } expecting: {
      $0.changed(\.detail?.on, to: true)
      $0.changed(\.detail?.tags, to: [.init(id: 1, name: "a"), .init(id: 2, name: "b")])
      $0.sent(\.detail?.saved, ["x"])
      $0.sent(\.detail?.tapped)
    }
    recorder.perform {
      screen.detail?.on.value = false
      screen.detail?.tags.remove(id: 2)
    } expecting: {
      $0.changed(\.detail?.on) { $0 == false }
      $0.changed(\.detail?.tags) { $0.changeSet.removals.map(\.element.id) == [2] }
    }
    recorder.finish()
  }

  @Test func aKeyPathThatEndsInNilAfterTheActionFails() {
    let screen = OptionalDetailScreen()
    screen.detail = nil
    let recorder = StateRecorder(of: screen)
    let failures = recordedFailures {
      recorder.perform {
      } expecting: {
        $0.changed(\.detail?.on, to: true)
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Expected a change of \\OptionalDetailScreen.detail?.on, which is nil after the action \
        (an optional on its path is nil, and no state left that path in this step)
        """
      ])
    recorder.finish()
  }
}

/// A one-shot gate an effect waits at until the test opens it.
@MainActor
private final class AsyncGate {
  private var continuation: CheckedContinuation<Void, Never>?
  private var isOpen = false

  func wait() async {
    guard !isOpen else { return }
    await withCheckedContinuation { continuation = $0 }
  }

  func open() {
    isOpen = true
    continuation?.resume()
    continuation = nil
  }
}
