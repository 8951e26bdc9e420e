/// One section of a ``SectionedQuery``: its key and its rows.
public struct QuerySection<Key: Hashable, Element: Identifiable> {
  /// The key that every row of the section has.
  public var key: Key
  /// The ids of the rows, in the query's order.
  public var ids: [Element.ID]
  /// The rows, in the query's order: the array's elements themselves.
  public var elements: [Element]

  /// Creates a section.
  ///
  /// - Parameters:
  ///   - key: The section's key.
  ///   - elements: Its rows, in order.
  @inlinable
  public init(key: Key, elements: [Element]) {
    self.key = key
    self.ids = elements.map(\.id)
    self.elements = elements
  }
}

extension QuerySection: Equatable where Element: Equatable {}
extension QuerySection: Sendable where Key: Sendable, Element: Sendable, Element.ID: Sendable {}
