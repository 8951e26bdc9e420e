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
    guard
      let sentinel = _startTracking(
        array, isArray: true, isAlive: { [life = array._life] in life.isAlive },
        delivery: { [unowned(unsafe) array, life = array._life] in
          life.isAlive ? array._deliveryRoot : nil
        })
    else { return }
    // Specialized in the caller: it runs on every change of the array.
    // Nothing here refers to the array weakly (see `ObservableArray._life`):
    // only the array calls this, while it delivers, so it lives then.
    let this = _WeakReference(self)
    let subscription = array.observeChanges { [unowned(unsafe) array] change in
      extendLifetime(sentinel)
      guard let self = this.object else { return }
      guard self._isRecording else {
        self._skip(array)
        return
      }
      self._record(
        of: ObjectIdentifier(array), delivery: array._deliveryRoot,
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
    guard
      let sentinel = _startTracking(
        cell, isArray: false, isAlive: { [weak cell] in cell != nil },
        delivery: { [weak cell] in cell?._deliveryPass })
    else { return }
    let shadow = _CellShadow(cell._value)
    let subscription = cell.observeChanges { [weak self, weak cell] newValue in
      extendLifetime(sentinel)
      let oldValue = shadow.value
      shadow.value = newValue
      guard let self, let cell else { return }
      guard self._isRecording else {
        self._skip(cell)
        return
      }
      self._record(
        of: ObjectIdentifier(cell), delivery: cell._deliveryPass,
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

  /// Notes a new tracked object; `nil` if it is followed already.
  ///
  /// - Parameters:
  ///   - object: The array or cell.
  ///   - isArray: Whether it is an array: undo and redo refuse while one
  ///     delivers a change.
  ///   - isAlive: Whether the object still lives.
  ///   - delivery: The number of the object's delivery under way, if any.
  /// - Returns: A sentinel for the subscription to hold: when the object
  ///   goes, its observers go, and the sentinel tells the history to drop
  ///   the steps that only changed released objects.
  @usableFromInline
  func _startTracking(
    _ object: AnyObject, isArray: Bool, isAlive: @escaping @MainActor () -> Bool,
    delivery: @escaping @MainActor () -> UInt64?
  ) -> _ReleaseSentinel? {
    let id = ObjectIdentifier(object)
    if tracked.contains(where: { $0.id == id && $0.isAlive() }) { return nil }
    tracked.removeAll { !$0.isAlive() }
    tracked.append(
      _TrackedObject(id: id, isAlive: isAlive, isArray: isArray, delivery: delivery))
    return _ReleaseSentinel(self)
  }
}

/// Held by a history's subscription to a tracked object: the object's
/// observers are released with it, and so is this, which tells the history.
@MainActor
@usableFromInline
final class _ReleaseSentinel {
  weak var history: UndoHistory?

  init(_ history: UndoHistory) {
    self.history = history
  }

  isolated deinit {
    history?._trackedObjectWasReleased()
  }
}

extension _ObserverListBase {
  /// The outermost notification pass under way, if any: what a tracked
  /// cell's delivery is for an ``UndoHistory``.
  ///
  /// A nested set is part of the same delivery: it adds one to the
  /// generation and one to the depth (and the outer pass stops once it
  /// returns), so their difference names the outermost pass.
  @usableFromInline
  final var _deliveryPass: UInt64? {
    guard _depth > 0 else { return nil }
    return UInt64(_generation &- UInt32(_depth) &+ 1)
  }
}
