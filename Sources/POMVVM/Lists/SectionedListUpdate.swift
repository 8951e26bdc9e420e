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
  ///
  /// - Complexity: O(*n*) the first time it is read for an update from a
  ///   ``SectionedListAdapter`` whose sections are large, O(1) after.
  public var ids: [[Element.ID]] {
    switch _ids {
    case .stored(let ids): ids
    case .rows(let rows): rows.ids
    }
  }

  @usableFromInline
  let _ids: _SectionedIDStorage<Key, Element.ID>

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
    _ids = .stored(ids)
    _element = element
  }

  /// Creates an update whose ids are read from an adapter's rows, made
  /// into arrays only if the view reads ``ids``.
  @inlinable
  init(
    batch: SectionedBatchUpdate, keys: [Key], rows: _SectionedIDs<Key, Element.ID>,
    element: @escaping (RowPath) -> Element
  ) {
    self.batch = batch
    self.keys = keys
    _ids = .rows(rows)
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
    let ids = ids
    return keys.indices.map { section in
      QuerySection(
        key: keys[section],
        elements: ids[section].indices.map { element(at: RowPath(section: section, row: $0)) })
    }
  }
}

/// Where a ``SectionedListUpdate`` finds its ids.
@usableFromInline
enum _SectionedIDStorage<Key: Hashable, ID: Hashable> {
  case stored([[ID]])
  case rows(_SectionedIDs<Key, ID>)
}

/// An adapter's rows as of one update, made into arrays of ids the first
/// time a view reads them: a view that patches itself with the batch and
/// ``SectionedListUpdate/element(at:)`` never pays for them.
@MainActor
@usableFromInline
final class _SectionedIDs<Key: Hashable, ID: Hashable> {
  @usableFromInline
  let rows: _SectionedRows<Key, ID>
  @usableFromInline
  var made: [[ID]]?

  @inlinable
  init(_ rows: _SectionedRows<Key, ID>) {
    self.rows = rows
  }

  @usableFromInline
  var ids: [[ID]] {
    if let made { return made }
    let ids = rows.ids
    made = ids
    return ids
  }
}
