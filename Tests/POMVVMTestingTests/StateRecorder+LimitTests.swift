import Testing

@testable import POMVVMTesting

// The search stops at 1,000 elements of a collection (issue 49, item 10):
// it says so wherever an element past the limit holds an object, even when
// the first thousand hold none.

@MainActor
private final class ShelfModel: ViewModel, Identifiable {
  let id: Int
  let title = Observable("")

  init(id: Int) {
    self.id = id
  }
}

/// A row of a list that may hold a view model.
private struct Slot: Identifiable {
  let id: Int
  let model: ShelfModel?
}

@MainActor
private final class SparseModel: ViewModel {
  /// A thousand empty rows, then view models.
  let rows: [ShelfModel?] = Array(repeating: nil, count: 1_000) + [ShelfModel(id: 1)]
  /// The same in a shared array.
  let slots = ObservableArray(
    (0..<1_000).map { Slot(id: $0, model: nil) } + [Slot(id: 1_000, model: ShelfModel(id: 2))])
}

@MainActor
private final class PlainLongModel: ViewModel {
  /// Long, but only plain data past the limit.
  let notes: [String?] = (0..<1_500).map { "note \($0)" }
  let slots = ObservableArray((0..<1_500).map { Slot(id: $0, model: nil) })
}

@MainActor
@Suite("StateRecorder and long collections")
struct StateRecorderLimitTests {
  @Test func viewModelsPastAThousandEmptyRowsAreSaidToBeSkipped() {
    let recorder = StateRecorder(of: SparseModel())
    #expect(
      recorder.notRecorded.sorted() == [
        "not recorded: `rows[1000...]` (only the first 1000 elements are searched)",
        "not recorded: `slots[1000...]` (only the first 1000 elements are searched)",
      ])
    recorder.finish()
  }

  @Test func plainDataPastTheLimitIsNotListed() {
    let recorder = StateRecorder(of: PlainLongModel())
    #expect(recorder.notRecorded.isEmpty)
    recorder.finish()
  }
}
