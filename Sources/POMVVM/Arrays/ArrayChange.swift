/// One change of an ``ObservableArray``, as its observers receive it: the
/// change set and the contents after it.
///
/// The contents before the change are rebuilt from the change set only when
/// you ask for them, so that observing stays O(1) per change.
///
/// A ``LiveQuery`` publishes the same type, in its own indices. Its
/// contents after the change are made only if someone reads
/// ``newElements``: one element's edit in a large query stays O(log *n*)
/// for observers that only read the change set.
public struct ArrayChange<Element> {
  /// What changed.
  public let changeSet: ChangeSet<Element>

  /// The contents after the change: stored, for an array's change; made on
  /// first read, for a query's.
  @usableFromInline
  let _storage: _ChangeContents<Element>

  /// The contents right after this change.
  ///
  /// During a notification, use these rather than the array itself: when an
  /// observer mutates the array, the array is already ahead of the change
  /// being delivered.
  ///
  /// - Complexity: O(1) for an array's change; for a query's change, O(*n*)
  ///   the first time it is read (on the main actor), O(1) after.
  @inlinable
  public var newElements: [Element] {
    switch _storage {
    case .stored(let elements): elements
    case .deferred(let contents): contents.elements
    }
  }

  /// The number of elements right after this change, without making them.
  ///
  /// - Complexity: O(1).
  @inlinable
  package var _newCount: Int {
    switch _storage {
    case .stored(let elements): elements.count
    case .deferred(let contents): contents.count
    }
  }

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - changeSet: What changed.
  ///   - newElements: The contents right after the change.
  @inlinable
  public init(changeSet: ChangeSet<Element>, newElements: [Element]) {
    self.changeSet = changeSet
    self._storage = .stored(newElements)
  }

  /// Creates a change whose contents are made on first read.
  @inlinable
  init(changeSet: ChangeSet<Element>, deferred contents: _DeferredElements<Element>) {
    self.changeSet = changeSet
    self._storage = .deferred(contents)
  }

  /// The contents right before this change.
  ///
  /// - Complexity: O(*n*): they are rebuilt by reverting the change set.
  public var oldElements: [Element] {
    if let reload = changeSet.reload { return reload.old }
    do {
      return try changeSet.inverted.applied(to: newElements)
    } catch {
      preconditionFailure("ArrayChange: the change set does not fit its contents: \(error)")
    }
  }
}

/// The contents after a change: stored, or made on demand.
@usableFromInline
enum _ChangeContents<Element> {
  case stored([Element])
  case deferred(_DeferredElements<Element>)
}

/// Contents that are made the first time someone reads them.
///
/// A query publishes its changes with one of these instead of its whole
/// contents, which would cost O(*n*) per change. The query makes them
/// (freezes them) before it changes again, if the change is still held
/// then, so they always describe the contents right after their change.
/// They are made on the main actor: a read elsewhere before they are made
/// stops with a precondition.
@usableFromInline
final class _DeferredElements<Element>: @unchecked Sendable {
  // Written only on the main actor, once, by `freeze()`; a query freezes
  // every instance that outlives its delivery before the delivery ends.
  @usableFromInline
  var _frozen: [Element]?
  @usableFromInline
  var _make: (@MainActor () -> [Element])?
  @usableFromInline
  let count: Int

  @usableFromInline
  init(count: Int, make: @escaping @MainActor () -> [Element]) {
    self.count = count
    self._make = make
  }

  @usableFromInline
  var elements: [Element] {
    if let frozen = _frozen { return frozen }
    MainActor.assumeIsolated { _ = self.freeze() }
    return _frozen ?? []
  }

  /// Makes the contents now, if they are not made yet.
  @MainActor
  @usableFromInline
  @discardableResult
  func freeze() -> [Element] {
    if let frozen = _frozen { return frozen }
    let made = _make?() ?? []
    _frozen = made
    _make = nil
    return made
  }
}

extension ArrayChange: Sendable where Element: Sendable {}
extension _ChangeContents: Sendable where Element: Sendable {}

extension ArrayChange: Equatable where Element: Equatable {
  /// Whether two changes have the same change set and contents.
  ///
  /// - Complexity: O(*n*).
  public static func == (lhs: ArrayChange, rhs: ArrayChange) -> Bool {
    lhs.changeSet == rhs.changeSet && lhs.newElements == rhs.newElements
  }
}
