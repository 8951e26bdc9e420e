/// One update of a ``ListView``: from the rows it shows to the rows it is to
/// show, as a ``ListAdapter`` hands it over.
///
/// The update says what changed by identity (``changes``), and how to
/// apply it: as one batch (``batch``), as steps (``steps``), or, for a
/// reload, by reloading everything (``isReloadData``). ``ids`` are the
/// view's new data; ``elements`` hold the values, for the view to read while
/// it applies the update.
public struct ListUpdate<Element: Identifiable> {
  /// What changed, by identity: the ids that left, entered, moved and whose
  /// element changed value, at their old and new indices.
  ///
  /// - Complexity: O(*k*), where *k* is the number of changes.
  @inlinable
  public var changes: ChangeSet<Element.ID> {
    switch _changes {
    case .elements(let changeSet): changeSet._mapElements { $0.id }
    case .ids(let changeSet): changeSet
    }
  }

  /// The change as the array published it, or as a diff of ids: an update
  /// made from one change keeps the change, so that nothing is copied
  /// unless asked for.
  @usableFromInline
  enum _Changes {
    case elements(ChangeSet<Element>)
    case ids(ChangeSet<Element.ID>)
  }

  @usableFromInline
  let _changes: _Changes

  /// The ids of the rows after the update, in order: the view's new data,
  /// to swap in inside the update.
  public let ids: [Element.ID]

  /// The elements after the update, at the same indices as ``ids``.
  ///
  /// Read the rows you insert or redraw from here while you apply the
  /// update. Keeping the array past the update makes the
  /// ``ObservableArray`` copy its storage at its next change: keep ``ids``.
  ///
  /// - Complexity: O(1) for an update from an array; from a ``LiveQuery``,
  ///   O(*n*) the first time it is read, so that an update whose view reads
  ///   only the rows it redraws stays O(log *n*).
  @inlinable
  public var elements: [Element] { _elements.elements }

  /// The elements, stored or made on first read.
  @usableFromInline
  let _elements: _ChangeContents<Element>

  /// Creates an update.
  ///
  /// - Parameters:
  ///   - changes: What changed, by identity.
  ///   - ids: The ids after the update.
  ///   - elements: The elements after the update.
  @inlinable
  public init(changes: ChangeSet<Element.ID>, ids: [Element.ID], elements: [Element]) {
    _changes = .ids(changes)
    self.ids = ids
    _elements = .stored(elements)
  }

  /// Creates the update of one change of an array.
  ///
  /// - Parameters:
  ///   - changeSet: The change.
  ///   - ids: The ids after the update.
  ///   - elements: The elements after the update.
  @inlinable
  init(_ changeSet: ChangeSet<Element>, ids: [Element.ID], elements: [Element]) {
    _changes = .elements(changeSet)
    self.ids = ids
    _elements = .stored(elements)
  }

  /// Creates the update of one change of an array or a query, whose
  /// elements may be made on first read.
  ///
  /// - Parameters:
  ///   - change: The change.
  ///   - ids: The ids after the update.
  @inlinable
  init(_ change: ArrayChange<Element>, ids: [Element.ID]) {
    _changes = .elements(change.changeSet)
    self.ids = ids
    _elements = change._storage
  }

  /// The update as one batch update of a single-section list.
  ///
  /// - Complexity: O(*k*), where *k* is the number of changes.
  @inlinable
  public var batch: BatchUpdate {
    switch _changes {
    case .elements(let changeSet): changeSet.batchUpdate
    case .ids(let changeSet): changeSet.batchUpdate
    }
  }

  /// The update as steps applied one at a time.
  ///
  /// - Complexity: O(*k* log *k*), where *k* is the number of changes.
  public var steps: [ListStep] {
    switch _changes {
    case .elements(let changeSet): changeSet.steps
    case .ids(let changeSet): changeSet.steps
    }
  }

  /// Whether the view reloads everything instead of patching rows: the
  /// first update, a rebinding, or a reload of the array.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var isReloadData: Bool {
    switch _changes {
    case .elements(let changeSet): changeSet.isReload
    case .ids(let changeSet): changeSet.isReload
    }
  }
}

extension ListUpdate: Sendable where Element: Sendable, Element.ID: Sendable {}
extension ListUpdate._Changes: Sendable where Element: Sendable, Element.ID: Sendable {}

extension ChangeSet {
  /// The same change with every element transformed, ids for elements say.
  ///
  /// - Complexity: O(*k*), or O(*n*) for a reload.
  @inlinable
  func _mapElements<Other>(_ transform: (Element) -> Other) -> ChangeSet<Other> {
    if let reload {
      return .reload(from: reload.old.map(transform), to: reload.new.map(transform))
    }
    return ChangeSet<Other>(
      removals: removals.map { .init(index: $0.index, element: transform($0.element)) },
      insertions: insertions.map { .init(index: $0.index, element: transform($0.element)) },
      updates: updates.map {
        .init(
          oldIndex: $0.oldIndex, newIndex: $0.newIndex, oldElement: transform($0.oldElement),
          newElement: transform($0.newElement))
      },
      moves: moves.map { .init(from: $0.from, to: $0.to) })
  }
}
