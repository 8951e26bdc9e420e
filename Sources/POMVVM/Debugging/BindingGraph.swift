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
  /// a view model, a feature — whose stored properties are searched for
  /// them, at any depth: through view models and views, optionals,
  /// collections, dictionaries, structs, enum payloads (named by their case,
  /// `destination.detail`), the values of cells (`sheet.value.title`), the
  /// elements of arrays (`rows[2].on`), state machines and stores. Cells
  /// found that way that have no label are labelled by their property path.
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
///
/// The search has no depth limit: a visited set of objects stops cycles,
/// and values (structs, enums, tuples, collections) cannot hold themselves.
/// It goes through
/// - the root's stored properties, whatever the root is;
/// - view models, bindable views and the kit's containers
///   (``_GraphContainer``), wherever they are found;
/// - values: optionals, collections, dictionaries, tuples, structs, and enum
///   payloads (named by their case: `destination.detail.title`);
/// - the value of a kit cell (`destination.value.detail`), and the elements of
///   an ``ObservableArray`` (`rows[2].on`), which may hold view models.
///
/// What it cannot look into it lists in ``blindSpots``: closures, actors,
/// and objects of classes that are none of the above (an app's service or
/// cache), unless they come from the standard library, Foundation or the
/// kit, which hold no app state the kit could record.
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
  /// The objects whose stored state was searched (view models, views,
  /// containers), below the roots, with their paths, in the order found.
  private(set) var holders: [(object: AnyObject, path: String)] = []
  /// What the search could not look into, by path: `(cache, a closure)`.
  private(set) var blindSpots: [(path: String, what: String)] = []
  /// Paths not to search, nor to list as blind spots.
  var isIgnored: ((String) -> Bool)?
  /// The loads and state machines found, which run tasks of their own.
  private(set) var workOwners: [(owner: any _PendingWorkOwner, path: String)] = []
  private var visited = Set<ObjectIdentifier>()
  private var rootType = ""
  /// Whether the search is inside a value of the standard library, of
  /// Foundation or of the kit.
  private var isInsideLibraryValue = false

  /// How many children of one collection are searched; more are listed as
  /// a blind spot.
  static let childLimit = 1_000

  mutating func find(in value: Any, path: String?, depth: Int) {
    if depth == 0 { rootType = _typeName(type(of: value), qualified: false) }
    if let path, let isIgnored, isIgnored(path) { return }
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
        findInContents(of: object, path: path, depth: depth)
        return
      }
      if let effects = object as? Effects {
        self.effects.append((effects, path ?? "(root)"))
        return
      }
      if depth > 0 {
        guard
          object is any ViewModel || object is any BindableView || object is any _GraphContainer
        else {
          if object is any Actor {
            blind(path, "an actor, \(_typeName(type(of: object), qualified: false))")
          } else if !Self.holdsNoAppState(type(of: object)) {
            blind(
              path,
              "an object of \(_typeName(type(of: object), qualified: false)), which is not a "
                + "view model")
          }
          return
        }
        holders.append((object, path ?? "(root)"))
      }
    }
    if let container = value as? any _GraphContainer {
      for (label, child) in container._graphContents {
        find(in: child, path: Self.joined(path, label), depth: depth + 1)
      }
      return
    }
    if Self.isClosure(value) {
      // A closure the kit or the standard library keeps inside a value of
      // theirs is theirs, not app state.
      if !isInsideLibraryValue { blind(path, "a closure") }
      return
    }
    if _isPlainData(type(of: value)) { return }
    let mirror = Mirror(reflecting: value)
    let wasInsideLibraryValue = isInsideLibraryValue
    defer { isInsideLibraryValue = wasInsideLibraryValue }
    // An app's view model inside a library value is the app's again.
    if mirror.displayStyle == .class { isInsideLibraryValue = false }
    switch mirror.displayStyle {
    case .struct?, .enum?:
      if depth > 0, Self.holdsNoAppState(type(of: value)) {
        // Values of the standard library, Foundation and the kit (`Date`,
        // `URL`) hold nothing to find, unless they are generic over an
        // app's type (`LoadStatus<Movie>`, `Result<Screen, Error>`).
        guard _typeName(type(of: value), qualified: false).contains("<") else { return }
        isInsideLibraryValue = true
      }
    case nil:
      return
    default:
      break
    }
    var index = 0
    let children = mirror.children.makeIterator()
    while let child = children.next() {
      guard index < Self.childLimit else {
        // Said where an element past the limit holds an object (a view
        // model, a cell), whatever the first ones held: a thousand `nil`
        // rows may come before the view models.
        if Self.holdsObjects(child.value)
          || IteratorSequence(children).contains(where: { Self.holdsObjects($0.value) })
        {
          blind(
            path.map { "\($0)[\(Self.childLimit)...]" } ?? "[\(Self.childLimit)...]",
            "only the first \(Self.childLimit) elements are searched")
        }
        break
      }
      var value = child.value
      if mirror.displayStyle == .dictionary {
        // A dictionary's child is a `(key:, value:)` pair, named by its key.
        value = Mirror(reflecting: value).children.dropFirst().first?.value ?? value
      }
      find(in: value, path: childPath(path, mirror, child, index: index), depth: depth + 1)
      index += 1
    }
  }

  /// Searches what a cell holds (its value) and what an array holds (its
  /// elements): view models live there too (`Observable<Destination?>`).
  private mutating func findInContents(of object: AnyObject, path: String?, depth: Int) {
    if let array = object as? any _GraphArray {
      guard array._graphElementsMayHoldObjects else { return }
      let elements = array._graphElements(upTo: Self.childLimit)
      for (index, element) in elements.enumerated() {
        find(in: element, path: "\(path ?? "")[\(index)]", depth: depth + 1)
      }
      // Said where an element past the limit holds an object, whatever the
      // first ones held.
      if array._graphCount > Self.childLimit,
        array._graphElements(upTo: array._graphCount).dropFirst(Self.childLimit)
          .contains(where: Self.holdsObjects)
      {
        blind(
          "\(path ?? "")[\(Self.childLimit)...]",
          "only the first \(Self.childLimit) elements are searched")
      }
    } else if let container = object as? any _GraphContainer {
      // A kit container recorded as one cell (a navigation stack, a
      // presentation slot) names what it holds itself.
      for (label, child) in container._graphContents {
        find(in: child, path: Self.joined(path, label), depth: depth + 1)
      }
    } else if let cell = object as? any _GraphValueCell, let value = cell._graphValue {
      find(in: value, path: Self.joined(path, "value"), depth: depth + 1)
    }
  }

  /// Whether `value` holds an object anywhere (a view model, a cell, any
  /// class instance): what a search past the limit could have found.
  ///
  /// A loop over the value's parts, not a search: no paths, no blind
  /// spots, and plain data (numbers, strings, dates) is skipped at once.
  static func holdsObjects(_ value: Any) -> Bool {
    var work: [Any] = [value]
    while let next = work.popLast() {
      if type(of: next) is AnyClass { return true }
      if _isPlainData(type(of: next)) || next is String || next is Substring { continue }
      let mirror = Mirror(reflecting: next)
      guard mirror.displayStyle != nil else { continue }
      for child in mirror.children { work.append(child.value) }
    }
    return false
  }

  private mutating func blind(_ path: String?, _ what: String) {
    blindSpots.append((path ?? "(root)", what))
  }

  /// The path of a child found through `mirror`.
  private func childPath(_ path: String?, _ mirror: Mirror, _ child: Mirror.Child, index: Int)
    -> String?
  {
    switch mirror.displayStyle {
    case .optional?:
      return path
    case .collection?, .set?:
      return "\(path ?? "")[\(index)]"
    case .dictionary?:
      let pair = Array(Mirror(reflecting: child.value).children)
      let key = pair.first.map { Self.keyDescription($0.value) } ?? "\(index)"
      return "\(path ?? "")[\(key)]"
    default:
      guard let label = child.label else { return path }
      return Self.joined(path, Self.propertyName(label))
    }
  }

  /// `base.label`, or `base[0]` for a label that is a subscript.
  static func joined(_ base: String?, _ label: String) -> String {
    guard let base else { return label }
    return label.hasPrefix("[") ? base + label : "\(base).\(label)"
  }

  private static func keyDescription(_ key: Any) -> String {
    if let string = key as? String { return _visibleControls(String(reflecting: string)) }
    return _visibleControls(String(describing: key))
  }

  /// The list a kit object stands for in the graph.
  static func list(of object: AnyObject) -> _ObserverListBase? {
    if let array = object as? any _GraphArray { return array._observerList }
    if let cell = _graphCell(of: object) { return cell._graphList }
    return object as? _ObserverListBase
  }

  /// A stored property's name, without the underscore or the lazy prefix
  /// that macros and `lazy` add; a tuple element's `.0` without its dot.
  private static func propertyName(_ label: String) -> String {
    var name = Substring(label)
    if name.hasPrefix("$__lazy_storage_$_") { name = name.dropFirst("$__lazy_storage_$_".count) }
    while name.hasPrefix("_") || name.hasPrefix(".") { name = name.dropFirst() }
    return String(name)
  }

  /// Whether `value` is a function: Mirror shows nothing of what it captures.
  private static func isClosure(_ value: Any) -> Bool {
    let name = _typeName(type(of: value), qualified: false)
    // A function type's name has an arrow outside any brackets; a tuple's
    // or a generic type's arrows are inside.
    var level = 0
    var previous: Character = " "
    for character in name {
      switch character {
      case "(", "<", "[": level += 1
      case ")", "]": level -= 1
      case ">" where previous == "-": if level == 0 { return true }
      case ">": level -= 1
      default: break
      }
      previous = character
    }
    return false
  }

  /// Whether a type comes from a module that holds no app state: the
  /// standard library, Foundation, the concurrency and synchronization
  /// modules, and the kit itself.
  private static func holdsNoAppState(_ type: Any.Type) -> Bool {
    let name = _typeName(type, qualified: true)
    let module = name.prefix { $0 != "." }
    return [
      "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization",
      "_Concurrency", "Synchronization", "Dispatch", "POMVVM", "POMVVMTesting", "Observation",
      "__C",
    ].contains(module)
  }
}

/// Whether a type holds plain data only: no references, so nothing to find.
private func _isPlainData(_ type: Any.Type) -> Bool {
  func isPOD<T>(_: T.Type) -> Bool { _isPOD(T.self) }
  return isPOD(type)
}

/// A kit type that holds state of its own, searched by the finder that
/// ``BindingGraph`` and POMVVMTesting's `StateRecorder` share.
///
/// The finder does not walk a container's stored properties with `Mirror`
/// (they hold closures, tasks and bookkeeping it would list as blind
/// spots); it asks the container for what it holds.
///
/// A new kit container (a navigation stack, a presentation slot) opts in
/// by conforming in its own file:
///
/// ```swift
/// extension StackPath: _GraphContainer {
///   var _graphContents: [(label: String, value: Any)] {
///     screens.enumerated().map { ("[\($0.offset)]", $0.element) }
///   }
/// }
/// ```
///
/// Each child is searched like any stored property: a kit cell, array or
/// stream is recorded; a view model, an enum of screens, an optional, a
/// collection is searched in turn. A label that starts with `[` is a
/// subscript (`path[1]`); any other is a property (`sheet.destination`).
///
/// To have its *changes* recorded (a push, a dismissal), a container keeps
/// what it holds in a kit cell or array and yields that cell or array among
/// its contents (`("screens", screensArray)`): the recorder observes it
/// like any cell, and searches its value or elements for the screens. The
/// recorder searches the root again after every step, so the screens a
/// change adds or removes are reported as added or removed state.
@MainActor
protocol _GraphContainer {
  /// What the container holds, each with the label of its path.
  var _graphContents: [(label: String, value: Any)] { get }
}

extension StateMachine: _GraphContainer {
  var _graphContents: [(label: String, value: Any)] { [("state", state)] }
}

extension Store: _GraphContainer {
  var _graphContents: [(label: String, value: Any)] {
    [("items", items), ("saveError", saveError)]
  }
}

/// A kit cell whose value the finder searches (a cell may hold a view
/// model, or an enum of them).
@MainActor
protocol _GraphValueCell: AnyObject {
  /// The cell's value, read without registering with Observation; `nil`
  /// when there is nothing worth searching.
  var _graphValue: Any? { get }
}

/// `value` as an object, if it is one.
private func _unwrappedObject(_ value: Any) -> AnyObject? {
  guard type(of: value) is AnyClass else { return nil }
  return value as AnyObject
}

extension Observable: _GraphValueCell {
  var _graphValue: Any? { _isPOD(Value.self) ? nil : _withoutTracking { value } }
}

extension Derived: _GraphValueCell {
  var _graphValue: Any? { _isPOD(Value.self) ? nil : _withoutTracking { value } }
}

extension ElementCell: _GraphValueCell {
  var _graphValue: Any? { _isPOD(Element.self) ? nil : _withoutTracking { value } }
}

extension ProjectedCell: _GraphValueCell {
  var _graphValue: Any? { _isPOD(Field.self) ? nil : _withoutTracking { value } }
}

extension Load: _GraphValueCell {
  var _graphValue: Any? { _isPOD(Value.self) ? nil : _withoutTracking { value } }
}
