import POMVVM

/// Why the to-do list refused an action.
public enum ToDoRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  /// The list already holds the most items it may.
  case full(limit: Int)
  /// No item is at that row.
  case noSuchRow(Int, count: Int)

  /// What was refused, and why.
  public var description: String {
    switch self {
    case .full(let limit):
      "the list is full: at most \(limit) items"
    case .noSuchRow(let row, let count):
      count == 0
        ? "row \(row) does not exist: the list is empty"
        : "row \(row) is out of range: rows 1-\(count)"
    }
  }
}

/// The to-do list's view model: the items of a ``Store`` that lives outside
/// it, an add action enabled only below ``limit`` items, and the last change
/// the store published.
///
/// Several view models share the store — this list and any number of
/// editors — and stay in step through its change sets.
@MainActor
public final class ToDoListViewModel: ViewModel {
  /// The most items the list may hold.
  public static let limit = 10

  /// The store the list shows.
  public let store: Store<ToDoItem>

  /// How many items the list holds.
  public let itemCount: ArrayCount<ToDoItem>

  /// Whether an item may be added.
  public let canAdd: Derived<Bool>

  /// A description of the last change the store published, or
  /// "none".
  public let lastChange = Observable("none")

  /// The error of the store's last save, or `nil` if it succeeded (or the
  /// store has no file).
  public let saveError: Derived<StoreError?>

  /// Every change of the items, to undo and redo.
  ///
  /// Adding is "Add", deleting is "Delete", and other edits are "Edit"
  /// unless a transaction names them. An undone change is saved like any other.
  public let history = UndoHistory()

  /// Which items the list shows; the list's rows follow it at once.
  public let filter: Observable<ToDoFilter>

  /// The items the list shows: a live query of the store's items.
  ///
  /// It keeps the items ``filter`` shows, in the store's order (which puts
  /// completed items last a moment after a toggle); a row's cell is the
  /// store's own. Row
  /// numbers of ``delete(row:)``, ``toggle(row:)`` and ``editor(row:)`` are
  /// its rows.
  public let visible: LiveQuery<ToDoItem>

  /// The sheet that edits an item through a draft, while one is open
  /// (``edit(row:)``); `nil` otherwise.
  public let sheet = Presentation<ToDoEditViewModel>()

  /// The list's asynchronous work: the delayed sort, under the id `"sort"`.
  public let effects = Effects()

  /// How long after the last toggle completed items sort to the bottom.
  public static let sortDelay = Duration.seconds(1)

  private var subscription: Subscription?
  private let sleep: @Sendable (Duration) async throws -> Void

  /// Creates the list view model over a store.
  ///
  /// - Parameters:
  ///   - store: The store, shared with the editors.
  ///   - clock: The clock the delayed sort waits on; a test passes a manual
  ///     clock.
  public init(store: Store<ToDoItem>, clock: some Clock<Duration> = ContinuousClock()) {
    sleep = { try await clock.sleep(for: $0) }
    self.store = store
    let filter = Observable(ToDoFilter.all).labelled("filter")
    self.filter = filter
    visible = store.items.query(where: { filter.value.includes($0) }, reading: filter)
    itemCount = store.items.liveCount { _ in true }.labelled("item count")
    canAdd = itemCount.map { $0 < Self.limit }
    saveError = store.saveError.map { $0 }
    subscription = store.items.observeChanges { [lastChange] change in
      lastChange.value = change.changeSet.description
    }
    history.track(store.items, actionName: "Edit")
  }

  /// Adds an item at the end.
  ///
  /// The new item's id is never one an item had before, even one deleted
  /// since, in this run or an earlier one: it comes from the store's
  /// sequence (``POMVVM/Store/takeSequenceNumber(atLeast:)``), which only
  /// grows and is saved with the items, and is at least one more than the
  /// largest id in the list (a file of an earlier version has no sequence).
  /// So an undo, an open editor and the store file never mistake a new item
  /// for a deleted one. Once the sequence reaches `Int.max` (a file can hold
  /// any id), the id is the smallest positive id not in use instead, so an
  /// id never overflows.
  ///
  /// - Parameter title: The item's title; `nil` gives "ToDo Item N", where
  ///   N is the new item's id: 1, 2, 3… as items are added, never the number
  ///   of an item still in the list (article 002 numbered by the list's
  ///   size, which repeats titles once an item has been deleted).
  /// - Returns: The new item.
  /// - Throws: ``ToDoRefusal/full(limit:)`` when the list already holds
  ///   ``limit`` items.
  @discardableResult
  public func add(title: String? = nil) throws(ToDoRefusal) -> ToDoItem {
    guard canAdd.value else { throw .full(limit: Self.limit) }
    let id = newID()
    let item = ToDoItem(id: id, title: title ?? "ToDo Item \(id)")
    history.transaction("Add") { store.items.append(item) }
    return item
  }

  private func newID() -> Int {
    let largest = store.items.map(\.id).max() ?? 0
    if largest < Int.max, let id = store.takeSequenceNumber(atLeast: largest + 1) {
      return id
    }
    let ids = Set(store.items.map(\.id))
    // Fewer items than positive ids: one of 1...count+1 is free.
    var id = 1
    while ids.contains(id) {
      id += 1
    }
    return id
  }

  /// Deletes the item at a row.
  ///
  /// - Parameter row: The item's row, from 1 as displayed.
  /// - Returns: The deleted item.
  /// - Throws: ``ToDoRefusal/noSuchRow(_:count:)`` for a row that does not
  ///   exist.
  @discardableResult
  public func delete(row: Int) throws(ToDoRefusal) -> ToDoItem {
    let index = try index(ofRow: row)
    return history.transaction("Delete") { store.items.remove(at: index) }
  }

  /// Marks the item at a row done, or not done.
  ///
  /// One second (``sortDelay``) after the last toggle, completed items move
  /// to the bottom; another toggle within that second restarts it.
  ///
  /// The toggle is an edit the history records ("Toggle"); the sort that
  /// follows is not, as it only orders what the user did.
  ///
  /// - Parameter row: The item's row, from 1 as displayed.
  /// - Throws: ``ToDoRefusal/noSuchRow(_:count:)`` for a row that does not
  ///   exist.
  public func toggle(row: Int) throws(ToDoRefusal) {
    let index = try index(ofRow: row)
    var item = store.items[index]
    item.isCompleted.toggle()
    history.transaction("Toggle") { store.items.replace(at: index, with: item) }
    scheduleSort()
  }

  /// Sorts the completed items last after ``sortDelay``, restarting the
  /// wait of a sort already scheduled.
  private func scheduleSort() {
    effects.run(id: "sort", cancelInFlight: true) { [weak self, sleep] in
      try await sleep(Self.sortDelay)
      self?.sortCompletedLast()
    }
  }

  /// Moves the completed items below the others, each group in its order.
  public func sortCompletedLast() {
    let sorted = store.items.filter { !$0.isCompleted } + store.items.filter(\.isCompleted)
    guard sorted.map(\.id) != store.items.map(\.id) else { return }
    history.withoutRecording {
      store.items.batch { $0 = sorted }
    }
  }

  /// The view model of an editor for the item at a row.
  ///
  /// - Parameter row: The item's row, from 1 as displayed.
  /// - Returns: The editor's view model.
  /// - Throws: ``ToDoRefusal/noSuchRow(_:count:)`` for a row that does not
  ///   exist.
  public func editor(row: Int) throws(ToDoRefusal) -> ToDoEditorViewModel {
    guard let cell = store.items.cell(for: store.items[try index(ofRow: row)].id) else {
      throw .noSuchRow(row, count: visible.count)
    }
    return ToDoEditorViewModel(item: cell, in: store, history: history)
  }

  /// Opens the sheet that edits the item at a row through a draft,
  /// replacing any sheet already open.
  ///
  /// The sheet is tied to the item: deleting the item while it is open
  /// closes it, and an undo that puts the item back does not open it again.
  /// A draft written with a new done mark sorts the list as ``toggle(row:)``
  /// does.
  ///
  /// - Parameter row: The item's row, from 1 as displayed.
  /// - Returns: The sheet's view model, now in ``sheet``.
  /// - Throws: ``ToDoRefusal/noSuchRow(_:count:)`` for a row that does not
  ///   exist.
  @discardableResult
  public func edit(row: Int) throws(ToDoRefusal) -> ToDoEditViewModel {
    let item = store.items[try index(ofRow: row)]
    guard let cell = store.items.cell(for: item.id) else {
      throw .noSuchRow(row, count: visible.count)
    }
    let sheet = ToDoEditViewModel(item: item, in: store, history: history) { [weak self] in
      self?.scheduleSort()
    }
    self.sheet.present(sheet, tiedTo: cell)
    return sheet
  }

  /// The store's index of the item at a displayed row.
  private func index(ofRow row: Int) throws(ToDoRefusal) -> Int {
    guard row >= 1 && row <= visible.count,
      let index = store.items.index(id: visible.id(at: row - 1))
    else {
      throw .noSuchRow(row, count: visible.count)
    }
    return index
  }
}
