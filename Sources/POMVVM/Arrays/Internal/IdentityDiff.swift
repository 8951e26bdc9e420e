/// The identity diff behind ``ObservableArray/replaceAll(with:fileID:line:)``: matches
/// elements by `id` in O(*n*).
///
/// 1. The common prefix and suffix (same ids at the same places) are trimmed
///    first, comparing values to find in-place edits; a typical server
///    refresh changes little, so this is most of the work.
/// 2. The middle is matched through a dictionary of the old middle's ids:
///    unmatched old elements are removals, unmatched new ones insertions.
/// 3. Matched elements off the longest increasing subsequence of old
///    positions are moves: the fewest moves that explain a reorder.
///
/// A change set larger than the arrays becomes a reload.
@usableFromInline
enum _IdentityDiff {
  /// Diffs two arrays of unique ids.
  ///
  /// - Parameters:
  ///   - old: The contents before.
  ///   - new: The contents after; its ids must be unique.
  ///   - oldContains: Whether an id is anywhere in `old`, to tell a duplicate
  ///     in `new` from an insertion in O(1).
  ///   - isUnchanged: Whether an element kept its value (same id).
  ///   - middle: Set to what lies between the common prefix and suffix: it
  ///     starts at `prefix` in both arrays and ends before `oldEnd` in `old`
  ///     and `newEnd` in `new`.
  /// - Returns: The change set.
  /// - Complexity: O(*n* + *m* log *m*), where *m* is the size of the middle
  ///   that is not common prefix or suffix.
  // Inlined into each caller so that the optimizer sees `isUnchanged` and
  // compares elements in place instead of copying each one into a closure.
  @inlinable
  @inline(__always)
  static func changeSet<Element: Identifiable>(
    from old: [Element], to new: [Element],
    oldContains: (Element.ID) -> Bool,
    isUnchanged: (Element, Element) -> Bool,
    middle: inout (prefix: Int, oldEnd: Int, newEnd: Int)
  ) -> ChangeSet<Element> {
    guard
      let changeSet = checkedChangeSet(
        from: old, to: new, oldContains: oldContains, isUnchanged: isUnchanged, middle: &middle)
    else {
      preconditionFailure(
        "ObservableArray: duplicate ids \(repeatedIDs(in: new)) in the new contents")
    }
    return changeSet
  }

  /// Diffs two arrays, or returns `nil` if `new` holds an id twice: what
  /// ``changeSet(from:to:oldContains:isUnchanged:middle:)`` computes, for
  /// contents that come from outside and may repeat ids.
  ///
  /// A repeated id is found on the way, where the diff looks each id up
  /// anyway, so contents with unique ids cost no more than before.
  @inlinable
  @inline(__always)
  static func checkedChangeSet<Element: Identifiable>(
    from old: [Element], to new: [Element],
    oldContains: (Element.ID) -> Bool,
    isUnchanged: (Element, Element) -> Bool,
    middle: inout (prefix: Int, oldEnd: Int, newEnd: Int)
  ) -> ChangeSet<Element>? {
    var updates: [ChangeSet<Element>.Update] = []
    var suffixUpdates: [ChangeSet<Element>.Update] = []
    // The scans are most of the work: they run over buffers, without bounds
    // checks and with the loop's state in registers.
    middle = old.withUnsafeBufferPointer { old in
      new.withUnsafeBufferPointer { new in
        let shared = Swift.min(old.count, new.count)
        var prefix = 0
        while prefix < shared && old[prefix].id == new[prefix].id {
          if !isUnchanged(old[prefix], new[prefix]) {
            updates.append(
              .init(
                oldIndex: prefix, newIndex: prefix, oldElement: old[prefix],
                newElement: new[prefix]))
          }
          prefix += 1
        }
        var oldEnd = old.count
        var newEnd = new.count
        while oldEnd > prefix && newEnd > prefix && old[oldEnd - 1].id == new[newEnd - 1].id {
          oldEnd -= 1
          newEnd -= 1
          if !isUnchanged(old[oldEnd], new[newEnd]) {
            suffixUpdates.append(
              .init(
                oldIndex: oldEnd, newIndex: newEnd, oldElement: old[oldEnd],
                newElement: new[newEnd]))
          }
        }
        return (prefix, oldEnd, newEnd)
      }
    }
    let (prefix, oldEnd, newEnd) = middle

    var removals: [ChangeSet<Element>.Removal] = []
    var insertions: [ChangeSet<Element>.Insertion] = []
    var moves: [ChangeSet<Element>.Move] = []
    if prefix < oldEnd || prefix < newEnd {
      // Two hash operations per element: one to index the old middle, one
      // to look each new element up; matches are marked in a plain array.
      var oldMiddle: [Element.ID: Int] = [:]
      oldMiddle.reserveCapacity(oldEnd - prefix)
      for index in prefix..<oldEnd {
        oldMiddle[old[index].id] = index
      }
      var matched = [Bool](repeating: false, count: oldEnd - prefix)
      var kept: [(old: Int, new: Int)] = []
      var insertedIDs: Set<Element.ID> = []
      for newIndex in prefix..<newEnd {
        let id = new[newIndex].id
        if let oldIndex = oldMiddle[id] {
          if matched[oldIndex - prefix] { return nil }
          matched[oldIndex - prefix] = true
          kept.append((oldIndex, newIndex))
        } else {
          // An old id outside the middle sits in the common prefix or suffix,
          // so it is in `new` twice.
          if oldContains(id) || !insertedIDs.insert(id).inserted { return nil }
          insertions.append(.init(index: newIndex, element: new[newIndex]))
        }
      }
      for index in prefix..<oldEnd where !matched[index - prefix] {
        removals.append(.init(index: index, element: old[index]))
      }
      let stay = _longestIncreasingRun(kept.map(\.old))
      for (position, pair) in kept.enumerated() {
        if !stay[position] {
          moves.append(.init(from: pair.old, to: pair.new))
        }
        if !isUnchanged(old[pair.old], new[pair.new]) {
          updates.append(
            .init(
              oldIndex: pair.old, newIndex: pair.new, oldElement: old[pair.old],
              newElement: new[pair.new]))
        }
      }
    }
    updates += suffixUpdates.reversed()
    let changeSet = ChangeSet(
      removals: removals, insertions: insertions, updates: updates, moves: moves)
    if changeSet.count > Swift.max(old.count, new.count) {
      return .reload(from: old, to: new)
    }
    return changeSet
  }

  /// The ids that `elements` holds more than once, each once, in the order
  /// of their second occurrences.
  ///
  /// - Complexity: O(*n*); for reports, off the paths that find no repeat.
  @usableFromInline
  static func repeatedIDs<Element: Identifiable>(in elements: some Sequence<Element>)
    -> [Element.ID]
  {
    var seen = Set<Element.ID>()
    var named = Set<Element.ID>()
    var repeated: [Element.ID] = []
    for element in elements where !seen.insert(element.id).inserted {
      if named.insert(element.id).inserted { repeated.append(element.id) }
    }
    return repeated
  }

  /// Marks the members of one longest strictly increasing subsequence.
  ///
  /// - Complexity: O(*k* log *k*).
  @inlinable
  static func _longestIncreasingRun(_ values: [Int]) -> [Bool] {
    // Nothing moved: the common case of a refresh.
    if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) {
      return [Bool](repeating: true, count: values.count)
    }
    var tails: [Int] = []  // positions in `values` ending runs of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (position, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[position] = tails[low - 1] }
      if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var member = [Bool](repeating: false, count: values.count)
    var position = tails.last ?? -1
    while position >= 0 {
      member[position] = true
      position = previous[position]
    }
    return member
  }
}
