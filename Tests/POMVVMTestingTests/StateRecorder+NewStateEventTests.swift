import Testing

@testable import POMVVMTesting

// Events sent by state that appeared in the same step are recorded
// (issue 49, item 9): a stream has no value to read at the end of the step,
// so the recorder follows new state as soon as a change makes it reachable.

@MainActor
private final class ComposeForm: ViewModel {
  let text = Observable("")
  let submitted = EventStream<String>()
}

@MainActor
private final class ComposeHost: ViewModel {
  let sheet = Presentation<ComposeForm>()
  let forms = ObservableArray<Entry>()

  struct Entry: Identifiable {
    let id: Int
    let form: ComposeForm
  }
}

@MainActor
@Suite("StateRecorder and events of new state")
struct StateRecorderNewStateEventTests {
  @Test func anEventAPresentedFormSendsInTheSameStepIsRecorded() {
    let host = ComposeHost()
    let recorder = StateRecorder(of: host)
    recorder.perform {
      let form = ComposeForm()
      host.sheet.present(form)
      form.text.value = "Milk"
      form.submitted.send("Milk")
    } expecting: {
      $0.changed(\.sheet) { $0 != nil }
      $0.added(\.sheet.destination) { $0.text.value == "Milk" }
      $0.sent(\.sheet.destination?.submitted, ["Milk"])
    }
    recorder.perform {
      host.sheet.destination?.submitted.send("Oat")
    } expecting: {
      $0.sent(\.sheet.destination?.submitted, ["Oat"])
    }
    recorder.finish()
  }

  @Test func anUnexpectedEventOfNewStateFailsTheStep() {
    let host = ComposeHost()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        let form = ComposeForm()
        host.sheet.present(form)
        form.submitted.send("Milk")
      } expecting: {
        $0.changed(\.sheet) { $0 != nil }
        $0.added(\.sheet.destination) { _ in true }
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Unexpected event sent by sheet.destination.submitted: "Milk"
        """
      ])
    recorder.finish()
  }

  @Test func anEventOfARowAddedInTheSameStepIsRecorded() {
    let host = ComposeHost()
    let recorder = StateRecorder(of: host)
    recorder.perform {
      let form = ComposeForm()
      host.forms.append(ComposeHost.Entry(id: 1, form: form))
      form.submitted.send("first")
    } expecting: {
      $0.changed(\.forms) { $0.changeSet.insertions.count == 1 }
      $0.added(\.forms[0].form) { _ in true }
      $0.sent(\.forms[0].form.submitted, ["first"])
    }
    recorder.finish()
  }

  @Test func theCellsOfNewStateAreStillPartOfItsValueNotChanges() {
    let host = ComposeHost()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        let form = ComposeForm()
        host.sheet.present(form)
        form.text.value = "Milk"
      } expecting: {
        $0.changed(\.sheet) { $0 != nil }
        $0.added(\.sheet.destination) { _ in true }
        $0.changed(\.sheet.destination?.text, to: "Milk")
      }
    }
    #expect(failures.map(\.message).first?.contains("which appeared in this step") == true)
    recorder.finish()
  }
}
