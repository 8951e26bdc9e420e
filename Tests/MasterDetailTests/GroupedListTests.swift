import MasterDetail
import POMVVM
import POMVVMTesting
import Testing

/// The master list grouped by switch state and searched: its rows are the
/// query's through every change, every update keeps UIKit's rules, and a
/// detail whose row leaves stays attached.
@MainActor
@Suite("MasterListView grouped and searched")
struct GroupedListTests {
  private func makeMaster() -> MasterViewModel {
    let master = MasterViewModel(clock: TestClock().now)
    for text in ["alpha", "beta", "gamma", "delta", "epsilon"] {
      master.insertNowDate(text: text)
    }
    return master
  }

  /// The rows the view shows, by section, as ids.
  private func shown(_ list: MasterListView) -> [[Item.ID]] {
    guard let keys = list.sectionKeys else { return [list.rows.compactMap(\.viewModel?.id)] }
    var sections: [[Item.ID]] = []
    for (index, row) in list.rows.enumerated() {
      if list.sectionTitle(beforeRow: index) != nil || sections.isEmpty { sections.append([]) }
      if let id = row.viewModel?.id { sections[sections.count - 1].append(id) }
    }
    #expect(sections.count == keys.count)
    return sections
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func theGroupedRowsFollowTheQueryThroughRandomChanges(seed: UInt64) {
    var random = SplitMix(seed: seed)
    let master = makeMaster()
    let list = MasterListView()
    list.bind(to: master)
    master.isGrouped.value = true
    let query = master.groupedBySwitch()
    let checked = CheckedSectionedListView<SwitchSection, Item>()
    let adapter = SectionedListAdapter(query, view: checked)
    for step in 0..<300 {
      let count = master.items.count
      switch random.pick(7) {
      case 0: master.insertNowDate(text: ["al", "be", "ga"][random.pick(3)])
      case 1 where count > 0: master.delete(at: random.pick(count))
      case 2 where count > 0, 3 where count > 0:
        master.cellViewModel(at: random.pick(count))?.on.value.toggle()
      case 4 where count > 0:
        master.items.cell(for: master.items[random.pick(count)].id)?.value.text = "ga \(step)"
      case 5: master.searchText.value = ["", "a", "ga", "x"][random.pick(4)]
      case 6 where count > 1: master.items.move(from: random.pick(count), to: random.pick(count))
      default: master.history.undo()
      }
      #expect(shown(list) == query.sections.map(\.ids), "seed \(seed), step \(step)")
      #expect(list.sectionKeys == query.keys)
      #expect(checked.violations == [], "seed \(seed), step \(step)")
      if !checked.violations.isEmpty { return }
    }
    #expect(adapter.ids == query.sections.map(\.ids))
  }

  @Test func aToggleMovesTheRowToTheOtherSectionAndTheDetailStaysEditable() throws {
    let master = makeMaster()
    let list = MasterListView()
    list.bind(to: master)
    master.isGrouped.value = true
    master.searchText.value = "a"  // alpha, beta, gamma, delta
    let id = try #require(list.rows.first?.viewModel?.id)
    let detail = try #require(master.detailViewModel(for: id))
    #expect(list.sectionKeys == [.off])
    detail.on.value.toggle()
    #expect(list.sectionKeys == [.off, .on])
    #expect(shown(list).last == [id])
    // Renamed out of the search, the row goes; the detail still edits it.
    detail.text.value = "zzz"
    #expect(!shown(list).joined().contains(id))
    #expect(!detail.isDetached)
    detail.text.value = "back again"
    #expect(shown(list).joined().contains(id))
    #expect(master.items[id: id]?.text == "back again")
  }

  @Test func ungroupedAndNotSearchingTheListFollowsTheItemsThemselves() {
    let master = makeMaster()
    let list = MasterListView()
    list.bind(to: master)
    master.searchText.value = "ta"
    #expect(
      list.rows.compactMap(\.viewModel?.id)
        == master.items.filter { $0.text.contains("ta") }.map(\.id))
    master.searchText.value = ""
    #expect(list.rows.compactMap(\.viewModel?.id) == master.items.map(\.id))
    #expect(list.sectionKeys == nil)
  }
}

/// A small seeded generator for the random runs.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func pick(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
