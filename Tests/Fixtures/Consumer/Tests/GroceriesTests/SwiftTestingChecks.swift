import Foundation
import Groceries
import POMVVMTesting
import Testing

/// Whether to run the check that fails on purpose (scripts/test-consumer-fixture
/// sets it, to see where the failure is reported).
let runsFailingChecks = ProcessInfo.processInfo.environment["POMVVM_FIXTURE_FAILING_CHECKS"] == "1"

/// A row view model whose toggle does nothing.
@MainActor
final class StuckRowViewModel: ViewModel, Switchable {
  let on = Observable(false)

  func toggleSwitch() -> Bool { true }
}

@MainActor
@Suite("Groceries, checked under Swift Testing")
struct SwiftTestingChecks {
  @Test func rowsAreSwitchable() {
    let list = GroceryListViewModel()
    checkSwitchable(
      { list.row(for: list.add("milk").id)! },
      detach: { list.groceries.remove(id: $0.id) })
  }

  @Test func rowViewsRebindCleanly() {
    let list = GroceryListViewModel()
    checkBindableView(
      GroceryRowView.init,
      viewModels: { list.row(for: list.add("milk").id)! },
      rendering: { $0.text.value },
      expected: { "\($0.on.value ? "[x]" : "[ ]") \($0.name.value)" },
      mutate: { $0.toggleSwitch() })
  }

  @Test func theGroceriesKeepTheArrayLaws() {
    let list = GroceryListViewModel([Grocery(id: 1, name: "milk")])
    checkObservableArrayLaws(
      list.groceries,
      mutations: [
        ArrayMutation("add bread") { _ in list.add("bread") },
        ArrayMutation("buy the milk") { _ in list.row(for: 1)?.openSwitch() },
        .remove(at: 0),
      ],
      counting: [\.isBought])
  }

  @Test func aRowBindsToItsGrocery() {
    checkBindingLaws(
      { name in GroceryListViewModel([Grocery(id: 1, name: name)]).row(for: 1)!.name },
      { Observable($0) }, values: ["milk", "bread"])
  }

  @Test func theListDoesNotLeak() {
    checkNoLeaks {
      let list = GroceryListViewModel()
      let row = GroceryRowView()
      row.bind(to: list.row(for: list.add("milk").id)!)
      return [list, row, list.groceries]
    }
  }

  @Test(.enabled(if: runsFailingChecks)) func aCheckThatFailsOnPurpose() {
    checkSwitchable(StuckRowViewModel.init)  // fixture: failing check
  }
}
