import POMVVM

// Rows spread over the list: each iteration edits the next of 1,000
// distinct rows, taken in a fixed scattered order, as a user edits a long
// list. A row edited again and again stays in the cache; these rows do
// not, so they show what a structure that grows with the list costs in
// time (the cache lines a descent touches), not only in instructions.

/// How many distinct rows a spread row edits in turn.
let spreadCount = 1_000

/// The ids of `spreadCount` distinct rows of `size`, in a fixed scattered
/// order: `i × 104,729 mod size` (a prime, so no two are the same while
/// `size` has no factor 104,729).
package func spreadIDs(_ size: Int) -> [Int] {
  (0..<Swift.min(spreadCount, size)).map { $0 * 104_729 % size }
}

/// Runs `edit` on each of `targets` in turn, one per iteration, from where
/// the last batch stopped.
@MainActor
func spreadLoop<Target>(
  keeping keep: Any, _ targets: [Target], _ edit: @escaping @MainActor (Target) -> Void
) -> Loop {
  var next = 0
  return Loop(keeping: keep) { iterations in
    for _ in 0..<iterations {
      edit(targets[next])
      next += 1
      if next == targets.count { next = 0 }
    }
  }
}

/// The `on` cells of the spread rows of `items`.
@MainActor
func spreadOnCells(_ items: ObservableArray<Row>) -> [ProjectedCell<ElementCell<Row>, Bool>] {
  spreadIDs(items.count).map { id in
    guard let on = items.cell(for: id, \.on) else { fatalError("no row \(id)") }
    return on
  }
}

// MARK: - The array

/// `kitToggle`, rows spread; `tracked` as `kitTrackedToggle`'s `stepEach`
/// (nil: untracked).
@MainActor
func spreadKitToggle(
  size: Int, projections: Bool, sortedQuery: Bool = false, tracked stepEach: Bool? = nil
) -> any Fixture {
  let sink = sharedSink
  let list = observedList(size: size)
  let items = list.items
  var keep = list.keep
  let history = stepEach.map { _ in UndoHistory() }
  if let history {
    history.track(items)
    keep.append(history)
  }
  let newStepEach = stepEach == true
  if sortedQuery {
    let query = items.query(sortedBy: { $0.title < $1.title })
    keep.append(query)
    keep.append(query.observeChanges { sink.total &+= $0.changeSet.count })
  }
  if projections {
    for id in spreadIDs(size) {
      guard let element = items.cell(for: id) else { fatalError("no row \(id)") }
      for _ in 0..<2 {
        let title = element.projection(\.title)
        let on = element.projection(\.on)
        keep.append(title.observeChanges { sink.total &+= $0.utf8.count })
        keep.append(on.observeChanges { sink.total &+= $0 ? 1 : 0 })
      }
    }
  }
  return spreadLoop(keeping: keep, spreadOnCells(items)) { on in
    if newStepEach { history?.stopMerging() }
    on.value.toggle()
  }
}

/// `handToggle`, rows spread.
@MainActor
func spreadHandToggle(size: Int, projections: Bool) -> any Fixture {
  let sink = sharedSink
  let store = HandStore(makeRows(size))
  store.observeList { _ in sink.total &+= 1 }
  store.observeCount(makeObserver())
  let ids = spreadIDs(size)
  if projections {
    for id in ids {
      for _ in 0..<2 {
        store.observeTitle(of: id) { sink.total &+= $0.utf8.count }
        store.observeOn(of: id) { sink.total &+= $0 ? 1 : 0 }
      }
    }
  }
  return spreadLoop(keeping: store, ids) { id in store.modify(id: id) { $0.on.toggle() } }
}

/// `listToggle`, rows spread.
@MainActor
func spreadListToggle(size: Int, attached: Bool) -> any Fixture {
  let list = observedList(size: size)
  let items = list.items
  var keep = list.keep
  if attached {
    let list = TextList()
    keep.append(list)
    keep.append(ListAdapter(items, view: list))
  }
  return spreadLoop(keeping: keep, spreadOnCells(items)) { $0.value.toggle() }
}

// MARK: - Queries

/// `handRequeryToggle`, rows spread.
@MainActor
func spreadHandRequeryToggle(size: Int) -> any Fixture {
  let items = ObservableArray(makeRows(size))
  let subscription = requeryAfterEveryChange(items)
  return spreadLoop(keeping: [items, subscription], spreadOnCells(items)) { $0.value.toggle() }
}

/// `kitFlatQueryToggle`, rows spread: each toggle adds or removes a row of
/// the query.
@MainActor
func spreadFlatQueryToggle(size: Int) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  let query = items.query(where: \.on, sortedBy: { $0.title < $1.title })
  let subscription = query.observeChanges { sink.total &+= $0.changeSet.count }
  return spreadLoop(keeping: [items, query, subscription], spreadOnCells(items)) {
    $0.value.toggle()
  }
}

/// A toggle of `on` through an element cell, rows spread: with `query`, a
/// query sorted by title and sectioned by `on` (each toggle moves its row
/// across the two sections) with one observer; without, one observer of
/// the array.
@MainActor
func spreadSectionedToggle(size: Int, query isQueried: Bool) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  var keep: [Any] = [items]
  if isQueried {
    let query = items.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 })
    keep.append(query)
    keep.append(query.observeChanges { sink.total &+= $0.batchUpdate.moves.count })
  } else {
    keep.append(items.observeChanges { sink.total &+= $0.changeSet.count })
  }
  return spreadLoop(keeping: keep, spreadOnCells(items)) { $0.value.toggle() }
}

/// `kitQueryEditWithReaction`, rows spread: each edit's reaction edits the
/// row three ids on.
@MainActor
func spreadQueryEditWithReaction(
  size: Int, reaction: Bool, query isQueried: Bool = true
) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  var keep: [Any] = [items]
  if isQueried {
    let query = items.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 })
    keep.append(query)
    keep.append(query.observeChanges { sink.total &+= $0.batchUpdate.reloads.count })
  }
  typealias Edited = (
    row: ElementCell<Row>, title: String, other: ElementCell<Row>, otherTitle: String
  )
  let edited: [Edited] = spreadIDs(size).map { id in
    let otherID = (id + 3) % size
    guard let row = items.cell(for: id), let other = items.cell(for: otherID) else {
      fatalError("no row \(id)")
    }
    return (row, row.value.title, other, other.value.title)
  }
  // Each row's next edit adds a trailing space or takes it off, which
  // keeps it between the same neighbours.
  var current: Edited?
  var flip = false
  if reaction {
    keep.append(
      items.observeChanges { change in
        guard let current, change.changeSet.updates.first?.newElement.id == current.row.id
        else { return }
        current.other.value.title = flip ? current.otherTitle + " " : current.otherTitle
      })
  }
  return spreadLoop(keeping: keep, edited) { edit in
    flip = edit.row.value.title == edit.title
    current = edit
    edit.row.value.title = flip ? edit.title + " " : edit.title
  }
}

/// `kitSectionedAdapterEdit`, rows spread.
@MainActor
func spreadSectionedAdapterEdit(size: Int, across: Bool) -> any Fixture {
  let items = ObservableArray(makeRows(size))
  let query = items.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 })
  let view = NoSectionedListView()
  let adapter = SectionedListAdapter(query, view: view)
  return spreadEdit(items, keeping: [items, query, view, adapter], across: across)
}

/// `kitPlainAdapterEdit`, rows spread.
@MainActor
func spreadPlainAdapterEdit(size: Int, across: Bool) -> any Fixture {
  let items = ObservableArray(makeRows(size))
  let view = NoListView()
  let adapter = ListAdapter(items, view: view)
  return spreadEdit(items, keeping: [items, view, adapter], across: across)
}

/// Edits the spread rows of `items` in turn through their element cells:
/// `across` toggles `on`, otherwise the title gains or loses a trailing
/// space (the same sort key: the row stays where it is).
@MainActor
func spreadEdit(_ items: ObservableArray<Row>, keeping keep: [Any], across: Bool) -> Loop {
  let rows: [(cell: ElementCell<Row>, title: String)] = spreadIDs(items.count).map { id in
    guard let row = items.cell(for: id) else { fatalError("no row \(id)") }
    return (row, row.value.title)
  }
  return spreadLoop(keeping: keep, rows) { row in
    if across {
      row.cell.value.on.toggle()
    } else {
      row.cell.value.title = row.cell.value.title == row.title ? row.title + " " : row.title
    }
  }
}

// MARK: - The rows

/// `", 1,000 rows spread, n = …"`.
func spread(_ size: Int) -> String {
  ", \(grouped(spreadCount)) rows spread, n = \(grouped(size))"
}

/// The rows that edit one element, again with the edits spread over 1,000
/// rows.
let spreadComparisons: [Comparison] = [
  Comparison(
    "array/toggle via element cell, count + list observer" + spread(100_000),
    target: .ratioAtMost(2), baselineName: "hand store, rows spread",
    kit: { spreadKitToggle(size: 100_000, projections: false) },
    baseline: { spreadHandToggle(size: 100_000, projections: false) }),
  Comparison(
    "array/toggle via element cell, + row and detail projections observed" + spread(100_000),
    target: .ratioAtMost(2), baselineName: "hand store + field observers, rows spread",
    kit: { spreadKitToggle(size: 100_000, projections: true) },
    baseline: { spreadHandToggle(size: 100_000, projections: true) }),
  Comparison(
    "array/toggle via element cell, tracked by an UndoHistory (merged)" + spread(100_000),
    target: .ratioAtMost(1.5), baselineName: "the same toggles, untracked",
    kit: { spreadKitToggle(size: 100_000, projections: false, tracked: false) },
    baseline: { spreadKitToggle(size: 100_000, projections: false) }),
  Comparison(
    "array/toggle via element cell, tracked, a new undo step each" + spread(100_000),
    target: .ratioAtMost(1.5), baselineName: "the same toggles, untracked",
    kit: { spreadKitToggle(size: 100_000, projections: false, tracked: true) },
    baseline: { spreadKitToggle(size: 100_000, projections: false) }),
  Comparison(
    "list/toggle via element cell, + ListAdapter and a text list" + spread(100_000),
    target: .ratioAtMost(1.5), baselineName: "the same toggles, no adapter or list",
    kit: { spreadListToggle(size: 100_000, attached: true) },
    baseline: { spreadListToggle(size: 100_000, attached: false) }),
  Comparison(
    "query/one toggle in a filtered sorted query" + spread(100_000), target: .kitFaster(1),
    baselineName: "re-filter + re-sort + identity diff on every change", perSample: 1,
    kit: { spreadFlatQueryToggle(size: 100_000) },
    baseline: { spreadHandRequeryToggle(size: 100_000) }),
  Comparison(
    "query/toggle via element cell, + a sorted LiveQuery, the row stays" + spread(100_000),
    target: .ratioAtMost(1.5), baselineName: "the same toggles, no query",
    kit: { spreadKitToggle(size: 100_000, projections: false, sortedQuery: true) },
    baseline: { spreadKitToggle(size: 100_000, projections: false) }),
  // The same at n = 1,000, where every row stays in the cache: what the
  // query's work costs apart from the cache lines a long list adds.
  Comparison(
    "query/toggle via element cell, + a sorted LiveQuery, the row stays" + spread(1_000),
    target: .none, baselineName: "the same toggles, no query",
    kit: { spreadKitToggle(size: 1_000, projections: false, sortedQuery: true) },
    baseline: { spreadKitToggle(size: 1_000, projections: false) }),
  Comparison(
    "query/toggle across sections, sorted sectioned query + 1 observer, vs no query"
      + spread(100_000),
    target: .ratioAtMost(3), baselineName: "the same toggles, one observer of the array",
    kit: { spreadSectionedToggle(size: 100_000, query: true) },
    baseline: { spreadSectionedToggle(size: 100_000, query: false) }),
  // As above: the same at n = 1,000, everything cached.
  Comparison(
    "query/toggle across sections, sorted sectioned query + 1 observer, vs no query"
      + spread(1_000),
    target: .none, baselineName: "the same toggles, one observer of the array",
    kit: { spreadSectionedToggle(size: 1_000, query: true) },
    baseline: { spreadSectionedToggle(size: 1_000, query: false) }),
  Comparison(
    "query/toggle across sections, sorted sectioned query + 1 observer" + spread(100_000),
    target: .ratioAtMost(1.5), baselineName: "the same at n = 1,000",
    kit: { spreadSectionedToggle(size: 100_000, query: true) },
    baseline: { spreadSectionedToggle(size: 1_000, query: true) }),
  Comparison(
    "query/edit in place + one reaction, sorted sectioned query" + spread(100_000),
    target: .ratioAtMost(2), baselineName: "the same edits, no reaction",
    kit: { spreadQueryEditWithReaction(size: 100_000, reaction: true) },
    baseline: { spreadQueryEditWithReaction(size: 100_000, reaction: false) }),
  Comparison(
    "query/edit in place + one reaction, sorted sectioned query, vs no query" + spread(100_000),
    target: .ratioAtMost(2), baselineName: "the same edits and reactions, the array alone",
    kit: { spreadQueryEditWithReaction(size: 100_000, reaction: true) },
    baseline: { spreadQueryEditWithReaction(size: 100_000, reaction: true, query: false) }),
  Comparison(
    "query/edit in place, sectioned query + SectionedListAdapter" + spread(100_000),
    target: .ratioAtMost(2), baselineName: "the same at n = 1,000",
    kit: { spreadSectionedAdapterEdit(size: 100_000, across: false) },
    baseline: { spreadSectionedAdapterEdit(size: 1_000, across: false) }),
  Comparison(
    "query/edit in place, sectioned query + SectionedListAdapter, vs no query" + spread(100_000),
    target: .ratioAtMost(3), baselineName: "the same edits, a ListAdapter over the array",
    kit: { spreadSectionedAdapterEdit(size: 100_000, across: false) },
    baseline: { spreadPlainAdapterEdit(size: 100_000, across: false) }),
  Comparison(
    "query/toggle across sections, sectioned query + SectionedListAdapter" + spread(100_000),
    target: .ratioAtMost(1.5), baselineName: "the same at n = 1,000",
    kit: { spreadSectionedAdapterEdit(size: 100_000, across: true) },
    baseline: { spreadSectionedAdapterEdit(size: 1_000, across: true) }),
  Comparison(
    "query/toggle across sections, sectioned query + SectionedListAdapter, vs no query"
      + spread(100_000),
    target: .ratioAtMost(3), baselineName: "the same toggles, a ListAdapter over the array",
    kit: { spreadSectionedAdapterEdit(size: 100_000, across: true) },
    baseline: { spreadPlainAdapterEdit(size: 100_000, across: true) }),
]
