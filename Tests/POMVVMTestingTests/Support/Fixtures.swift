import Foundation
import MasterDetail
import POMVVMTesting

/// A fixed date, so that rendered dates are stable.
let fixedDate = Date(timeIntervalSince1970: 1_795_255_200)

/// A list view model whose clock always reads `fixedDate`.
@MainActor
func makeMaster(_ texts: [String] = []) -> MasterViewModel {
  let master = MasterViewModel(clock: { fixedDate })
  for text in texts {
    master.insertNowDate(text: text)
  }
  return master
}

/// An item with the fixed date.
func item(_ id: Int, _ text: String = "x", on: Bool = false) -> Item {
  Item(id: id, date: fixedDate, text: text, on: on)
}

/// The cell onto the only element of a new array.
@MainActor
func elementCell(_ element: Item) -> ElementCell<Item> {
  required(ObservableArray([element]).cell(for: element.id), "cell for \(element.id)")
}

/// A value that is not `Equatable`: cells of it notify on every set.
struct Opaque {
  var number: Int
}

/// The simplest switchable view model: a stored switch and the protocol's
/// default operations.
@MainActor
final class LampViewModel: ViewModel, Switchable {
  let on = Observable(false)
}

/// A view model with a title, for hand-written views.
@MainActor
final class TitleViewModel: ViewModel {
  let title: Observable<String>

  init(_ title: String) {
    self.title = Observable(title)
  }
}
