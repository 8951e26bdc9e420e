import MasterDetail
import POMVVMTesting
import Testing

/// A row that keeps itself alive through its own observation.
@MainActor
private final class LeakingRowView: BindableCell {
  var viewModel: DateCellViewModel?
  let bindings = SubscriptionBag()
  var line = ""

  func makeBindings(to viewModel: DateCellViewModel) -> [any SubscriptionToken] {
    [viewModel.text.observe { self.line = $0 }]
  }
}

@MainActor
@Suite("checkNoLeaks")
struct CheckNoLeaksTests {
  @Test func theMasterDetailGraphIsReleased() {
    checkNoLeaks {
      let master = makeMaster(["first", "second"])
      let list = MasterListView()
      list.bind(to: master)
      let detailViewModel = required(master.detailViewModel(for: master.items[1].id), "detail")
      let detail = DetailView()
      detail.bind(to: detailViewModel)
      list.rows[1].tapSwitch()
      detail.edit(text: "edited")
      master.insertNowDate(text: "third")
      detail.tapDelete()
      return [
        master, master.items, master.openSwitchCount, list, list.header, detail, detailViewModel,
      ]
        + list.rows
    }
  }

  @Test func aViewThatCapturesItselfIsReportedByTypeName() {
    // Weak: only the row's own cycle keeps it alive while the check looks.
    weak var leakedRow: LeakingRowView?
    let line = #line + 2
    let failures = recordedFailures {
      checkNoLeaks {
        let master = makeMaster(["first"])
        let row = LeakingRowView()
        row.bind(to: required(master.cellViewModel(at: 0), "row"))
        leakedRow = row
        return [master, row]
      }
    }
    #expect(failures.laws == ["every object is released"])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message == """
        Leak law 'every object is released' failed for a graph of 2 objects: still alive after \
        teardown: LeakingRowView (#2)
        Trace:
          - checkNoLeaks
        """)
    // Break the cycle, so that the deliberate leak ends with the test and a
    // LeakSanitizer report at exit always means a real one.
    leakedRow?.unbind()
    #expect(leakedRow == nil)
  }

  @Test func aTornDownViewIsNotALeak() {
    checkNoLeaks {
      let master = makeMaster(["first"])
      let row = LeakingRowView()
      row.bind(to: required(master.cellViewModel(at: 0), "row"))
      row.unbind()
      return [master, row]
    }
  }

  @Test func theCheckNeedsObjectsToWatch() {
    let line = #line + 1
    let failures = recordedFailures { checkNoLeaks { [] } }
    #expect(failures.laws == ["misuse"])
    #expect(failures.locations == [here(line)])
  }
}
