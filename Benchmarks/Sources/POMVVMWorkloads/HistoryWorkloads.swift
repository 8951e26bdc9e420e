import POMVVM

/// `kitToggle` with the array tracked by an ``UndoHistory``: the same field
/// cell toggled, with the same count and list observer.
///
/// With `stepEach`, the history is told to stop merging before every
/// toggle, so each toggle is an undo step of its own (a user toggling now
/// and then); without it, the toggles merge into the step of the first, as
/// a burst of edits of one element does.
@MainActor
func kitTrackedToggle(size: Int, stepEach: Bool) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  let open = items.liveCount(where: \.on)
  let history = UndoHistory()
  history.track(items)
  var keep: [Any] = [items, open, history]
  keep.append(items.observeChanges { sink.total &+= $0.changeSet.count })
  keep.append(open.observeChanges(makeObserver()))
  let id = size / 2
  guard let on = items.cell(for: id, \.on) else { fatalError("no row \(id)") }
  let offset = open.value - (on.value ? 1 : 0)
  return Loop(keeping: (keep, on)) { iterations in
    if stepEach {
      for _ in 0..<iterations {
        history.stopMerging()
        on.value.toggle()
      }
    } else {
      for _ in 0..<iterations { on.value.toggle() }
    }
    precondition(open.value == offset + (on.value ? 1 : 0), "the count is stale")
    precondition(history.canUndo.value, "the toggles were not recorded")
  }
}

/// An undo and a redo of one toggle of the middle row of `size` rows, with
/// a count and a list observer: each applies one update through the array,
/// whatever the array's size.
@MainActor
func kitUndoRedoToggle(size: Int) -> any Fixture {
  let sink = sharedSink
  let items = ObservableArray(makeRows(size))
  let open = items.liveCount(where: \.on)
  let history = UndoHistory()
  history.track(items)
  var keep: [Any] = [items, open, history]
  keep.append(items.observeChanges { sink.total &+= $0.changeSet.count })
  keep.append(open.observeChanges(makeObserver()))
  let id = size / 2
  guard let on = items.cell(for: id, \.on) else { fatalError("no row \(id)") }
  on.value.toggle()
  let toggled = on.value
  return Loop(keeping: (keep, on)) { iterations in
    for _ in 0..<iterations {
      history.undo()
      history.redo()
    }
    precondition(on.value == toggled && history.undoCount == 1, "undo and redo did not pair")
  }
}
