import MasterDetail
import POMVVMTesting
import XCTest

/// A switch whose toggle does nothing.
@MainActor
private final class BrokenLampViewModel: ViewModel, Switchable {
  let on = Observable(false)

  func toggleSwitch() -> Bool { true }
}

/// An array whose observers are told of its changes without their
/// removals: the counts no longer add up for a list view.
@MainActor
private final class ForgetfulItems: ArrayLawSubject {
  let items = ObservableArray([item(1), item(2)])

  var elements: [Item] { items.elements }

  func observeChanges(_ handler: @escaping @MainActor (ArrayChange<Item>) -> Void) -> Subscription {
    items.observeChanges { change in
      var changeSet = change.changeSet
      changeSet.removals = []
      handler(ArrayChange(changeSet: changeSet, newElements: change.newElements))
    }
  }

  func cell(for id: Item.ID) -> ElementCell<Item>? { items.cell(for: id) }

  func liveCount(where predicate: @escaping (Item) -> Bool) -> ArrayCount<Item> {
    items.liveCount(where: predicate)
  }
}

/// The checks under XCTest: no Swift Testing test is running, so failures go
/// through `XCTFail`, at the caller's file and line.
///
/// Failures are captured (``CapturingTestCase``), so that a failing check can
/// be examined instead of failing the test.
final class XCTestReportingTests: CapturingTestCase {
  private struct LawFailure: Equatable {
    var file: String
    var line: Int
    var law: String
  }

  /// The captured failures, each by the law it names (or its whole text).
  private var laws: [LawFailure] {
    captured.map { failure in
      let description = failure.message
      let law = description.range(of: " law '").flatMap { start in
        description.range(of: "' failed", range: start.upperBound..<description.endIndex).map {
          String(description[start.upperBound..<$0.lowerBound])
        }
      }
      return LawFailure(file: failure.file, line: failure.line, law: law ?? description)
    }
  }

  @MainActor
  func testAFailingCheckReportsEachLawAtTheCallersFileAndLine() async {
    isCapturing = true
    let line = #line + 1
    checkSwitchable(BrokenLampViewModel.init)
    isCapturing = false
    XCTAssertEqual(
      laws,
      [
        "toggle flips the switch", "observers are told in order",
        "toggle flips the switch", "observers are told in order",
      ].map { LawFailure(file: #filePath, line: line, law: $0) })
  }

  @MainActor
  func testABrokenListUpdateIsReportedAtTheCallersFileAndLine() async {
    isCapturing = true
    let line = #line + 1
    checkListUpdates(ForgetfulItems(), mutations: [.init("remove 1") { $0.items.remove(at: 0) }])
    isCapturing = false
    XCTAssertEqual(
      laws,
      ["the batch update keeps UIKit's rules", "the steps keep UIKit's rules"].map {
        LawFailure(file: #filePath, line: line, law: $0)
      })
  }

  @MainActor
  func testPassingChecksReportNothing() async {
    isCapturing = true
    let master = makeMaster(["first", "second"])
    checkSwitchable(
      { required(master.cellViewModel(for: master.insertNowDate().id), "row") },
      detach: { master.delete(id: $0.id) })
    checkObservableLaws({ Observable($0) }, values: [1, 2, 3])
    checkBindingLaws({ Observable($0) }, { Observable($0) }, values: ["a", "b"])
    checkObservableArrayLaws(master.items, mutations: [.remove(at: 0)], counting: [\.on])
    checkListUpdates(master.items, mutations: [.move(from: 0, to: 1), .remove(at: 0)])
    checkNoLeaks { [makeMaster(["a"])] }
    isCapturing = false
    XCTAssertEqual(laws, [])
  }
}
