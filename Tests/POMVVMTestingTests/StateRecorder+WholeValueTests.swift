import Testing

@testable import POMVVMTesting

// The recorder compares whole values (issue 49, item 8): `added(_:like:)`
// compares a new view model's plain stored properties too, not only its
// cells, arrays and queries, and values are compared at any depth, so a
// difference deep down is neither missed nor called an equal set.

/// A value nested `depth` levels deep, with `leaf` at the bottom.
private indirect enum Nested: Equatable {
  case leaf(Int)
  case node(Nested)

  static func deep(_ depth: Int, leaf: Int) -> Nested {
    var value = Nested.leaf(leaf)
    for _ in 0..<depth { value = .node(value) }
    return value
  }
}

/// A form whose draft has an id that is a plain stored property.
@MainActor
private final class DraftForm: ViewModel {
  let draftID: Int
  var attempts = 0
  let title: Observable<String>
  let settings: Observable<Nested>

  init(draftID: Int, title: String = "", settings: Nested = .leaf(0)) {
    self.draftID = draftID
    self.title = Observable(title)
    self.settings = Observable(settings)
  }
}

@MainActor
private final class FormHost: ViewModel {
  let sheet = Presentation<DraftForm>()
  let value = Observable(Nested.leaf(0))
}

@MainActor
@Suite("StateRecorder compares whole values")
struct StateRecorderWholeValueTests {
  @Test func addedLikeComparesAPlainStoredProperty() {
    let host = FormHost()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        host.sheet.present(DraftForm(draftID: 7, title: "Milk"))
      } expecting: {
        $0.changed(\.sheet) { $0 != nil }
        $0.added(\.sheet.destination, like: DraftForm(draftID: 8, title: "Milk"))
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        StateRecorder found 1 problem in this step:
        Wrong new state at sheet.destination (DraftForm) (- expected, + actual):
          - draftID: 8
          + draftID: 7
            … (3 unchanged)
        """
      ])
    recorder.finish()
  }

  @Test func addedLikePassesWhenThePlainPropertiesAgreeToo() {
    let host = FormHost()
    let recorder = StateRecorder(of: host)
    recorder.perform {
      host.sheet.present(DraftForm(draftID: 7, title: "Milk"))
    } expecting: {
      $0.changed(\.sheet) { $0 != nil }
      $0.added(\.sheet.destination, like: DraftForm(draftID: 7, title: "Milk"))
    }
    recorder.finish()
  }

  @Test func addedLikeComparesACellsValueBelowTenLevels() {
    let host = FormHost()
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform {
        host.sheet.present(DraftForm(draftID: 7, settings: .deep(12, leaf: 1)))
      } expecting: {
        $0.changed(\.sheet) { $0 != nil }
        $0.added(\.sheet.destination, like: DraftForm(draftID: 7, settings: .deep(12, leaf: 2)))
      }
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("Wrong new state at sheet.destination") == true)
    recorder.finish()
  }

  @Test func aChangeDeeperThanTenLevelsIsShownNotCalledAnEqualSet() {
    let host = FormHost()
    host.value.value = .deep(15, leaf: 1)
    let recorder = StateRecorder(of: host)
    let failures = recordedFailures {
      recorder.perform { host.value.value = .deep(15, leaf: 2) }
    }
    let message = failures.map(\.message).joined()
    #expect(message.contains("Unexpected change of value"))
    #expect(!message.contains("set again to an equal value"))
    #expect(message.contains(".leaf("))
    #expect(message.contains("-" + String(repeating: " ", count: 33) + "1"))
    #expect(message.contains("+" + String(repeating: " ", count: 33) + "2"))
    recorder.finish()
  }

  @Test func aValueThousandsOfLevelsDeepIsRenderedAndComparedWhole() {
    let old = Nested.deep(5_000, leaf: 1)
    let new = Nested.deep(5_000, leaf: 2)
    let rendered = ValueDiff.render(old)
    #expect(rendered.hasSuffix(".leaf(1)" + String(repeating: ")", count: 5_000)))
    #expect(ValueDiff.render(new) != rendered)
    let diff = ValueDiff.diff(old, new)
    #expect(diff?.contains(".leaf(1)") == true)
    #expect(diff?.contains(".leaf(2)") == true)
    #expect(ValueDiff.diff(old, Nested.deep(5_000, leaf: 1)) == nil)
  }
}
