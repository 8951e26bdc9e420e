import Groceries
import POMVVMTesting
import XCTest

/// The groceries, checked under XCTest.
///
/// The checks are `@MainActor`, so the test methods are `@MainActor` and
/// `async`.
final class XCTestChecks: XCTestCase {
  @MainActor func testRowsAreSwitchable() async {
    let list = GroceryListViewModel()
    checkSwitchable(
      { list.row(for: list.add("milk").id)! },
      detach: { list.groceries.remove(id: $0.id) })
  }

  @MainActor func testRowViewsRebindCleanly() async {
    let list = GroceryListViewModel()
    checkBindableView(
      GroceryRowView.init,
      viewModels: { list.row(for: list.add("milk").id)! },
      rendering: { $0.text.value },
      expected: { "\($0.on.value ? "[x]" : "[ ]") \($0.name.value)" },
      mutate: { $0.toggleSwitch() })
  }

  @MainActor func testTheGroceriesKeepTheArrayLaws() async {
    checkObservableArrayLaws(
      GroceryListViewModel().groceries, randomMutations: 200, seed: 1,
      newElement: { Grocery(id: $0, name: "item \($0)") },
      edited: { grocery, variant in
        var grocery = grocery
        grocery.isBought = variant.isMultiple(of: 2)
        return grocery
      },
      counting: [\.isBought])
  }

  @MainActor func testACheckThatFailsOnPurpose() async {
    guard runsFailingChecks else { return }
    checkSwitchable(StuckRowViewModel.init)  // fixture: failing check
  }
}
