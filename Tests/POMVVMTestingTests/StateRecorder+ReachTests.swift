import MasterDetail
import Testing

@testable import POMVVMTesting

// The recorder's reach: each blind spot of issue 35 as a test that failed
// before the recorder followed everything reachable — depth seven and
// deeper, enum payloads, cells holding view models, new screens, removed
// children, queries — and what it says of what it cannot see.

/// A form in a sheet: the deepest screen of the navigation below.
@MainActor
private final class FormModel: ViewModel {
  let name: Observable<String>
  let alert = Observable<String?>(nil)

  init(name: String = "") {
    self.name = Observable(name)
  }
}

/// A detail screen that may present a form in a sheet.
@MainActor
private final class DetailModel: ViewModel {
  struct Sheet {
    var form: FormModel?
  }

  let title: Observable<String>
  let alert: Observable<String?>
  var sheet: Sheet?

  init(title: String, alert: String? = nil) {
    self.title = Observable(title)
    self.alert = Observable(alert)
  }
}

/// A screen of the stack: an enum whose cases hold view models, as
/// navigation state is written.
@MainActor
private enum Screen {
  case list(FormModel)
  case detail(DetailModel)

  var detail: DetailModel? {
    if case .detail(let detail) = self { detail } else { nil }
  }
}

/// A stack of screens, a view model of its own.
@MainActor
private final class StackModel: ViewModel {
  var screens: [Screen] = [.list(FormModel())]

  func push(_ detail: DetailModel) {
    screens.append(.detail(detail))
  }
}

/// The app: a stack whose detail presents a form in a sheet, seven and
/// more levels below the root (stack, array, screen enum, detail, sheet
/// slot, optional, form, cell).
@MainActor
private final class AppModel: ViewModel {
  let stack = StackModel()
}

/// A destination presented through a cell: `Observable<Destination?>`.
@MainActor
private enum Destination {
  case detail(DetailModel)
  case form(FormModel)

  var detail: DetailModel? {
    if case .detail(let detail) = self { detail } else { nil }
  }
}

@MainActor
private final class PresentingModel: ViewModel {
  let destination = Observable<Destination?>(nil)
  /// A destination in a plain stored property: an enum payload.
  var inline: Destination? = .form(FormModel(name: "inline"))
}

/// A row view model kept in a shared array.
@MainActor
private final class RowModel: ViewModel, Identifiable {
  let id: Int
  let on = Observable(false)

  init(id: Int) {
    self.id = id
  }
}

@MainActor
private final class CollectionsModel: ViewModel {
  let rows = ObservableArray([RowModel(id: 1), RowModel(id: 2)])
  var tabs: [String: FormModel] = ["home": FormModel(name: "home")]
}

/// A host whose sheet a step may dismiss.
@MainActor
private final class HostModel: ViewModel {
  var sheet: FormModel? = FormModel(name: "draft")
}

/// Nested view models, as deep as a test likes.
@MainActor
private final class ChainModel: ViewModel {
  let value = Observable(0)
  var next: ChainModel?

  init(depth: Int) {
    next = depth > 1 ? ChainModel(depth: depth - 1) : nil
  }

  var deepest: ChainModel { next?.deepest ?? self }
}

/// A list with a filtered query and a sectioned one.
@MainActor
private final class QueryModel: ViewModel {
  let items = ObservableArray([item(1, "a"), item(2, "b", on: true)])
  let open: LiveQuery<Item>
  let grouped: SectionedQuery<Int, Item>

  init() {
    open = items.query(where: \.on)
    grouped = items.query(sectionedBy: { $0.on ? 1 : 0 })
  }
}

private actor Service {
  var calls = 0
}

private final class Cache {
  var entries: [String] = []
}

/// A view model that holds what the recorder cannot look into.
@MainActor
private final class OpaqueModel: ViewModel {
  let name = Observable("")
  let cache = Cache()
  let service = Service()
  let onSave: () -> Void = {}
  let clock = ManualClock()
}

@MainActor
@Suite("StateRecorder reach")
struct StateRecorderReachTests {
  // MARK: - Depth

  @Test func aFormSevenLevelsDownIsRecordedByItsPath() {
    let app = AppModel()
    let detail = DetailModel(title: "Milk")
    detail.sheet = DetailModel.Sheet(form: FormModel())
    app.stack.push(detail)
    let recorder = StateRecorder(of: app)
    #expect(recorder.recordedPaths.contains("stack.screens[1].detail.sheet.form.name"))
    let failures = recordedFailures {
      recorder.perform {
        detail.sheet?.form?.name.value = "Oat"
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected change of stack.screens[1].detail.sheet.form.name:
          - ""
          + "Oat"
        """
      ])
    recorder.perform {
      detail.sheet?.form?.name.value = "Oat milk"
    } expecting: {
      $0.changed(\.stack.screens[1].detail?.sheet?.form?.name, to: "Oat milk")
    }
    recorder.finish()
  }

  @Test(arguments: [7, 12, 40])
  func aCellAnyNumberOfLevelsDownIsRecorded(depth: Int) {
    let chain = ChainModel(depth: depth)
    let recorder = StateRecorder(of: chain)
    #expect(recorder.recordedPaths.count == depth)
    let failures = recordedFailures {
      recorder.perform { chain.deepest.value.value = 1 }
    }
    let path = Array(repeating: "next", count: depth - 1).joined(separator: ".") + ".value"
    #expect(failures.map(\.message).first?.contains("Unexpected change of \(path):") == true)
    recorder.finish()
  }

  // MARK: - Enum payloads, cells holding view models, collections

  @Test func aViewModelInAnEnumPayloadIsRecorded() {
    let screen = PresentingModel()
    let recorder = StateRecorder(of: screen)
    #expect(recorder.recordedPaths.contains("inline.form.name"))
    let failures = recordedFailures {
      recorder.perform {
        if case .form(let form) = screen.inline { form.name.value = "changed" }
      }
    }
    #expect(
      failures.map(\.message).first?.contains("Unexpected change of inline.form.name:") == true)
    recorder.finish()
  }

  @Test func aViewModelInACellsValueIsRecordedOnceItIsPresented() {
    let screen = PresentingModel()
    let recorder = StateRecorder(of: screen)
    let detail = DetailModel(title: "Milk")
    recorder.perform {
      screen.destination.value = .detail(detail)
    } expecting: {
      $0.changed(\.destination) { $0?.detail === detail }
      $0.added(\.destination.value?.detail) { $0.title.value == "Milk" }
    }
    #expect(recorder.recordedPaths.contains("destination.value.detail.title"))
    let failures = recordedFailures {
      recorder.perform { detail.title.value = "Oat milk" }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected change of destination.value.detail.title:
          - "Milk"
          + "Oat milk"
        """
      ])
    recorder.finish()
  }

  @Test func viewModelsInAnObservableArrayAndADictionaryAreRecorded() {
    let model = CollectionsModel()
    let recorder = StateRecorder(of: model)
    #expect(recorder.recordedPaths.contains("rows[1].on"))
    #expect(recorder.recordedPaths.contains(#"tabs["home"].name"#))
    recorder.perform {
      model.rows[1].on.value = true
      model.tabs["home"]?.name.value = "Home"
    } expecting: {
      $0.changed(\.rows[1].on, to: true)
      $0.changed(\.tabs["home"]?.name, to: "Home")
    }
    recorder.finish()
  }

  // MARK: - New state

  @Test func aPushedScreenMustBeExpectedWhole() {
    let app = AppModel()
    let recorder = StateRecorder(of: app)
    let failures = recordedFailures {
      recorder.perform {
        app.stack.push(DetailModel(title: "Milk"))
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected new state at stack.screens[1].detail (DetailModel):
            alert: nil
            sheet: nil
            title: "Milk"
        """
      ])
    recorder.finish()
  }

  @Test func aPushedDetailThatOpensWithAnAlertAlreadyShowingFails() {
    let app = AppModel()
    let recorder = StateRecorder(of: app)
    let failures = recordedFailures {
      recorder.perform {
        app.stack.push(DetailModel(title: "Milk", alert: "Out of stock"))
      } expecting: {
        $0.added(\.stack.screens[1].detail) { $0.alert.value == nil }
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        The new state at stack.screens[1].detail (DetailModel) does not satisfy the expectation; \
        it is:
            alert: "Out of stock"
            sheet: nil
            title: "Milk"
        """
      ])
    recorder.finish()
  }

  @Test func aNewScreenComparedWithAnExpectedOneShowsWhatDiffers() {
    let app = AppModel()
    let recorder = StateRecorder(of: app)
    let failures = recordedFailures {
      recorder.perform {
        app.stack.push(DetailModel(title: "Milk", alert: "Out of stock"))
      } expecting: {
        $0.added(\.stack.screens[1].detail, like: DetailModel(title: "Milk"))
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Wrong new state at stack.screens[1].detail (DetailModel) (- expected, + actual):
          - alert: nil
          + alert: "Out of stock"
            … (2 unchanged)
        """
      ])
    recorder.perform {
      app.stack.push(DetailModel(title: "Bread"))
    } expecting: {
      $0.added(\.stack.screens[2].detail, like: DetailModel(title: "Bread"))
    }
    recorder.finish()
  }

  @Test func aNewScreensChangesDuringTheStepArePartOfItsValue() {
    let app = AppModel()
    let recorder = StateRecorder(of: app)
    recorder.perform {
      let detail = DetailModel(title: "Milk")
      app.stack.push(detail)
      detail.title.value = "Oat milk"
      detail.sheet = DetailModel.Sheet(form: FormModel(name: "note"))
    } expecting: {
      // One expectation: the sheet's form came with the detail.
      $0.added(\.stack.screens[1].detail) { detail in
        detail.title.value == "Oat milk" && detail.sheet?.form?.name.value == "note"
      }
    }
    recorder.finish()
  }

  @Test func aChangeOfNewStateIsNotAChangeButPartOfWhatWasAdded() {
    let host = HostModel()
    host.sheet = nil
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        host.sheet = FormModel()
        host.sheet?.name.value = "typed"
      } expecting: {
        $0.changed(\.sheet?.name, to: "typed")
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 2 problems in this step:
        Expected a change of \\HostModel.sheet?.name, which appeared in this step: its value is \
        part of the new state, which a step expects with `added`
        Unexpected new state at sheet (FormModel):
            alert: nil
            name: "typed"
        """
      ])
    recorder.finish()
  }

  @Test func stateThatAppearsBetweenStepsIsReportedByTheNextStepAsLate() {
    let app = AppModel()
    let recorder = StateRecorder(of: app)
    app.stack.push(DetailModel(title: "Milk"))
    let failures = recordedFailures {
      recorder.perform {}
    }
    #expect(
      failures.map(\.message).first?.contains(
        "Unexpected new state at stack.screens[1].detail (DetailModel) "
          + "(appeared before the first step):") == true)
    app.stack.push(DetailModel(title: "Bread"))
    let late = recordedFailures { recorder.finish() }
    #expect(
      late.map(\.message).first?.contains(
        "Unexpected new state at stack.screens[2].detail (DetailModel) "
          + "(appeared after the previous step ended):") == true)
  }

  @Test func expectingNewStateThatWasThereBeforeFails() {
    let app = AppModel()
    app.stack.push(DetailModel(title: "Milk"))
    let recorder = StateRecorder(of: app)
    let failures = recordedFailures {
      recorder.perform {
      } expecting: {
        $0.added(\.stack.screens[1].detail) { _ in true }
      }
    }
    #expect(failures.map(\.message).first?.contains("which did not appear in this step") == true)
    recorder.finish()
  }

  // MARK: - Removed state

  @Test func aDismissedSheetsLastChangeCanBeExpected() {
    let host = HostModel()
    let recorder = StateRecorder(of: host)
    recorder.perform {
      host.sheet?.name.value = "saved"
      host.sheet = nil
    } expecting: {
      $0.changed(\.sheet?.name, to: "saved")
    }
    recorder.finish()
  }

  @Test func aDismissedSheetsLastChangeNobodyExpectedFailsUnderItsOldPath() {
    let host = HostModel()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        host.sheet?.name.value = "saved"
        host.sheet = nil
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected change of sheet.name:
          - "draft"
          + "saved"
        """
      ])
    recorder.finish()
  }

  @Test func aWrongLastValueOfADismissedSheetFails() {
    let host = HostModel()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        host.sheet?.name.value = "saved"
        host.sheet = nil
      } expecting: {
        $0.changed(\.sheet?.name, to: "sent")
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Wrong change of sheet.name (removed in this step) (- expected, + actual):
          - "sent"
          + "saved"
        """
      ])
    recorder.finish()
  }

  @Test func aRemovedRowsLastChangeIsExpectedByThePathItHad() {
    let model = CollectionsModel()
    let recorder = StateRecorder(of: model)
    recorder.perform {
      model.rows[0].on.value = true
      model.rows.remove(at: 0)
    } expecting: {
      // Read after the action, `rows[0]` is the row that took its place,
      // which did not change: the change is the removed row's.
      $0.changed(\.rows[0].on, to: true)
      $0.changed(\.rows) { $0.changeSet.removals.map(\.index) == [0] }
    }
    recorder.finish()
  }

  // MARK: - Queries

  @Test func aLiveQueryIsRecordedAsItsRows() {
    let model = QueryModel()
    let recorder = StateRecorder(of: model)
    #expect(recorder.recordedPaths == ["grouped", "items", "open"])
    let failures = recordedFailures {
      recorder.perform {
        model.items.replace(at: 0, with: item(1, "a", on: true))
      } expecting: {
        $0.changed(\.items) { $0.changeSet.updates.count == 1 }
        $0.changed(\.grouped) { $0.newSections.map(\.key) == [1] }
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected change of open:
            [
          +   [0]: Item(id: 1, date: \(ValueDiff.render(fixedDate)), text: "a", on: true)
              … (1 unchanged)
            ]
        """
      ])
    recorder.perform {
      model.items.replace(at: 1, with: item(2, "b", on: false))
    } expecting: {
      $0.changed(\.items) { $0.changeSet.updates.count == 1 }
      $0.changed(\.open, to: [item(1, "a", on: true)])
      $0.changed(\.grouped) { $0.newSections.map(\.ids) == [[2], [1]] }
    }
    recorder.finish()
  }

  // MARK: - Blind spots and ignoring

  @Test func whatTheRecorderCannotSeeIsListedOnceByPath() {
    let model = OpaqueModel()
    // The list is a note: a known issue under Swift Testing, not a failure.
    let recorder = StateRecorder(of: model)
    #expect(
      recorder.notRecorded == [
        "not recorded: `cache` (an object of Cache, which is not a view model)",
        "not recorded: `service` (an actor, Service)",
        "not recorded: `onSave` (a closure)",
      ])
    recorder.perform {}
    #expect(recorder.notRecorded.count == 3, "listed once")
    recorder.finish()
  }

  @Test func ignoredPathsAreNeitherListedNorRecorded() {
    let model = OpaqueModel()
    let recorder = StateRecorder(of: model, ignoring: ["cache", "service", "onSave", "name"])
    #expect(recorder.notRecorded.isEmpty)
    #expect(recorder.recordedPaths.isEmpty)
    recorder.perform {
      model.name.value = "not recorded on purpose"
    }
    recorder.finish()
  }

  @Test func anIgnoredPatternStandsForAnyIndex() {
    let model = CollectionsModel()
    let recorder = StateRecorder(of: model, ignoring: ["rows[*].on"])
    #expect(recorder.recordedPaths == ["rows", #"tabs["home"].alert"#, #"tabs["home"].name"#])
    recorder.perform {
      model.rows[0].on.value = true
    }
    recorder.finish()
  }
}

/// A view model whose load's value holds a view model.
@MainActor
private final class LoadingModel: ViewModel {
  let status = Observable<LoadStatus<DetailModel>>(.idle)
}

extension StateRecorderReachTests {
  @Test func aViewModelInsideAGenericKitValueIsRecorded() {
    let model = LoadingModel()
    let detail = DetailModel(title: "Milk")
    model.status.value = .loaded(detail)
    let recorder = StateRecorder(of: model)
    #expect(recorder.recordedPaths.contains("status.value.loaded.title"))
    #expect(recorder.notRecorded.isEmpty)
    recorder.perform {
      detail.title.value = "Oat milk"
    } expecting: {
      $0.changed(\.status.value.value?.title, to: "Oat milk")
    }
    recorder.finish()
  }
}

/// More rows than the recorder searches in one collection.
@MainActor
private final class LongListModel: ViewModel {
  let rows = ObservableArray((1...1_001).map { RowModel(id: $0) })
  let plain = Observable((1...2_000).map { "line \($0)" })
}

extension StateRecorderReachTests {
  @Test func aCollectionLongerThanTheSearchIsSaidOnlyWhereItHoldsState() {
    let recorder = StateRecorder(of: LongListModel())
    #expect(
      recorder.notRecorded == [
        "not recorded: `rows[1000...]` (only the first 1000 elements are searched)"
      ])
    #expect(recorder.recordedPaths.count == 1 + 1_000 + 1)
    recorder.finish()
  }
}
