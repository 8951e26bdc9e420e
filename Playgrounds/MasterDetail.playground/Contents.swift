//: # Master-Detail: one item array, a list and a detail
//:
//: A list view model shares its items with a row view model and a detail view
//: model. Both switch the same item through the logic that `Switchable`
//: provides once; the rendered screens below are what the sample's text views
//: show. Run it in Xcode, or on Linux with `scripts/run-playgrounds`.

import Foundation
import MasterDetail
import POMVVM

#if canImport(PlaygroundSupport)
import PlaygroundSupport
#endif

@MainActor
func show(_ title: String, _ lines: [String]) {
  print("-- \(title)")
  for line in lines {
    print(line)
  }
}

@MainActor
func walkthrough() {
  // A fixed clock, so that the dates below are the same on every run.
  var minutes = 0.0
  let master = MasterViewModel(clock: {
    defer { minutes += 1 }
    return Date(timeIntervalSince1970: 1_795_255_200 + minutes * 60)
  })
  master.insertNowDate(text: "first")
  master.insertNowDate(text: "second")

  // The list screen is a view bound to the master view model; it patches its
  // rows from the items' change sets.
  let list = MasterListView()
  list.bind(to: master)
  show("the list", list.lines)

  // A tap on the second row's switch goes, as an event, to the row's view
  // model, whose toggleSwitch() is the Switchable default.
  list.rows[1].tapSwitch()
  show("after toggling row 2", list.lines)

  // Open a detail for the same item: it edits the same element.
  guard let detailViewModel = master.detailViewModel(for: master.items[1].id) else { return }
  let detail = DetailView()
  detail.bind(to: detailViewModel)
  show("the detail of row 2", detail.lines)

  // Typing in the detail's text field, and toggling there, shows in the list.
  detail.edit(text: "first, edited in the detail")
  detail.tapSwitch()
  show("the list after editing the detail", list.lines)

  // The same switch logic, called directly on both view models.
  master.cellViewModel(at: 0)?.openSwitch()
  detailViewModel.openSwitch()
  print("open switches:", master.openSwitchCount.value)

  // Deleting the item while its detail is open: the detail is detached and
  // refuses edits, visibly, instead of crashing or editing a ghost copy.
  master.delete(at: 1)
  let reports = Diagnostics.capturing { detail.edit(text: "edited after delete") }
  show("the detail after its item was deleted", detail.lines)
  print("refused edits:", reports.count)
  show("the list", list.lines)
}

MainActor.assumeIsolated {
  walkthrough()
}
