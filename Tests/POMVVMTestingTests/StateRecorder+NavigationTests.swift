import Testing

@testable import POMVVMTesting

// The recorder and the navigation types: a push, a presentation and what
// the new screens hold are state a step must expect, at any depth.

/// A form shown in a sheet.
@MainActor
private final class SheetForm: ViewModel {
  let name: Observable<String>

  init(name: String = "") {
    self.name = Observable(name)
  }
}

/// A pushed detail, which may present a form and an alert.
@MainActor
private final class PushedDetail: ViewModel {
  enum AlertAction: Equatable { case delete }

  let title: Observable<String>
  let sheet = Presentation<SheetForm>()
  let alert = Presentation<AlertState<AlertAction>>()

  init(title: String, showingAlert: Bool = false) {
    self.title = Observable(title)
    if showingAlert {
      alert.present(
        AlertState(title: "Delete?", buttons: [.destructive("Delete", action: .delete)]))
    }
  }
}

/// A screen of the stack.
@MainActor
private enum Screen {
  case detail(PushedDetail)

  var detail: PushedDetail? {
    if case .detail(let detail) = self { detail } else { nil }
  }
}

@MainActor
private final class NavigationHost: ViewModel {
  let path = StackPath<Screen>()
  let sheet = Presentation<SheetForm>()
}

@MainActor
@Suite("StateRecorder and navigation")
struct StateRecorderNavigationTests {
  @Test func aPushIsAChangeOfTheStackAndItsScreenIsNewState() {
    let host = NavigationHost()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        host.path.push(.detail(PushedDetail(title: "Milk")))
      }
    }
    let message = failures.map(\.message).joined()
    #expect(message.contains("Unexpected change of path"))
    #expect(message.contains("Unexpected new state at path[0].detail (PushedDetail)"))
    recorder.perform {
      host.path.push(.detail(PushedDetail(title: "Oat")))
    } expecting: {
      $0.changed(\.path) { $0.count == 2 }
      $0.added(\.path[1]?.detail) { $0.title.value == "Oat" && !$0.alert.isPresented }
    }
    recorder.finish()
  }

  @Test func aPushedDetailThatOpensWithAnAlertShowingFailsAWholeComparison() {
    let host = NavigationHost()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        host.path.push(.detail(PushedDetail(title: "Milk", showingAlert: true)))
      } expecting: {
        $0.changed(\.path) { $0.count == 1 }
        $0.added(\.path[0]?.detail, like: PushedDetail(title: "Milk"))
      }
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("alert") == true)
    recorder.finish()
  }

  @Test func aFormInASheetOfAPushedScreenIsRecordedByItsPath() {
    let host = NavigationHost()
    let detail = PushedDetail(title: "Milk")
    let form = SheetForm(name: "draft")
    host.path.push(.detail(detail))
    detail.sheet.present(form)
    let recorder = StateRecorder(of: host)
    #expect(recorder.recordedPaths.contains("path[0].detail.sheet.destination.name"))
    let failures = recordedFailures {
      recorder.perform { form.name.value = "Oat milk" }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected change of path[0].detail.sheet.destination.name:
          - "draft"
          + "Oat milk"
        """
      ])
    recorder.perform {
      detail.sheet.dismiss()
    } expecting: {
      $0.changed(\.path[0]?.detail?.sheet) { $0 == nil }
    }
    recorder.finish()
  }

  // MARK: - State the step popped or dismissed (issue 49, item 6)

  // `Presentation.destination` and `StackPath[position]` / `[id:]` are
  // computed: their key paths keep no name the recorder could read, and
  // they are `nil` once the step dismissed or popped the screen.

  @Test func anEditOfASheetThatTheStepDismissedIsExpectedThroughDestination() {
    let host = NavigationHost()
    let form = SheetForm(name: "draft")
    host.sheet.present(form)
    let recorder = StateRecorder(of: host)
    recorder.perform {
      form.name.value = "Oat milk"
      host.sheet.dismiss()
    } expecting: {
      $0.changed(\.sheet.destination?.name, to: "Oat milk")
      $0.changed(\.sheet) { $0 == nil }
    }
    recorder.finish()
  }

  @Test func anEditOfAScreenThatTheStepPoppedIsExpectedByItsPosition() {
    let host = NavigationHost()
    let detail = PushedDetail(title: "Milk")
    _ = host.path.push(.detail(detail))
    let recorder = StateRecorder(of: host)
    recorder.perform {
      detail.title.value = "Deleted"
      _ = host.path.pop()
    } expecting: {
      $0.changed(\.path[0]?.detail?.title, to: "Deleted")
      $0.changed(\.path) { $0.isEmpty }
    }
    recorder.finish()
  }

  @Test func anEditOfAScreenThatTheStepPoppedIsExpectedByItsID() {
    let host = NavigationHost()
    let detail = PushedDetail(title: "Milk")
    let id = host.path.push(.detail(detail))
    let recorder = StateRecorder(of: host)
    recorder.perform {
      detail.title.value = "Deleted"
      _ = host.path.pop()
    } expecting: {
      $0.changed(\.path[id: id]?.detail?.title, to: "Deleted")
      $0.changed(\.path) { $0.isEmpty }
    }
    recorder.finish()
  }

  @Test func twoPoppedScreensAreToldApartByWhatChanged() {
    let host = NavigationHost()
    let first = PushedDetail(title: "Milk")
    let second = PushedDetail(title: "Oat")
    _ = host.path.push(.detail(first))
    _ = host.path.push(.detail(second))
    let recorder = StateRecorder(of: host)
    recorder.perform {
      first.title.value = "Milk, deleted"
      second.title.value = "Oat, deleted"
      host.path.popToRoot()
    } expecting: {
      $0.changed(\.path[1]?.detail?.title, to: "Oat, deleted")
      $0.changed(\.path[0]?.detail?.title, to: "Milk, deleted")
      $0.changed(\.path) { $0.isEmpty }
    }
    recorder.finish()
  }

  @Test func twoPoppedScreensThatChangedAlikeAreAmbiguousAndFail() {
    let host = NavigationHost()
    _ = host.path.push(.detail(PushedDetail(title: "Milk")))
    _ = host.path.push(.detail(PushedDetail(title: "Oat")))
    let screens = host.path.screens.compactMap(\.detail)
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        for screen in screens { screen.title.value = "deleted" }
        host.path.popToRoot()
      } expecting: {
        $0.changed(\.path[0]?.detail?.title, to: "deleted")
        $0.changed(\.path) { $0.isEmpty }
      }
    }
    #expect(
      failures.map(\.message).first?.contains(
        "it names more than one piece of state this step removed, each of which changed as "
          + "expected (path[0].detail.title, path[1].detail.title)") == true)
    recorder.finish()
  }

  @Test func aWrongLastValueOfADismissedSheetFailsUnderItsOldPath() {
    let host = NavigationHost()
    let form = SheetForm(name: "draft")
    host.sheet.present(form)
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        form.name.value = "Oat milk"
        host.sheet.dismiss()
      } expecting: {
        $0.changed(\.sheet.destination?.name, to: "Milk")
        $0.changed(\.sheet) { $0 == nil }
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Wrong change of sheet.destination.name (removed in this step) (- expected, + actual):
          - "Milk"
          + "Oat milk"
        """
      ])
    recorder.finish()
  }

  @Test func aComputedPathToNothingTheStepRemovedStillFails() {
    let host = NavigationHost()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
      } expecting: {
        $0.changed(\.sheet.destination?.name, to: "Milk")
      }
    }
    #expect(
      failures.map(\.message).first?.contains(
        "which is nil after the action (an optional on its path is nil, and no state left "
          + "that path in this step)") == true)
    recorder.finish()
  }
}
