extension LiveQuery {
  /// Removes the elements at positions of the query from the array, by id,
  /// publishing one change of the array: SwiftUI's `onDelete` shape.
  ///
  /// ```swift
  /// List { ForEach(query.elements) { … }.onDelete { query.remove(atOffsets: $0) } }
  /// ```
  ///
  /// Offsets out of range are refused: nothing changes, and the refusal is
  /// reported to ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - offsets: Positions in the query, as it is now.
  ///   - fileID: Where the removal is asked for, for the report of a
  ///     refusal; by default, the caller's file.
  ///   - line: Where the removal is asked for; by default, the caller's line.
  /// - Returns: Whether the offsets were in range.
  /// - Complexity: O(*k* log *n*) to find the *k* elements, then O(*n*) for
  ///   the array's change (one removal costs what ``ObservableArray/remove(id:)``
  ///   costs).
  @discardableResult
  public func remove(
    atOffsets offsets: some Sequence<Int>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    _RowEditing.remove(
      atOffsets: offsets, rows: _engine.count, id: id(at:), in: array, what: "LiveQuery",
      fileID: fileID, line: line)
  }

  /// Moves the elements at positions of the query to before the element at
  /// `destination` (or after the last row, when `destination` is `count`),
  /// in the array, by id: SwiftUI's `onMove` shape.
  ///
  /// The moved elements keep their order and land, in the array, right
  /// before the element at `destination` — or, for `count`, right after the
  /// last element the query shows; elements the query does not show keep
  /// their places. A query with a sort order decides its own order, so it
  /// refuses a move: it reports to ``Diagnostics`` and returns `false`.
  ///
  /// - Parameters:
  ///   - offsets: Positions in the query, as it is now.
  ///   - destination: A position in the query, as it is now, from `0`
  ///     through `count`.
  ///   - fileID: Where the move is asked for, for the report of a refusal;
  ///     by default, the caller's file.
  ///   - line: Where the move is asked for; by default, the caller's line.
  /// - Returns: Whether the elements moved; `false` for a sorted query or
  ///   an out-of-range position, which are reported.
  /// - Complexity: O(*n*): one change of the array.
  @discardableResult
  public func move(
    fromOffsets offsets: some Sequence<Int>, toOffset destination: Int,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    guard areInIncreasingOrder == nil else {
      Diagnostics.report(
        "LiveQuery: a sorted query cannot move rows; change the elements' sort key instead",
        fileID: fileID, line: line)
      return false
    }
    return _RowEditing.move(
      fromOffsets: offsets, toOffset: destination, rows: _engine.count, id: id(at:), in: array,
      what: "LiveQuery", fileID: fileID, line: line)
  }
}
