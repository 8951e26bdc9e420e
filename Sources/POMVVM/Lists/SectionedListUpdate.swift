/// One update of a ``SectionedListView``: from the sections it shows to the
/// sections it is to show, as a ``SectionedListAdapter`` hands it over.
///
/// ``batch`` says how to patch the view (or, when it is
/// ``SectionedBatchUpdate/isReloadData``, to reload it). ``keys`` and
/// ``ids`` are the view's new data; ``element(at:)`` reads a row's value
/// while the view applies the update.
@MainActor
public struct SectionedListUpdate<Key: Hashable, Element: Identifiable> {
  /// The batch update from the sections the view shows to the new ones.
  public let batch: SectionedBatchUpdate

  /// The keys of the sections after the update, in order: the headers.
  public let keys: [Key]

  /// The ids of each section's rows after the update, at the same indices
  /// as ``keys``: the view's new data, to swap in inside the update.
  public let ids: [[Element.ID]]

  @usableFromInline
  let _element: (RowPath) -> Element

  /// Creates an update.
  ///
  /// - Parameters:
  ///   - batch: The batch update.
  ///   - keys: The keys of the sections after it.
  ///   - ids: The ids of each section's rows after it.
  ///   - element: The element at a path after it.
  @inlinable
  public init(
    batch: SectionedBatchUpdate, keys: [Key], ids: [[Element.ID]],
    element: @escaping (RowPath) -> Element
  ) {
    self.batch = batch
    self.keys = keys
    self.ids = ids
    _element = element
  }

  /// Whether the view reloads everything instead of patching: the first
  /// update, a rebinding, or a change too large to patch.
  ///
  /// - Complexity: O(1).
  public var isReloadData: Bool { batch.isReloadData }

  /// The element of a row after the update; read the rows you insert or
  /// redraw from here while you apply the update.
  ///
  /// - Parameter path: A path after the update.
  /// - Returns: The row's element.
  /// - Complexity: O(log *n*).
  @inlinable
  public func element(at path: RowPath) -> Element {
    _element(path)
  }

  /// The sections after the update, with their elements.
  ///
  /// - Complexity: O(*n* log *n*): for a view that redraws everything.
  public var sections: [QuerySection<Key, Element>] {
    keys.indices.map { section in
      QuerySection(
        key: keys[section],
        elements: ids[section].indices.map { element(at: RowPath(section: section, row: $0)) })
    }
  }
}
