extension SectionedQuery {
  /// Removes the elements at positions of a section from the array, by
  /// id, publishing one change of the array: SwiftUI's `onDelete` shape for
  /// a section.
  ///
  /// - Parameters:
  ///   - offsets: Row positions in the section, as it is now.
  ///   - section: The section's index.
  /// - Complexity: O(*k* log *n*) to find the *k* elements, then O(*n*) for
  ///   the array's change.
  public func remove(atOffsets offsets: some Sequence<Int>, inSection section: Int) {
    let ids = Set(offsets.map { id(at: RowPath(section: section, row: $0)) })
    if ids.count == 1, let only = ids.first {
      array.remove(id: only)
      return
    }
    guard !ids.isEmpty else { return }
    array.batch { elements in elements.removeAll { ids.contains($0.id) } }
  }
}
