/// A snapshot of the live binding graph: who observes what, which cells
/// are bound and derived from which, which element cells and aggregates
/// follow which array.
///
/// ```swift
/// let name = Observable("Ada").labelled("name")
/// let label = Observable("").labelled("label")
/// name.bind(to: label)
/// print(BindingGraph(reachableFrom: name))
/// // cell<String> "name" = Ada @main.swift:1
/// //   binding @main.swift:3 → cell<String> "label" = Ada @main.swift:2
/// ```
///
/// The graph is made from what is alive when you ask: an object that is gone
/// leaves no node behind, so ``everythingAlive()`` is also a leak detector.
/// Nodes are in the order they are reached from the roots (for
/// ``everythingAlive()``, in no promised order).
public struct BindingGraph: Sendable, Hashable, CustomStringConvertible {
  /// What a node is.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A stored cell, ``Observable``.
    case cell
    /// A derived cell: ``Derived``, from `map`, `combine` and the
    /// Observation bridge.
    case derived
    /// A field projection, ``ProjectedCell``.
    case projection
    /// An ``ElementCell``.
    case elementCell = "element cell"
    /// An aggregate of an array: ``ArrayCount``, a live element.
    case aggregate
    /// An ``ObservableArray``.
    case array
    /// An ``EventStream``.
    case events
    /// An observer: a handler subscribed with `observe`.
    case observer
  }

  /// What an edge is.
  public enum EdgeKind: String, Sendable, Hashable, CaseIterable {
    /// An observer is subscribed to a cell, array or stream.
    case subscription
    /// A one-way binding writes the source's values into the target.
    case binding
    /// A two-way binding keeps two cells in step.
    case twoWayBinding = "two-way binding"
    /// A derived cell, projection or aggregate is computed from its source.
    case derivation
    /// An element cell follows an element of the array.
    case element
  }

  /// A cell, array, stream or observer.
  public struct Node: Sendable, Hashable, Identifiable {
    /// The node's position in ``BindingGraph/nodes``.
    public var id: Int
    /// What the node is.
    public var kind: Kind
    /// The type of its values (of its elements, for an array); empty for
    /// an observer.
    public var valueType: String
    /// Its current value, short, with control characters made visible; the
    /// element count for an array; `nil` for streams and observers.
    public var value: String?
    /// The label given with `labelled(_:)`, or else the property path it
    /// was found at from a root (`detail.on`).
    public var label: String?
    /// Where it was made, `File.swift:12`, when the call that made it is
    /// known.
    public var origin: String?

    /// Creates a node.
    ///
    /// - Parameters:
    ///   - id: The node's position in the graph's nodes.
    ///   - kind: What the node is.
    ///   - valueType: The type of its values.
    ///   - value: Its current value, short.
    ///   - label: Its label.
    ///   - origin: Where it was made.
    public init(
      id: Int, kind: Kind, valueType: String, value: String? = nil, label: String? = nil,
      origin: String? = nil
    ) {
      self.id = id
      self.kind = kind
      self.valueType = valueType
      self.value = value
      self.label = label
      self.origin = origin
    }
  }

  /// A link from a source to what depends on it.
  public struct Edge: Sendable, Hashable {
    /// The source's ``Node/id``.
    public var from: Int
    /// The dependent's ``Node/id``.
    public var to: Int
    /// What the link is.
    public var kind: EdgeKind
    /// Where a binding was made, `File.swift:12`.
    public var origin: String?

    /// Creates an edge.
    ///
    /// - Parameters:
    ///   - from: The source's node id.
    ///   - to: The dependent's node id.
    ///   - kind: What the link is.
    ///   - origin: Where a binding was made.
    public init(from: Int, to: Int, kind: EdgeKind, origin: String? = nil) {
      self.from = from
      self.to = to
      self.kind = kind
      self.origin = origin
    }
  }

  /// The nodes, in the order they were reached.
  public var nodes: [Node]
  /// The edges, in the order they were reached.
  public var edges: [Edge]

  init(nodes: [Node], edges: [Edge]) {
    self.nodes = nodes
    self.edges = edges
  }

  /// The graph reachable from `roots`: following observers, bindings,
  /// derived cells (and their other sources), element cells and aggregates.
  ///
  /// A root is a cell, an array or a stream of the kit, or any other value —
  /// a view model, a feature — whose stored properties are searched (to a
  /// depth of six, through optionals, collections and state machines) for
  /// them. Cells found that way that have no label are labelled by their
  /// property path.
  ///
  /// - Parameter roots: Where to start.
  @MainActor
  public init(reachableFrom roots: Any...) {
    self.init(reachableFrom: roots)
  }

  /// The graph reachable from `roots`; see ``init(reachableFrom:)-(Any...)``.
  ///
  /// - Parameter roots: Where to start.
  @MainActor
  public init(reachableFrom roots: [Any]) {
    var builder = _GraphBuilder()
    var finder = _RootFinder()
    for root in roots {
      finder.find(in: root, path: nil, depth: 0)
    }
    builder.pathLabels = finder.labels
    builder.owners = finder.owners
    for list in finder.lists {
      builder.addRoot(list)
    }
    self = builder.finish()
  }

  /// Labels every cell, array and stream found in `roots` (as
  /// ``init(reachableFrom:)-(Any...)`` finds them) that has no label by its
  /// property path, such as `detail.on`; the labels stay.
  ///
  /// Call it before ``PropagationTrace/start(_:)`` to have the trace name
  /// a screen's cells as the graph does.
  ///
  /// - Parameter roots: View models, views, features.
  @MainActor
  public static func labelByPropertyPath(_ roots: [Any]) {
    var finder = _RootFinder()
    for root in roots {
      finder.find(in: root, path: nil, depth: 0)
    }
    for list in finder.lists where _Labels.label(of: list) == nil {
      if let path = finder.labels[ObjectIdentifier(list)] {
        _Labels.set(path, of: list)
      }
    }
  }

  /// Every cell, array and stream alive now, with their observers.
  ///
  /// - Returns: The graph; objects made earlier tend to come first, but
  ///   the order is not promised.
  @MainActor
  public static func everythingAlive() -> BindingGraph {
    var builder = _GraphBuilder()
    for list in _LiveLists.all {
      builder.addRoot(list)
    }
    return builder.finish()
  }

  /// The graph as indented text: each node under the node it depends on,
  /// with the edge's kind; a node reached twice is written once and then
  /// named with `(above)`.
  public var text: String {
    var incoming = Set<Int>()
    var outgoing: [Int: [Edge]] = [:]
    for edge in edges {
      incoming.insert(edge.to)
      outgoing[edge.from, default: []].append(edge)
    }
    var lines: [String] = []
    var written = Set<Int>()
    func write(_ id: Int, prefix: String, depth: Int) {
      let indent = String(repeating: "  ", count: depth)
      guard written.insert(id).inserted else {
        lines.append(indent + prefix + nodes[id].summary + " (above)")
        return
      }
      lines.append(indent + prefix + nodes[id].summary)
      for edge in outgoing[id] ?? [] {
        write(edge.to, prefix: edge.summary + " ", depth: depth + 1)
      }
    }
    // Sources first; then whatever only a cycle reaches.
    for node in nodes where !incoming.contains(node.id) {
      write(node.id, prefix: "", depth: 0)
    }
    for node in nodes where !written.contains(node.id) {
      write(node.id, prefix: "", depth: 0)
    }
    return lines.joined(separator: "\n")
  }

  /// The graph in Graphviz's DOT language: a `digraph` with a labelled
  /// node per node and a labelled edge per edge (`dot -Tsvg` draws it).
  public var dot: String {
    var lines = ["digraph POMVVM {", "  rankdir=LR;", "  node [shape=box];"]
    for node in nodes {
      var label = node.kind.rawValue + (node.valueType.isEmpty ? "" : "<\(node.valueType)>")
      if let name = node.label { label += "\n\"\(name)\"" }
      if let value = node.value { label += "\n= \(value)" }
      if let origin = node.origin { label += "\n\(origin)" }
      let shape = node.kind == .observer ? ", shape=ellipse" : ""
      lines.append("  n\(node.id) [label=\(Self.quoted(label))\(shape)];")
    }
    for edge in edges {
      let label = edge.kind.rawValue + (edge.origin.map { "\n\($0)" } ?? "")
      let both = edge.kind == .twoWayBinding ? ", dir=both" : ""
      lines.append("  n\(edge.from) -> n\(edge.to) [label=\(Self.quoted(label))\(both)];")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// The graph as indented text (``text``).
  public var description: String { text }

  /// `text` as a DOT string literal.
  private static func quoted(_ text: String) -> String {
    var quoted = "\""
    for character in text {
      switch character {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      default: quoted.append(character)
      }
    }
    return quoted + "\""
  }
}

extension BindingGraph.Node {
  /// The node in one line: `cell<Bool> "detail.on" = true @File.swift:12`.
  var summary: String {
    var line = kind.rawValue + (valueType.isEmpty ? "" : "<\(valueType)>")
    if let label { line += " \"\(label)\"" }
    if let value { line += " = \(value)" }
    if let origin { line += " @\(origin)" }
    return line
  }
}

extension BindingGraph.Edge {
  /// The edge as it leads a line of ``BindingGraph/text``.
  var summary: String {
    let arrow = kind == .twoWayBinding ? "↔" : "→"
    return kind.rawValue + (origin.map { " @\($0)" } ?? "") + " " + arrow
  }
}

/// Walks the kit's objects from roots and records nodes and edges.
@MainActor
struct _GraphBuilder {
  private var nodes: [BindingGraph.Node] = []
  private var edges: [BindingGraph.Edge] = []
  /// The edges already linked: a derived cell's sources are reached once
  /// per source.
  private var linked = Set<BindingGraph.Edge>()
  private var ids: [ObjectIdentifier: Int] = [:]
  private var toExpand: [_ObserverListBase] = []
  /// Labels from the property paths the roots were found at.
  var pathLabels: [ObjectIdentifier: String] = [:]
  /// The type of the root each list was found in, to tell apart two nodes
  /// that would have the same name.
  var owners: [ObjectIdentifier: String] = [:]

  /// Adds `list` and everything reachable from it.
  mutating func addRoot(_ list: _ObserverListBase) {
    _ = id(of: list)
    while let next = toExpand.popLast() {
      expand(next)
    }
  }

  /// The graph, with a name that several nodes share qualified by the
  /// type of the root each was found in (`DetailViewModel.header`).
  func finish() -> BindingGraph {
    var nodes = nodes
    var named: [String: [Int]] = [:]
    for node in nodes {
      if let label = node.label { named[label, default: []].append(node.id) }
    }
    var ownerOfNode: [Int: String] = [:]
    for (key, id) in ids {
      if let owner = owners[key] { ownerOfNode[id] = owner }
    }
    for (label, sharing) in named where sharing.count > 1 {
      let ownerTypes = Set(sharing.compactMap { ownerOfNode[$0] })
      guard ownerTypes.count > 1 else { continue }
      for id in sharing {
        if let owner = ownerOfNode[id] { nodes[id].label = "\(owner).\(label)" }
      }
    }
    return BindingGraph(nodes: nodes, edges: edges)
  }

  /// The node of `list`, added (and queued to expand) if new.
  private mutating func id(of list: _ObserverListBase) -> Int {
    let key = ObjectIdentifier(list)
    if let id = ids[key] { return id }
    let id = nodes.count
    ids[key] = id
    let array = list._kind == .array ? _LiveArrays.array(of: list) : nil
    nodes.append(
      BindingGraph.Node(
        id: id, kind: Self.kind(of: list),
        valueType: array?._graphElementTypeName ?? list._valueTypeName,
        value: array.map { $0._graphCount == 1 ? "1 element" : "\($0._graphCount) elements" }
          ?? list._valueDescription,
        label: (_Labels.label(of: list) ?? pathLabels[key]).map(_visibleControls),
        origin: list._origin))
    toExpand.append(list)
    return id
  }

  private static func kind(of list: _ObserverListBase) -> BindingGraph.Kind {
    switch list._kind {
    case .cell: .cell
    case .derived: .derived
    case .projection: .projection
    case .elementCell: .elementCell
    case .aggregate: .aggregate
    case .events: .events
    case .array: .array
    }
  }

  private mutating func link(
    _ from: Int, _ to: Int, _ kind: BindingGraph.EdgeKind, origin: String? = nil
  ) {
    let edge = BindingGraph.Edge(from: from, to: to, kind: kind, origin: origin)
    if linked.insert(edge).inserted { edges.append(edge) }
  }

  private mutating func expand(_ list: _ObserverListBase) {
    let source = id(of: list)
    if let detachment = _Detachments.state(of: list) {
      // An element cell's `detachment` lives in a side table: without this
      // edge, what it is bound to would float unconnected.
      link(source, id(of: detachment), .derivation)
    }
    if list._kind == .array, let array = _LiveArrays.array(of: list) {
      let (cells, aggregates) = array._graphChildren
      for cell in cells { link(source, id(of: cell), .element) }
      for aggregate in aggregates { link(source, id(of: aggregate), .derivation) }
    }
    list._forEachObserver { observer in
      switch observer._role?.kind {
      case .bookkeeping?, .binding(_, isReturn: true)?:
        break
      case .binding(let twoWay, isReturn: false)?:
        guard let role = observer._role, let target = role.target.flatMap(_graphCell(of:)) else {
          break
        }
        link(
          source, id(of: target._graphList), twoWay ? .twoWayBinding : .binding,
          origin: role.origin)
      case .derivation?:
        guard let target = (observer._role?.target).flatMap(_RootFinder.list(of:)) else { break }
        link(source, id(of: target), .derivation)
      case .observer?, nil:
        let key = ObjectIdentifier(observer)
        let id: Int
        if let known = ids[key] {
          id = known
        } else {
          id = nodes.count
          ids[key] = id
          nodes.append(
            BindingGraph.Node(
              id: id, kind: .observer, valueType: "", origin: observer._role?.origin))
        }
        link(source, id, .subscription)
      }
    }
    for dependent in list._dependentEdges {
      let node = dependent.node
      let output = id(of: node)
      // A derived cell's other sources are part of the picture too.
      for other in node._sourceLists {
        link(id(of: other), output, .derivation)
      }
    }
  }
}

/// Finds the kit's objects in roots, with the property paths they were
/// found at.
@MainActor
struct _RootFinder {
  private(set) var lists: [_ObserverListBase] = []
  /// The objects found, parallel to `lists`: the cell, array or stream
  /// itself, as it was stored.
  private(set) var objects: [AnyObject] = []
  private(set) var labels: [ObjectIdentifier: String] = [:]
  /// The type of the root each list was found in.
  private(set) var owners: [ObjectIdentifier: String] = [:]
  /// The ``Effects`` found, with their property paths.
  private(set) var effects: [(effects: Effects, path: String)] = []
  /// The loads and state machines found, which run tasks of their own.
  private(set) var workOwners: [(owner: any _PendingWorkOwner, path: String)] = []
  private var visited = Set<ObjectIdentifier>()
  private var rootType = ""

  mutating func find(in value: Any, path: String?, depth: Int) {
    if depth == 0 { rootType = _typeName(type(of: value), qualified: false) }
    if let object = _unwrappedObject(value) {
      guard visited.insert(ObjectIdentifier(object)).inserted else { return }
      if let owner = object as? any _PendingWorkOwner {
        workOwners.append((owner, path ?? "(root)"))
      }
      if let list = Self.list(of: object) {
        lists.append(list)
        objects.append(object)
        if let path, labels[ObjectIdentifier(list)] == nil {
          labels[ObjectIdentifier(list)] = path
          owners[ObjectIdentifier(list)] = rootType
        }
        return
      }
      if let effects = object as? Effects {
        self.effects.append((effects, path ?? "(root)"))
        return
      }
    }
    let mirror = Mirror(reflecting: value)
    let isContainer = [.optional, .collection, .set, .dictionary, .tuple].contains(
      mirror.displayStyle)
    guard
      depth == 0 || isContainer || value is any ViewModel || value is any BindableView
        || value is any _GraphContainer,
      depth < 6
    else { return }
    for (index, child) in mirror.children.prefix(1_000).enumerated() {
      let name: String?
      switch mirror.displayStyle {
      case .optional:
        name = path
      case .collection, .set, .dictionary:
        name = "\(path ?? "")[\(index)]"
      default:
        name = child.label.map { label in
          let property = Self.propertyName(label)
          return path.map { "\($0).\(property)" } ?? property
        }
      }
      find(in: child.value, path: name, depth: depth + 1)
    }
  }

  /// The list a kit object stands for in the graph.
  static func list(of object: AnyObject) -> _ObserverListBase? {
    if let array = object as? any _GraphArray { return array._observerList }
    if let cell = _graphCell(of: object) { return cell._graphList }
    return object as? _ObserverListBase
  }

  /// A stored property's name, without the underscore or the lazy prefix
  /// that macros and `lazy` add.
  private static func propertyName(_ label: String) -> String {
    var name = Substring(label)
    if name.hasPrefix("$__lazy_storage_$_") { name = name.dropFirst("$__lazy_storage_$_".count) }
    while name.hasPrefix("_") { name = name.dropFirst() }
    return String(name)
  }
}

/// The kit's types that hold cells, searched like view models.
protocol _GraphContainer {}

extension StateMachine: _GraphContainer {}
extension Store: _GraphContainer {}

/// `value` as an object, if it is one.
private func _unwrappedObject(_ value: Any) -> AnyObject? {
  guard type(of: value) is AnyClass else { return nil }
  return value as AnyObject
}
