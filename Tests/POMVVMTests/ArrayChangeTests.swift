import POMVVM
import TestSupport
import Testing

/// An array change's contents: read from the array while it is at the
/// change, so that an observer's write does not copy the storage, and kept
/// exact when the array moves ahead or the change is held.
@MainActor
@Suite("Array change contents")
struct ArrayChangeTests {
  static func makeArray() -> ObservableArray<TestItem> {
    ObservableArray((1...5).map { TestItem($0, "item \($0)") })
  }

  /// The address of the array's storage, without keeping it.
  static func storage(of array: ObservableArray<TestItem>) -> UInt {
    array.elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
  }

  @Test func aReactionWrittenDuringADeliveryDoesNotCopyTheStorage() {
    let array = Self.makeArray()
    var reacted = false
    let reaction = array.observeChanges { change in
      guard !reacted, change.changeSet.updates.first?.newElement.id == 1 else { return }
      reacted = true
      array.update(TestItem(4, "edited by the reaction"))
    }
    let before = Self.storage(of: array)
    array.update(TestItem(1, "edited", on: true))
    #expect(reacted)
    #expect(
      array.map(\.text) == ["edited", "item 2", "item 3", "edited by the reaction", "item 5"])
    #expect(
      Self.storage(of: array) == before,
      "the change being delivered held the storage, so the reaction copied every element")
    reaction.cancel()
  }

  @Test func aChangeReadAfterAReactionStillShowsTheContentsRightAfterIt() {
    let array = Self.makeArray()
    var read: [[String]] = []
    let reaction = array.observeChanges { change in
      if change.changeSet.updates.first?.newElement.id == 1 { array.remove(id: 3) }
    }
    // Runs after the reaction, while the removal waits: the array is ahead.
    let reader = array.observeChanges { change in
      read.append(change.newElements.map(\.text))
      read.append(change.oldElements.map(\.text))
    }
    array.update(TestItem(1, "edited"))
    #expect(
      read == [
        ["edited", "item 2", "item 3", "item 4", "item 5"],
        ["item 1", "item 2", "item 3", "item 4", "item 5"],
        ["edited", "item 2", "item 4", "item 5"],
        ["edited", "item 2", "item 3", "item 4", "item 5"],
      ])
    reaction.cancel()
    reader.cancel()
  }

  @Test func changesHeldPastTheirDeliveryKeepTheirContentsWhileTheArrayMovesOn() {
    let array = Self.makeArray()
    var held: [ArrayChange<TestItem>] = []
    let reaction = array.observeChanges { change in
      if change.changeSet.updates.first?.newElement.id == 1 {
        array.append(TestItem(6, "appended"))
        array.move(from: 0, to: 5)
      }
    }
    let keeper = array.observeChanges { held.append($0) }
    array.update(TestItem(1, "edited"))
    array.remove(id: 2)  // after the delivery: the held changes must not see it
    array.update(TestItem(5, "later"))
    let expected = [
      ["edited", "item 2", "item 3", "item 4", "item 5"],
      ["edited", "item 2", "item 3", "item 4", "item 5", "appended"],
      ["item 2", "item 3", "item 4", "item 5", "appended", "edited"],
      ["item 3", "item 4", "item 5", "appended", "edited"],
      ["item 3", "item 4", "later", "appended", "edited"],
    ]
    #expect(held.map { $0.newElements.map(\.text) } == expected)
    #expect(held.dropFirst().map { $0.oldElements.map(\.text) } == Array(expected.dropLast()))
    reaction.cancel()
    keeper.cancel()
  }

  @Test func aHeldChangeOutlivesItsArray() {
    var held: ArrayChange<TestItem>?
    weak var released: ObservableArray<TestItem>?
    do {
      let array = Self.makeArray()
      released = array
      let keeper = array.observeChanges { held = $0 }
      array.update(TestItem(2, "edited"))
      keeper.cancel()
    }
    #expect(released == nil, "a held change does not keep its array")
    #expect(held?.newElements.map(\.text) == ["item 1", "edited", "item 3", "item 4", "item 5"])
  }

  @Test func aChangeHeldFromAnEarlierDeliveryIsNotReusedByTheNext() {
    let array = Self.makeArray()
    var first: ArrayChange<TestItem>?
    let keeper = array.observeChanges { change in
      if first == nil { first = change }
    }
    array.update(TestItem(1, "once"))
    array.update(TestItem(1, "twice"))
    array.update(TestItem(1, "three times"))
    #expect(first?.newElements.first?.text == "once")
    #expect(first?.changeSet.updates.map(\.newElement.text) == ["once"])
    keeper.cancel()
  }

  /// A reaction's one-update change waits in the queue in a buffer that
  /// the next reaction reuses: a change held from an earlier delivery must
  /// keep its own update, and each later one must carry only its own.
  @Test func aReactionsChangeHeldFromAnEarlierDeliveryIsNotReusedByTheNext() {
    let array = Self.makeArray()
    let reaction = array.observeChanges { change in
      guard let edit = change.changeSet.updates.first, edit.newElement.id == 1 else { return }
      array.update(TestItem(4, "after \(edit.newElement.text)"))
    }
    var reactions: [ArrayChange<TestItem>] = []
    let keeper = array.observeChanges { change in
      if change.changeSet.updates.first?.newElement.id == 4 { reactions.append(change) }
    }
    for round in 1...3 {
      array.update(TestItem(1, "edit \(round)"))
    }
    #expect(
      reactions.map { $0.changeSet.updates.map(\.newElement.text) } == [
        ["after edit 1"], ["after edit 2"], ["after edit 3"],
      ])
    #expect(
      reactions.map { $0.changeSet.updates.map(\.oldElement.text) } == [
        ["item 4"], ["after edit 1"], ["after edit 2"],
      ])
    #expect(array.map(\.text) == ["edit 3", "item 2", "item 3", "after edit 3", "item 5"])
    reaction.cancel()
    keeper.cancel()
  }

  /// The titles of a change's contents, read off the main actor.
  nonisolated static func titles(of change: ArrayChange<SendableItem>) async -> [String] {
    await Task.detached { change.newElements.map(\.title) }.value
  }

  @Test func aChangeSentToAnotherTaskAfterItsDeliveryReadsItsContentsThere() async {
    let array = ObservableArray((1...3).map { SendableItem(id: $0, title: "item \($0)") })
    var held: ArrayChange<SendableItem>?
    let keeper = array.observeChanges { held = $0 }
    array.update(SendableItem(id: 2, title: "edited"))
    array.update(SendableItem(id: 3, title: "edited too"))
    keeper.cancel()
    guard let change = held else {
      Issue.record("no change was delivered")
      return
    }
    let titles = await Self.titles(of: change)
    #expect(titles == ["item 1", "edited", "edited too"])
  }

  /// A change prints as `ArrayChange<…>(changeSet: …)`, as traces, `dump`
  /// and the sample app's transcripts show it, whatever it stores.
  @Test func aChangePrintsItsChangeSetByName() {
    let array = Self.makeArray()
    var printed: [String] = []
    let observer = array.observeChanges { printed.append(String(describing: $0)) }
    array.update(TestItem(1, "edited"))
    let query = array.query(sortedBy: { $0.text < $1.text })
    let queryObserver = query.observeChanges { printed.append(String(describing: $0)) }
    array.update(TestItem(2, "edited too"))
    observer.cancel()
    queryObserver.cancel()
    #expect(printed.count == 3)
    for text in printed {
      #expect(text.hasPrefix("ArrayChange<TestItem>(changeSet: update ["), "\(text)")
    }
  }
}

struct SendableItem: Identifiable, Equatable, Sendable {
  var id: Int
  var title: String
}

extension ArrayChangeTests {
  /// Edits the array once from an observer of a query of it, and says
  /// whether the array's storage stayed where it was. (One write only: after
  /// two copies, the second could land where the first buffer was.)
  static func storageStaysWhenAQueryObserverWrites(sectioned: Bool) -> Bool {
    let array = makeArray()
    var reacted = false
    func react() {
      guard !reacted else { return }
      reacted = true
      array.update(TestItem(4, "edited by the query's observer"))
    }
    let flat = array.query(where: { !$0.text.isEmpty })
    let grouped = array.query(sortedBy: { $0.id < $1.id }, sectionedBy: { $0.on ? 1 : 0 })
    let reaction =
      sectioned
      ? grouped.observeChanges { _ in react() } : flat.observeChanges { _ in react() }
    let before = storage(of: array)
    array.update(TestItem(1, "edited", on: true))
    #expect(reacted)
    #expect(flat.elements.map(\.text) == array.map(\.text))
    #expect(
      Set(grouped.sections.flatMap(\.elements).map(\.text)) == Set(array.map(\.text)))
    reaction.cancel()
    return storage(of: array) == before
  }

  @Test(arguments: [false, true])
  func aReactionFromAQueryObserverDoesNotCopyTheArraysStorage(sectioned: Bool) {
    #expect(
      Self.storageStaysWhenAQueryObserverWrites(sectioned: sectioned),
      "the query's change held the array's storage, so its observer's write copied every element")
  }
}
