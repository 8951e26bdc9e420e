import POMVVM

// MARK: - One edit through a sectioned query and its adapter

/// A sectioned list view that takes every update and reads only the rows
/// the batch redraws, as a table view does.
@MainActor
final class NoSectionedListView: SectionedListView {
  func updateSections(_ update: SectionedListUpdate<Int, Row>) {
    let batch = update.batch
    var total = batch.moves.count + batch.insertions.count + update.keys.count
    // Each redrawn row at its new path, where the update's rows have it
    // (a reload's own path is the old one).
    for path in batch.changedRows {
      total &+= update.element(at: path).title.utf8.count
    }
    sharedSink.total &+= total
  }
}

/// One edit of a row through its element cell, with a sectioned query
/// (sections by `on`, rows by title) driving a sectioned view through a
/// `SectionedListAdapter`: `across` toggles `on` (a row move across
/// sections), otherwise the title changes in place (a reload).
@MainActor
func kitSectionedAdapterEdit(size: Int, across: Bool) -> any Fixture {
  let items = ObservableArray(makeRows(size))
  let query = items.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.on ? 1 : 0 })
  let view = NoSectionedListView()
  let adapter = SectionedListAdapter(query, view: view)
  let id = size / 2
  guard let row = items.cell(for: id) else { fatalError("no row \(id)") }
  let title = row.value.title
  var flip = false
  return Loop(keeping: [items, query, view, adapter, row] as [Any]) { iterations in
    for _ in 0..<iterations {
      if across {
        row.value.on.toggle()
      } else {
        flip.toggle()
        // The same sort key either way: the row stays where it is.
        row.value.title = flip ? title + " " : title
      }
    }
  }
}

/// The same edit with a `ListAdapter` over the array itself: no query.
@MainActor
func kitPlainAdapterEdit(size: Int, across: Bool) -> any Fixture {
  let items = ObservableArray(makeRows(size))
  let view = NoListView()
  let adapter = ListAdapter(items, view: view)
  let id = size / 2
  guard let row = items.cell(for: id) else { fatalError("no row \(id)") }
  let title = row.value.title
  var flip = false
  return Loop(keeping: [items, view, adapter, row] as [Any]) { iterations in
    for _ in 0..<iterations {
      if across {
        row.value.on.toggle()
      } else {
        flip.toggle()
        row.value.title = flip ? title + " " : title
      }
    }
  }
}
