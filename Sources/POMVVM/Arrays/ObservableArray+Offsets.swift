extension ObservableArray {
  /// Removes the elements at a set of offsets, publishing one change with
  /// their removals: the shape of SwiftUI's `onDelete`.
  ///
  /// ```swift
  /// ForEach(items) { … }
  ///   .onDelete { items.remove(atOffsets: $0) }   // an IndexSet
  /// ```
  ///
  /// The offsets may come in any order and repeat. An offset out of range
  /// is refused, not a crash: nothing is removed, and a report naming the
  /// offsets goes to ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - offsets: The positions of the elements to remove, in the array
  ///     as it is now: an `IndexSet`, a range, an array.
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  /// - Returns: `true` if the elements were removed (or `offsets` is
  ///   empty); `false` if an offset is out of range (the array is
  ///   unchanged).
  /// - Complexity: O(*n* + *k* log *k*), where *k* is the number of
  ///   offsets: the shift of the elements after them, with no diff of the
  ///   array.
  @discardableResult
  public func remove(
    atOffsets offsets: some Sequence<Int>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    guard
      let offsets = _checkedOffsets(
        offsets, in: "remove(atOffsets:)", refusal: "nothing was removed", fileID: fileID,
        line: line)
    else { return false }
    guard !offsets.isEmpty else { return true }
    let removed = offsets.map { ChangeSet<Element>.Removal(index: $0, element: _elements[$0]) }
    if offsets.count <= Self._removalsOneByOne {
      // A few rows: out of the array and the id index one at a time, from
      // the last, as `remove(at:)` does, without diffing the whole array.
      for offset in offsets.reversed() {
        _idIndex.remove(_elements[offset].id, at: offset, in: _elements)
        _elements.remove(at: offset)
        _idIndex.shiftSuffix(from: offset + 1, by: -1, keeping: offset, in: _elements)
      }
    } else {
      // Many rows: one pass over the elements, and the index made afresh.
      _elements = Self._removing(offsets, from: _elements)
      _idIndex = _PositionIndex(_elements)
    }
    _publish(ChangeSet(removals: removed))
    return true
  }

  /// Up to how many offsets ``remove(atOffsets:fileID:line:)`` removes one
  /// at a time (each shifts the rest of the array) rather than in one pass.
  static var _removalsOneByOne: Int { 16 }

  /// Moves the elements at a set of offsets to just before an offset,
  /// keeping their order, and publishes one change with their moves: the
  /// shape of SwiftUI's `onMove`.
  ///
  /// ```swift
  /// ForEach(items) { … }
  ///   .onMove { items.move(fromOffsets: $0, toOffset: $1) }
  /// ```
  ///
  /// `destination` is an offset in the array *before* the move, as
  /// SwiftUI gives it: with `a b c d`, moving `[0]` to `3` gives
  /// `b c a d`. A destination past the last element means the end. Moving
  /// elements to where they already are publishes nothing.
  ///
  /// An offset out of range, or a negative destination, is refused, not a
  /// crash: nothing moves, and a report goes to ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - source: The positions of the elements to move: an `IndexSet`, a
  ///     range, an array; in any order.
  ///   - destination: The offset, in the array before the move, that the
  ///     moved elements go just before; `count` or more for the end.
  ///   - fileID: The culprit's file in a refusal's report; by default, the
  ///     caller's.
  ///   - line: The culprit's line in a refusal's report; by default, the
  ///     caller's.
  /// - Returns: `true` if the elements were moved (or `source` is empty);
  ///   `false` if an offset is out of range (the array is unchanged).
  /// - Complexity: O(*n* + *k* log *k*), where *k* is the number of offsets
  ///   in `source`.
  @discardableResult
  public func move(
    fromOffsets source: some Sequence<Int>, toOffset destination: Int,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    let operation = "move(fromOffsets:toOffset:)"
    guard
      let offsets = _checkedOffsets(
        source, in: operation, refusal: "nothing moved", fileID: fileID, line: line)
    else { return false }
    guard destination >= 0 else {
      Diagnostics.report(
        "\(operation) refused: the destination \(destination) is before the first element; "
          + "nothing moved", fileID: fileID, line: line)
      return false
    }
    guard !offsets.isEmpty else { return true }
    let end = Swift.min(destination, _elements.count)
    var moved: [Element] = []
    moved.reserveCapacity(offsets.count)
    for offset in offsets {
      moved.append(_elements[offset])
    }
    var contents = Self._removing(offsets, from: _elements)
    let before = offsets.prefix { $0 < end }.count
    contents.insert(contentsOf: moved, at: end - before)
    // Same elements, same values: the diff finds the moves, and only them.
    return _replaceAll(with: contents, isUnchanged: { _, _ in true }, fileID: fileID, line: line)
  }

  /// The offsets sorted, each once, or `nil` after reporting those out of
  /// range.
  func _checkedOffsets(
    _ offsets: some Sequence<Int>, in operation: String, refusal: String,
    fileID: StaticString, line: UInt
  ) -> [Int]? {
    var sorted = offsets.sorted()
    if !zip(sorted, sorted.dropFirst()).allSatisfy({ $0 < $1 }) {
      var unique: [Int] = []
      unique.reserveCapacity(sorted.count)
      for offset in sorted where unique.last != offset {
        unique.append(offset)
      }
      sorted = unique
    }
    let bad = sorted.filter { !_elements.indices.contains($0) }
    guard bad.isEmpty else {
      let named = bad.prefix(10).map(String.init).joined(separator: ", ")
      let more = bad.count > 10 ? " and \(bad.count - 10) more" : ""
      Diagnostics.report(
        "\(operation) refused: the offset\(bad.count == 1 ? " \(named) is" : "s \(named)\(more) are")"
          + " out of range 0..<\(_elements.count); \(refusal)", fileID: fileID, line: line)
      return nil
    }
    return sorted
  }
}
