import Foundation
import MasterDetail
import POMVVM
import Testing

@MainActor
@Suite("Rebinding views")
struct RebindingTests {
  @Test func aRowReboundToAnotherItemNoLongerFollowsTheFirst() throws {
    let sample = Sample(texts: ["a", "b"])
    let row = ItemRowView()
    let first = try #require(sample.master.cellViewModel(at: 0))
    let second = try #require(sample.master.cellViewModel(at: 1))
    row.bind(to: first)
    #expect(row.line.value == "[ ] b")
    row.bind(to: second)
    first.openSwitch()
    sample.master.items.update(Item(id: first.id, date: .now, text: "b, edited", on: true))
    #expect(row.line.value == "[ ] a")
    second.openSwitch()
    #expect(row.line.value == "[x] a")
    row.tapSwitch()
    #expect(second.on.value == false)
    #expect(first.on.value == true, "the old item no longer hears the row's taps")
  }

  @Test func rebindingReleasesTheOldBindings() throws {
    // No list screen: it would share the items' cells with this row.
    let sample = Sample(texts: ["a", "b"], bindingTheList: false)
    let row = ItemRowView()
    weak var weakOld: DateCellViewModel?
    weak var weakOldCell: ElementCell<Item>?
    do {
      let old = try #require(sample.master.cellViewModel(at: 0))
      weakOld = old
      weakOldCell = old.on.base
      row.bind(to: old)
      #expect(row.bindings.count == 3)
    }
    #expect(weakOld != nil, "the row keeps its view model")
    row.bind(to: try #require(sample.master.cellViewModel(at: 1)))
    #expect(weakOld == nil, "nothing keeps the old view model")
    #expect(weakOldCell == nil, "no binding or subscription keeps the old item's cell")
    #expect(row.bindings.count == 3)
  }

  @Test func bindingTheSameViewModelTwiceDoesNotSubscribeTwice() throws {
    let sample = Sample(texts: ["a"])
    let row = ItemRowView()
    let viewModel = try #require(sample.master.cellViewModel(at: 0))
    row.bind(to: viewModel)
    row.bind(to: viewModel)
    #expect(row.bindings.count == 3)
    var toggles = 0
    let counter = viewModel.on.observeChanges { _ in toggles += 1 }
    row.tapSwitch()
    #expect(toggles == 1)
    #expect(viewModel.on.value == true)
    withExtendedLifetime(counter) {}
  }

  @Test func aDetailViewReleasesEverythingWhenUnbound() throws {
    let sample = Sample(texts: ["a"])
    let view = DetailView()
    weak var weakViewModel: DetailViewModel?
    do {
      let viewModel = try #require(sample.master.detailViewModel(for: sample.master.items[0].id))
      weakViewModel = viewModel
      view.bind(to: viewModel)
    }
    view.unbind()
    #expect(weakViewModel == nil)
    #expect(view.bindings.isEmpty)
    sample.master.items.update(Item(id: sample.master.items[0].id, date: .now, text: "z"))
    #expect(view.textField.value == "a")
  }
}
