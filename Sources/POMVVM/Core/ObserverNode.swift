/// One observer of an observer list, without its handler: the way back to the
/// list, so that cancelling is O(1).
///
/// The bookkeeping lives in this non-generic class, so that cancelling never
/// touches generic metadata; ``_ObserverNode`` adds the typed handler.
///
/// The list refers to its nodes without retaining them (the user's
/// ``Subscription`` owns the node), and a node refers to its list without
/// retaining it; the list clears ``_owner`` of every node when it is
/// deallocated, so a node never reaches a freed list.
@MainActor
@usableFromInline
class _NodeBase: Subscription {
  @usableFromInline
  @exclusivity(unchecked)
  nonisolated(unsafe) unowned(unsafe) final var _owner: _ObserverListBase?

  /// The node's position in the list's buffer while the list holds more than
  /// one observer.
  @usableFromInline
  @exclusivity(unchecked)
  nonisolated(unsafe) final var _index: Int = 0

  /// What the observer is, if more than a handler: a binding's end, or the
  /// kit's own bookkeeping; for the live graph and the trace.
  @exclusivity(unchecked)
  nonisolated(unsafe) final var _role: _ObserverRole?

  @usableFromInline
  init(owner: _ObserverListBase) {
    _owner = owner
  }

  override final func cancel() {
    _owner?._remove(self)
  }

  override final var isActive: Bool { _owner != nil }

  /// Releases the handler; the list calls it last, after its bookkeeping,
  /// because releasing a handler can run arbitrary deinitializers.
  func _releaseHandler() {}

  isolated deinit {
    _owner?._remove(self)
  }
}

/// An observer node with its handler.
@MainActor
@usableFromInline
final class _ObserverNode<Value>: _NodeBase {
  @usableFromInline
  @exclusivity(unchecked)
  nonisolated(unsafe) var _handler: (@MainActor (Value) -> Void)?

  @usableFromInline
  init(handler: @escaping @MainActor (Value) -> Void, owner: _ObserverListBase) {
    _handler = handler
    super.init(owner: owner)
  }

  override func _releaseHandler() {
    _handler = nil
  }
}

/// The observers of a list: none, one (stored inline, the common case for a
/// view's cell), or many in a buffer.
///
/// `many` comes first: Swift keeps a multi-payload enum's case in the
/// payload's spare bits, and the first case's are zero, so the buffer is
/// held by a plain pointer that leak checkers follow.
@usableFromInline
enum _Observers {
  case many(_NodeBuffer)
  case one(Unmanaged<_NodeBase>)
  case none
}

/// The nodes of a list with more than one observer, in subscription order.
///
/// A node cancelled while the list is notifying leaves a `nil` slot (a
/// tombstone), so that the pass under way keeps its indices; tombstones are
/// collected when the outermost pass ends, or at once when nothing is
/// notifying.
@usableFromInline
final class _NodeBuffer {
  @usableFromInline
  @exclusivity(unchecked)
  var nodes: ContiguousArray<Unmanaged<_NodeBase>?>

  @usableFromInline
  @exclusivity(unchecked)
  var dead: Int = 0

  @usableFromInline
  init(_ nodes: ContiguousArray<Unmanaged<_NodeBase>?>) {
    self.nodes = nodes
  }
}
