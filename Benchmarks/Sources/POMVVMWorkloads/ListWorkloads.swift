import POMVVM

/// A text list of the array's rows, `[x] title`, patched from each update's
/// batch as the sample's to-do list is.
@MainActor
final class TextList: ListView {
  var isReady = true
  private(set) var lines: [String] = []

  var canUpdateRows: Bool { isReady }

  func updateRows(_ update: ListUpdate<Row>) {
    if update.isReloadData {
      lines = update.elements.map(Self.line)
      return
    }
    let batch = update.batch
    guard !batch.deletions.isEmpty || !batch.insertions.isEmpty || !batch.moves.isEmpty else {
      // Only changed rows: redraw them.
      for index in batch.changedRows {
        lines[index] = Self.line(update.elements[index])
      }
      return
    }
    let sources = Set(batch.moves.map(\.from))
    var moved: [Int: String] = [:]
    for index in (batch.deletions + sources).sorted(by: >) {
      let line = lines.remove(at: index)
      if sources.contains(index) { moved[index] = line }
    }
    var entering = batch.insertions.map { ($0, Self.line(update.elements[$0])) }
    entering += batch.moves.map { ($0.to, moved[$0.from] ?? "") }
    for (index, line) in entering.sorted(by: { $0.0 < $1.0 }) {
      lines.insert(line, at: index)
    }
    for index in batch.changedRows {
      lines[index] = Self.line(update.elements[index])
    }
  }

  private static func line(_ row: Row) -> String {
    (row.on ? "[x] " : "[ ] ") + row.title
  }
}

/// A view that shows nothing: what the adapter alone keeps.
@MainActor
final class NoListView: ListView {
  func updateRows(_ update: ListUpdate<Row>) {}
}

/// The toggle of the README's list through an element cell, with a count and
/// a list observer, and optionally a text list attached through an adapter.
@MainActor
func listToggle(size: Int, attached: Bool) -> any Fixture {
  let list = observedList(size: size)
  let items = list.items
  var keep = list.keep
  if attached {
    let list = TextList()
    keep.append(list)
    keep.append(ListAdapter(items, view: list))
  }
  let id = size / 2
  guard let on = items.cell(for: id, \.on) else { fatalError("no row \(id)") }
  return Loop(keeping: (keep, on)) { iterations in
    for _ in 0..<iterations { on.value.toggle() }
  }
}

/// A small change set published by an array of `size` rows: one row
/// removed, one inserted, one moved and edited, one edited in place.
@MainActor
func smallChangeSet(size: Int) -> ChangeSet<Row> {
  var rows = makeRows(size)
  let items = ObservableArray(rows)
  var published: ChangeSet<Row>?
  let subscription = items.observeChanges { published = $0.changeSet }
  rows.remove(at: size / 4)
  rows.insert(Row(id: size, title: "new", on: false), at: size / 3)
  var moved = rows.remove(at: size / 2)
  moved.title += " (moved)"
  rows.insert(moved, at: size / 2 + 5)
  rows[size - 2].on.toggle()
  items.replaceAll(with: rows)
  subscription.cancel()
  guard let published else { fatalError("no change set") }
  return published
}

/// `batchUpdate` (or `steps`) of the small change set of an array of `size`.
@MainActor
func listTranslation(size: Int, steps: Bool) -> any Fixture {
  let changeSet = smallChangeSet(size: size)
  return Loop(keeping: changeSet) { iterations in
    for _ in 0..<iterations {
      if steps {
        blackHole(changeSet.steps)
      } else {
        blackHole(changeSet.batchUpdate)
      }
    }
  }
}

/// 1,000 edits of an array of `size` rows while its text list cannot take
/// updates, then one coalesced update; without the adapter, the edits alone.
@MainActor
func coalescedUpdate(size: Int, attached: Bool) -> any Fixture {
  let items = ObservableArray(makeRows(size))
  let list = TextList()
  let adapter = attached ? ListAdapter(items, view: list) : nil
  var round = 0
  return Loop(keeping: (items, list, adapter as Any)) { iterations in
    for _ in 0..<iterations {
      round &+= 1
      list.isReady = false
      for change in 0..<1_000 {
        let id = (change &* 97 &+ round) % size
        guard var row = items[id: id] else { continue }
        row.title = "edit \(round)"
        items.update(row)
      }
      list.isReady = true
      adapter?.updateIfNeeded()
    }
  }
}

/// One `ListAdapter` over an array of as many rows as the batch has
/// iterations: the heap's growth per iteration is the adapter's bytes per row.
@MainActor
final class AdapterAllocation: Fixture {
  private var items = ObservableArray<Row>()
  private let view = NoListView()
  private var kept: Any = ()

  func prepare(_ iterations: Int) {
    kept = ()
    items = ObservableArray(makeRows(iterations))
  }

  func run(_ iterations: Int) {
    kept = ListAdapter(items, view: view)
  }

  func finish() {
    blackHole(kept)
    kept = ()
    items = ObservableArray()
  }
}
