import POMVVM
import TestSupport
import Testing

/// An in-place write swaps the old element out of its slot, and the
/// array's counts and element cells are lent each update, not given
/// copies: the references an element holds (`HeldToken`) must be neither
/// released while someone still holds them nor kept once nobody does.
@MainActor
@Suite("Updates lent to counts and element cells")
struct UpdateLendTests {
  /// Tokens replaced through element cells and `replace(at:with:)` go as
  /// soon as the write is delivered; the current ones stay, and the count
  /// and every cell follow.
  @Test func replacedTokensGoOnceDeliveredAndCurrentOnesStay() throws {
    var weakTokens: [() -> HeldToken?] = []
    do {
      let array = ObservableArray(
        (0..<30).map { TokenItem(id: $0, title: TokenItem.heapTitle($0, 0), token: HeldToken($0)) })
      weakTokens += HeldToken.weakReferences(to: array.elements.map(\.token))
      let onCount = array.liveCount { $0.on && $0.token.id >= 0 }
      var counted: [Int] = []
      let countSubscription = onCount.observeChanges { counted.append($0) }
      let cells = try (0..<30).map { try #require(array.cell(for: $0)) }
      var seenByCells = 0
      let cellSubscriptions = cells.map { cell in
        cell.observeChanges { _ in seenByCells += 1 }
      }
      let onFields = cells.map { $0.projection(\.on) }
      var writes = 0
      for round in 1...3 {
        let replaced = weakTokens.suffix(30)
        for id in 0..<30 {
          let old = replaced[replaced.startIndex + id]
          let token = HeldToken(id)
          weakTokens.append { [weak token] in token }
          if id.isMultiple(of: 2) {
            cells[id].value.token = token
            onFields[id].value.toggle()
          } else {
            var element = array.elements[id]
            element.token = token
            element.on.toggle()
            element.title = TokenItem.heapTitle(id, round)
            array.replace(at: id, with: element)
          }
          writes += id.isMultiple(of: 2) ? 2 : 1
          #expect(old() == nil, "the replaced token of \(id) outlived its write")
          #expect(array.elements[id].token === token)
          #expect(cells[id].value == array.elements[id])
          #expect(onCount.value == array.elements.count { $0.on })
        }
        // The current tokens are alive; nobody holds the earlier ones.
        let current = weakTokens.suffix(30)
        #expect(current.allSatisfy { $0() != nil })
        #expect(weakTokens.dropLast(30).allSatisfy { $0() == nil })
      }
      #expect(seenByCells == writes)
      #expect(counted.last == array.elements.count { $0.on })
      countSubscription.cancel()
      for subscription in cellSubscriptions { subscription.cancel() }
    }
    #expect(weakTokens.allSatisfy { $0() == nil })
  }

  /// A write of an equal element, through the array or a cell, publishes
  /// nothing and changes nothing, not even a copy of the elements that
  /// someone holds; the next real write leaves that copy as it was.
  @Test func aWriteOfAnEqualElementChangesNothingAndLeavesHeldElementsAlone() throws {
    let tokens = (0..<5).map { HeldToken($0) }
    let weakTokens = HeldToken.weakReferences(to: tokens)
    let array = ObservableArray(
      (0..<5).map { TokenItem(id: $0, title: TokenItem.heapTitle($0, 0), token: tokens[$0]) })
    let held = array.elements
    var changes: [ArrayChange<TokenItem>] = []
    let subscription = array.observeChanges { changes.append($0) }
    let cell = try #require(array.cell(for: 3))
    array.replace(at: 2, with: held[2])
    cell.set(held[3])
    cell.value.title = held[3].title
    #expect(changes.isEmpty)
    #expect(array.elements == held)
    #expect(weakTokens.allSatisfy { $0() != nil })

    cell.value.title = TokenItem.heapTitle(3, 1)
    #expect(changes.count == 1)
    #expect(changes.first?.changeSet.updates.first?.oldElement == held[3])
    #expect(held[3].title == TokenItem.heapTitle(3, 0))
    #expect(array.elements[3].title == TokenItem.heapTitle(3, 1))
    #expect(array.elements[3].token === tokens[3])
    subscription.cancel()
  }

  /// An element holding a weak reference, whose move is not a load of its
  /// bits.
  struct WeakHolder: Identifiable, Equatable {
    let id: Int
    var on: Bool
    weak var token: HeldToken?

    static func == (a: WeakHolder, b: WeakHolder) -> Bool {
      a.id == b.id && a.on == b.on && a.token === b.token
    }
  }

  /// Elements that cannot be lent are copied: the count and the cells
  /// follow them as they follow lent ones.
  @Test func elementsThatCannotBeLentAreCopiedAndFollowed() throws {
    let tokens = (0..<4).map { HeldToken($0) }
    let array = ObservableArray((0..<4).map { WeakHolder(id: $0, on: false, token: tokens[$0]) })
    let onCount = array.liveCount { $0.on && $0.token != nil }
    let cell = try #require(array.cell(for: 2))
    var seen: [Bool] = []
    let subscription = cell.observeChanges { seen.append($0.on) }
    cell.value.on = true
    array.replace(at: 1, with: WeakHolder(id: 1, on: true, token: tokens[1]))
    #expect(onCount.value == 2)
    #expect(seen == [true])
    #expect(cell.value.token === tokens[2])
    cell.value.on = false
    #expect(onCount.value == 1)
    #expect(seen == [true, false])
    subscription.cancel()
  }
}
