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
  @inlinable
  public var changeSet: ChangeSet<Element> {
    _read { yield _changeSet }
  }
  /// Stored as a variable so that a query can reuse one change, with its
  /// buffers, for the next edit (``LiveQuery``).
  @usableFromInline
  var _changeSet: ChangeSet<Element>

  /// The contents after the change.
  ///
  /// Read from the array while it is at the change, for an array's change;
  /// made on first read, for a query's. A variable only so that the array can take its reference back once the
  /// change is delivered (``ObservableArray/_releaseContents(of:)``).
  @usableFromInline
  var _storage: _ChangeContents<Element>

  /// The contents right after this change.
  ///
  /// During a notification, use these rather than the array itself: when an
  /// observer mutates the array, the array is already ahead of the change
  /// being delivered.
  ///
  /// - Complexity: O(1) for an array's change while the array has not
  ///   changed again; otherwise (a change read after an observer changed
  ///   the array, or a query's change), O(*n*) the first time it is read
  ///   (on the main actor), O(1) after.
  @inlinable
  public var newElements: [Element] { _storage.elements }

  /// ``newElements``, for the kit's readers on the main actor.
  @MainActor
  @inlinable
  var _newElements: [Element] { _storage._elementsOnMainActor }

  /// The number of elements right after this change, without making them.
  ///
  /// - Complexity: O(1).
  @inlinable
  package var _newCount: Int { _storage.count }

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - changeSet: What changed.
  ///   - newElements: The contents right after the change.
  @inlinable
  public init(changeSet: ChangeSet<Element>, newElements: [Element]) {
    self._changeSet = changeSet
    self._storage = .stored(newElements)
  }

  /// Creates an array's change, whose contents are read from the array.
  @inlinable
  init(changeSet: consuming ChangeSet<Element>, array contents: _ArrayContents<Element>) {
    self._changeSet = changeSet
    self._storage = .array(contents)
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

/// The contents after a change: stored, read from an array, or made on
/// demand.
@usableFromInline
enum _ChangeContents<Element> {
  case stored([Element])
  case deferred(_DeferredElements<Element>)
  case array(_ArrayContents<Element>)
  /// What a change holds once the kit has taken its contents back: no
  /// elements. Unlike `.stored([])`, it holds no reference, so setting it
  /// and overwriting it cost no reference counting.
  case empty

  /// The contents.
  @inlinable
  var elements: [Element] {
    switch self {
    case .stored(let elements): elements
    case .deferred(let contents): contents.elements
    case .array(let contents): contents.elements
    case .empty: []
    }
  }

  /// The contents, for the kit's readers on the main actor.
  @MainActor
  @inlinable
  var _elementsOnMainActor: [Element] {
    switch self {
    case .stored(let elements): elements
    case .deferred(let contents): contents.freeze()
    case .array(let contents): contents._elementsOnMainActor
    case .empty: []
    }
  }

  /// The number of elements, without making them.
  @inlinable
  var count: Int {
    switch self {
    case .stored(let elements): elements.count
    case .deferred(let contents): contents.count
    case .array(let contents): contents.count
    case .empty: 0
    }
  }
}

/// The contents of an ``ObservableArray`` right after one of its changes.
///
/// An array's change does not hold the array's storage: if it did, an
/// observer that changes the array while the change is delivered (a
/// reaction) would make the array copy every element. While the array is
/// at the change, a read returns the array's storage. Once the array has
/// moved ahead (which happens only while the change is delivered: later
/// changes wait in the array's queue), a read rebuilds the contents by
/// reverting the queued changes, and keeps them. When the delivery ends,
/// the array freezes every instance still held (``freeze(_:)``), so that
/// none reads the array afterwards, and reuses one that nobody holds.
@usableFromInline
class _ArrayContents<Element>: @unchecked Sendable {
  // Written only on the main actor: by the array when it publishes and
  // when it freezes, and by a read on the main actor during a delivery.
  // After the delivery, a held instance is frozen and no longer written.
  @usableFromInline
  @exclusivity(unchecked)
  final var _frozen: [Element]?
  /// The change's number among the array's changes.
  @usableFromInline
  @exclusivity(unchecked)
  final var sequence: UInt64
  @usableFromInline
  @exclusivity(unchecked)
  final var count: Int

  @usableFromInline
  init(sequence: UInt64, count: Int) {
    self.sequence = sequence
    self.count = count
  }

  /// The contents; read on the main actor unless frozen.
  @inlinable
  final var elements: [Element] {
    if let frozen = _frozen { return frozen }
    // Unfrozen only during the array's delivery, on the main actor.
    MainActor.preconditionIsolated(
      "an ObservableArray's change was read off the main actor during its delivery")
    return _assumingMainActor { _read() }
  }

  /// The contents, for the kit's readers on the main actor: no check.
  @MainActor
  @inlinable
  final var _elementsOnMainActor: [Element] {
    if let frozen = _frozen { return frozen }
    return _read()
  }

  /// The contents, read from the array or rebuilt (on the main actor).
  @MainActor
  @usableFromInline
  func _read() -> [Element] {
    preconditionFailure("_ArrayContents: an array's contents must be read through its array")
  }

  /// Keeps `elements` as the contents, which no longer read the array.
  @MainActor
  @inlinable
  final func freeze(_ elements: [Element]) {
    _frozen = elements
  }
}

/// Contents that are made the first time someone reads them.
///
/// A query publishes its changes with one of these instead of its whole
/// contents, which would cost O(*n*) per change. The query makes them
/// (freezes them) before it changes again, if the change is still held
/// then, so they always describe the contents right after their change.
/// They are made on the main actor: a read elsewhere before they are made
/// stops with a precondition. A subclass says how they are made
/// (``_QuerySnapshot``).
@usableFromInline
class _DeferredElements<Element>: @unchecked Sendable {
  // Written only on the main actor: once by `freeze()`, and by the query
  // that reuses an instance nobody else holds. A query freezes every
  // instance that outlives its delivery before the delivery ends. No
  // run-time exclusivity checks: no access spans a call out.
  @usableFromInline
  @exclusivity(unchecked)
  final var _frozen: [Element]?
  @usableFromInline
  @exclusivity(unchecked)
  final var count: Int

  @usableFromInline
  init(count: Int) {
    self.count = count
  }

  @usableFromInline
  final var elements: [Element] {
    if let frozen = _frozen { return frozen }
    MainActor.assumeIsolated { _ = self.freeze() }
    return _frozen ?? []
  }

  /// Makes the contents now, if they are not made yet.
  @MainActor
  @usableFromInline
  @discardableResult
  final func freeze() -> [Element] {
    if let frozen = _frozen { return frozen }
    let made = _make()
    _frozen = made
    return made
  }

  /// Makes the contents, once; a subclass lets go of what it needed.
  @MainActor
  @usableFromInline
  func _make() -> [Element] { [] }
}

extension ArrayChange: Sendable where Element: Sendable {}
extension _ChangeContents: Sendable where Element: Sendable {}

extension ArrayChange: CustomReflectable {
  /// The change set (and the contents' storage), as a debugger, `dump`
  /// and a trace show them.
  public var customMirror: Mirror {
    Mirror(self, children: ["changeSet": changeSet, "_storage": _storage], displayStyle: .struct)
  }
}

extension ArrayChange: Equatable where Element: Equatable {
  /// Whether two changes have the same change set and contents.
  ///
  /// - Complexity: O(*n*).
  public static func == (lhs: ArrayChange, rhs: ArrayChange) -> Bool {
    lhs.changeSet == rhs.changeSet && lhs.newElements == rhs.newElements
  }
}

/// Runs `body`, which is isolated to the main actor, from code the caller
/// knows runs on the main actor, without checking it again.
@inlinable
@inline(__always)
func _assumingMainActor<Result>(_ body: @MainActor () -> Result) -> Result {
  withoutActuallyEscaping(body) { body in
    unsafeBitCast(body, to: (() -> Result).self)()
  }
}
