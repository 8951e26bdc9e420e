/// One change of a ``SectionedQuery``: the batch update that patches a
/// sectioned list view, and the sections after it.
public struct SectionedChange<Key: Hashable, Element: Identifiable> {
  /// What changed, as one batch update of a table or collection view with
  /// sections, valid for UIKit.
  @inlinable
  public var batchUpdate: SectionedBatchUpdate { _batchUpdate }

  /// Set by the query only, which reuses one change, emptied, for its
  /// batches of one row (redrawn in place, or moved across sections).
  @usableFromInline
  var _batchUpdate: SectionedBatchUpdate

  @usableFromInline
  var _sections: _ChangeContents<QuerySection<Key, Element>>

  /// The change's number among those its query published (its query's
  /// count of changes when it was published); `0` when it was made by hand.
  @usableFromInline
  var _number = 0

  /// The sections right after this change.
  ///
  /// - Complexity: O(*n*) the first time it is read (on the main actor),
  ///   O(1) after: they are made only when someone reads them.
  public var newSections: [QuerySection<Key, Element>] { _sections.elements }

  /// The number of sections right after this change, without making them.
  ///
  /// - Complexity: O(1).
  public var newSectionCount: Int { _sections.count }

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - batchUpdate: What changed.
  ///   - newSections: The sections right after the change.
  @inlinable
  public init(batchUpdate: SectionedBatchUpdate, newSections: [QuerySection<Key, Element>]) {
    self._batchUpdate = batchUpdate
    self._sections = .stored(newSections)
  }

  /// A query's change, whose sections it sets while it sends the change.
  @inlinable
  init(_batchUpdate batchUpdate: consuming SectionedBatchUpdate) {
    self._batchUpdate = batchUpdate
    self._sections = .empty
  }
}

extension SectionedChange: Sendable
where Key: Sendable, Element: Sendable, Element.ID: Sendable {}
