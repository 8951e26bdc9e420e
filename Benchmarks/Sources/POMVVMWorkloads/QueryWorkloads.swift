import POMVVM

// MARK: - What apps write today, and a new predicate

/// What an app writes today: after every change, filter, sort and diff
/// the visible rows by identity against the last ones.
///
/// - Returns: The subscription that requeries.
@MainActor
func requeryAfterEveryChange(_ items: ObservableArray<Row>) -> Subscription {
  let sink = sharedSink
  var visible: [Int] = []
  func requery() {
    let rows = items.elements.filter { $0.on }.sorted { $0.title < $1.title }.map(\.id)
    sink.total &+= rows.difference(from: visible).count
    visible = rows
  }
  requery()
  return items.observeChanges { _ in requery() }
}

/// The toggle with what an app writes today
/// (``requeryAfterEveryChange(_:)``).
@MainActor
func handRequeryToggle(size: Int) -> any Fixture {
  let items = ObservableArray(makeRows(size))
  let subscription = requeryAfterEveryChange(items)
  let id = size / 2
  guard let on = items.cell(for: id, \.on) else { fatalError("no row \(id)") }
  return Loop(keeping: (items, subscription, on)) { iterations in
    for _ in 0..<iterations { on.value.toggle() }
  }
}

/// The same toggle with a flat query of the `on` rows sorted by title.
@MainActor
func kitFlatQueryToggle(size: Int) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  let query = items.query(where: \.on, sortedBy: { $0.title < $1.title })
  let subscription = query.observeChanges { sink.total &+= $0.changeSet.count }
  let id = size / 2
  guard let on = items.cell(for: id, \.on) else { fatalError("no row \(id)") }
  return Loop(keeping: (items, query, subscription, on)) { iterations in
    for _ in 0..<iterations { on.value.toggle() }
  }
}

// MARK: - A new predicate

/// Alternates the query's predicate between two that keep about a third of
/// the rows each, sorted by title.
@MainActor
func kitNewPredicate(size: Int) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  let query = items.query(where: \.on, sortedBy: { $0.title < $1.title })
  let subscription = query.observeChanges { sink.total &+= $0.changeSet.count }
  var flip = false
  return Loop(keeping: (items, query, subscription)) { iterations in
    for _ in 0..<iterations {
      flip.toggle()
      query.isIncluded = flip ? { $0.id % 3 == 1 } : { $0.on }
    }
  }
}

/// The hand-written equivalent: `filter` plus `sorted` of the same array.
@MainActor
func handNewPredicate(size: Int) -> any Fixture {
  let sink = sharedSink
  let rows = makeRows(size)
  var flip = false
  return Loop(keeping: rows) { iterations in
    for _ in 0..<iterations {
      flip.toggle()
      let predicate: (Row) -> Bool = flip ? { $0.id % 3 == 1 } : { $0.on }
      sink.total &+= rows.filter(predicate).sorted { $0.title < $1.title }.count
    }
  }
}

// MARK: - Memory

/// One query over an array of as many rows as the batch has iterations,
/// every row shown: the heap's growth per iteration is the query's bytes
/// per row.
@MainActor
final class QueryAllocation: Fixture {
  private var items = ObservableArray<Row>()
  private var kept: Any = ()
  private let sectioned: Bool

  init(sectioned: Bool) {
    self.sectioned = sectioned
  }

  func prepare(_ iterations: Int) {
    kept = ()
    items = ObservableArray(makeRows(iterations))
  }

  func run(_ iterations: Int) {
    if sectioned {
      kept = items.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 })
    } else {
      kept = items.query(sortedBy: { $0.title < $1.title })
    }
  }

  func finish() {
    blackHole(kept)
    kept = ()
    items = ObservableArray()
  }
}

// MARK: - A reaction during a delivery

/// An edit of one row's title that keeps its place, in a sorted, sectioned
/// query; with `reaction`, a later observer of the array answers each edit
/// with an edit of another row, which the array delivers from its queue
/// (the "reactions" pattern).
///
/// With `query` false, the same edits of the array alone: what the array
/// itself costs. With `direct` (and no reaction), the loop makes the
/// reaction's edit itself, after the first: the same two changes, neither
/// delivered from the queue.
@MainActor
func kitQueryEditWithReaction(
  size: Int, reaction: Bool, query isQueried: Bool = true, direct: Bool = false
) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  let query =
    isQueried
    ? items.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 }) : nil
  let subscription = query?.observeChanges { sink.total &+= $0.batchUpdate.reloads.count }
  let id = size / 2
  guard let row = items.cell(for: id), let other = items.cell(for: id + 3) else {
    fatalError("no row \(id)")
  }
  // A trailing space keeps either row between the same neighbours.
  let title = row.value.title
  let otherTitle = other.value.title
  var flip = false
  let reacting: Subscription? =
    reaction
    ? items.observeChanges { change in
      guard change.changeSet.updates.first?.newElement.id == id else { return }
      other.value.title = flip ? otherTitle + " " : otherTitle
    } : nil
  return Loop(keeping: [items, query as Any, subscription as Any, reacting as Any, row, other]) {
    iterations in
    for _ in 0..<iterations {
      flip.toggle()
      row.value.title = flip ? title + " " : title
      if direct { other.value.title = flip ? otherTitle + " " : otherTitle }
    }
  }
}
