import MasterDetail
import POMVVM
import POMVVMTesting
import Testing

/// The detail pushed on the master's stack, tied to its item, and the
/// delete confirmation.
@MainActor
@Suite("Master-Detail navigation")
struct NavigationTests {
  @Test func openPushesTheDetailOfTheItem() {
    let sample = Sample()
    let navigation = HeadlessNavigationStack(sample.master.path)
    let id = sample.master.items[0].id
    let detail = sample.master.open(id: id)
    #expect(detail?.id == id)
    #expect(sample.master.openDetail === detail)
    #expect(navigation.shown == sample.master.path.ids)
    #expect(sample.master.open(id: 999) == nil)
    navigation.userPop()
    #expect(sample.master.openDetail == nil)
  }

  @Test func confirmingTheDeleteDeletesAndTheDetailLeaves() {
    let sample = Sample()
    let id = sample.master.items[0].id
    weak var weakDetail: DetailViewModel?
    do {
      let detail = sample.master.open(id: id)!
      weakDetail = detail
      #expect(detail.askToDelete())
      let alert = detail.alert.destination
      #expect(
        alert
          == AlertState(
            title: "Delete “second”?", message: "Undo brings it back.",
            buttons: [.destructive("Delete", action: .confirmDelete), .cancel()]))
      detail.answer(alert!.buttons[0])
      #expect(detail.alert.destination == nil)
    }
    #expect(sample.master.items[id: id] == nil)
    #expect(sample.master.path.isEmpty)
    #expect(weakDetail == nil, "the popped detail is released")
  }

  @Test func cancellingTheDeleteKeepsTheItemAndTheDetail() {
    let sample = Sample()
    let id = sample.master.items[0].id
    let detail = sample.master.open(id: id)!
    detail.askToDelete()
    detail.answer(detail.alert.destination!.cancelButton)
    #expect(sample.master.items[id: id] != nil)
    #expect(sample.master.openDetail === detail)
    #expect(detail.alert.destination == nil)
  }

  @Test func deletingFromTheListOrUndoingTakesTheDetailOffAndRedoDoesNotBringItBack() {
    let sample = Sample(texts: [])
    let added = sample.master.insertNowDate(text: "new")
    sample.master.open(id: added.id)
    #expect(sample.master.history.undo())
    #expect(sample.master.path.isEmpty, "the undo removed the item")
    #expect(sample.master.history.redo())
    #expect(sample.master.items[id: added.id] != nil)
    #expect(sample.master.path.isEmpty, "the redo brings the item back, not its detail")
    sample.master.open(id: added.id)
    sample.master.delete(id: added.id)
    #expect(sample.master.path.isEmpty)
  }

  @Test func theDetailDismissesItself() {
    let sample = Sample()
    let detail = sample.master.open(id: sample.master.items[0].id)!
    #expect(detail.dismiss())
    #expect(sample.master.path.isEmpty)
  }
}
