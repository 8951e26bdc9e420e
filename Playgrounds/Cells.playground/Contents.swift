//: # Cells, events, combiners and bindings
//:
//: A walk through the core of POMVVM. Every line of output below is printed by
//: a real observer, transform or deinitializer reacting to the kit; nothing is
//: a canned string. Run it in Xcode, or on Linux with `scripts/run-playgrounds`.

import POMVVM

#if canImport(PlaygroundSupport)
import PlaygroundSupport
#endif

// Everything that touches the kit is main-actor isolated. Top-level playground
// code is not guaranteed to be, so each step is a `@MainActor` function and the
// walkthrough runs them from `MainActor.assumeIsolated` at the bottom.

@MainActor
func section(_ title: String) {
  print("\n== \(title) ==")
}

@MainActor
func step(_ description: String, _ change: () -> Void) {
  print("- \(description)")
  change()
}

// MARK: - A cell and its observers

@MainActor
func cellsAndObservers() {
  section("A cell and its observers")

  // `observe` calls the handler at once with the current value, then with
  // every change; `observeChanges` only with later changes.
  let count = Observable(0)
  let everything = count.observe { print("  observe sees \($0)") }
  let changes = count.observeChanges { print("  observeChanges sees \($0)") }

  // Observers run synchronously, in subscription order.
  step("count.value = 1") { count.value = 1 }

  // `Int` is Equatable, so setting an equal value notifies no one.
  step("count.value = 1 again (equal: nobody is told)") { count.value = 1 }
  print("  observers: \(count.observerCount)")

  // Cancelling ends an observation at once.
  step("changes.cancel(), then count.value = 2") {
    changes.cancel()
    count.value = 2
  }
  print("  changes.isActive: \(changes.isActive), observers: \(count.observerCount)")

  // Releasing the last reference to a subscription ends it too.
  var temporary: Subscription? = count.observeChanges { print("  temporary sees \($0)") }
  step("count.value = 3 while `temporary` is held") { count.value = 3 }
  print("  temporary is active: \(temporary?.isActive ?? false)")
  step("temporary = nil, then count.value = 4") {
    temporary = nil
    count.value = 4
  }

  // A bag keeps many tokens and cancels them together.
  let bag = SubscriptionBag()
  count.observeChanges { print("  bagged A sees \($0)") }.store(in: bag)
  count.observeChanges { print("  bagged B sees \($0)") }.store(in: bag)
  step("count.value = 5 with two bagged observers") { count.value = 5 }
  step("bag.cancelAll(), then count.value = 6") {
    bag.cancelAll()
    count.value = 6
  }
  print("  observers: \(count.observerCount)")
  everything.cancel()
}

// MARK: - Events

@MainActor
func events() {
  section("Events")

  // A tap is an event, not state: no current value, and no de-duplication.
  let taps = EventStream<Void>()
  let tapCount = Observable(0)
  let onTap = taps.observe { tapCount.value += 1 }
  step("taps.send() twice") {
    taps.send()
    taps.send()
  }
  print("  tap count: \(tapCount.value)")
  onTap.cancel()

  // Events can carry a payload, and an event stream can be bound to a cell:
  // this is the reverse data flow from a text field into its view model.
  let edits = EventStream<String>()
  let username = Observable("")
  let heard = edits.observe { print("  event: \"\($0)\"") }
  let stored = username.observeChanges { print("  username cell: \"\($0)\"") }
  edits.bind(to: username)
  // The same text twice is two events, but only one change of the cell.
  step("edits.send(\"ada\") twice") {
    edits.send("ada")
    edits.send("ada")
  }
  heard.cancel()
  stored.cancel()
}

// MARK: - Combining cells

@MainActor
func combining() {
  section("Combining cells")

  // Three combiners over the same two sources, one per strategy. Each
  // transform prints when it runs, so the output shows exactly when each
  // strategy fires. A "change" is a set after the combiner was made.
  let a = Observable(1)
  let b = Observable(10)
  func traced(_ strategy: CombineStrategy) -> Derived<Int> {
    combine(strategy, a, b, initial: 0) { x, y in
      print("  .\(strategy) fires: \(x) + \(y) = \(x + y)")
      return x + y
    }
  }
  let first = traced(.first)
  let all = traced(.all)
  let every = traced(.every)
  func values() {
    print("  values: first \(first.value), all \(all.value), every \(every.value)")
  }
  // Until a strategy fires, its cell holds `initial`.
  values()

  // `.first` fires on the first change of any source, and never again;
  // `.every` fires on every change; `.all` waits until both have changed.
  step("a.value = 2") { a.value = 2 }
  step("a.value = 3") { a.value = 3 }
  // Now `b` has changed too, so `.all` fires, and from now on on every change.
  step("b.value = 20") { b.value = 20 }
  // A set that the source drops as a duplicate is not a change.
  step("b.value = 20 again (not a change)") { b.value = 20 }
  step("a.value = 4") { a.value = 4 }
  values()

  // Without `initial`, the combined cell holds an optional: nil until the
  // strategy first fires. Its transform receives each source with its own
  // type: no `[Any]`, no casts.
  let name = Observable("Ada")
  let age = Observable(36)
  let summary = combine(.all, name, age) { name, age in "\(name), \(age)" }
  func showSummary() {
    print("  summary: \(summary.value ?? "nil")")
  }
  step("name.value = \"Grace\"") { name.value = "Grace" }
  showSummary()
  step("age.value = 45") { age.value = 45 }
  showSummary()

  // `map` derives a cell from one source, recomputed on every change.
  let celsius = Observable(20)
  let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
  let shown = fahrenheit.observe { print("  fahrenheit: \($0)") }
  step("celsius.value = 100") { celsius.value = 100 }
  shown.cancel()
}

// MARK: - Binding

// A value that is not Equatable: cells of it notify on every set, so a
// binding cannot use equality to recognise its own echo.
struct Note {
  var text: String
}

@MainActor
func binding() {
  section("One-way binding")

  // `bind(to:)` writes the source's value into the target now, then on every
  // change. Writes to the target do not flow back.
  let name = Observable("Ada")
  let title = Observable("")
  name.bind(to: title)
  print("  after bind: title = \(title.value)")
  step("name.value = \"Grace\"") { name.value = "Grace" }
  print("  title = \(title.value)")
  step("title.value = \"Linus\" (one-way: name keeps its value)") { title.value = "Linus" }
  print("  name = \(name.value), title = \(title.value)")

  section("Two-way binding")

  // `bidirectionalBind(to:)`: at bind time the argument takes the receiver's
  // value (the receiver wins); after that a change on either side is written
  // to the other.
  let field = Observable("draft")
  let model = Observable("saved")
  let fieldHeard = field.observeChanges { print("  field hears \"\($0)\"") }
  let modelHeard = model.observeChanges { print("  model hears \"\($0)\"") }
  let token = field.bidirectionalBind(to: model)
  print("  after bind: field = \(field.value), model = \(model.value)")
  // Each side hears each change once: the echo does not bounce back.
  step("field.value = \"typed\"") { field.value = "typed" }
  step("model.value = \"reset\"") { model.value = "reset" }
  // Cancelling the token ends the binding early.
  step("token.cancel(), then field.value = \"alone\"") {
    token.cancel()
    field.value = "alone"
  }
  fieldHeard.cancel()
  modelHeard.cancel()

  // Binding never loops, even when values cannot be compared, and even around
  // a ring a ↔ b ↔ c ↔ a: the change goes round once and stops.
  let x = Observable(Note(text: "x"))
  let y = Observable(Note(text: "y"))
  let z = Observable(Note(text: "z"))
  x.bidirectionalBind(to: y)
  y.bidirectionalBind(to: z)
  z.bidirectionalBind(to: x)
  // Count what each cell's observers are told.
  let counts = [x, y, z].map { cell in
    let count = Observable(0)
    return (count, cell.observeChanges { _ in count.value += 1 })
  }
  // The change goes x → y → z → x and stops there: a binding ignores what
  // reaches it while it is still writing. Every cell's observers hear the new
  // value exactly once, and the set returns.
  step("x.value = Note(text: \"ring\")") { x.value = Note(text: "ring") }
  print("  x = \(x.value.text), y = \(y.value.text), z = \(z.value.text)")
  let told = counts.map { count, _ in String(count.value) }.joined(separator: ", ")
  print("  notifications heard by x, y, z: \(told)")
  for (_, subscription) in counts {
    subscription.cancel()
  }
}

// MARK: - Projection

struct Item: Equatable {
  var text: String
  var on: Bool
}

@MainActor
func projection() {
  section("Key-path projection")

  // A projection is a two-way cell onto one field of another cell's value:
  // reads come from the item, writes go through the item's cell.
  let item = Observable(Item(text: "first", on: false))
  let on = item.projection(\.on)
  let itemHeard = item.observeChanges { print("  item hears \($0.text), on: \($0.on)") }
  let onHeard = on.observeChanges { print("  on hears \($0)") }

  // A switch bound two-way to the projection edits the item's `on` field.
  // The receiver wins at bind time, so the item's `on` becomes true at once.
  let toggle = Observable(true)
  toggle.bidirectionalBind(to: on)
  print("  after bind: item.on = \(item.value.on)")
  step("toggle.value = false") { toggle.value = false }
  // Editing another field tells the item's observers, not the projection's:
  // the projected field did not change.
  step("item.value.text = \"renamed\"") { item.value.text = "renamed" }
  // Editing the field on the item reaches the projection and the switch.
  step("item.value.on = true") { item.value.on = true }
  print("  toggle = \(toggle.value), item.on = \(item.value.on)")
  itemHeard.cancel()
  onHeard.cancel()
}

// MARK: - Owner-scoped observation

// A view that observes on its own behalf: the handler receives the view, so it
// needs no `[weak self]`, and the observation ends when the view goes away.
@MainActor
final class TitleView: SubscriptionOwner {
  let subscriptions = SubscriptionBag()
  private(set) var title = ""

  init(name: Observable<String>) {
    name.observe(self) { view, name in
      view.title = "Hello, \(name)!"
      print("  TitleView shows \"\(view.title)\"")
    }
  }

  deinit {
    print("  TitleView deallocated")
  }
}

@MainActor
func ownerScopedObservation() {
  section("Owner-scoped observation")

  let name = Observable("Ada")
  var view: TitleView? = TitleView(name: name)
  step("name.value = \"Grace\"") { name.value = "Grace" }
  print("  observers of name: \(name.observerCount), title: \(view?.title ?? "-")")
  // Releasing the view releases its bag, which ends the observation.
  step("view = nil") { view = nil }
  step("name.value = \"Linus\" (nobody is told)") { name.value = "Linus" }
  print("  observers of name: \(name.observerCount)")
}

// MARK: - Run

MainActor.assumeIsolated {
  #if canImport(PlaygroundSupport)
  // Everything above is synchronous: the page may finish when the code does.
  PlaygroundPage.current.needsIndefiniteExecution = false
  #endif
  cellsAndObservers()
  events()
  combining()
  binding()
  projection()
  ownerScopedObservation()
}
