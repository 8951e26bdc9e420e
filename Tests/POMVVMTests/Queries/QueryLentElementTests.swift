import POMVVM
import TestSupport
import Testing

/// A sorted query lends the rows it compares to the sort order.
///
/// No retain and no release of what they hold: the rows hold tokens, seen
/// through weak references (`HeldToken`).
@MainActor
@Suite("Rows lent to the sort order")
struct QueryLentElementTests {
  /// Titles long enough to live on the heap, some of them equal, so that
  /// the descent that orders ties by position runs too.
  static func title(_ id: Int) -> String {
    "a title long enough for the heap, number \(id % 7)"
  }

  static func makeItems(_ count: Int) -> (items: [TokenItem], tokens: [HeldToken]) {
    let tokens = (0..<count).map { HeldToken($0) }
    let items = (0..<count).map {
      TokenItem(id: $0, title: title($0), on: $0 % 2 == 0, token: tokens[$0])
    }
    return (items, tokens)
  }

  /// The sections' ids as a fresh grouping and stable sort give them.
  static func fresh(_ elements: [TokenItem]) -> [[Int]] {
    [false, true].compactMap { on in
      let ids = elements.enumerated().filter { $0.element.on == on }.sorted {
        $0.element.title != $1.element.title
          ? $0.element.title < $1.element.title : $0.offset < $1.offset
      }.map(\.element.id)
      return ids.isEmpty ? nil : ids
    }
  }

  /// Moves across sections, edits in place and moves within a section, each
  /// placed by lent rows: the array stays the only owner of its rows'
  /// tokens, none is freed early, and none outlives the array.
  @Test func lentRowsAreNeitherRetainedNorReleased() {
    var weakRefs: [() -> HeldToken?] = []
    do {
      let (items, tokens) = Self.makeItems(40)
      weakRefs = HeldToken.weakReferences(to: tokens)
      let array = ObservableArray(items)
      let query = array.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 })
      var comparisons = 0
      let counting = array.query(sortedBy: { a, b in
        comparisons += 1
        return a.title < b.title
      })
      for step in 0..<200 {
        let id = (step * 13) % 40
        switch step % 3 {
        case 0: array.cell(for: id)?.value.on.toggle()
        case 1: array.cell(for: id)?.value.title = Self.title(id + step)
        default: array.cell(for: id)?.value.title += " "
        }
      }
      #expect(query.sections.map(\.ids) == Self.fresh(array.elements))
      #expect(counting.elements.map(\.title) == array.elements.map(\.title).sorted())
      #expect(comparisons > 200)
      // Every token is alive and the array's: a lend that released one
      // would have freed it, as the array is its only owner.
      #expect(weakRefs.allSatisfy { $0() != nil })
      #expect(array.elements.map(\.token.id) == Array(0..<40))
      _ = counting
    }
    #expect(weakRefs.allSatisfy { $0() == nil })
  }

  /// A sort order that keeps the rows it is given keeps copies of its own:
  /// they outlive the array and read as they were.
  @Test func aSortOrderThatKeepsItsArgumentsKeepsCopies() {
    var weakRefs: [() -> HeldToken?] = []
    var kept: [TokenItem] = []
    do {
      let (items, tokens) = Self.makeItems(30)
      weakRefs = HeldToken.weakReferences(to: tokens)
      let array = ObservableArray(items)
      let query = array.query(
        sortedBy: { a, b in
          kept.append(a)
          kept.append(b)
          return a.title < b.title
        }, sectionedBy: { $0.on ? 1 : 0 })
      for id in 0..<30 { array.cell(for: id)?.value.on.toggle() }
      #expect(query.sections.map(\.ids) == Self.fresh(array.elements))
    }
    #expect(!kept.isEmpty)
    #expect(kept.allSatisfy { $0.token.id == $0.id && $0.title == Self.title($0.id) })
    let keptIDs = Set(kept.map(\.id))
    #expect(
      weakRefs.enumerated().allSatisfy { ($0.element() != nil) == keptIDs.contains($0.offset) })
    kept.removeAll()
    #expect(weakRefs.allSatisfy { $0() == nil })
  }

  /// A sort order that removes the row it is comparing, and edits others,
  /// still reads that row whole: the array's write copies the storage the
  /// query lends from, and the query then follows the writes.
  @Test func aSortOrderThatWritesToTheArrayReadsItsRowsWhole() {
    var weakRefs: [() -> HeldToken?] = []
    do {
      let (items, tokens) = Self.makeItems(20)
      weakRefs = HeldToken.weakReferences(to: tokens)
      let array = ObservableArray(items)
      var armed = false
      var removed: [Int] = []
      var readAfterRemoval: [Bool] = []
      let query = array.query(
        sortedBy: { a, b in
          if armed, a.id != 0, array.contains(id: a.id) {
            armed = false
            removed.append(a.id)
            _ = array.remove(id: a.id)
            // The row is out of the array; its lent value is whole.
            readAfterRemoval.append(a.token.id == a.id && a.title == Self.title(a.id))
          }
          return a.title < b.title
        }, sectionedBy: { $0.on ? 1 : 0 })
      for id in [0, 2, 4, 6] {
        armed = true
        array.cell(for: id)?.value.on.toggle()
      }
      #expect(!removed.isEmpty)
      #expect(readAfterRemoval.count == removed.count && readAfterRemoval.allSatisfy { $0 })
      #expect(query.sections.map(\.ids) == Self.fresh(array.elements))
      #expect(removed.allSatisfy { !array.contains(id: $0) })
    }
    #expect(weakRefs.allSatisfy { $0() == nil })
  }

  /// A row that holds a weak reference is copied for the sort order.
  ///
  /// It is not lent: its move is not a plain load of its bits. Sorting and moves
  /// work as for any row, and the references stay as they were.
  @Test func rowsWithWeakReferencesAreCopiedAndSortAsOthers() {
    struct Watcher: Identifiable {
      let id: Int
      var title: String
      var on: Bool
      weak var token: HeldToken?
    }
    let tokens = (0..<24).map { HeldToken($0) }
    let array = ObservableArray(
      (0..<24).map { Watcher(id: $0, title: Self.title($0), on: $0 % 3 == 0, token: tokens[$0]) })
    let query = array.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 })
    for id in 0..<24 where id % 2 == 0 { array.cell(for: id)?.value.on.toggle() }
    for id in 0..<24 where id % 5 == 0 { array.cell(for: id)?.value.title += " later" }
    let expected = Self.fresh(
      array.elements.map { TokenItem(id: $0.id, title: $0.title, on: $0.on, token: tokens[$0.id]) })
    #expect(query.sections.map(\.ids) == expected)
    #expect(array.elements.allSatisfy { $0.token === tokens[$0.id] })
    #expect(query.sections.allSatisfy { $0.elements.allSatisfy { $0.token != nil } })
  }
}
