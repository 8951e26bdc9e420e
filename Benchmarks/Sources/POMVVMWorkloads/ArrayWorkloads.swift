import POMVVM

/// The README's list as the toggle rows observe it.
///
/// `size` rows, a live count of the open ones, an observer of the list's
/// changes and one of the count; `keep` holds them all, and a fixture adds
/// what it keeps beside.
@MainActor
func observedList(size: Int) -> (items: ObservableArray<Row>, open: ArrayCount<Row>, keep: [Any]) {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  let open = items.liveCount(where: \.on)
  var keep: [Any] = [items, open]
  keep.append(items.observeChanges { sink.total &+= $0.changeSet.count })
  keep.append(open.observeChanges(makeObserver()))
  return (items, open, keep)
}

/// The element-cell toggle of the README's list: a field cell kept and
/// toggled, with a count and a list observer attached; optionally the row's
/// and the detail's projections of the element observed too, or a query
/// sorted by title (which the toggle does not move the row in) observed.
@MainActor
func kitToggle(size: Int, projections: Bool, sortedQuery: Bool = false) -> any Fixture {
  let sink = sharedSink
  let list = observedList(size: size)
  let items = list.items
  var keep = list.keep
  if sortedQuery {
    let query = items.query(sortedBy: { $0.title < $1.title })
    keep.append(query)
    keep.append(query.observeChanges { sink.total &+= $0.changeSet.count })
  }
  let id = size / 2
  if projections, let element = items.cell(for: id) {
    // A row view model and a detail view model, each with its own cells.
    for _ in 0..<2 {
      let title = element.projection(\.title)
      let on = element.projection(\.on)
      keep.append(title.observeChanges { sink.total &+= $0.utf8.count })
      keep.append(on.observeChanges { sink.total &+= $0 ? 1 : 0 })
    }
  }
  guard let on = items.cell(for: id, \.on) else { fatalError("no row \(id)") }
  let open = list.open
  let offset = open.value - (on.value ? 1 : 0)
  return Loop(keeping: (keep, on)) { iterations in
    for _ in 0..<iterations { on.value.toggle() }
    precondition(open.value == offset + (on.value ? 1 : 0), "the count is stale")
  }
}

@MainActor
func handToggle(size: Int, projections: Bool) -> any Fixture {
  let sink = sharedSink
  let store = HandStore(makeRows(size))
  store.observeList { _ in sink.total &+= 1 }
  store.observeCount(makeObserver())
  let id = size / 2
  if projections {
    for _ in 0..<2 {
      store.observeTitle(of: id) { sink.total &+= $0.utf8.count }
      store.observeOn(of: id) { sink.total &+= $0 ? 1 : 0 }
    }
  }
  return Loop(keeping: [store]) { iterations in
    for _ in 0..<iterations { store.modify(id: id) { $0.on.toggle() } }
  }
}

/// Three rows inserted at the top, then a toggle through the cell of a row
/// that was there before: the inserts move it.
@MainActor
final class KitInsertThenToggle: Fixture {
  private let size: Int
  private var items: ObservableArray<Row>
  private var on: ProjectedCell<ElementCell<Row>, Bool>
  private var nextID: Int

  init(size: Int) {
    self.size = size
    (items, on) = Self.make(size)
    nextID = size
  }

  private static func make(_ size: Int) -> (
    ObservableArray<Row>, ProjectedCell<ElementCell<Row>, Bool>
  ) {
    let items = ObservableArray(makeRows(size))
    guard let on = items.cell(for: size / 2, \.on) else { fatalError("no middle row") }
    return (items, on)
  }

  /// Starts again from `size` rows when the inserts would grow the array by
  /// more than a tenth.
  func prepare(_ iterations: Int) {
    if items.count + 3 * iterations > size + size / 10 {
      (items, on) = Self.make(size)
    }
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations {
      for _ in 0..<3 {
        items.insert(Row(id: nextID, title: "new", on: false), at: 0)
        nextID &+= 1
      }
      on.value.toggle()
    }
  }
}

@MainActor
final class PlainInsertThenToggle: Fixture {
  private let size: Int
  private var rows: [Row]
  private var nextID: Int

  init(size: Int) {
    self.size = size
    rows = makeRows(size)
    nextID = size
  }

  func prepare(_ iterations: Int) {
    if rows.count + 3 * iterations > size + size / 10 {
      rows = makeRows(size)
    }
  }

  func run(_ iterations: Int) {
    let id = size / 2
    for _ in 0..<iterations {
      for _ in 0..<3 {
        rows.insert(Row(id: nextID, title: "new", on: false), at: 0)
        nextID &+= 1
      }
      if let index = rows.firstIndex(where: { $0.id == id }) {
        rows[index].on.toggle()
      }
    }
    blackHole(rows)
  }
}

/// The floor for a diff: one pass over both arrays comparing ids and values
/// from the front and from the back (a prefix/suffix trim).
@inline(never)
func plainPass(_ old: [Row], _ new: [Row]) -> Int {
  let shared = min(old.count, new.count)
  var prefix = 0
  var edits = 0
  while prefix < shared && old[prefix].id == new[prefix].id {
    if old[prefix] != new[prefix] { edits += 1 }
    prefix += 1
  }
  var oldEnd = old.count
  var newEnd = new.count
  while oldEnd > prefix && newEnd > prefix && old[oldEnd - 1].id == new[newEnd - 1].id {
    oldEnd -= 1
    newEnd -= 1
    if old[oldEnd] != new[newEnd] { edits += 1 }
  }
  return prefix &+ edits &+ oldEnd &+ newEnd
}

/// Article 002's to-do item: equal (and hashed) by id only.
struct ArticleItem: Hashable {
  let id: Int
  var title: String

  static func == (lhs: ArticleItem, rhs: ArticleItem) -> Bool { lhs.id == rhs.id }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Article 002's diff, as published: set inclusion, then `index(of:)` per
/// changed element.
///
/// It reports appends and removals only (no edits, no moves), and falls back
/// to reload otherwise.
enum ArticleBehavior {
  case add([Int])
  case remove([Int])
  case reload
}

@inline(never)
func articleDiff(original: [ArticleItem], now: [ArticleItem]) -> ArticleBehavior {
  let originalSet = Set(original)
  let nowSet = Set(now)
  if originalSet.isSubset(of: nowSet) {
    let added = nowSet.subtracting(originalSet)
    return .add(added.compactMap { now.firstIndex(of: $0) })
  } else if nowSet.isSubset(of: originalSet) {
    let removed = originalSet.subtracting(nowSet)
    return .remove(removed.compactMap { original.firstIndex(of: $0) })
  } else {
    return .reload
  }
}

/// An array of `size` rows given one row more with `replaceAll(with:)`,
/// then its rows again: one insertion found and one removal per iteration.
@MainActor
func kitReplaceAllRoundTrip(_ size: Int) -> any Fixture {
  let (rows, appended) = appendedPair(size)
  let items = ObservableArray(rows)
  return Loop(keeping: items) { iterations in
    for _ in 0..<iterations {
      items.replaceAll(with: appended)
      items.replaceAll(with: rows)
    }
  }
}

/// `rows` and `rows` plus one appended row.
func appendedPair(_ size: Int) -> ([Row], [Row]) {
  let rows = makeRows(size)
  return (rows, rows + [Row(id: size, title: "new", on: false)])
}

/// `size` rows, and the same with `replaced` of them (a seeded choice)
/// replaced by new ones.
func replacedPair(_ size: Int, replaced: Int) -> ([Row], [Row]) {
  let rows = (0..<size).map { Row(id: $0, title: "row \($0)", on: false) }
  var changed = rows
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  var indices = Array(rows.indices)
  for position in 0..<replaced {
    // SplitMix64, so that every run replaces the same rows.
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 31
    let pick = position + Int(mixed % UInt64(indices.count - position))
    indices.swapAt(position, pick)
    changed[indices[position]] = Row(id: 1_000_000 + position, title: "replacement", on: true)
  }
  return (rows, changed)
}

/// Removes three rows far apart per iteration, with one
/// `remove(atOffsets:)` call (one change) or three `remove(id:)` calls;
/// the array is made again before each batch, with 100,000 rows plus the
/// batch's removals.
@MainActor
final class RemoveThreeRows: Fixture {
  private let atOffsets: Bool
  private var items = ObservableArray<Row>()
  private var subscription: Subscription?

  init(atOffsets: Bool) {
    self.atOffsets = atOffsets
  }

  func prepare(_ iterations: Int) {
    let sink = sharedSink
    items = ObservableArray(makeRows(100_000 + 3 * iterations))
    subscription = items.observeChanges { sink.total &+= $0.changeSet.count }
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations {
      // Far apart, as a multiple selection may be: a diff of the array
      // would compare every row between them.
      let count = items.count
      if atOffsets {
        items.remove(atOffsets: [1_000, count / 2, count - 1_000])
      } else {
        for offset in [count - 1_000, count / 2, 1_000] { items.remove(id: items[offset].id) }
      }
    }
  }

  func finish() {
    subscription = nil
    items = ObservableArray()
  }
}
