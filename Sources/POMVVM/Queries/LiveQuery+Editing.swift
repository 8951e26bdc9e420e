extension LiveQuery {
  /// Removes the elements at positions of the query from the array, by id,
  /// publishing one change of the array: SwiftUI's `onDelete` shape.
  ///
  /// ```swift
  /// List { ForEach(query.elements) { … }.onDelete { query.remove(atOffsets: $0) } }
  /// ```
  ///
  /// - Parameter offsets: Positions in the query, as it is now.
  /// - Complexity: O(*k* log *n*) to find the *k* elements, then O(*n*) for
  ///   the array's change (one removal costs what ``ObservableArray/remove(id:)``
  ///   costs).
  public func remove(atOffsets offsets: some Sequence<Int>) {
    let ids = Set(offsets.map { id(at: $0) })
    if ids.count == 1, let only = ids.first {
      array.remove(id: only)
      return
    }
    guard !ids.isEmpty else { return }
    array.batch { elements in elements.removeAll { ids.contains($0.id) } }
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
    let count = _engine.count
    let sources = Array(Set(offsets)).sorted()
    guard destination >= 0 && destination <= count,
      sources.allSatisfy({ $0 >= 0 && $0 < count })
    else {
      Diagnostics.report(
        "LiveQuery: move \(sources) -> \(destination) is out of range 0...\(count)",
        fileID: fileID, line: line)
      return false
    }
    guard !sources.isEmpty else { return true }
    let moving = sources.map { id(at: $0) }
    let movingSet = Set(moving)
    // The first row at or after the destination that stays, if any.
    var anchor: Element.ID?
    var position = destination
    while position < count {
      let candidate = id(at: position)
      if !movingSet.contains(candidate) {
        anchor = candidate
        break
      }
      position += 1
    }
    var lastStaying: Element.ID?
    if anchor == nil {
      var position = count - 1
      while position >= 0 {
        let candidate = id(at: position)
        if !movingSet.contains(candidate) {
          lastStaying = candidate
          break
        }
        position -= 1
      }
    }
    array.batch { elements in
      var byID: [Element.ID: Element] = [:]
      for element in elements where movingSet.contains(element.id) { byID[element.id] = element }
      elements.removeAll { movingSet.contains($0.id) }
      var index = elements.count
      if let anchor, let found = elements.firstIndex(where: { $0.id == anchor }) {
        index = found
      } else if let lastStaying, let found = elements.firstIndex(where: { $0.id == lastStaying }) {
        index = found + 1
      }
      elements.insert(contentsOf: moving.compactMap { byID[$0] }, at: index)
    }
    return true
  }
}
