import POMVVM
import TestSupport
import Testing

/// A change queued behind the one being delivered is lent to its delivery,
/// not copied: it must stay whole while observers write more changes
/// behind it (the queue grows and moves in memory), and the references it
/// holds (`HeldToken`) must be neither released early nor kept after
/// everyone let go.
@MainActor
@Suite("Queued changes lent to their delivery")
struct QueuedDeliveryLendTests {
  /// Changes queued while a queued change is delivered arrive whole.
  ///
  /// Each change to an element below 10 makes its observer write three
  /// more, so that the queue grows while a queued change is delivered; an
  /// observer keeps every change and what it read during the delivery.
  /// Read again after the delivery, each kept change shows what it showed
  /// then, and replaying the kept change sets gives the array.
  @Test func changesQueuedWhileAQueuedChangeIsDeliveredArriveWhole() throws {
    var weakTokens: [() -> HeldToken?] = []
    var kept: [ArrayChange<TokenItem>] = []
    do {
      let tokens = (0..<40).map { HeldToken($0) }
      weakTokens = HeldToken.weakReferences(to: tokens)
      let initial = (0..<40).map {
        TokenItem(id: $0, title: TokenItem.heapTitle($0, 0), token: tokens[$0])
      }
      let array = ObservableArray(initial)
      var readDuringDelivery: [[TokenItem]] = []
      var writes = 0
      let reaction = array.observeChanges { change in
        guard let id = change.changeSet.updates.first?.newElement.id, id < 10 else { return }
        for next in (id * 3 + 1)...(id * 3 + 3) {
          writes += 1
          array.cell(for: next)?.value.title = TokenItem.heapTitle(next, writes)
        }
      }
      let keeper = array.observeChanges { change in
        kept.append(change)
        readDuringDelivery.append(change.newElements)
      }
      array.cell(for: 0)?.value.title = TokenItem.heapTitle(0, 1)
      reaction.cancel()
      keeper.cancel()
      // Element 0 writes 1, 2, 3; each of those writes three more, and so
      // on up to element 9: 30 writes queued behind the first change.
      #expect(writes == 30)
      #expect(kept.count == 31)
      #expect(kept.map(\.newElements) == readDuringDelivery)
      var replayed = initial
      for change in kept { replayed = try change.changeSet.applied(to: replayed) }
      #expect(replayed == array.elements)
      #expect(weakTokens.allSatisfy { $0() != nil })
      #expect(array.elements.map(\.token.id) == Array(0..<40))
    }
    // The kept changes hold old and new elements: every token is alive.
    #expect(weakTokens.allSatisfy { $0() != nil })
    kept.removeAll()
    #expect(weakTokens.allSatisfy { $0() == nil })
  }

  /// The same chain with the elements' tokens replaced as it goes, and no
  /// change kept: every replaced token goes when its last change is
  /// delivered, and none is freed while a queued change still holds it.
  @Test func tokensReplacedByQueuedChangesGoOnceDelivered() {
    var weakTokens: [() -> HeldToken?] = []
    do {
      let array = ObservableArray(
        (0..<20).map { TokenItem(id: $0, title: "", token: HeldToken($0)) })
      weakTokens = HeldToken.weakReferences(to: array.elements.map(\.token))
      var seenTokenIDs: [Int] = []
      let reaction = array.observeChanges { change in
        guard let update = change.changeSet.updates.first else { return }
        // The old element's token is read after the writes queued behind it.
        let id = update.newElement.id
        if id < 5 {
          for next in (id * 3 + 1)...(id * 3 + 3) {
            array.cell(for: next)?.value.token = HeldToken(next + 100)
          }
        }
        seenTokenIDs.append(update.oldElement.token.id)
      }
      array.cell(for: 0)?.value.token = HeldToken(100)
      reaction.cancel()
      #expect(seenTokenIDs.count == 16)
      #expect(Set(seenTokenIDs) == Set(0...15))
      #expect(array.elements.prefix(16).map(\.token.id) == Array(100...115))
      // The replaced tokens are gone; the others are the array's.
      #expect(weakTokens.prefix(16).allSatisfy { $0() == nil })
      #expect(weakTokens.dropFirst(16).allSatisfy { $0() != nil })
    }
    #expect(weakTokens.allSatisfy { $0() == nil })
  }

  /// Changes to elements that hold a weak reference are copied for their
  /// delivery, not lent; they arrive in order and whole all the same.
  @Test func queuedChangesOfElementsWithWeakReferencesArriveInOrder() throws {
    struct Watcher: Identifiable, Equatable {
      let id: Int
      var round: Int
      weak var token: HeldToken?

      static func == (a: Watcher, b: Watcher) -> Bool {
        a.id == b.id && a.round == b.round && a.token === b.token
      }
    }
    let tokens = (0..<13).map { HeldToken($0) }
    let initial = (0..<13).map { Watcher(id: $0, round: 0, token: tokens[$0]) }
    let array = ObservableArray(initial)
    var delivered: [Int] = []
    var kept: [ArrayChange<Watcher>] = []
    let reaction = array.observeChanges { change in
      guard let id = change.changeSet.updates.first?.newElement.id else { return }
      delivered.append(id)
      kept.append(change)
      guard id < 4 else { return }
      for next in (id * 3 + 1)...(id * 3 + 3) { array.cell(for: next)?.value.round = id + 1 }
    }
    array.cell(for: 0)?.value.round = 1
    reaction.cancel()
    #expect(delivered == Array(0...12))
    var replayed = initial
    for change in kept { replayed = try change.changeSet.applied(to: replayed) }
    #expect(replayed == array.elements)
    #expect(array.elements.allSatisfy { $0.token === tokens[$0.id] })
  }
}
