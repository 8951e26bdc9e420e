import POMVVM
import Testing

/// The live graph: what it holds, how it is named, how it is drawn, and
/// that it forgets what is gone.
@MainActor
@Suite("Binding graph")
struct BindingGraphTests {
  struct Item: Identifiable, Equatable {
    var id: Int
    var on: Bool
  }

  final class RowViewModel: ViewModel {
    let on: ProjectedCell<ElementCell<Item>, Bool>
    init(_ cell: ElementCell<Item>) {
      on = cell.projection(\.on)
    }
  }

  final class ScreenViewModel: ViewModel {
    let items = ObservableArray([Item(id: 1, on: false), Item(id: 2, on: true)])
    let title = Observable("Switches")
    lazy var openCount = items.liveCount(where: \.on).labelled("open switches")
    var rows: [RowViewModel] = []
    var detail: RowViewModel?

    init() {
      rows = items.compactMap { items.cell(for: $0.id).map(RowViewModel.init) }
      detail = items.cell(for: 1).map(RowViewModel.init)
    }
  }

  private func node(
    _ graph: BindingGraph, labelled label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> BindingGraph.Node {
    try #require(
      graph.nodes.first { $0.label == label }, "no node \(label)", sourceLocation: sourceLocation)
  }

  @Test func aViewModelsCellsAreNamedByTheirPropertyPaths() throws {
    let screen = ScreenViewModel()
    _ = screen.openCount
    let graph = BindingGraph(reachableFrom: screen)
    let title = try node(graph, labelled: "title")
    #expect(title.kind == .cell)
    #expect(title.valueType == "String")
    #expect(title.value == "Switches")
    #expect(title.origin == "POMVVMTests/BindingGraphTests.swift:23")
    let items = try node(graph, labelled: "items")
    #expect(items.kind == .array)
    #expect(items.valueType == "Item")
    #expect(items.value == "2 elements")
    #expect(try node(graph, labelled: "open switches").kind == .aggregate)
    #expect(try node(graph, labelled: "rows[0].on").kind == .projection)
    #expect(try node(graph, labelled: "rows[1].on").value == "true")
    #expect(try node(graph, labelled: "detail.on").kind == .projection)
  }

  final class FilteredScreenViewModel: ViewModel {
    let items = ObservableArray([Item(id: 1, on: false), Item(id: 2, on: true)])
    lazy var open = items.query(where: \.on)
    lazy var grouped = items.query(sectionedBy: { $0.on ? 1 : 0 })
  }

  @Test func queriesAreNamedByTheirPropertyPaths() throws {
    let screen = FilteredScreenViewModel()
    _ = (screen.open, screen.grouped)
    let graph = BindingGraph(reachableFrom: screen)
    let open = try node(graph, labelled: "open")
    #expect(open.kind == .aggregate)
    #expect(open.origin == "POMVVMTests/BindingGraphTests.swift:62")
    #expect(try node(graph, labelled: "grouped").kind == .aggregate)
  }

  @Test func edgesLinkArraysToTheirCellsAndCellsToWhatDerivesFromThem() throws {
    let screen = ScreenViewModel()
    _ = screen.openCount
    let graph = BindingGraph(reachableFrom: screen.items.labelled("items"))
    let items = try node(graph, labelled: "items")
    let open = try node(graph, labelled: "open switches")
    let elementCells = graph.nodes.filter { $0.kind == .elementCell }
    #expect(elementCells.count == 2)
    #expect(elementCells.map(\.value) == ["Item(id: 1, on: false)", "Item(id: 2, on: true)"])
    for cell in elementCells {
      #expect(
        graph.edges.contains { $0.from == items.id && $0.to == cell.id && $0.kind == .element })
    }
    #expect(
      graph.edges.contains { $0.from == items.id && $0.to == open.id && $0.kind == .derivation })
    // Element 1 has two projections (its row's and the detail's).
    let first = try #require(elementCells.first)
    let projections = graph.edges.filter { $0.from == first.id && $0.kind == .derivation }
    #expect(projections.count == 2)
    #expect(projections.allSatisfy { graph.nodes[$0.to].kind == .projection })
  }

  @Test func bindingsAreEdgesWithTheLineThatMadeThem() throws {
    let name = Observable("Ada").labelled("name")
    let label = Observable("").labelled("label")
    let mirror = Observable("").labelled("mirror")
    let line = #line + 1
    name.bind(to: label)
    name.bidirectionalBind(to: mirror)
    let graph = BindingGraph(reachableFrom: name)
    #expect(graph.nodes.map(\.label) == ["name", "label", "mirror"])
    #expect(
      graph.edges == [
        BindingGraph.Edge(
          from: 0, to: 1, kind: .binding, origin: "POMVVMTests/BindingGraphTests.swift:\(line)"),
        BindingGraph.Edge(
          from: 0, to: 2, kind: .twoWayBinding,
          origin: "POMVVMTests/BindingGraphTests.swift:\(line + 1)"),
      ])
  }

  @Test func observersAreNodesAndDerivedCellsShowEverySource() throws {
    let first = Observable("Ada").labelled("first")
    let last = Observable("Lovelace").labelled("last")
    let full = combine(first, last) { "\($0) \($1)" }.labelled("full")
    let subscription = full.observe { _ in }
    let graph = BindingGraph(reachableFrom: first)
    let fullNode = try node(graph, labelled: "full")
    #expect(fullNode.kind == .derived)
    #expect(fullNode.value == "Ada Lovelace")
    let lastNode = try node(graph, labelled: "last")
    #expect(graph.edges.contains { $0.from == lastNode.id && $0.to == fullNode.id })
    let observers = graph.nodes.filter { $0.kind == .observer }
    #expect(observers.count == 1)
    #expect(
      graph.edges.contains {
        $0.from == fullNode.id && $0.to == observers[0].id && $0.kind == .subscription
      })
    subscription.cancel()
    #expect(!BindingGraph(reachableFrom: first).nodes.contains { $0.kind == .observer })
  }

  @Test func aReleasedViewModelLeavesNoNodeBehind() {
    let marker = "released-\(Int.random(in: 0...Int.max))"
    func labels() -> [String] {
      BindingGraph.everythingAlive().nodes.compactMap(\.label).filter { $0.hasPrefix(marker) }
    }
    do {
      let screen = ScreenViewModel()
      screen.title.labelled("\(marker) title")
      screen.items.labelled("\(marker) items")
      screen.openCount.labelled("\(marker) open")
      #expect(labels().sorted() == ["\(marker) items", "\(marker) open", "\(marker) title"])
    }
    #expect(labels() == [])
  }

  @Test func textIndentsDependentsUnderTheirSources() {
    let name = Observable("Ada", line: 1).labelled("name")
    let label = Observable("", line: 2).labelled("label")
    name.bind(to: label, line: 3)
    let length = name.map({ $0.count }, line: 4).labelled("length")
    #expect(
      BindingGraph(reachableFrom: name).text == """
        cell<String> "name" = Ada @POMVVMTests/BindingGraphTests.swift:1
          binding @POMVVMTests/BindingGraphTests.swift:3 → cell<String> "label" = Ada @POMVVMTests/BindingGraphTests.swift:2
          derivation → derived<Int> "length" = 3 @POMVVMTests/BindingGraphTests.swift:4
        """)
    extendLifetime(length)
  }

  @Test func dotIsADigraphWithEscapedLabels() {
    let quote = Observable("say \"hi\"\u{1B}[2J", line: 7).labelled("a \\ b")
    let copy = Observable("", line: 8)
    quote.bidirectionalBind(to: copy, line: 9)
    #expect(
      BindingGraph(reachableFrom: quote).dot == #"""
        digraph POMVVM {
          rankdir=LR;
          node [shape=box];
          n0 [label="cell<String>\n\"a \\ b\"\n= say \"hi\"\\u{1B}[2J\nPOMVVMTests/BindingGraphTests.swift:7"];
          n1 [label="cell<String>\n= say \"hi\"\\u{1B}[2J\nPOMVVMTests/BindingGraphTests.swift:8"];
          n0 -> n1 [label="two-way binding\nPOMVVMTests/BindingGraphTests.swift:9", dir=both];
        }
        """#)
  }

  @Test func labellingByPropertyPathKeepsExplicitLabels() {
    let screen = ScreenViewModel()
    screen.title.labelled("screen title")
    BindingGraph.labelByPropertyPath([screen])
    #expect(screen.title.graphLabel == "screen title")
    #expect(screen.items.graphLabel == "items")
    #expect(screen.rows.map(\.on.graphLabel) == ["rows[0].on", "rows[1].on"])
    #expect(screen.detail?.on.graphLabel == "detail.on")
  }

  final class Owner: SubscriptionOwner {
    let subscriptions = SubscriptionBag()
  }

  @Test func anObserverOnBehalfOfAnOwnerShowsTheLineThatSubscribed() throws {
    let owner = Owner()
    let name = Observable("Ada").labelled("name")
    let tapped = EventStream<Void>().labelled("tapped")
    let line = #line + 1
    name.observe(owner) { _, _ in }
    tapped.observe(owner) { _, _ in }
    let graph = BindingGraph(reachableFrom: name, tapped)
    #expect(graph.nodes.map(\.kind) == [.cell, .observer, .events, .observer])
    #expect(
      graph.nodes.map(\.origin).suffix(3) == [
        "POMVVMTests/BindingGraphTests.swift:\(line)",
        "POMVVMTests/BindingGraphTests.swift:\(line - 2)",
        "POMVVMTests/BindingGraphTests.swift:\(line + 1)",
      ])
    var steps: [String] = []
    PropagationTrace.start { steps.append($0.description) }
    name.value = "Grace"
    PropagationTrace.stop()
    #expect(
      steps == [
        "name = Grace", "  → observer of name (POMVVMTests/BindingGraphTests.swift:\(line))",
      ])
  }

  @Test func loadsAndStoresShowTheLineThatMadeThem() throws {
    let line = #line + 1
    let load = Load<Int>().labelled("load")
    let store = Store([Item(id: 1, on: true)])
    let graph = BindingGraph(reachableFrom: load, store)
    let loadNode = try node(graph, labelled: "load")
    #expect(loadNode.kind == .cell)
    #expect(loadNode.value == "idle")
    #expect(loadNode.origin == "POMVVMTests/BindingGraphTests.swift:\(line)")
    let origins = graph.nodes.filter { $0.label == "items" || $0.label == "saveError" }
      .map(\.origin)
    #expect(
      origins == Array(repeating: "POMVVMTests/BindingGraphTests.swift:\(line + 1)", count: 2))
  }

  @Test func longValuesAreCut() throws {
    let long = Observable(String(repeating: "x", count: 100)).labelled("long")
    let node = try node(BindingGraph(reachableFrom: long), labelled: "long")
    #expect(node.value == String(repeating: "x", count: 39) + "…")
  }

  @Test func aCycleOfBindingsIsWrittenOnce() {
    let a = Observable(1, line: 1).labelled("a")
    let b = Observable(1, line: 2).labelled("b")
    a.bind(to: b, line: 3)
    b.bind(to: a, line: 4)
    let text = BindingGraph(reachableFrom: a).text
    #expect(
      text == """
        cell<Int> "a" = 1 @POMVVMTests/BindingGraphTests.swift:1
          binding @POMVVMTests/BindingGraphTests.swift:3 → cell<Int> "b" = 1 @POMVVMTests/BindingGraphTests.swift:2
            binding @POMVVMTests/BindingGraphTests.swift:4 → cell<Int> "a" = 1 @POMVVMTests/BindingGraphTests.swift:1 (above)
        """)
  }

  @Test func anArrayOfOneHasOneElement() throws {
    let items = ObservableArray([Item(id: 1, on: false)]).labelled("items")
    #expect(try node(BindingGraph(reachableFrom: items), labelled: "items").value == "1 element")
    items.append(Item(id: 2, on: true))
    #expect(try node(BindingGraph(reachableFrom: items), labelled: "items").value == "2 elements")
  }

  final class ListViewModel: ViewModel {
    let header = Observable("Groceries", line: 1)
  }

  final class DetailViewModel: ViewModel {
    let header = Observable("milk", line: 2)
    let title = Observable("", line: 3)
  }

  @Test func aNameThatSeveralObjectsShareIsQualifiedByTheOwnersType() {
    let list = ListViewModel()
    let detail = DetailViewModel()
    let graph = BindingGraph(reachableFrom: list, detail)
    #expect(
      graph.text == """
        cell<String> "ListViewModel.header" = Groceries @POMVVMTests/BindingGraphTests.swift:1
        cell<String> "DetailViewModel.header" = milk @POMVVMTests/BindingGraphTests.swift:2
        cell<String> "title" =  @POMVVMTests/BindingGraphTests.swift:3
        """)
  }

  final class DeletableDetailViewModel: ViewModel {
    let item: ElementCell<Item>
    let isGone = Observable(false, line: 1)
    init(_ item: ElementCell<Item>) {
      self.item = item
      item.detachment.bind(to: isGone, line: 2)
    }
  }

  @Test func aBindingFromDetachmentIsConnectedToItsElementCell() throws {
    let items = ObservableArray([Item(id: 1, on: false)])
    let detail = DeletableDetailViewModel(try #require(items.cell(for: 1)))
    let graph = BindingGraph(reachableFrom: detail)
    #expect(
      graph.text == """
        element cell<Item> "item" = Item(id: 1, on: false)
          derivation → derived<Bool> = false
            binding @POMVVMTests/BindingGraphTests.swift:2 → cell<Bool> "isGone" = false @POMVVMTests/BindingGraphTests.swift:1
        """)
  }

  final class SheetViewModel: ViewModel {
    let title = Observable("sheet")
  }

  enum Destination {
    case sheet(SheetViewModel)
  }

  final class PresentingViewModel: ViewModel {
    let destination = Observable<Destination?>(.sheet(SheetViewModel()))
    var inline: Destination? = .sheet(SheetViewModel())
    let rows = ObservableArray([Row(id: 1)])
  }

  final class Row: ViewModel, Identifiable {
    let id: Int
    let on = Observable(false)
    init(id: Int) { self.id = id }
  }

  @Test func enumPayloadsCellValuesAndArrayElementsAreSearched() throws {
    let graph = BindingGraph(reachableFrom: PresentingViewModel())
    #expect(try node(graph, labelled: "destination.value.sheet.title").value == "sheet")
    #expect(try node(graph, labelled: "inline.sheet.title").kind == .cell)
    #expect(try node(graph, labelled: "rows[0].on").kind == .cell)
  }

  final class Chain: ViewModel {
    let value = Observable(0)
    var next: Chain?
    init(depth: Int) { next = depth > 1 ? Chain(depth: depth - 1) : nil }
  }

  @Test func theSearchHasNoDepthLimit() throws {
    let graph = BindingGraph(reachableFrom: Chain(depth: 10))
    let deepest = Array(repeating: "next", count: 9).joined(separator: ".") + ".value"
    #expect(try node(graph, labelled: deepest).kind == .cell)
    #expect(graph.nodes.count == 10)
  }
}
