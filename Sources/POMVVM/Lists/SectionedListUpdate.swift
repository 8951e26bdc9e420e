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
    switch _source {
    case .given(let ids, _): ids
    case .adapter(let source): source.ids
    }
  }

  @usableFromInline
  let _source: _Source

  /// Where an update finds its ids and values.
  @usableFromInline
  enum _Source {
    /// Given to the public initializer.
    case given([[Element.ID]], (RowPath) -> Element)
    /// Read from an adapter's rows as of the update.
    case adapter(_SectionedUpdateSource<Key, Element>)
  }

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
    _source = .given(ids, element)
  }

  /// Creates an update whose ids and values are read from an adapter's
  /// rows as of the update; the ids are made into arrays only if the view
  /// reads ``ids``.
  @inlinable
  init(batch: SectionedBatchUpdate, keys: [Key], source: _SectionedUpdateSource<Key, Element>) {
    self.batch = batch
    self.keys = keys
    _source = .adapter(source)
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
    switch _source {
    case .given(_, let element): element(path)
    case .adapter(let source): source.element(at: path)
    }
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

/// The ids and values of a ``SectionedListAdapter``'s update: its rows as
/// of the update, made into arrays of ids the first time a view reads them
/// (a view that patches itself with the batch and
/// ``SectionedListUpdate/element(at:)`` never pays for them), and where a
/// row's value is read.
///
/// The adapter keeps it for its next update: an edit in place hands the
/// same ids over again, and while no view holds an update, the next one
/// takes it over, with no allocation, and it reads the adapter's own rows
/// (``rowsBox``). One that a view still holds is given a copy of the rows
/// before they change (``_keepRows()``) and is left to the view,
/// unchanged.
///
/// Its state skips run-time exclusivity checks: it is touched only on the
/// main actor, and no access to it spans a call out of it.
@MainActor
@usableFromInline
final class _SectionedUpdateSource<Key: Hashable, Element: Identifiable> {
  /// The rows of the update: the adapter's own, until they change while
  /// a view holds the update; then a box of its own with the rows as they
  /// were.
  @usableFromInline
  @exclusivity(unchecked)
  var rowsBox: _SectionedRowsBox<Key, Element.ID>
  /// The ids of ``rows``, once a view read them, until the rows change.
  @usableFromInline
  @exclusivity(unchecked)
  var made: [[Element.ID]]?
  /// Whether the rows show the query's last change.
  ///
  /// Then its values are the query's, even while the array is ahead of
  /// it. Otherwise a newer change of the query is on its way, and `values`
  /// holds this one's.
  @usableFromInline
  @exclusivity(unchecked)
  var isLatest = true
  @usableFromInline
  @exclusivity(unchecked)
  var values: [Element.ID: Element] = [:]
  @usableFromInline
  let engine: _QueryEngine<Element, Key>

  @inlinable
  init(engine: _QueryEngine<Element, Key>, rows: _SectionedRowsBox<Key, Element.ID>) {
    self.engine = engine
    rowsBox = rows
  }

  /// The rows of the update.
  @inlinable
  var rows: _SectionedRows<Key, Element.ID> { rowsBox.rows }

  @usableFromInline
  var ids: [[Element.ID]] {
    if let made { return made }
    let ids = rows.ids
    made = ids
    return ids
  }

  /// Keeps the rows as they are now, in a box of its own, before the
  /// adapter changes its rows while a view holds this update.
  @inlinable
  func _keepRows() {
    rowsBox = _SectionedRowsBox(rowsBox.rows)
  }

  /// The value of the row at `path` of the rows.
  @inlinable
  func element(at path: RowPath) -> Element {
    let id = rowsBox.rows[path]
    let array = engine.array
    if isLatest {
      // The common case: the query is as the array is now.
      if engine.isCurrent, let index = array._index(of: id) { return array._elements[index] }
      if let element = engine.shownValue(ifRow: id) { return element }
    }
    if let element = values[id] { return element }
    guard let index = array._index(of: id) else {
      preconditionFailure("SectionedListAdapter: no element with id \(id) to show")
    }
    return array._elements[index]
  }
}
