import Foundation
import MasterDetail
import POMVVM
import Testing

@MainActor
@Suite("Rendered screens")
struct ScreenTests {
  @Test func theListRendersItsHeaderAndNumberedRows() {
    let sample = Sample()
    #expect(
      sample.screen == """
        Items (open switches: 0)
          1. [ ] second
          2. [ ] first
        """)
  }

  @Test func eachRowsLineCanBeReadAlone() {
    let sample = Sample(texts: ["a", "b", "c"])
    sample.list.rows[1].tapSwitch()
    #expect((0..<3).map(sample.list.line(forRow:)) == ["  1. [ ] c", "  2. [x] b", "  3. [ ] a"])
    #expect(Array(sample.list.lines.dropFirst()) == (0..<3).map(sample.list.line(forRow:)))
  }

  @Test func togglingARowShowsInTheDetailAndTheCount() throws {
    let sample = Sample()
    let detail = try #require(sample.detail(row: 1))
    sample.list.rows[1].tapSwitch()
    #expect(
      sample.screen == """
        Items (open switches: 1)
          1. [ ] second
          2. [x] first
        """)
    #expect(
      detail.screen == """
        Detail
          Date:   2026-11-21 10:00:00 +0000
          Text:   first
          Switch: [x]
        """)
  }

  @Test func togglingInTheDetailShowsInTheRowAndTheCount() throws {
    let sample = Sample()
    let detail = try #require(sample.detail(row: 0))
    detail.tapSwitch()
    #expect(
      sample.screen == """
        Items (open switches: 1)
          1. [x] second
          2. [ ] first
        """)
    #expect(detail.screen.hasSuffix("Switch: [x]"))
  }

  @Test func editingTheTextInTheDetailShowsInTheRow() throws {
    let sample = Sample()
    let detail = try #require(sample.detail(row: 1))
    detail.edit(text: "first, edited")
    #expect(
      sample.screen == """
        Items (open switches: 0)
          1. [ ] second
          2. [ ] first, edited
        """)
    #expect(sample.master.items[1].text == "first, edited")
  }

  @Test func deletingTheItemOfAnOpenDetailDetachesItSafely() throws {
    let sample = Sample()
    let detail = try #require(sample.detail(row: 0))
    detail.tapSwitch()
    sample.master.delete(at: 0)
    #expect(
      sample.screen == """
        Items (open switches: 0)
          1. [ ] first
        """)
    #expect(detail.viewModel?.isDetached == true)
    let reports = Diagnostics.capturing {
      detail.tapSwitch()
      detail.edit(text: "edited after delete")
      detail.tapDelete()
    }
    #expect(reports.count == 3, "\(reports)")
    #expect(
      detail.screen == """
        Detail
          Date:   2026-11-21 10:01:00 +0000
          Text:   second
          Switch: [x]
          (deleted: this item is no longer in the list)
        """, "the refused edit snapped back; no ghost kept it")
    #expect(sample.master.items.map(\.text) == ["first"])
    #expect(sample.master.openSwitchCount.value == 0)
  }

  @Test func deletingFromTheDetailRemovesTheRow() throws {
    let sample = Sample()
    let detail = try #require(sample.detail(row: 1))
    detail.tapDelete()
    #expect(
      sample.screen == """
        Items (open switches: 0)
          1. [ ] second
        """)
  }

  @Test func theListPatchesAndReusesRowsInsteadOfRebuilding() {
    let sample = Sample(texts: ["a", "b", "c"])
    #expect(sample.list.rowsCreated == 3)
    sample.master.delete(at: 1)  // b's row goes to the reuse pool
    sample.master.insertNowDate(text: "d")  // and comes back for d
    sample.master.items.move(from: 0, to: 2)
    sample.master.items.batch { $0.swapAt(0, 1) }
    #expect(sample.list.rowsCreated == 3)
    #expect(
      sample.screen == """
        Items (open switches: 0)
          1. [ ] a
          2. [ ] c
          3. [ ] d
        """)
    sample.master.items.replaceAll(with: [])
    #expect(sample.screen == "Items (open switches: 0)")
  }

  @Test func theListStaysInStepWhenAnObserverMutatesDuringAChange() {
    let sample = Sample(texts: ["a"])
    // Something deletes every item named "doomed" as soon as it appears.
    let reaper = sample.master.items.observeChanges { [master = sample.master] change in
      for insertion in change.changeSet.insertions where insertion.element.text == "doomed" {
        master.delete(id: insertion.element.id)
      }
    }
    sample.master.insertNowDate(text: "doomed")
    sample.master.insertNowDate(text: "b")
    #expect(
      sample.screen == """
        Items (open switches: 0)
          1. [ ] b
          2. [ ] a
        """)
    withExtendedLifetime(reaper) {}
  }
}
