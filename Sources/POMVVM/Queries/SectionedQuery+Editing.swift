extension SectionedQuery {
  /// Removes the elements at positions of a section from the array, by
  /// id, publishing one change of the array: SwiftUI's `onDelete` shape for
  /// a section.
  ///
  /// A section or offsets out of range are refused: nothing changes, and
  /// the refusal is reported to ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - offsets: Row positions in the section, as it is now.
  ///   - section: The section's index.
  ///   - fileID: Where the removal is asked for, for the report of a
  ///     refusal; by default, the caller's file.
  ///   - line: Where the removal is asked for; by default, the caller's line.
  /// - Returns: Whether the section and the offsets were in range.
  /// - Complexity: O(*k* log *n*) to find the *k* elements, then O(*n*) for
  ///   the array's change.
  @discardableResult
  public func remove(
    atOffsets offsets: some Sequence<Int>, inSection section: Int,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    guard let rows = rows(inSection: section, fileID: fileID, line: line) else { return false }
    return _RowEditing.remove(
      atOffsets: offsets, rows: rows, id: { id(at: RowPath(section: section, row: $0)) },
      in: array, what: "SectionedQuery", fileID: fileID, line: line)
  }

  /// Moves the elements at positions of a section to before the row at
  /// `destination` of that section (or after its last row, when
  /// `destination` is its row count), in the array, by id: SwiftUI's
  /// `onMove` shape for a section.
  ///
  /// The moved elements keep their order; elements the section does not
  /// show keep their places. A move never changes an element's section. A
  /// query with a sort order decides its own order, so it refuses a move;
  /// so does a section or an offset out of range. A refusal changes nothing,
  /// is reported to ``Diagnostics`` and returns `false`.
  ///
  /// - Parameters:
  ///   - offsets: Row positions in the section, as it is now.
  ///   - destination: A row position in the section, from `0` through its
  ///     row count.
  ///   - section: The section's index.
  ///   - fileID: Where the move is asked for, for the report of a refusal;
  ///     by default, the caller's file.
  ///   - line: Where the move is asked for; by default, the caller's line.
  /// - Returns: Whether the elements moved.
  /// - Complexity: O(*k* log *n*) to find the *k* elements, then O(*n*) for
  ///   the array's change.
  @discardableResult
  public func move(
    fromOffsets offsets: some Sequence<Int>, toOffset destination: Int, inSection section: Int,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    guard areInIncreasingOrder == nil else {
      Diagnostics.report(
        "SectionedQuery: a sorted query cannot move rows; change the elements' sort key instead",
        fileID: fileID, line: line)
      return false
    }
    guard let rows = rows(inSection: section, fileID: fileID, line: line) else { return false }
    return _RowEditing.move(
      fromOffsets: offsets, toOffset: destination, rows: rows,
      id: { id(at: RowPath(section: section, row: $0)) }, in: array, what: "SectionedQuery",
      fileID: fileID, line: line)
  }

  /// The number of rows of `section`, or `nil` after reporting a section out
  /// of range.
  private func rows(inSection section: Int, fileID: StaticString, line: UInt) -> Int? {
    guard section >= 0 && section < sectionCount else {
      Diagnostics.report(
        "SectionedQuery: section \(section) is out of range 0..<\(sectionCount); nothing changed",
        fileID: fileID, line: line)
      return nil
    }
    return numberOfRows(inSection: section)
  }
}
