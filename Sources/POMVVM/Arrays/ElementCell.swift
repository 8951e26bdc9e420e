/// A two-way cell onto the element of an ``ObservableArray`` that has a
/// given id: a list row and a detail screen edit the same element through
/// it.
///
/// Reading gives the element's current value; writing replaces the element
/// in the array, which publishes an update for its index (and so reaches
/// every other cell, aggregate and observer of that element).
///
/// ## Detachment
///
/// When the element leaves the array — removed, removed in a batch, or
/// absent from a reload — the cell is *detached*:
///
/// - ``isDetached`` becomes `true`, and observers of ``detachment`` are told,
///   once;
/// - ``value`` keeps the element's last value, readable;
/// - writes are refused: ``set(_:)`` returns `false` and a message goes to
///   ``Diagnostics``. Nothing crashes, and no ghost copy keeps edits that
///   nobody will see.
///
/// A detached cell stays detached. If an element with the same id is
/// inserted again later, it is a new element: ask the array for a new cell.
///
/// The array hands out one cell per id at a time, so every view model that
/// asks for the same element shares the same cell.
@MainActor
public final class ElementCell<Element: Identifiable>: MutableObservableCell {
  /// The id of the element this cell follows.
  public let id: Element.ID

  private var array: ObservableArray<Element>?
  private var indexHint: Int
  private let storage: Observable<Element>
  private let detachedState = Derived(false)

  init(array: ObservableArray<Element>, index: Int) {
    self.array = array
    let element = array._elements[index]
    id = element.id
    indexHint = index
    storage = Observable(element, isDuplicate: array._isUnchanged)
  }

  isolated deinit {
    array?._forgetCell(for: id, self)
  }

  /// The element's current value, or its last value once detached.
  ///
  /// Setting it writes through to the array; a refused write is reported to
  /// ``Diagnostics``.
  ///
  /// - Complexity: O(1) to read; O(1) on average to write.
  public var value: Element {
    get { storage.value }
    set { set(newValue) }
  }

  /// Whether the element has left its array; a detached cell refuses writes.
  public var isDetached: Bool { array == nil }

  /// A cell that becomes `true`, once, when the element leaves its array.
  public var detachment: Derived<Bool> { detachedState }

  /// Replaces the element in the array.
  ///
  /// - Parameter newValue: The element's new value; it must keep the id.
  /// - Returns: `true` if the array took the write; `false` if the cell is
  ///   detached or the id differs (reported to ``Diagnostics``).
  /// - Complexity: O(1) on average.
  @discardableResult
  public func set(_ newValue: Element) -> Bool {
    guard let array else {
      Diagnostics.report(
        "write refused: the element with id \(id) was removed from its array; "
          + "its cell is detached and keeps the last value")
      return false
    }
    guard newValue.id == id else {
      Diagnostics.report(
        "write refused: the cell for id \(id) cannot take an element with id \(newValue.id)")
      return false
    }
    guard let index = array._index(of: id, hint: indexHint) else {
      // The removal is on its way to this cell (an observer wrote during
      // the delivery of an earlier change).
      Diagnostics.report("write refused: the element with id \(id) is no longer in its array")
      return false
    }
    indexHint = index
    array.replace(at: index, with: newValue)
    return true
  }

  /// Calls `handler` with the current value now, then with every change.
  ///
  /// The subscription keeps this cell alive.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  public func observe(_ handler: @escaping @MainActor (Element) -> Void) -> Subscription {
    storage._observe(retaining: self, changesOnly: false, handler)
  }

  /// Calls `handler` with every change from now on.
  ///
  /// The subscription keeps this cell alive.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  public func observeChanges(_ handler: @escaping @MainActor (Element) -> Void) -> Subscription {
    storage._observe(retaining: self, changesOnly: true, handler)
  }

  /// Takes the element's new value from a published change.
  func _receive(_ element: Element, at index: Int) {
    indexHint = index
    storage.value = element
  }

  /// Marks the cell detached and tells its observers.
  func _detach() {
    guard array != nil else { return }
    array = nil
    detachedState.update(true)
  }
}

/// The array's registry entry for a cell: weak, so that a cell lives only
/// as long as its users.
struct _WeakElementCell<Element: Identifiable> {
  weak var cell: ElementCell<Element>?
}

extension ObservableArray {
  /// The cell onto the element with `id`: shared by everyone who asks while
  /// it lives.
  ///
  /// ```swift
  /// let row = items.cell(for: 1)
  /// let detail = items.cell(for: 1)    // the same cell as `row`
  /// detail?.value.text = "edited"      // the array, and `row`, follow
  /// ```
  ///
  /// - Parameter id: The element's id.
  /// - Returns: The cell, or `nil` if no element has that id.
  /// - Complexity: O(1) on average.
  public func cell(for id: Element.ID) -> ElementCell<Element>? {
    if let existing = _cells[id]?.cell {
      return existing
    }
    guard let index = _index(of: id) else { return nil }
    let cell = ElementCell(array: self, index: index)
    _cells[id] = _WeakElementCell(cell: cell)
    return cell
  }

  /// A two-way cell onto one field of the element with `id`.
  ///
  /// ```swift
  /// let on = items.cell(for: 1, \.on)
  /// on?.value = true     // items[id: 1]?.on == true
  /// ```
  ///
  /// The field cell writes through the element's ``ElementCell`` (its
  /// ``ProjectedCell/base``), so it is refused once the element is removed.
  ///
  /// - Parameters:
  ///   - id: The element's id.
  ///   - keyPath: The field.
  /// - Returns: The cell, or `nil` if no element has that id.
  /// - Complexity: O(1) on average.
  public func cell<Field>(
    for id: Element.ID, _ keyPath: WritableKeyPath<Element, Field>
  ) -> ProjectedCell<ElementCell<Element>, Field>? {
    cell(for: id)?.projection(keyPath)
  }

  func _forgetCell(for id: Element.ID, _ cell: ElementCell<Element>) {
    if let entry = _cells[id], entry.cell == nil || entry.cell === cell {
      _cells[id] = nil
    }
  }

  /// Brings the element cells up to date with a change.
  func _updateCells(for change: ArrayChange<Element>) {
    guard !_cells.isEmpty else { return }
    let changeSet = change.changeSet
    if changeSet.isReload {
      var present: [Element.ID: Int] = [:]
      present.reserveCapacity(change.newElements.count)
      for (index, element) in change.newElements.enumerated() {
        present[element.id] = index
      }
      for (id, entry) in _cells {
        guard let cell = entry.cell else { continue }
        if let index = present[id] {
          cell._receive(change.newElements[index], at: index)
        } else {
          _cells[id] = nil
          cell._detach()
        }
      }
      return
    }
    for removal in changeSet.removals {
      if let cell = _cells.removeValue(forKey: removal.element.id)?.cell {
        cell._detach()
      }
    }
    for update in changeSet.updates {
      _cells[update.newElement.id]?.cell?._receive(update.newElement, at: update.newIndex)
    }
  }
}
