/// What a list is in the live graph.
@usableFromInline
enum _GraphKind: UInt8 {
  /// A stored cell (``Observable``).
  case cell
  /// A derived cell (``Derived``).
  case derived
  /// A field projection (``ProjectedCell``).
  case projection
  /// An element cell (``ElementCell``).
  case elementCell
  /// An aggregate of an array (``ArrayCount``, a live element).
  case aggregate
  /// An event stream (``EventStream``).
  case events
  /// The observers of an ``ObservableArray``: the array itself in the graph.
  case array
}

/// What an observer is, beyond its handler: a binding's end, or the kit's
/// own bookkeeping, which the graph and the trace leave out.
@MainActor
final class _ObserverRole {
  enum Kind {
    /// One end of a binding: it writes into `target`. A two-way binding
    /// has two ends; the graph draws it from its forward end only.
    case binding(twoWay: Bool, isReturn: Bool)
    /// The kit's own observer (a binding watching its target's lifetime).
    case bookkeeping
    /// An observer whose subscription call is known.
    case observer
    /// The observer that feeds a stream derived from this one (a time
    /// operator's output): it sends into `target`.
    case derivation
  }

  let kind: Kind
  let fileID: StaticString
  let line: UInt
  /// The cell the binding writes into, from this end.
  weak var target: AnyObject?

  init(_ kind: Kind, target: AnyObject? = nil, fileID: StaticString = "", line: UInt = 0) {
    self.kind = kind
    self.target = target
    self.fileID = fileID
    self.line = line
  }

  /// The role of the kit's own observers.
  static let bookkeeping = _ObserverRole(.bookkeeping)

  /// Where the observer was subscribed, or the binding made.
  var origin: String { "\(fileID):\(line)" }
}

extension Subscription {
  /// Gives an observer a role in the graph and the trace, if it is one of
  /// the kit's observers.
  @MainActor
  func _setRole(_ role: _ObserverRole) {
    (self as? _NodeBase)?._role = role
  }

  /// Records where an observer was subscribed.
  @MainActor
  @usableFromInline
  func _setOrigin(fileID: StaticString, line: UInt) {
    _setRole(_ObserverRole(.observer, fileID: fileID, line: line))
  }
}

/// Names the observers of a one-way binding: `forward` writes into
/// `target`, and `watch` only ends the binding with the target.
@MainActor
@usableFromInline
func _setBindingRoles(
  forward: Subscription, watch: Subscription, target: AnyObject, fileID: StaticString, line: UInt
) {
  forward._setRole(
    _ObserverRole(
      .binding(twoWay: false, isReturn: false), target: target, fileID: fileID, line: line))
  watch._setRole(.bookkeeping)
}

/// Names the observers of a two-way binding between `first` (observed by
/// `forward`) and `second` (observed by `backward`).
@MainActor
@usableFromInline
func _setBindingRoles(
  forward: Subscription, backward: Subscription, between first: AnyObject,
  and second: AnyObject, fileID: StaticString, line: UInt
) {
  forward._setRole(
    _ObserverRole(
      .binding(twoWay: true, isReturn: false), target: second, fileID: fileID, line: line))
  backward._setRole(
    _ObserverRole(
      .binding(twoWay: true, isReturn: true), target: first, fileID: fileID, line: line))
}

/// Every live list, in a table of slots.
///
/// A list keeps its slot's number, so joining and leaving are O(1) and cost
/// the list 4 bytes and the table 12; a freed slot is reused, and the table
/// keeps the size of the most lists alive at once. Nothing here retains a
/// list: a list leaves in its deinit.
@MainActor
enum _LiveLists {
  @exclusivity(unchecked)
  private static var slots: ContiguousArray<Unmanaged<_ObserverListBase>?> = []
  @exclusivity(unchecked)
  private static var freeSlots: [UInt32] = []

  static func insert(_ list: _ObserverListBase) {
    let entry = Unmanaged.passUnretained(list)
    if let slot = freeSlots.popLast() {
      list._liveSlot = slot
      slots[Int(slot)] = entry
    } else {
      list._liveSlot = UInt32(slots.count)
      slots.append(entry)
    }
  }

  static func remove(_ list: _ObserverListBase) {
    let slot = Int(list._liveSlot)
    guard slot < slots.count, slots[slot]?.toOpaque() == Unmanaged.passUnretained(list).toOpaque()
    else { return }
    slots[slot] = nil
    freeSlots.append(UInt32(slot))
  }

  /// Every live list, in slot order.
  static var all: [_ObserverListBase] {
    slots.compactMap { $0?.takeUnretainedValue() }
  }
}

/// What the graph needs of an ``ObservableArray``, whatever its element
/// type.
@MainActor
protocol _GraphArray: AnyObject {
  /// The list of the array's observers, which stands for the array.
  var _observerList: _ObserverListBase { get }
  /// The number of elements.
  var _graphCount: Int { get }
  /// The type of the elements.
  var _graphElementTypeName: String { get }
  /// The lists of the array's live element cells, in the order of their
  /// elements, and of its live aggregates, oldest first.
  var _graphChildren: (cells: [_ObserverListBase], aggregates: [_ObserverListBase]) { get }
  /// Whether the elements may hold objects (view models) worth searching:
  /// not for plain data.
  var _graphElementsMayHoldObjects: Bool { get }
  /// The first `limit` elements, for the finder to search.
  func _graphElements(upTo limit: Int) -> [Any]
}

extension ObservableArray: _GraphArray {
  var _observerList: _ObserverListBase { _observers }
  var _graphCount: Int { _elements.count }
  var _graphElementTypeName: String { _typeName(Element.self, qualified: false) }
  var _graphElementsMayHoldObjects: Bool { !_isPOD(Element.self) }

  func _graphElements(upTo limit: Int) -> [Any] {
    _elements.prefix(limit).map { $0 }
  }

  var _graphChildren: (cells: [_ObserverListBase], aggregates: [_ObserverListBase]) {
    let cells = _cells.liveCells
      .map { (index: _index(of: $0.id) ?? Int.max, list: $0) }
      .sorted { $0.index < $1.index }
      .map { $0.list as _ObserverListBase }
    let aggregates = _aggregates.compactMap { entry -> _ObserverListBase? in
      switch entry.owner {
      case let count as ArrayCount<Element>: count.storage
      case let lookup as _ElementLookup<Element>: lookup.output?._node
      default: nil
      }
    }
    return (cells, aggregates)
  }
}

extension _ObserverListBase {
  /// Calls `body` with every active observer, in subscription order.
  func _forEachObserver(_ body: (_NodeBase) -> Void) {
    switch _observers {
    case .none:
      break
    case .one(let node):
      body(node.takeUnretainedValue())
    case .many(let buffer):
      for case let node? in buffer.nodes {
        body(node.takeUnretainedValue())
      }
    }
  }
}

/// The live arrays, by the list of their observers.
@MainActor
enum _LiveArrays {
  @exclusivity(unchecked)
  private static var arrays: [ObjectIdentifier: Unmanaged<AnyObject>] = [:]

  static func insert(_ array: any _GraphArray) {
    arrays[ObjectIdentifier(array._observerList)] = Unmanaged.passUnretained(array)
  }

  static func remove(_ list: _ObserverListBase) {
    arrays[ObjectIdentifier(list)] = nil
  }

  /// The array whose observers `list` holds.
  static func array(of list: _ObserverListBase) -> (any _GraphArray)? {
    arrays[ObjectIdentifier(list)]?.takeUnretainedValue() as? any _GraphArray
  }
}

/// The labels given to lists, for the graph and the trace; few lists have
/// one, so they live here rather than in every list.
@MainActor
enum _Labels {
  @exclusivity(unchecked)
  private static var labels: [ObjectIdentifier: String] = [:]

  static func set(_ label: String, of list: _ObserverListBase) {
    labels[ObjectIdentifier(list)] = label
    list._hasLabel = true
  }

  static func label(of list: _ObserverListBase) -> String? {
    list._hasLabel ? labels[ObjectIdentifier(list)] : nil
  }

  static func remove(_ list: _ObserverListBase) {
    labels[ObjectIdentifier(list)] = nil
  }
}

extension _ObserverListBase {
  /// The kind's name in the graph and the trace.
  var _kindName: String {
    switch _kind {
    case .cell: "cell"
    case .derived: "derived"
    case .projection: "projection"
    case .elementCell: "element cell"
    case .aggregate: "aggregate"
    case .events: "events"
    case .array: "array"
    }
  }

  /// Where the cell was made, `File.swift:12`, if a caller made it.
  var _origin: String? {
    guard _line != 0, let fileID = _fileID else { return nil }
    return "\(String(cString: fileID)):\(_line)"
  }

  /// The name the trace gives the list: its label, or its kind, value type
  /// and origin.
  var _traceName: String {
    if let label = _Labels.label(of: self) { return _visibleControls(label) }
    let type = _kind == .array ? "" : "<\(_valueTypeName)>"
    return _kindName + type + (_origin.map { " @\($0)" } ?? "")
  }
}

/// `value` described in one short line: control characters made visible,
/// and cut at 40 characters.
func _shortDescription(_ value: Any) -> String {
  let text = _visibleControls(String(describing: value))
  return text.count > 40 ? text.prefix(39) + "…" : text
}
