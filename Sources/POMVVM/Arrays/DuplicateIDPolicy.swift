/// What ``ObservableArray/replaceAll(with:duplicates:fileID:line:)-69c6n`` does with new
/// contents that hold an id more than once, as a server's response may.
///
/// ```swift
/// // A search that pages may return an item twice; the newest copy wins.
/// results.replaceAll(with: response.items, duplicates: .keepLast)
/// ```
public enum DuplicateIDPolicy: Sendable, Hashable {
  /// Refuses contents that repeat an id: the array is unchanged, the call
  /// returns `false`, and a report naming the ids goes to ``Diagnostics``.
  /// This is what ``ObservableArray/replaceAll(with:fileID:line:)-3cbio`` does.
  case refuse
  /// Keeps the first element of each id, where it stands, and drops the
  /// later ones.
  case keepFirst
  /// Keeps the last element of each id, where it stands, and drops the
  /// earlier ones: the newest copy of an element wins.
  case keepLast
}

extension DuplicateIDPolicy {
  /// `elements` with one element of each id, as the policy says; for
  /// ``refuse``, `elements` unchanged (the refusal is the caller's).
  ///
  /// - Complexity: O(*n*), where *n* is the number of elements.
  func apply<Element: Identifiable>(to elements: [Element]) -> [Element] {
    switch self {
    case .refuse:
      return elements
    case .keepFirst:
      var seen = Set<Element.ID>(minimumCapacity: elements.count)
      return elements.filter { seen.insert($0.id).inserted }
    case .keepLast:
      var seen = Set<Element.ID>(minimumCapacity: elements.count)
      var kept = elements.reversed().filter { seen.insert($0.id).inserted }
      kept.reverse()
      return kept
    }
  }
}
