import POMVVM
import TestSupport
import Testing

/// The law of change sets, under seeded random mutations: applying each
/// published change set to the previous contents gives the new contents,
/// reverting it gives the old ones back, and aggregates equal a recount.
@MainActor
@Suite("Replay law")
struct ReplayLawTests {
  /// One random mutation; texts come from a tiny alphabet so that different
  /// elements often look alike, and edits in place are common.
  static func mutate(
    _ array: ObservableArray<TestItem>, _ random: inout SplitMix64, nextID: inout Int
  ) {
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    func text() -> String { ["a", "b", "c"][pick(3)] }
    func fresh() -> TestItem {
      defer { nextID += 1 }
      return TestItem(nextID, text(), on: pick(2) == 0)
    }
    let count = array.count
    switch pick(12) {
    case 0: array.insert(fresh(), at: pick(count + 1))
    case 1: array.append(fresh())
    case 2 where count > 0: array.remove(at: pick(count))
    case 3 where count > 0: array.remove(id: array[pick(count)].id)
    case 4 where count > 0: array.move(from: pick(count), to: pick(count))
    case 5 where count > 0:
      var element = array[pick(count)]
      element.on.toggle()
      array.update(element)
    case 6 where count > 0:
      let index = pick(count)
      array.replace(at: index, with: TestItem(array[index].id, text(), on: pick(2) == 0))
    case 7 where count > 0: array.replace(at: pick(count), with: fresh())
    case 8:
      // A server-style refresh: keep most, drop some, edit some, add some, shuffle a bit.
      var next = array.elements.filter { _ in pick(6) != 0 }
      for index in next.indices where pick(4) == 0 { next[index].text = text() }
      for _ in 0..<pick(3) { next.insert(fresh(), at: pick(next.count + 1)) }
      if next.count > 1 && pick(2) == 0 { next.swapAt(pick(next.count), pick(next.count)) }
      array.replaceAll(with: next)
    case 9:
      array.batch { elements in
        for _ in 0..<pick(4) {
          let choice = elements.isEmpty ? 0 : pick(3)
          switch choice {
          case 0: elements.insert(fresh(), at: pick(elements.count + 1))
          case 1: elements.remove(at: pick(elements.count))
          default: elements[pick(elements.count)].on.toggle()
          }
        }
      }
    case 10 where pick(20) == 0: array.removeAll()
    case 11: array.replaceAll(with: (0..<pick(5)).map { _ in fresh() })
    default: array.append(fresh())
    }
  }

  @Test(arguments: 1...12)
  func replayingEveryChangeSetRebuildsTheContents(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    var nextID = 0
    let array = ObservableArray<TestItem>()
    let openCount = array.liveCount(where: \.on)
    var contents: [TestItem] = []
    var failures: [String] = []
    var step = 0
    let subscription = array.observeChanges { change in
      let replayed = try? change.changeSet.applied(to: contents)
      if replayed != change.newElements {
        failures.append("step \(step): \(change.changeSet) does not replay")
      }
      if change.oldElements != contents {
        failures.append("step \(step): \(change.changeSet) does not revert")
      }
      contents = change.newElements
    }
    for current in 1...1_500 {
      step = current
      Self.mutate(array, &random, nextID: &nextID)
      #expect(contents == array.elements, "step \(step)")
      #expect(openCount.value == array.elements.count(where: \.on), "step \(step)")
      #expect(array.allSatisfy { array.index(id: $0.id).map { array[$0].id } == $0.id })
    }
    #expect(failures == [])
    withExtendedLifetime(subscription) {}
  }
}
