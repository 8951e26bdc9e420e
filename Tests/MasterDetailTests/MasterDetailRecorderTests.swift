import Foundation
import MasterDetail
import POMVVMTesting
import Testing

/// The Master-Detail screen as the recorder sees it: the list's view
/// model, a view model per row, and the detail of the item at row 1.
///
/// The recorder searches everything reachable from the root (as
/// `BindingGraph` does); the screen names its parts itself so that the
/// paths read `rows[1].on` and `detail.on`.
@MainActor
private struct Screen {
  let master: MasterViewModel
  let rows: [DateCellViewModel]
  let detail: DetailViewModel

  init() throws {
    let master = Sample(bindingTheList: false).master
    self.master = master
    rows = master.items.indices.compactMap { master.cellViewModel(at: $0) }
    detail = try #require(master.detailViewModel(for: master.items[1].id))
  }
}

/// The same screen through its views: the bound list, and the detail view.
@MainActor
private struct Views {
  let master: MasterViewModel
  let list: MasterListView
  let detail: DetailView

  init() throws {
    let sample = Sample()
    master = sample.master
    list = sample.list
    detail = try #require(sample.detail(row: 1))
  }
}

/// Master-Detail under the state recorder: every change of every cell, array
/// and event stream reachable from the screen is accounted for.
@MainActor
@Suite("Master-Detail, every change")
struct MasterDetailRecorderTests {
  @Test func aRowsToggleChangesTheRowTheDetailAndTheOpenCountAndNothingElse() throws {
    let screen = try Screen()
    let recorder = StateRecorder(of: screen)
    recorder.perform {
      screen.rows[1].toggleSwitch()
    } expecting: {
      $0.changed(\.rows[1].on, to: true)
      $0.changed(\.detail.on, to: true)
      $0.changed(\.master.openSwitchCount, to: 1)
      $0.changed(\.master.items) { $0.changeSet.updates.map(\.newIndex) == [1] }
    }
    recorder.perform {
      screen.detail.toggleSwitch()
    } expecting: {
      $0.changed(\.detail.on, to: false)
      $0.changed(\.rows[1].on, to: false)
      $0.changed(\.master.openSwitchCount, to: 0)
      $0.changed(\.master.items, to: screen.master.items.elements)
    }
    recorder.finish()
  }

  @Test func tappingARowsSwitchChangesWhatTheScreenShows() throws {
    let views = try Views()
    let recorder = StateRecorder(of: views)
    recorder.perform {
      views.list.rows[1].tapSwitch()
    } expecting: {
      $0.sent(\.list.rows[1].switchTapped)
      $0.changed(\.list.rows[1].viewModel!.on, to: true)
      $0.changed(\.list.rows[1].switchControl, to: true)
      $0.changed(\.list.rows[1].line, to: "[x] first")
      $0.changed(\.detail.viewModel!.on, to: true)
      $0.changed(\.detail.switchControl, to: true)
      $0.changed(\.master.openSwitchCount, to: 1)
      $0.changed(\.list.header.title, to: "Items (open switches: 1)")
      $0.changed(\.master.items) { $0.changeSet.updates.map(\.newIndex) == [1] }
    }
    recorder.finish()
  }

  @Test func insertingAnItemIsOneChangeOfTheArrayAndOneNewRowExpectedWhole() throws {
    let views = try Views()
    let recorder = StateRecorder(of: views)
    recorder.perform {
      views.master.insertNowDate(text: "third")
    } expecting: {
      $0.changed(\.master.items) { $0.changeSet.insertions.map(\.index) == [0] }
      // The new row view appears with its bound view model: its cells'
      // first values are its value, not changes of their own.
      $0.added(\.list.rows[0]) { row in
        row.line.value == "[ ] third" && row.viewModel?.on.value == false
      }
    }
    #expect(views.list.lines.count == 4, "the header and three rows")
    recorder.perform {
      views.list.rows[0].tapSwitch()
    } expecting: {
      $0.sent(\.list.rows[0].switchTapped)
      $0.changed(\.list.rows[0].viewModel!.on, to: true)
      $0.changed(\.list.rows[0].switchControl, to: true)
      $0.changed(\.list.rows[0].line, to: "[x] third")
      $0.changed(\.master.openSwitchCount, to: 1)
      $0.changed(\.list.header.title, to: "Items (open switches: 1)")
      $0.changed(\.master.items) { $0.changeSet.updates.map(\.newIndex) == [0] }
    }
    recorder.finish()
  }

  @Test func deletingTheDetailsItemChangesTheArrayAndTheDetailsNotice() throws {
    let views = try Views()
    let recorder = StateRecorder(of: views)
    recorder.perform {
      views.detail.deleteTapped.send()
    } expecting: {
      $0.sent(\.detail.deleteTapped)
      $0.changed(\.detail.deletedNotice, to: true)
      $0.changed(\.master.items) { $0.changeSet.removals.map(\.element.text) == ["first"] }
    }
    #expect(views.list.lines.count == 2, "the header and one row")
    recorder.finish()
  }

  /// The row and the detail of a deleted item are detached quietly: their
  /// cells keep their last value, and the open count does not move for an
  /// item that was off.
  @Test func deletingAnItemThatIsOffChangesOnlyTheArray() throws {
    let screen = try Screen()
    let recorder = StateRecorder(of: screen)
    recorder.perform {
      screen.detail.delete()
    } expecting: {
      $0.changed(\.master.items) { $0.changeSet.removals.map(\.element.text) == ["first"] }
    }
    recorder.finish()
  }
}
