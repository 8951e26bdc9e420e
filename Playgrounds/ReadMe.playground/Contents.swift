//: # The README's examples
//:
//: Every example in README.md, as a program. CI compiles and runs it and
//: compares its output with `expected-output.txt`, so the README cannot drift
//: from the code.

import Foundation
import Login
import MasterDetail
import Movies
import Observation
import POMVVM
import ToDo

#if canImport(PlaygroundSupport)
import PlaygroundSupport
#endif

// MARK: - Cells, combiners and bindings (README: "A first taste")

@MainActor
func firstTaste() {
  let username = Observable("")
  let password = Observable("")
  let canLogIn = combine(username, password) { user, pass in
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
  let firstName = Observable("Ada")
  let lastName = Observable("Lovelace")
  let header = combine(firstName, lastName) { "\($0) \($1)" }  // "Ada Lovelace", at once
  print("header:", header.value)

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
  let openSwitches = items.liveCount(where: \.on)
  let changes = items.observeChanges { print("change:", $0.changeSet) }

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

// MARK: - A login form (README)

@MainActor
func loginForm() {
  let form = LoginViewModel()
  let view = LoginView()
  view.bind(to: form)
  view.type(username: "alice_w")
  view.type(password: "secret")
  print(view.lines.joined(separator: "\n"))
  view.tapLogin()
  print(view.lines[3])
}

// MARK: - A to-do store (README)

@MainActor
func toDoStore() throws {
  let store = Store<ToDoItem>()  // or Store(contentsOf: fileURL), saved in the background
  let list = ToDoListViewModel(store: store)
  let listView = ToDoListView()
  listView.bind(to: list)
  try list.add()
  try list.add()
  let editor = try list.editor(row: 2)  // another view model, same store
  editor.title.value = "Buy milk"
  print(listView.lines.joined(separator: "\n"))
}

// MARK: - A state machine (README)

@MainActor
func stateMachine() async {
  let catalog = MovieCatalog()
  catalog.failNextRequest()
  let movies = MoviesListViewModel(catalog: catalog)
  let view = MoviesListView()
  view.bind(to: movies)
  movies.send(.load)
  print(view.lines[0])
  await movies.waitUntilIdle()
  print(view.lines[0])
  movies.send(.retry)
  await movies.waitUntilIdle()
  print(view.lines.prefix(3).joined(separator: "\n"))
}

// MARK: - Observation (README: "SwiftUI and Observation")

/// An app's existing model, as SwiftUI apps write them.
@Observable
final class Settings {
  var userName = "ada"
}

@MainActor
func observation() async {
  let title = Observable("Inbox")
  let unread = Observable(3)
  withObservationTracking {
    print("showing", title.value)
  } onChange: {
    print("title changed: render again")
  }
  unread.value = 4  // not read: nothing
  title.value = "Inbox"  // equal: nothing
  title.value = "Archive"  // the tracker fires, once

  let settings = Settings()
  let greeting = Derived(observing: { "Hello, \(settings.userName)" })
  let subscription = greeting.observe { print($0) }
  settings.userName = "grace"
  await Task.yield()  // the bridge recomputes right after the change
  subscription.cancel()
}

@MainActor
func readMe() async {
  print("== A first taste")
  firstTaste()
  print("== Combiners")
  combiners()
  print("== Master-Detail in 30 lines")
  masterDetailIn30Lines()
  print("== A login form")
  loginForm()
  print("== A to-do store")
  do {
    try toDoStore()
  } catch {
    print("error:", error)
  }
  print("== A state machine")
  await stateMachine()
  print("== SwiftUI and Observation")
  await observation()
}

// Top-level code runs on the main actor; the state machine's effects run in
// tasks, so the walkthrough awaits them.
await readMe()
