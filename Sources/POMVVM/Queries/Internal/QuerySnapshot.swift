/// A query whose changes carry contents made on demand: ``LiveQuery`` and
/// ``SectionedQuery``.
@MainActor
@usableFromInline
protocol _SnapshotSource: AnyObject {
  /// What the query's contents hold: elements, or sections.
  associatedtype Row
  /// The array's elements.
  associatedtype Base

  /// The query's contents as its rows are now, with the values the array's
  /// elements had right after the array's change `sequence`, whose
  /// contents are `contents`.
  func _snapshotRows(contents: _ChangeContents<Base>, sequence: UInt64) -> [Row]
}

/// The contents of a query's change, made from the query if someone reads
/// them before the query changes again.
///
/// The query does not let its rows change while one of these can still
/// read it: before it changes or goes, it freezes the last one if an
/// observer kept the change (``_SnapshotSlot/retire()``). So `source` is
/// never read after the query is gone, and needs no reference count.
@usableFromInline
final class _QuerySnapshot<Source: _SnapshotSource>: _DeferredElements<Source.Row>,
  @unchecked Sendable
{
  @usableFromInline
  unowned(unsafe) let source: Source
  // Written only on the main actor, while nobody else holds the instance
  // or while it is made: no run-time exclusivity checks.
  @usableFromInline
  @exclusivity(unchecked)
  var contents: _ChangeContents<Source.Base>
  @usableFromInline
  @exclusivity(unchecked)
  var sequence: UInt64

  @usableFromInline
  init(source: Source, count: Int, contents: _ChangeContents<Source.Base>, sequence: UInt64) {
    self.source = source
    self.contents = contents
    self.sequence = sequence
    super.init(count: count)
  }

  /// Takes the contents of a new change, as a spare that nobody else
  /// holds.
  ///
  /// A method of its own: writing the base class's `count` from outside
  /// retains and releases the instance around the write.
  @inlinable
  @inline(__always)
  func reuse(count: Int, contents: consuming _ChangeContents<Source.Base>, sequence: UInt64) {
    // Made only if an observer read the last change: clearing it
    // unconditionally costs a release and a retain.
    if _frozen != nil { _frozen = nil }
    self.count = count
    self.contents = contents
    self.sequence = sequence
  }

  @MainActor
  @usableFromInline
  override func _make() -> [Source.Row] {
    let rows = source._snapshotRows(contents: contents, sequence: sequence)
    contents = .empty
    return rows
  }
}

/// A query's last change's contents, and a spare object for the next
/// change, so that a change allocates none when nobody keeps the last.
@MainActor
@usableFromInline
struct _SnapshotSlot<Source: _SnapshotSource> {
  /// The last change's contents while the change is out; otherwise the
  /// spare for the next change.
  ///
  /// The spare is one that nobody else holds. It stays in place from one
  /// change to the next: moving it in and out of two slots costs a release
  /// of an empty slot each way.
  @usableFromInline
  var snapshot: _QuerySnapshot<Source>?
  /// Whether `snapshot` is the last change's, not retired yet.
  @usableFromInline
  var isOut = false

  @inlinable
  init() {}

  /// The contents of a change about to be sent, which become the last
  /// change's.
  ///
  /// - Parameters:
  ///   - source: The query.
  ///   - count: The number of rows (elements or sections) after the change.
  ///   - contents: The array's contents now.
  ///   - sequence: The array's change number now.
  /// - Returns: The contents object to send with the change.
  @inlinable
  mutating func make(
    source: Source, count: Int, contents: consuming _ChangeContents<Source.Base>,
    sequence: UInt64
  ) -> _QuerySnapshot<Source> {
    // A query retires its last change before it makes the next.
    retire()
    isOut = true
    if let snapshot {
      snapshot.reuse(count: count, contents: contents, sequence: sequence)
      return snapshot
    }
    let made = _QuerySnapshot(source: source, count: count, contents: contents, sequence: sequence)
    snapshot = made
    return made
  }

  /// Lets go of the last change's contents: made now if someone still
  /// holds the change, kept as the spare if nobody does.
  @inlinable
  @inline(__always)
  mutating func retire() {
    // Inlined: a query retires its last change before each change it
    // follows, and it is retired already unless a change is out.
    if isOut { _retireCurrent() }
  }

  /// ``retire()`` when a change is out: out of line.
  @inlinable
  mutating func _retireCurrent() {
    isOut = false
    guard var last = snapshot.take() else { return }
    if isKnownUniquelyReferenced(&last) {
      // Not the array's contents: the array takes them back once its
      // delivery ends, and reuses them if nobody holds them.
      last.contents = .empty
      snapshot = last
    } else {
      // Someone holds the change: its contents are made now, and the next
      // change gets a new object.
      last.freeze()
    }
  }
}
