import POMVVM
import TestSupport

/// A from-scratch evaluation of a query, and random mutations that touch
/// everything a query depends on.
@MainActor
enum QueryModel {
  static let filters: [(String, (TestItem) -> Bool)] = [
    ("all", { _ in true }),
    ("on", { $0.on }),
    ("off", { !$0.on }),
    ("not b", { $0.text != "b" }),
  ]

  static let orders: [(String, ((TestItem, TestItem) -> Bool)?)] = [
    ("array", nil),
    ("text", { $0.text < $1.text }),
    ("text descending", { $0.text > $1.text }),
    ("on, then text", { ($0.on ? 1 : 0, $0.text) < ($1.on ? 1 : 0, $1.text) }),
  ]

  /// Filter, then a stable sort: ties keep the array's order.
  static func evaluate(
    _ elements: [TestItem], where isIncluded: (TestItem) -> Bool,
    sortedBy order: ((TestItem, TestItem) -> Bool)?
  ) -> [TestItem] {
    let kept = elements.enumerated().filter { isIncluded($0.element) }
    guard let order else { return kept.map(\.element) }
    return kept.sorted { a, b in
      if order(a.element, b.element) { return true }
      if order(b.element, a.element) { return false }
      return a.offset < b.offset
    }.map(\.element)
  }

  /// The evaluation, grouped by key in ascending order.
  static func sections<Key: Hashable & Comparable>(
    _ elements: [TestItem], where isIncluded: (TestItem) -> Bool,
    sortedBy order: ((TestItem, TestItem) -> Bool)?, sectionedBy key: (TestItem) -> Key
  ) -> [(key: Key, ids: [Int])] {
    let rows = evaluate(elements, where: isIncluded, sortedBy: order)
    let keys = Set(rows.map(key)).sorted()
    return keys.map { section in (section, rows.filter { key($0) == section }.map(\.id)) }
  }

  /// One random mutation of the array: every kind of mutation, writes
  /// through element cells and projections, a removal and re-insertion of
  /// an id, and shuffles.
  static func mutate(
    _ array: ObservableArray<TestItem>, _ random: inout SplitMix64, nextID: inout Int,
    removed: inout [TestItem]
  ) {
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let count = array.count
    switch pick(10) {
    case 0 where count > 0:
      // A write through the element's cell: any field.
      let id = array[pick(count)].id
      let cell = array.cell(for: id)
      switch pick(3) {
      case 0: cell?.value.on.toggle()
      case 1: cell?.value.text = ["a", "b", "c"][pick(3)]
      default: cell?.value = TestItem(id, ["a", "b", "c"][pick(3)], on: pick(2) == 0)
      }
    case 1 where count > 0:
      let id = array[pick(count)].id
      if pick(2) == 0 {
        array.cell(for: id, \.on)?.set(pick(2) == 0)
      } else {
        array.cell(for: id, \.text)?.set(["a", "b", "c"][pick(3)])
      }
    case 2 where count > 0:
      if let element = array.remove(id: array[pick(count)].id) { removed.append(element) }
    case 3 where !removed.isEmpty:
      // The same id comes back, maybe with another value.
      var element = removed.remove(at: pick(removed.count))
      if pick(2) == 0 { element.on.toggle() }
      array.insert(element, at: pick(count + 1))
    case 4 where count > 1:
      array.replaceAll(with: array.elements.shuffled(using: &random))
    case 5 where count > 1:
      array.batch { elements in
        elements.swapAt(pick(elements.count), pick(elements.count))
        elements[pick(elements.count)].text = ["a", "b", "c"][pick(3)]
        if pick(2) == 0 { elements.remove(at: pick(elements.count)) }
      }
    case 6 where count > 40:
      array.remove(at: pick(count))
    default:
      ReplayLawTests.mutate(array, &random, nextID: &nextID)
    }
    // Ids that came back by other means are not "removed" any more.
    removed.removeAll { array.contains(id: $0.id) }
  }
}
