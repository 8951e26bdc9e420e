import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Array aggregates")
struct ArrayAggregateTests {
  @Test func theCountFollowsEveryKindOfChange() {
    let array = ObservableArray([TestItem(1, on: true), TestItem(2), TestItem(3, on: true)])
    let open = array.liveCount(where: \.on)
    let seen = Recorder<Int>()
    let subscription = open.observe(seen.handler)
    array.update(TestItem(2, on: true))  // 3
    array.remove(id: 1)  // 2
    array.append(TestItem(4, on: true))  // 3
    array.move(from: 0, to: 2)  // 3: nothing to tell
    array.replace(at: 0, with: TestItem(5))  // 2
    array.batch { $0 = $0.map { TestItem($0.id, on: false) } }  // 0
    #expect(seen.events == [2, 3, 2, 3, 2, 0])
    #expect(open.recounts == 0)
    array.replaceAll(with: [TestItem(10, on: true), TestItem(11, on: true)])
    #expect(open.value == 2)
    #expect(open.recounts == 1, "only a reload counts again")
    withExtendedLifetime(subscription) {}
  }

  @Test func theTotalCountFollowsInsertionsAndRemovalsOnly() {
    let array = ObservableArray([TestItem(1), TestItem(2)])
    let total = array.liveCount()
    let seen = Recorder<Int>()
    let subscription = total.observe(seen.handler)
    array.append(TestItem(3))  // 3
    array.update(TestItem(2, on: true))  // 3: nothing to tell
    array.move(from: 0, to: 2)  // 3: nothing to tell
    array.append(contentsOf: [TestItem(4), TestItem(5)])  // 5
    array.remove(id: 1)  // 4
    array.batch { $0.removeLast(2) }  // 2
    #expect(seen.events == [2, 3, 5, 4, 2])
    #expect(total.recounts == 0)
    array.removeAll()
    #expect(total.value == 0)
    #expect(total.value == array.count)
    withExtendedLifetime(subscription) {}
  }

  @Test func togglingInALargeArrayNeverRecounts() throws {
    let array = ObservableArray((0..<10_000).map { TestItem($0) })
    let open = array.liveCount(where: \.on)
    let cell = try #require(array.cell(for: 5_000, \.on))
    for _ in 0..<100 {
      cell.value.toggle()
    }
    array.insert(TestItem(-1, on: true), at: 0)
    cell.value = true
    #expect(open.value == 2)
    #expect(open.recounts == 0)
  }

  @Test func aCountIsReleasedWithItsLastUser() {
    let array = ObservableArray([TestItem(1)])
    weak var weakCount: ArrayCount<TestItem>?
    do {
      let count = array.liveCount(where: \.on)
      weakCount = count
    }
    #expect(weakCount == nil)
    array.append(TestItem(2, on: true))
  }

  @Test func aReleasedCountIsSkippedAndALaterOneCountsEveryToggle() throws {
    let array = ObservableArray([TestItem(1), TestItem(2, on: true), TestItem(3)])
    let on = try #require(array.cell(for: 1, \.on))
    weak var weakCount: ArrayCount<TestItem>?
    do {
      let count = array.liveCount(where: \.on)
      weakCount = count
      on.value.toggle()
      #expect(count.value == 2)
    }
    #expect(weakCount == nil)
    on.value.toggle()
    let open = array.liveCount(where: \.on)
    let seen = Recorder<Int>()
    let subscription = open.observeChanges { seen.record($0) }
    on.value.toggle()
    on.value.toggle()
    array.update(TestItem(3, on: true))
    #expect(seen.events == [2, 1, 2])
    #expect(open.value == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test func theElementForAnIdFollowsItThroughRemovalAndReinsertion() {
    let array = ObservableArray([TestItem(1, "a"), TestItem(2, "b")])
    let element = array.liveElement(for: 2)
    let seen = Recorder<String>()
    let subscription = element.observe { seen.record($0?.text ?? "nil") }
    array.update(TestItem(2, "b2"))
    array.remove(id: 2)
    array.insert(TestItem(2, "back"), at: 0)
    array.replaceAll(with: [TestItem(7), TestItem(8), TestItem(9)])
    #expect(seen.events == ["b", "b2", "nil", "back", "nil"])
    #expect(array.liveElement(for: 8).value == TestItem(8))
    withExtendedLifetime(subscription) {}
  }
}
