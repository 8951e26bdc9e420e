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
public final class ElementCell<Element: Identifiable>: _ValueList<Element>, MutableObservableCell {
  // The cell is one object: it holds the element's value and its observers
  // itself. Its `detachment` cell, rarely asked for, is held weakly in a
  // side table.

  /// The id of the element this cell follows.
  ///
  /// - Complexity: O(1).
  public var id: Element.ID {
    // Every value the cell takes has this id: writes with another are
    // refused.
    _value.id
  }

  /// Where the element was at the cell's last write: checked, then used,
  /// before the id is looked up. (32 bits, so that it fits beside the value
  /// in the cell's padding.)
  @usableFromInline
  @exclusivity(unchecked)
  var _indexHint: UInt32 = 0

  /// The array, while the element is in it.
  ///
  /// The cell keeps its array alive.
  @usableFromInline
  @exclusivity(unchecked)
  var array: ObservableArray<Element>?

  @usableFromInline
  init(array: ObservableArray<Element>, index: Int) {
    self.array = array
    super.init(array._elements[index])
    _setOrigin(.elementCell, fileID: "", line: 0)
  }

  /// The element's current value, or its last value once detached.
  ///
  /// Setting it writes through to the array; a refused write is reported to
  /// ``Diagnostics``, naming this cell and where it was made (a setter cannot
  /// take its caller's location): write `cell.set(newValue)`
  /// (``set(_:fileID:line:)``) to have it name your line.
  ///
  /// - Complexity: O(1) to read; O(1) on average to write.
  @inlinable
  public var value: Element {
    get {
      _trackRead()
      return _value
    }
    _modify {
      var newValue = _writeStart()
      yield &newValue
      set(newValue, fileID: _Culprit.throughValue, line: _Culprit.line(of: self))
    }
    set { set(newValue, fileID: _Culprit.throughValue, line: _Culprit.line(of: self)) }
  }

  /// The array's current element, which a write starts from.
  ///
  /// The cell's own value catches up with the array when a change is
  /// delivered. While the array delivers a change and newer ones wait, the
  /// array's element may be newer than the cell's: an in-place mutation or
  /// a field write must start from it, or it would write back an older
  /// element over a change the array already holds. Outside delivery the
  /// two are the same, and the cell's value is read without a lookup.
  @inlinable
  override func _writeStart() -> Element {
    guard _Deliveries.count != 0, let array, array._isDelivering,
      let index = _index(in: array)
    else { return _value }
    return array._elements[index]
  }

  /// The element's position in `array`: the hint if it still holds there,
  /// else a lookup of the id, which becomes the hint; `nil` if the element
  /// is not in the array.
  @inlinable
  @inline(__always)
  func _index(in array: ObservableArray<Element>) -> Int? {
    let hint = Int(_indexHint)
    if hint < array._elements.count && array._elements[hint].id == id { return hint }
    guard let found = array._index(of: id) else { return nil }
    _indexHint = UInt32(truncatingIfNeeded: found)
    return found
  }

  /// Whether the element has left its array; a detached cell refuses writes.
  ///
  /// It is `true` from the mutation that removed the element on, even while
  /// an observer of an earlier change is still being called; ``detachment``
  /// tells its observers when the removal is delivered.
  public var isDetached: Bool {
    _trackRead()
    return array == nil
  }

  /// A cell that becomes `true`, once, when the element leaves its array.
  ///
  /// Detachment is told only through this cell: observers of ``value`` are
  /// not called for it (they are called once more only if the removed
  /// element's last value had not reached them yet).
  ///
  /// The element cell holds it weakly: it lives while you keep it — a
  /// subscription, a binding or a stored reference — and then leaves the
  /// graph, so a detail screen that closes leaves nothing behind. It keeps
  /// this element cell alive in turn, as a derived cell keeps its sources:
  /// `items.cell(for: id)?.detachment.observeChanges { … }` fires when the
  /// element goes, though nothing else holds the element cell. While it
  /// lives, every ask gives a cell onto the same state; asked for again
  /// after it was released, it is made afresh from ``isDetached``. Either
  /// way it tells the truth. (To track detachment with Observation, read
  /// ``isDetached``: the element cell itself registers the read.)
  public var detachment: Derived<Bool> {
    if let state = _Detachments.state(of: self) { return Derived(node: state) }
    let state = Derived(array == nil)
    // Only this element cell tells the detachment: it must live as long.
    state._node._keep(self)
    _Detachments.set(state._node, of: self)
    return state
  }

  /// Replaces the element in the array.
  ///
  /// `cell.set(newValue)` calls ``set(_:fileID:line:)``, which names the
  /// caller's line in a refusal's report; this one is what generic code
  /// calls through ``MutableObservableCell``, and its reports name the
  /// cell.
  ///
  /// - Parameter newValue: The element's new value; it must keep the id.
  /// - Returns: `true` if the array took the write; `false` if the cell is
  ///   detached or the id differs (reported to ``Diagnostics``).
  /// - Complexity: O(1) on average.
  @inlinable
  @_disfavoredOverload
  @discardableResult
  public func set(_ newValue: Element) -> Bool {
    set(newValue, fileID: _Culprit.throughValue, line: _Culprit.line(of: self))
  }

  /// Replaces the element in the array; a refusal's report names the
  /// caller's line.
  ///
  /// - Parameters:
  ///   - newValue: The element's new value; it must keep the id.
  ///   - fileID: The culprit's file in a report; by default, the caller's.
  ///   - line: The culprit's line in a report; by default, the caller's.
  /// - Returns: `true` if the array took the write; `false` if the cell is
  ///   detached or the id differs (reported to ``Diagnostics``).
  /// - Complexity: O(1) on average.
  @inlinable
  @discardableResult
  public func set(
    _ newValue: Element, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    if _refusesCancelledWrite(to: self) { return false }
    guard let array else {
      Diagnostics.report(
        "write refused: the element with id \(id) was removed from its array; "
          + "its cell is detached and keeps the last value", fileID: fileID, line: line)
      return false
    }
    guard newValue.id == id else {
      Diagnostics.report(
        "write refused: the cell for id \(id) cannot take an element with id \(newValue.id)",
        fileID: fileID, line: line)
      return false
    }
    guard let index = _index(in: array) else {
      // The removal is on its way to this cell (an observer wrote during
      // the delivery of an earlier change).
      Diagnostics.report(
        "write refused: the element with id \(id) is no longer in its array",
        fileID: fileID, line: line)
      return false
    }
    // The array's delivery finds this cell without hashing the id.
    array._writingCell = .passUnretained(self)
    array.replace(at: index, with: newValue)
    array._writingCell = nil
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
    _observe(retaining: self, changesOnly: false, handler)
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
    _observe(retaining: self, changesOnly: true, handler)
  }

  /// Leaves the array, whose mutation removed the element.
  ///
  /// The change may not be delivered yet; writes are refused from now on.
  @inlinable
  func _leave() {
    array = nil
    if let tracking = _tracking { tracking.changed() }
  }

  /// Takes the removed element's last value and marks the detachment,
  /// quietly, when the removal is delivered; the lists whose observers must
  /// be told go to `touched`.
  @usableFromInline
  func _detachQuietly(
    lastValue: Element, isUnchanged: ((Element, Element) -> Bool)?,
    into touched: inout _TouchedLists
  ) {
    _store(lastValue, isDuplicate: isUnchanged, into: &touched)
    _Detachments.state(of: self)?._setQuietly(true, into: &touched)
  }
}

extension ElementCell: _GraphCell {
  var _graphList: _ObserverListBase { self }
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
  /// The cell has no ``BindingGraph/Node/origin``: everyone who asks for
  /// the element shares it. Give it a label (``ObservableCell/labelled(_:)``)
  /// to name it in the graph and the trace.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: The cell, or `nil` if no element has that id.
  /// - Complexity: O(1) on average.
  public func cell(for id: Element.ID) -> ElementCell<Element>? {
    if let existing = _cells.cell(for: id) {
      return existing
    }
    guard let index = _index(of: id) else { return nil }
    let cell = ElementCell(array: self, index: index)
    _cells.insert(cell)
    if _isDelivering {
      _cellsMadeMidDelivery[ObjectIdentifier(cell)] = _changeSequence
    }
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
  ///   - fileID: Where the field cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the field cell is made; by default, the caller's line.
  /// - Returns: The cell, or `nil` if no element has that id.
  /// - Complexity: O(1) on average.
  public func cell<Field>(
    for id: Element.ID, _ keyPath: WritableKeyPath<Element, Field>,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ProjectedCell<ElementCell<Element>, Field>? {
    cell(for: id)?.projection(keyPath, fileID: fileID, line: line)
  }

  /// A two-way cell onto one `Equatable` field of the element with `id`; its
  /// observers are told only when the field changes.
  ///
  /// - Parameters:
  ///   - id: The element's id.
  ///   - keyPath: The field.
  ///   - fileID: Where the field cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the field cell is made; by default, the caller's line.
  /// - Returns: The cell, or `nil` if no element has that id.
  /// - Complexity: O(1) on average.
  public func cell<Field: Equatable>(
    for id: Element.ID, _ keyPath: WritableKeyPath<Element, Field>,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ProjectedCell<ElementCell<Element>, Field>? {
    cell(for: id)?.projection(keyPath, fileID: fileID, line: line)
  }

  /// Takes the cells of the elements that a mutation removed out of the
  /// registry, at once.
  ///
  /// They refuse writes from now on, and a cell asked for a re-inserted id
  /// is a new one. They are told when the change is delivered.
  @usableFromInline
  func _releaseCells(leaving changeSet: ChangeSet<Element>) -> [_LeavingCell<Element>] {
    var leaving: [_LeavingCell<Element>] = []
    if let reload = changeSet.reload {
      var gone = Set<Element.ID>()
      for cell in _cells.liveCells where _index(of: cell.id) == nil {
        gone.insert(cell.id)
      }
      guard !gone.isEmpty else { return [] }
      for element in reload.old where gone.contains(element.id) {
        if let cell = _cells.remove(element.id) {
          cell._leave()
          leaving.append(_LeavingCell(cell: cell, lastValue: element))
        }
      }
      return leaving
    }
    for removal in changeSet.removals {
      if let cell = _cells.remove(removal.element.id) {
        cell._leave()
        leaving.append(_LeavingCell(cell: cell, lastValue: removal.element))
      }
    }
    return leaving
  }

  /// Whether `cell`, made while changes waited, already reflects `pending`.
  @inlinable
  func _reflects(_ cell: ElementCell<Element>, _ pending: _PendingChange<Element>) -> Bool {
    guard !_cellsMadeMidDelivery.isEmpty,
      let since = _cellsMadeMidDelivery[ObjectIdentifier(cell)]
    else { return false }
    return since >= pending.sequence
  }

  /// Brings the element cells up to date with a change, quietly.
  @inlinable
  func _updateCells(for pending: _PendingChange<Element>, into touched: inout _TouchedLists) {
    for leaving in pending.leaving {
      leaving.cell._detachQuietly(
        lastValue: leaving.lastValue, isUnchanged: _isUnchanged, into: &touched)
    }
    guard !_cells.isEmpty else { return }
    // The change's parts are read in place: a copy of the change retains
    // each of its buffers.
    if pending.change._changeSet.reload != nil {
      let newElements = pending.change._newElements
      var present: [Element.ID: Int] = [:]
      present.reserveCapacity(newElements.count)
      for (index, element) in newElements.enumerated() {
        present[element.id] = index
      }
      for cell in _cells.liveCells {
        guard !_reflects(cell, pending), let index = present[cell.id] else { continue }
        cell._store(newElements[index], isDuplicate: _isUnchanged, into: &touched)
      }
      return
    }
    // Each update is lent (see `_Lending`), not copied: a copy retains both
    // elements' fields, and the cell's store copies the new one anyway.
    let updates = pending.change._changeSet.updates
    let lends = _Lending.canLend(ChangeSet<Element>.Update.self)
    for index in updates.indices {
      if lends {
        _Lending.withLent(
          { _Lending.bits(of: updates, at: index) },
          { _updateCell(for: $0, pending, into: &touched) })
      } else {
        _updateCell(for: updates[index], pending, into: &touched)
      }
    }
  }

  /// Brings the cell of an updated element, if any, up to date, quietly.
  @inlinable
  @inline(__always)
  func _updateCell(
    for update: ChangeSet<Element>.Update, _ pending: _PendingChange<Element>,
    into touched: inout _TouchedLists
  ) {
    let id = update.newElement.id
    // A cell still in this array is the one the table holds for its id.
    // The writing cell lives until its write is delivered: it is neither
    // retained here nor in `touched`.
    if let writing = _writingCell,
      _withGuaranteed(writing, { $0.array === self && $0.id == id })
    {
      _withGuaranteed(writing) { cell in
        if !_reflects(cell, pending) {
          cell._storeGuaranteed(update.newElement, isDuplicate: _isUnchanged, into: &touched)
        }
      }
      return
    }
    guard let cell = _cells.cell(for: id), !_reflects(cell, pending) else { return }
    cell._store(update.newElement, isDuplicate: _isUnchanged, into: &touched)
  }
}

/// A cell whose element a mutation removed, with the element's last value.
@usableFromInline
struct _LeavingCell<Element: Identifiable> {
  @usableFromInline
  let cell: ElementCell<Element>
  @usableFromInline
  let lastValue: Element

  @inlinable
  init(cell: ElementCell<Element>, lastValue: Element) {
    self.cell = cell
    self.lastValue = lastValue
  }
}
