//: # The README's examples
//:
//: Every example in README.md, as a program. CI compiles and runs it and
//: compares its output with `expected-output.txt`, so the README cannot drift
//: from the code.

import Foundation
import MasterDetail
import POMVVM

#if canImport(PlaygroundSupport)
import PlaygroundSupport
#endif

// MARK: - Cells, combiners and bindings (README: "A first taste")

@MainActor
func firstTaste() {
  let username = Observable("")
  let password = Observable("")
  let canLogIn = combine(.every, username, password, initial: false) { user, pass in
    user.count >= 6 && pass.count >= 6
  }
  let subscription = canLogIn.observe { print("log in enabled:", $0) }

  let usernameField = Observable("")  // a view's text field
  usernameField.bidirectionalBind(to: username)
  usernameField.value = "alice_w"
  password.value = "secret!"
  print("username:", username.value)
  subscription.cancel()
}

// MARK: - Combiners (README: "Concepts")

@MainActor
func combiners() {
  let usernameValid = Observable(false)
  let passwordValid = Observable(false)
  let loginEnabled = combine(.every, usernameValid, passwordValid, initial: false) { $0 && $1 }
  usernameValid.value = true
  passwordValid.value = true
  print("login enabled:", loginEnabled.value)
}

// MARK: - Master-Detail in 30 lines (README)

@MainActor
func masterDetailIn30Lines() {
  struct Item: Identifiable, Equatable {
    let id: Int
    var text: String
    var on: Bool
  }

  final class RowViewModel: ViewModel, Switchable {
    let on: ProjectedCell<ElementCell<Item>, Bool>
    init(_ item: ElementCell<Item>) { on = item.projection(\.on) }
  }

  final class DetailViewModel: ViewModel, Switchable {
    let on: ProjectedCell<ElementCell<Item>, Bool>
    init(_ item: ElementCell<Item>) { on = item.projection(\.on) }
  }  // no switch code in either view model

  let items = ObservableArray([
    Item(id: 2, text: "b", on: false), Item(id: 1, text: "a", on: false),
  ])
  let openSwitches = items.count(where: \.on)
  let changes = items.observe { print("change:", $0.changeSet) }

  guard let item = items.cell(for: 1) else { return }
  let row = RowViewModel(item)
  let detail = DetailViewModel(item)
  row.toggleSwitch()  // the one Switchable implementation, shared by both
  print("detail sees on =", detail.on.value, "| open switches:", openSwitches.value)
  detail.closeSwitch()
  print("row sees on =", row.on.value, "| open switches:", openSwitches.value)

  items.remove(id: 1)  // delete the item while its detail is open
  let refused = Diagnostics.capturing { detail.openSwitch() }
  print("detail detached:", detail.on.base.isDetached, "| refused:", refused[0])
  withExtendedLifetime(changes) {}
}

MainActor.assumeIsolated {
  print("== A first taste")
  firstTaste()
  print("== Combiners")
  combiners()
  print("== Master-Detail in 30 lines")
  masterDetailIn30Lines()
}
