extension ObservableArray {
  /// Inserts an element, publishing an insertion.
  ///
  /// - Parameters:
  ///   - element: The element; its id must not be present.
  ///   - index: Where to insert, from `0` through `count`.
  /// - Complexity: O(*n*) for the shift (O(1) at the end).
  @inlinable
  public func insert(_ element: Element, at index: Int) {
    if _refusesCancelledWrite(to: self) { return }
    precondition(
      index >= 0 && index <= _elements.count,
      "ObservableArray: insertion index \(index) is out of range 0...\(_elements.count)")
    _checkAbsent(element.id)
    _elements.insert(element, at: index)
    _idIndex.shiftSuffix(from: index, by: 1, keeping: index, in: _elements)
    _idIndex.insert(element.id, at: index, in: _elements)
    _publish(ChangeSet(insertions: [.init(index: index, element: element)]))
  }

  /// Appends an element, publishing an insertion.
  ///
  /// - Parameter element: The element; its id must not be present.
  /// - Complexity: Amortized O(1).
  @inlinable
  public func append(_ element: Element) {
    insert(element, at: _elements.count)
  }

  /// Appends elements, publishing one change with their insertions.
  ///
  /// Elements that repeat an id — one already present, or one of the new
  /// elements twice — are refused, not a crash: nothing is appended, and a
  /// report naming the ids goes to ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - newElements: The elements; their ids must be unique and not
  ///     present.
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  /// - Returns: `true` if the elements were appended; `false` if an id
  ///   repeats (the array is unchanged).
  /// - Complexity: O(*k*), where *k* is the number of new elements.
  @discardableResult
  public func append(
    contentsOf newElements: some Sequence<Element>, fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Bool {
    if _refusesCancelledWrite(to: self) { return false }
    let start = _elements.count
    var insertions: [ChangeSet<Element>.Insertion] = []
    var iterator = newElements.makeIterator()
    while let element = iterator.next() {
      guard _index(of: element.id) == nil else {
        // Take back what was appended, so that the array is unchanged, and
        // read the rest once (the sequence may be single-pass) to name
        // every repeated id.
        var refused = Array(_elements[start...])
        refused.append(element)
        while let next = iterator.next() {
          refused.append(next)
        }
        for position in (start..<_elements.count).reversed() {
          _idIndex.remove(_elements[position].id, at: position, in: _elements)
        }
        _elements.removeSubrange(start...)
        let ids = _IdentityDiff.repeatedIDs(in: _elements + refused)
        Diagnostics.report(
          "append(contentsOf:) refused: the new elements repeat \(Self._naming(ids)); the array "
            + "is unchanged", fileID: fileID, line: line)
        return false
      }
      insertions.append(.init(index: _elements.count, element: element))
      _elements.append(element)
      _idIndex.insert(element.id, at: _elements.count - 1, in: _elements)
    }
    _publish(ChangeSet(insertions: insertions))
    return true
  }

  /// Removes the element at a position, publishing a removal.
  ///
  /// - Parameter index: A valid index.
  /// - Returns: The removed element.
  /// - Complexity: O(*n*) for the shift (O(1) at the end).
  @inlinable
  @discardableResult
  public func remove(at index: Int) -> Element {
    if _refusesCancelledWrite(to: self) { return _elements[index] }
    precondition(
      _elements.indices.contains(index),
      "ObservableArray: removal index \(index) is out of range 0..<\(_elements.count)")
    _idIndex.remove(_elements[index].id, at: index, in: _elements)
    let element = _elements.remove(at: index)
    _idIndex.shiftSuffix(from: index + 1, by: -1, keeping: index, in: _elements)
    _publish(ChangeSet(removals: [.init(index: index, element: element)]))
    return element
  }

  /// Removes the element with an id, publishing a removal.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: The removed element, or `nil` if no element has that id.
  /// - Complexity: O(*n*) for the shift.
  @inlinable
  @discardableResult
  public func remove(id: Element.ID) -> Element? {
    guard let index = _index(of: id) else { return nil }
    return remove(at: index)
  }

  /// Removes every element, publishing their removals.
  ///
  /// - Complexity: O(*n*).
  public func removeAll() {
    if _refusesCancelledWrite(to: self) { return }
    let removed = _elements
    _elements.removeAll()
    _idIndex = _PositionIndex([])
    _publish(
      ChangeSet(removals: removed.enumerated().map { .init(index: $0.offset, element: $0.element) })
    )
  }

  /// Moves an element, publishing a move.
  ///
  /// - Parameters:
  ///   - source: The element's index now.
  ///   - destination: The element's index afterwards.
  /// - Complexity: O(*n*) for the shift.
  public func move(from source: Int, to destination: Int) {
    if _refusesCancelledWrite(to: self) { return }
    precondition(
      _elements.indices.contains(source) && _elements.indices.contains(destination),
      "ObservableArray: move \(source) -> \(destination) is out of range 0..<\(_elements.count)")
    guard source != destination else { return }
    _idIndex.remove(_elements[source].id, at: source, in: _elements)
    let element = _elements.remove(at: source)
    _elements.insert(element, at: destination)
    if source < destination {
      _idIndex.shift((source + 1)..<(destination + 1), by: -1) { self._elements[$0 - 1].id }
    } else {
      _idIndex.shift(destination..<source, by: 1) { self._elements[$0 + 1].id }
    }
    _idIndex.insert(element.id, at: destination, in: _elements)
    _publish(ChangeSet(moves: [.init(from: source, to: destination)]))
  }

  /// Replaces the element at a position.
  ///
  /// With the same id, this is an update (or nothing, if the value is equal);
  /// with another id, the old element leaves and the new one enters at the
  /// same index, and the old element's cells are detached.
  ///
  /// - Parameters:
  ///   - index: A valid index.
  ///   - element: The new element; a new id must not be present elsewhere.
  /// - Complexity: O(1) on average.
  @inlinable
  public func replace(at index: Int, with element: Element) {
    if _refusesCancelledWrite(to: self) { return }
    precondition(
      _elements.indices.contains(index),
      "ObservableArray: index \(index) is out of range 0..<\(_elements.count)")
    if _elements[index].id == element.id {
      // The old element is swapped out of its slot, not copied out: a copy
      // retains its fields, which the slot's overwrite then releases.
      var old = element
      swap(&_elements[index], &old)
      if let isUnchanged = _isUnchanged, isUnchanged(old, element) {
        swap(&_elements[index], &old)
        return
      }
      _publishUpdate(
        .init(oldIndex: index, newIndex: index, oldElement: consume old, newElement: element))
    } else {
      let old = _elements[index]
      _checkAbsent(element.id)
      _idIndex.remove(old.id, at: index, in: _elements)
      _elements[index] = element
      _idIndex.insert(element.id, at: index, in: _elements)
      _publish(
        ChangeSet(
          removals: [.init(index: index, element: old)],
          insertions: [.init(index: index, element: element)]))
    }
  }

  /// Publishes a change set of one update, in the array's spare buffer.
  ///
  /// Outside delivery the change is delivered before ``_publish(_:)``
  /// returns, so its buffer comes back, emptied, for the next one: an
  /// in-place edit allocates nothing. (If an observer kept the change set,
  /// emptying the buffer copies it, as publishing it would have allocated.)
  /// During delivery the change waits in the queue, in the queue's spare
  /// buffer (``_reclaimUpdates(of:)``).
  @inlinable
  func _publishUpdate(_ update: consuming ChangeSet<Element>.Update) {
    guard !_isDelivering else {
      // The change waits in the queue, in the queue's spare buffer, which
      // the delivery gives back once it is over.
      var updates: [ChangeSet<Element>.Update] = []
      swap(&updates, &_spareQueuedUpdates)
      updates.append(update)
      _publish(ChangeSet(updates: updates))
      return
    }
    var updates: [ChangeSet<Element>.Update] = []
    swap(&updates, &_spareUpdates)
    updates.append(update)
    // `_publish` takes the change set and drops it once delivered: then
    // `updates` holds the buffer alone again.
    _publish(ChangeSet(updates: updates))
    // Not `removeAll(keepingCapacity:)`: it destroys through the value
    // witnesses, where this destroys the one update specialized.
    _ = updates.popLast()
    swap(&updates, &_spareUpdates)
  }

  /// Replaces the element that has the same id, publishing an update.
  ///
  /// - Parameter element: The new value of an element.
  /// - Returns: `false` if no element has that id (nothing changes).
  /// - Complexity: O(1) on average.
  @inlinable
  @discardableResult
  public func update(_ element: Element) -> Bool {
    if _refusesCancelledWrite(to: self) { return false }
    guard let index = _index(of: element.id) else { return false }
    replace(at: index, with: element)
    return true
  }

  /// Replaces every element, publishing the identity diff between the old
  /// and new contents.
  ///
  /// Elements are matched by id: an element whose id stays is kept (and
  /// reported as an update if its value changed — for `Equatable` elements;
  /// other elements that stay are always reported as updated), elements
  /// that change place are moves, and when the change set would be larger
  /// than the array it is a reload instead. So reordering elements that are
  /// not `Equatable` is a reload: every element that stays is an update,
  /// and the moves come on top. Contents that change nothing publish
  /// nothing.
  ///
  /// New contents that hold an id twice — a server's response may — are
  /// refused, not a crash: the array is unchanged, and a report naming the
  /// ids goes to ``Diagnostics``. To keep the data anyway, pass a policy:
  /// ``replaceAll(with:duplicates:fileID:line:)-69c6n``.
  ///
  /// ```swift
  /// items.replaceAll(with: response.items)   // e.g. "insert [0], update [4]"
  /// ```
  ///
  /// - Parameters:
  ///   - newElements: The new contents; their ids must be unique.
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  /// - Returns: `true` if the array took the new contents; `false` if an id
  ///   repeats (the array is unchanged).
  /// - Complexity: O(*n* + *m* log *m*), where *m* is the number of elements
  ///   outside the common prefix and suffix of the two arrays.
  @inlinable
  @discardableResult
  public func replaceAll(
    with newElements: [Element], fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    _replaceAll(
      with: newElements, isUnchanged: _isUnchanged ?? { _, _ in false }, fileID: fileID, line: line)
  }

  /// Replaces every element, publishing the identity diff between the old
  /// and new contents; equal elements that stay are not changes.
  ///
  /// New contents that hold an id twice are refused: the array is
  /// unchanged, and a report naming the ids goes to ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - newElements: The new contents; their ids must be unique.
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  /// - Returns: `true` if the array took the new contents; `false` if an id
  ///   repeats (the array is unchanged).
  /// - Complexity: O(*n* + *m* log *m*), where *m* is the number of elements
  ///   outside the common prefix and suffix of the two arrays.
  @inlinable
  @discardableResult
  public func replaceAll(
    with newElements: [Element], fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool where Element: Equatable {
    // Compares in the caller's specialization, not through the stored test.
    _replaceAll(with: newElements, isUnchanged: { $0 == $1 }, fileID: fileID, line: line)
  }

  /// Replaces every element, publishing the identity diff between the old
  /// and new contents, with a policy for contents that repeat an id.
  ///
  /// A server's response may hold an element twice (a page that shifted
  /// while the app read it). ``replaceAll(with:fileID:line:)-3cbio`` refuses
  /// such contents; an app that wants the data anyway says which copy to
  /// keep:
  ///
  /// ```swift
  /// results.replaceAll(with: response.items, duplicates: .keepLast)
  /// ```
  ///
  /// ``DuplicateIDPolicy/keepFirst`` keeps the first element of each id and
  /// ``DuplicateIDPolicy/keepLast`` the last, each where it stands; the
  /// others are dropped without a report, since the caller asked for it.
  /// ``DuplicateIDPolicy/refuse`` is ``replaceAll(with:fileID:line:)-3cbio``.
  ///
  /// - Parameters:
  ///   - newElements: The new contents.
  ///   - duplicates: What to do with elements whose id an element of
  ///     `newElements` already has.
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  /// - Returns: `true` if the array took the new contents; `false` if an id
  ///   repeats and `duplicates` is ``DuplicateIDPolicy/refuse`` (the array
  ///   is unchanged).
  /// - Complexity: O(*n* + *m* log *m*), where *m* is the number of elements
  ///   outside the common prefix and suffix of the two arrays.
  @discardableResult
  public func replaceAll(
    with newElements: [Element], duplicates: DuplicateIDPolicy,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    replaceAll(with: duplicates.apply(to: newElements), fileID: fileID, line: line)
  }

  /// Replaces every element, publishing the identity diff between the old
  /// and new contents (equal elements that stay are not changes), with a
  /// policy for contents that repeat an id.
  ///
  /// ``DuplicateIDPolicy/keepFirst`` keeps the first element of each id and
  /// ``DuplicateIDPolicy/keepLast`` the last, each where it stands; the
  /// others are dropped without a report, since the caller asked for it.
  /// ``DuplicateIDPolicy/refuse`` is ``replaceAll(with:fileID:line:)-3cbio``.
  ///
  /// - Parameters:
  ///   - newElements: The new contents.
  ///   - duplicates: What to do with elements whose id an element of
  ///     `newElements` already has.
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  /// - Returns: `true` if the array took the new contents; `false` if an id
  ///   repeats and `duplicates` is ``DuplicateIDPolicy/refuse`` (the array
  ///   is unchanged).
  /// - Complexity: O(*n* + *m* log *m*), where *m* is the number of elements
  ///   outside the common prefix and suffix of the two arrays.
  @discardableResult
  public func replaceAll(
    with newElements: [Element], duplicates: DuplicateIDPolicy,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool where Element: Equatable {
    replaceAll(with: duplicates.apply(to: newElements), fileID: fileID, line: line)
  }

  /// Runs several mutations on the contents and publishes them as one
  /// change: the identity diff between before and after.
  ///
  /// ```swift
  /// items.batch { elements in
  ///   elements.removeAll { $0.on }
  ///   elements.append(Item(id: 9, text: "new", on: false))
  /// }
  /// ```
  ///
  /// A batch that changes nothing publishes nothing. Contents that hold an
  /// id twice when `body` returns are refused as
  /// ``replaceAll(with:fileID:line:)-3cbio`` refuses them: the array is
  /// unchanged, and ``Diagnostics`` names the ids.
  ///
  /// - Parameters:
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  ///   - body: Mutates the contents; the ids must be unique when it
  ///     returns.
  /// - Returns: What `body` returns.
  /// - Complexity: O(*n*) besides the work of `body`.
  @inlinable
  @discardableResult
  public func batch<Result>(
    fileID: StaticString = #fileID, line: UInt = #line,
    _ body: (inout [Element]) throws -> Result
  ) rethrows -> Result {
    var contents = _elements
    let result = try body(&contents)
    replaceAll(with: contents, fileID: fileID, line: line)
    return result
  }

  @inlinable
  @inline(__always)
  func _replaceAll(
    with newElements: [Element], isUnchanged: (Element, Element) -> Bool, fileID: StaticString,
    line: UInt
  ) -> Bool {
    if _refusesCancelledWrite(to: self) { return false }
    let old = _elements
    var middle = (prefix: 0, oldEnd: 0, newEnd: 0)
    guard
      let changeSet = _IdentityDiff.checkedChangeSet(
        from: old, to: newElements, oldContains: { self._idIndex.find($0, in: old) != nil },
        isUnchanged: isUnchanged, middle: &middle)
    else {
      _refuseRepeatedIDs(in: newElements, fileID: fileID, line: line)
      return false
    }
    _elements = newElements
    _reindex(from: old, middle: middle, reload: changeSet.isReload)
    _publish(changeSet)
    return true
  }

  /// Reports contents refused because they repeat ids.
  @usableFromInline
  func _refuseRepeatedIDs(in newElements: [Element], fileID: StaticString, line: UInt) {
    Diagnostics.report(
      "replaceAll(with:) refused: the new contents repeat "
        + "\(Self._naming(_IdentityDiff.repeatedIDs(in: newElements))); the array is unchanged",
      fileID: fileID, line: line)
  }

  /// Stops on an id that is already present.
  @inlinable
  func _checkAbsent(_ id: Element.ID) {
    precondition(_index(of: id) == nil, "ObservableArray: duplicate id \(id)")
  }

  /// Brings the id index up to date after a diff: the common prefix keeps
  /// its positions, the common suffix shifts, and the middle is indexed
  /// afresh — or everything, after a reload, when the middle is most of the
  /// array, or when the table must grow.
  @inlinable
  func _reindex(
    from old: [Element], middle: (prefix: Int, oldEnd: Int, newEnd: Int), reload: Bool
  ) {
    // A middle that is most of the array is cheaper to index afresh than
    // to take out and put back one id at a time.
    let middleSize = middle.oldEnd + middle.newEnd - 2 * middle.prefix
    if reload || middleSize > _elements.count / 2 || !_idIndex.canHold(_elements.count) {
      _idIndex = _PositionIndex(_elements)
      return
    }
    for position in middle.prefix..<middle.oldEnd {
      _idIndex.remove(old[position].id, at: position, in: old)
    }
    _idIndex.shiftSuffix(
      from: middle.oldEnd, by: middle.newEnd - middle.oldEnd, keeping: middle.prefix, in: _elements)
    for position in middle.prefix..<middle.newEnd {
      _idIndex.insert(_elements[position].id, at: position, in: _elements)
    }
  }
}
