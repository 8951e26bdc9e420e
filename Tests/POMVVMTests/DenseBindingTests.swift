import POMVVM
import TestSupport
import Testing

/// Cells bound in a graph, each with an observer counting its
/// notifications.
@MainActor
struct BoundGraph<Value> {
  let cells: [Observable<Value>]
  let counts: Counts
  let subscriptions: [Subscription]

  init(_ size: Int, initial: Value, edges: [(Int, Int)]) {
    let cells = (0..<size).map { _ in Observable(initial) }
    let counts = Counts(size)
    subscriptions = cells.indices.map { index in
      cells[index].observeChanges { _ in counts.values[index] += 1 }
    }
    for (a, b) in edges {
      cells[a].bidirectionalBind(to: cells[b])
    }
    self.cells = cells
    self.counts = counts
  }
}

@MainActor
final class Counts {
  var values: [Int]
  init(_ size: Int) { values = Array(repeating: 0, count: size) }
}

/// Binding graphs with many cycles: complete graphs and random dense ones,
/// of values that can be compared and of values that cannot.
@MainActor
@Suite("Dense binding graphs")
struct DenseBindingTests {
  static func completeEdges(_ size: Int) -> [(Int, Int)] {
    (0..<size).flatMap { a in ((a + 1)..<size).map { (a, $0) } }
  }

  /// About two thirds of all pairs, connected (a ring underneath).
  static func randomDenseEdges(_ size: Int, seed: UInt64) -> [(Int, Int)] {
    var random = SplitMix64(seed: seed)
    var edges = (0..<size).map { ($0, ($0 + 1) % size) }
    for (a, b) in completeEdges(size) where b != a + 1 && !(a == 0 && b == size - 1) {
      if Int.random(in: 0..<3, using: &random) > 0 { edges.append((a, b)) }
    }
    edges.shuffle(using: &random)
    return edges
  }

  @Test(arguments: 3...8)
  func oneSetInACompleteGraphOfOpaqueValuesTellsEachCellOnce(size: Int) {
    let graph = BoundGraph(size, initial: Opaque(number: 0), edges: Self.completeEdges(size))
    for setter in [1, size - 1] {
      graph.counts.values = Array(repeating: 0, count: size)
      let value = 10 + setter
      let reports = Diagnostics.capturing { graph.cells[setter].value = Opaque(number: value) }
      #expect(reports == [])
      #expect(graph.cells.map(\.value.number) == Array(repeating: value, count: size))
      #expect(graph.counts.values == Array(repeating: 1, count: size), "K\(size)")
    }
    withExtendedLifetime(graph.subscriptions) {}
  }

  @Test(arguments: 3...8)
  func oneSetInACompleteGraphOfEquatableValuesTellsEachCellOnce(size: Int) {
    let graph = BoundGraph(size, initial: 0, edges: Self.completeEdges(size))
    let reports = Diagnostics.capturing { graph.cells[1].value = 9 }
    #expect(reports == [])
    #expect(graph.cells.map(\.value) == Array(repeating: 9, count: size))
    #expect(graph.counts.values == Array(repeating: 1, count: size), "K\(size)")
    withExtendedLifetime(graph.subscriptions) {}
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func randomDenseGraphsOfEitherFlavourSettleWithAtMostTwoNotificationsPerCell(seed: UInt64) {
    var random = SplitMix64(seed: seed &* 7919)
    for size in [5, 8, 12] {
      let edges = Self.randomDenseEdges(size, seed: seed &+ UInt64(size))
      let opaque = BoundGraph(size, initial: Opaque(number: 0), edges: edges)
      let equatable = BoundGraph(size, initial: 0, edges: edges)
      for step in 1...6 {
        let setter = Int.random(in: 0..<size, using: &random)
        opaque.counts.values = Array(repeating: 0, count: size)
        equatable.counts.values = Array(repeating: 0, count: size)
        let reports = Diagnostics.capturing {
          opaque.cells[setter].value = Opaque(number: step)
          equatable.cells[setter].value = step
        }
        #expect(reports == [])
        #expect(opaque.cells.map(\.value.number) == Array(repeating: step, count: size))
        #expect(equatable.cells.map(\.value) == Array(repeating: step, count: size))
        #expect(opaque.counts.values.allSatisfy { $0 >= 1 && $0 <= 2 }, "\(opaque.counts.values)")
        #expect(equatable.counts.values == Array(repeating: 1, count: size))
      }
      withExtendedLifetime((opaque.subscriptions, equatable.subscriptions)) {}
    }
  }

  @Test func aClampStillFlowsBackThroughACompleteGraphOfOpaqueValues() {
    let graph = BoundGraph(5, initial: Opaque(number: 0), edges: Self.completeEdges(5))
    // Cell 3 accepts at most 10.
    let clamp = graph.cells[3].observeChanges { value in
      if value.number > 10 { graph.cells[3].value = Opaque(number: 10) }
    }

    graph.counts.values = Array(repeating: 0, count: 5)
    let reports = Diagnostics.capturing { graph.cells[0].value = Opaque(number: 50) }
    #expect(reports == [])
    #expect(graph.cells.map(\.value.number) == Array(repeating: 10, count: 5))
    #expect(graph.counts.values.allSatisfy { $0 <= 2 }, "\(graph.counts.values)")
    withExtendedLifetime((graph.subscriptions, clamp)) {}
  }

  @Test func aRefusedWriteDoesNotHideTheNextChangeOfThatCell() {
    // A cell that drops sets of values it calls duplicates: the binding's
    // write of 5 is refused, and the next real change must still travel.
    let a = Observable(Opaque(number: 0))
    let b = Observable(Opaque(number: 5), isDuplicate: { $0.number == $1.number })
    let c = Observable(Opaque(number: 0))
    a.bidirectionalBind(to: b)
    b.bidirectionalBind(to: c)
    a.value = Opaque(number: 5)
    #expect([a.value.number, b.value.number, c.value.number] == [5, 5, 5])
    b.value = Opaque(number: 6)
    #expect([a.value.number, b.value.number, c.value.number] == [6, 6, 6])
  }
}
