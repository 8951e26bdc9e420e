extension UndoHistory {
  /// Records every change `array` publishes from now on.
  ///
  /// Changes through the array's mutations, its element cells and their
  /// field projections are all recorded, as the change sets the array
  /// publishes. Tracking an array twice follows it once. The history does
  /// not keep the array alive.
  ///
  /// - Parameters:
  ///   - array: The array.
  ///   - actionName: The name of a step made of one of its changes outside a
  ///     transaction, for "Undo Edit"; `nil` by default.
  ///   - fileID: Where the tracking starts, for ``BindingGraph`` and
  ///     ``PropagationTrace``, which show the history as an observer of the
  ///     array; by default, the caller's file.
  ///   - line: Where the tracking starts; by default, the caller's line.
  @inlinable
  public func track<Element>(
    _ array: ObservableArray<Element>, actionName: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    guard _startTracking(array, isDelivering: { [weak array] in array?._isDelivering ?? false })
    else { return }
    // Specialized in the caller: it runs on every change of the array.
    let subscription = array.observeChanges { [weak self, weak array] change in
      guard let self, let array, self._isRecording else { return }
      self._record(
        { _ArrayEdit(array: array, change: change) },
        merge: { last in
          // Only an `_ArrayEdit<Element>` records this array: no dynamic cast.
          guard last.object === array else { return false }
          return unsafeDowncast(last, to: _ArrayEdit<Element>.self).absorb(change.changeSet)
        },
        reuse: { old in
          guard old.object === array else { return false }
          unsafeDowncast(old, to: _ArrayEdit<Element>.self).reset(to: change)
          return true
        },
        isMergeable: _ArrayEdit.isSingleUpdate(change.changeSet), actionName: actionName)
    }
    subscription._setOrigin(fileID: fileID, line: line)
    _subscriptions.append(subscription)
  }

  /// Records every change of the stored `cell` from now on, as its old and
  /// new value.
  ///
  /// Tracking a cell twice follows it once. The history does not keep the
  /// cell alive.
  ///
  /// - Parameters:
  ///   - cell: The cell.
  ///   - actionName: The name of a step made of one of its changes outside a
  ///     transaction; `nil` by default.
  ///   - fileID: Where the tracking starts, for ``BindingGraph`` and
  ///     ``PropagationTrace``, which show the history as an observer of the
  ///     cell; by default, the caller's file.
  ///   - line: Where the tracking starts; by default, the caller's line.
  @inlinable
  public func track<Value>(
    _ cell: Observable<Value>, actionName: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    guard _startTracking(cell, isDelivering: { false }) else { return }
    let shadow = _CellShadow(cell._value)
    let subscription = cell.observeChanges { [weak self, weak cell] newValue in
      let oldValue = shadow.value
      shadow.value = newValue
      guard let self, let cell, self._isRecording else { return }
      self._record(
        { _CellEdit(cell: cell, before: oldValue, after: newValue) },
        merge: { last in
          // Only a `_CellEdit<Value>` records this cell: no dynamic cast.
          guard last.object === cell else { return false }
          unsafeDowncast(last, to: _CellEdit<Value>.self).absorb(newValue)
          return true
        },
        reuse: { old in
          guard old.object === cell else { return false }
          unsafeDowncast(old, to: _CellEdit<Value>.self).reset(from: oldValue, to: newValue)
          return true
        },
        isMergeable: true, actionName: actionName)
    }
    subscription._setOrigin(fileID: fileID, line: line)
    _subscriptions.append(subscription)
  }

  /// Notes a new tracked object; `false` if it is followed already.
  @usableFromInline
  func _startTracking(
    _ object: AnyObject, isDelivering: @escaping @MainActor () -> Bool
  ) -> Bool {
    let key = ObjectIdentifier(object)
    if let existing = tracked[key], existing.object != nil { return false }
    tracked[key] = _TrackedObject(object: object, isDelivering: isDelivering)
    return true
  }
}
