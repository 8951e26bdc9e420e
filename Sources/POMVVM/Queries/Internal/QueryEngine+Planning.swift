extension _QueryEngine {
  /// Decides how to follow `change`, which the array is delivering.
  ///
  /// Inlined: the common case, the very next change and no reload, is
  /// answered with ``Plan/follow`` without a call, so that the caller's
  /// switch goes straight to it instead of taking apart a plan returned
  /// through memory (an enum with closure payloads).
  @inlinable
  @inline(__always)
  func plan(for change: ArrayChange<Element>) -> Plan {
    let current = array._changeSequence
    if lastSequence &+ 1 == current && array._deliveringSequence == current
      && change.changeSet.reload == nil
    {
      return .follow
    }
    return _plan(for: change)
  }

  /// ``plan(for:)`` for the other cases, out of line.
  @inlinable
  func _plan(for change: ArrayChange<Element>) -> Plan {
    let current = array._changeSequence
    if lastSequence >= current { return .ignore }
    if lastSequence &+ 1 == current && array._deliveringSequence == current {
      // The array is at the change: follow it, incrementally unless a reload.
      guard let reload = change.changeSet.reload else { return .follow }
      let isUnchanged = array._isUnchanged ?? { _, _ in false }
      var old: [Element.ID: Element] = [:]
      old.reserveCapacity(reload.old.count)
      for element in reload.old { old[element.id] = element }
      return .reevaluate(
        oldValue: { id in
          guard let value = old[id] else { preconditionFailure("LiveQuery: a row was not shown") }
          return value
        },
        changed: { id in
          guard let before = old[id], let index = self.array._index(of: id) else { return true }
          return !isUnchanged(before, self.array._elements[index])
        })
    }
    // The array is ahead: it changed again from inside a delivery. Follow
    // every change since the rows at once, from the changes themselves
    // (never from ones the rows already reflect).
    let behind = behindNow()
    if behind.hasReload {
      let (oldValue, changed) = resolvers(behind)
      return .reevaluate(oldValue: oldValue, changed: changed)
    }
    return .catchUp(behind)
  }

  /// Whether the rows reflect the array as it is now.
  @inlinable
  var isCurrent: Bool { lastSequence == array._changeSequence }

  /// The array's changes that the rows do not reflect yet, in order: the
  /// one it is delivering, if the query has yet to see it, and those that
  /// wait behind it.
  @usableFromInline
  func changesAhead() -> [ArrayChange<Element>] {
    var next = lastSequence &+ 1
    var changes: [ArrayChange<Element>] = []
    // The change being delivered, which the array keeps while it is
    // delivered (the query has yet to see it only then).
    if array._deliveringSequence == next, let delivering = array._deliveringChange {
      changes.append(delivering)
      next &+= 1
    }
    for queued in array._pending where queued.sequence >= next {
      guard queued.sequence == next else { break }
      changes.append(queued.change)
      next &+= 1
    }
    return changes
  }

  /// What the array did since the rows were made.
  @usableFromInline
  func behindNow() -> Behind {
    let current = array._changeSequence
    if let cache = behindCache, cache.last == lastSequence, cache.current == current {
      return cache.behind
    }
    let changes = changesAhead()
    var behind = Behind(changes)
    // A change that cannot be found (none should be missing) makes every
    // row suspect.
    behind.isComplete = lastSequence &+ UInt64(changes.count) == current
    behindCache = (lastSequence, current, behind)
    return behind
  }

  /// The value a row shows: the element's value as of the array's change
  /// that the rows reflect, even if the array changed or removed it since.
  ///
  /// - Complexity: O(1) on average, plus O(*c*) for the *c* elements the
  ///   array's newer changes touched, once per change.
  @inlinable
  func shownValue(of id: Element.ID) -> Element {
    if isCurrent { return value(of: id) }
    return behindNow().old[id] ?? value(of: id)
  }

  /// The value the row with `id` shows, if it is a row.
  @inlinable
  func shownValue(ifRow id: Element.ID) -> Element? {
    guard tree.contains(id) else { return nil }
    return shownValue(of: id)
  }

  /// The values the rows with `ids` show.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  func shownValues(of ids: [Element.ID]) -> [Element] {
    var values: [Element] = []
    values.reserveCapacity(ids.count)
    if isCurrent {
      for id in ids { values.append(value(of: id)) }
      return values
    }
    let old = behindNow().old
    for id in ids { values.append(old[id] ?? value(of: id)) }
    return values
  }

  /// The values the rows showed, and whether an element may have changed
  /// since, for a query that evaluates everything afresh while behind the
  /// array.
  @usableFromInline
  func resolvers(_ behind: Behind) -> (
    oldValue: (Element.ID) -> Element, changed: (Element.ID) -> Bool
  ) {
    let isUnchanged = array._isUnchanged
    return (
      { id in behind.old[id] ?? self.value(of: id) },
      { id in
        guard behind.isComplete else { return true }
        guard behind.changed.contains(id) else { return false }
        guard let isUnchanged, let before = behind.old[id], let index = self.array._index(of: id)
        else { return true }
        return !isUnchanged(before, self.array._elements[index])
      }
    )
  }
}

extension _QueryEngine {
  /// What a run of the array's changes did to its elements, as a query
  /// that has not followed them needs it.
  @usableFromInline
  struct Behind {
    /// The value before the run of every element it touched that was in
    /// the array then.
    @usableFromInline
    var old: [Element.ID: Element] = [:]
    /// The elements whose value the run may have changed.
    @usableFromInline
    var changed: Set<Element.ID> = []
    /// Every touched element, once, in the order the run first touched it.
    @usableFromInline
    var order: [Element.ID] = []
    /// Whether a change of the run is a reload.
    @usableFromInline
    var hasReload = false
    /// Whether the run is every change since the rows.
    @usableFromInline
    var isComplete = true

    /// Sums up `changes`, in order: an element's old value is the one
    /// before the first change that touched it.
    ///
    /// - Complexity: O(*c*) for the *c* elements the changes touch.
    @usableFromInline
    init(_ changes: [ArrayChange<Element>]) {
      var seen: Set<Element.ID> = []
      func first(_ id: Element.ID) -> Bool {
        guard seen.insert(id).inserted else { return false }
        order.append(id)
        return true
      }
      for change in changes {
        let changeSet = change.changeSet
        if let reload = changeSet.reload {
          hasReload = true
          for element in reload.old {
            if first(element.id) { old[element.id] = element }
            changed.insert(element.id)
          }
          for element in reload.new {
            _ = first(element.id)
            changed.insert(element.id)
          }
          continue
        }
        for removal in changeSet.removals {
          if first(removal.element.id) { old[removal.element.id] = removal.element }
          changed.insert(removal.element.id)
        }
        for update in changeSet.updates {
          if first(update.oldElement.id) { old[update.oldElement.id] = update.oldElement }
          changed.insert(update.oldElement.id)
        }
        if !changeSet.moves.isEmpty {
          // A move alone keeps the value: the one after the change.
          let newElements = change.newElements
          for move in changeSet.moves {
            let element = newElements[move.to]
            if first(element.id) { old[element.id] = element }
          }
        }
        for insertion in changeSet.insertions {
          // Not in the array before, unless a removal above said so.
          _ = first(insertion.element.id)
          changed.insert(insertion.element.id)
        }
      }
    }
  }

  /// How to follow a change of the array.
  @usableFromInline
  enum Plan {
    /// The rows already reflect it (the query was made after it, or
    /// followed it early).
    case ignore
    /// One incremental step.
    case follow
    /// One incremental step over every change since the rows: the array
    /// changed again from inside a delivery.
    case catchUp(Behind)
    /// Everything evaluated afresh, then diffed by identity: for a reload.
    /// `oldValue` gives what the query showed for an id; `changed` the ids
    /// whose value may differ from it.
    case reevaluate(oldValue: (Element.ID) -> Element, changed: (Element.ID) -> Bool)
  }
}

/// The value of an optional that the query's invariants say is there.
@MainActor
@inline(__always)
@usableFromInline
func _required<Value>(_ value: Value?, _ what: @autoclosure () -> String) -> Value {
  guard let value else { preconditionFailure("LiveQuery: \(what())") }
  return value
}
