import Foundation
import MasterDetail
import POMVVMTesting
import Testing

/// The text list as the adapter's first client: every update it gets goes
/// through the headless model of UIKit's rules first.
@MainActor
@Suite("MasterListView through ListAdapter")
struct MasterListAdapterTests {
  /// A list screen whose updates all pass through a checking view.
  @MainActor
  private struct CheckedSample {
    let sample = Sample(texts: ["a", "b", "c", "d", "e"], bindingTheList: false)
    let checked: CheckedListView<Item>
    let adapter: ListAdapter<CheckedListView<Item>>

    init() {
      // The screen makes its rows from its view model; the adapter that
      // drives it goes through the checker.
      sample.list.viewModel = sample.master
      checked = CheckedListView(forwardingTo: sample.list)
      adapter = ListAdapter(sample.master.items, view: checked)
    }

    /// What the rows show, against what the items hold.
    var shown: [String] { sample.list.rows.map(\.line.value) }
    var expected: [String] {
      sample.master.items.map { "\($0.on ? "[x]" : "[ ]") \($0.text)" }
    }
    var rowIDs: [Item.ID?] { sample.list.rows.map { $0.viewModel?.id } }
  }

  @Test func theRowsEqualTheItemsAfterEveryStepOfARandomRun() {
    let checked = CheckedSample()
    let master = checked.sample.master
    let items = master.items
    var random = SystemRandomNumberGenerator.Seeded(seed: 21)
    var nextText = 0
    func text() -> String {
      nextText += 1
      return "new \(nextText)"
    }
    for step in 1...400 {
      let count = items.count
      switch random.pick(9) {
      case 0: master.insertNowDate(text: text())
      case 1 where count > 0: master.delete(at: random.pick(count))
      case 2 where count > 1: items.move(from: random.pick(count), to: random.pick(count))
      case 3 where count > 0: master.cellViewModel(at: random.pick(count))?.toggleSwitch()
      case 4 where count > 1:
        // Shuffle and edit: rows that move and change at once.
        var next = items.elements
        next.shuffle(using: &random)
        for index in next.indices where random.pick(3) == 0 {
          next[index].text += "!"
          next[index].on.toggle()
        }
        items.replaceAll(with: next)
      case 5 where count > 0:
        items.batch { contents in
          let element = contents.remove(at: random.pick(contents.count))
          var edited = element
          edited.text += "?"
          contents.insert(edited, at: random.pick(contents.count + 1))
          if !contents.isEmpty { contents.remove(at: random.pick(contents.count)) }
        }
      case 6 where count > 8: items.removeAll()
      default: master.insertNowDate(text: text())
      }
      #expect(checked.checked.violations == [], "step \(step)")
      #expect(checked.shown == checked.expected, "step \(step)")
      #expect(checked.rowIDs == items.map(\.id), "step \(step)")
      if !checked.checked.violations.isEmpty || checked.shown != checked.expected { break }
    }
    #expect(checked.checked.updateCount > 300)
  }

  @Test func aScreenThatIsNotReadyCatchesUpInOneUpdate() {
    let checked = CheckedSample()
    let master = checked.sample.master
    checked.checked.isReady = false
    master.insertNowDate(text: "f")
    master.items.move(from: 0, to: 4)
    master.cellViewModel(at: 4)?.toggleSwitch()
    master.delete(at: 1)
    #expect(checked.shown != checked.expected)
    checked.checked.isReady = true
    checked.adapter.updateIfNeeded()
    #expect(checked.checked.updateCount == 2)
    #expect(checked.checked.violations == [])
    #expect(checked.shown == checked.expected)
  }
}

extension SystemRandomNumberGenerator {
  /// A seeded SplitMix64, so that a run can be repeated.
  struct Seeded: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func pick(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  }
}
