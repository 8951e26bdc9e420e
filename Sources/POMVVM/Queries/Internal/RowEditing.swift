/// Removing and moving the rows a query shows, by id, in its array: the one
/// implementation behind ``LiveQuery``'s and ``SectionedQuery``'s editing.
///
/// Not API. `rows` is the number of rows edited over (the query's, or one
/// section's) and `id(at:)` gives the id of each, so a section is edited
/// exactly as a flat query is.
@MainActor
enum _RowEditing {
  /// Removes the elements at `offsets` of the rows from `array`, publishing
  /// one change; refuses offsets out of range visibly.
  ///
  /// - Returns: Whether the offsets were in range (nothing to remove is
  ///   `true`).
  static func remove<Element: Identifiable>(
    atOffsets offsets: some Sequence<Int>, rows: Int, id: (Int) -> Element.ID,
    in array: ObservableArray<Element>, what: String, fileID: StaticString, line: UInt
  ) -> Bool {
    let positions = Set(offsets)
    let outside = positions.filter { $0 < 0 || $0 >= rows }.sorted()
    guard outside.isEmpty else {
      Diagnostics.report(
        "\(what): remove(atOffsets:) refused: the offsets "
          + "\(outside.map(String.init).joined(separator: ", ")) are out of range 0..<\(rows); "
          + "nothing was removed", fileID: fileID, line: line)
      return false
    }
    let ids = Set(positions.map(id))
    if ids.count == 1, let only = ids.first {
      array.remove(id: only)
    } else if !ids.isEmpty {
      array.batch { elements in elements.removeAll { ids.contains($0.id) } }
    }
    return true
  }

  /// Moves the elements at `offsets` of the rows to before the row at
  /// `destination` (after the last row, for `rows`), in `array`, by id:
  /// the moved elements keep their order, and the elements the rows do not
  /// show keep their places.
  ///
  /// - Returns: Whether the elements moved; `false` when the offsets or the
  ///   destination are out of range, which is reported.
  static func move<Element: Identifiable>(
    fromOffsets offsets: some Sequence<Int>, toOffset destination: Int, rows: Int,
    id: (Int) -> Element.ID, in array: ObservableArray<Element>, what: String,
    fileID: StaticString, line: UInt
  ) -> Bool {
    let sources = Array(Set(offsets)).sorted()
    guard destination >= 0 && destination <= rows,
      sources.allSatisfy({ $0 >= 0 && $0 < rows })
    else {
      Diagnostics.report(
        "\(what): move \(sources) -> \(destination) is out of range 0...\(rows)",
        fileID: fileID, line: line)
      return false
    }
    guard !sources.isEmpty else { return true }
    let moving = sources.map(id)
    let movingSet = Set(moving)
    // The first row at or after the destination that stays, if any; else
    // the last row that stays, which the moved rows follow.
    let anchor = (destination..<rows).lazy.map(id).first { !movingSet.contains($0) }
    let lastStaying =
      anchor == nil ? (0..<rows).reversed().lazy.map(id).first { !movingSet.contains($0) } : nil
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
