/// Which change the current value of a kit cell came from, for bindings of
/// values that cannot be compared.
///
/// A binding of `Equatable` values tells an echo from a new change by
/// comparing values. Other values cannot be compared, so bindings between
/// the kit's cells give every change an *origin*: a number drawn when a
/// binding first sees a change that no binding wrote, and carried along by
/// every binding that writes the change on. A binding does not write a
/// change into a cell that already holds it, and a change that reaches a
/// busy binding is new only if its origin differs from the one in flight.
/// So one set of any binding graph writes each cell once per change,
/// whatever the graph's cycles, and a cell that clamps what it was given (a
/// new change, with a new origin) still flows back.
///
/// An entry is keyed by the list and valid only for the list's generation
/// it names, so any later change of the list, by whoever, invalidates it.
/// Entries hold their lists weakly; entries of released lists are pruned
/// as the table grows.
///
/// Not API. Off the hot path: only bindings of non-`Equatable` values
/// between the kit's cells use it.
@MainActor
@usableFromInline
enum _ChangeOrigins {
  struct Entry {
    weak var list: _ObserverListBase?
    var generation: UInt32
    var origin: UInt64
  }

  private static var entries: [ObjectIdentifier: Entry] = [:]
  private static var lastOrigin: UInt64 = 0
  private static var pruneAt = 64

  /// A new origin, for a change whose source is not one of the kit's cells.
  @usableFromInline
  static func fresh() -> UInt64 {
    lastOrigin &+= 1
    return lastOrigin
  }

  /// The origin of the list's current value: the one recorded for its
  /// current generation, or a new one, recorded now.
  @usableFromInline
  static func origin(of list: _ObserverListBase) -> UInt64 {
    if let entry = entries[ObjectIdentifier(list)], entry.list === list,
      entry.generation == list._generation
    {
      return entry.origin
    }
    let origin = fresh()
    record(Entry(list: list, generation: list._generation, origin: origin))
    return origin
  }

  /// Whether the list's current value came from the change `origin`.
  @usableFromInline
  static func holds(_ list: _ObserverListBase, _ origin: UInt64) -> Bool {
    guard let entry = entries[ObjectIdentifier(list)], entry.list === list else { return false }
    return entry.generation == list._generation && entry.origin == origin
  }

  /// Records, before a binding writes the change `origin` into `list`, that
  /// the list's next value comes from it, so that the list's observers
  /// already see the origin while the write notifies them.
  ///
  /// - Returns: The generation the write should reach, for
  ///   ``settle(_:expected:)``.
  @usableFromInline
  static func expect(_ list: _ObserverListBase, _ origin: UInt64) -> UInt32 {
    let expected = list._generation &+ 1
    record(Entry(list: list, generation: expected, origin: origin))
    return expected
  }

  /// Forgets the expectation of a write that did not change the list (a
  /// refused or de-duplicated write, or one delivered later): a later
  /// change reaching that generation is some other change.
  @usableFromInline
  static func settle(_ list: _ObserverListBase, expected: UInt32) {
    let key = ObjectIdentifier(list)
    if list._generation == expected &- 1, let entry = entries[key], entry.generation == expected {
      entries[key] = nil
    }
  }

  private static func record(_ entry: Entry) {
    guard let list = entry.list else { return }
    entries[ObjectIdentifier(list)] = entry
    if entries.count >= pruneAt {
      entries = entries.filter { $0.value.list != nil }
      pruneAt = max(64, entries.count * 2)
    }
  }
}
