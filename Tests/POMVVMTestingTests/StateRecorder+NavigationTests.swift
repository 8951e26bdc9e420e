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
}
