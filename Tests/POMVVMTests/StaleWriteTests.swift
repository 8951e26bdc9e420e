import POMVVM
import Testing

/// A row whose `done` flag sits one level down, for projections of
/// projections, with a computed field for projections through a key path.
private struct Row: Identifiable, Equatable {
  struct Flags: Equatable {
    var done = false
  }

  var id: Int
  var title: String
  var flags = Flags()

  var shout: String {
    get { title.uppercased() }
    set { title = newValue.lowercased() }
  }
}

/// Writes through the cells of an element made while the array delivers a
/// change and a newer change of that element waits: each write must start
/// from the array's current element, never from the cell's older copy.
@MainActor
@Suite("Writes during a nested delivery")
struct StaleWriteTests {
  /// Runs `write` from an observer of the array, right after that observer
  /// retitles row 1, while the change of row 2 is being delivered.
  private func inTheWindow(
    _ rows: ObservableArray<Row>, _ write: @escaping @MainActor () -> Void
  ) {
    var fired = false
    let subscription = rows.observeChanges { _ in
      guard !fired else { return }
      fired = true
      rows.update(Row(id: 1, title: "new"))
      write()
    }
    rows.update(Row(id: 2, title: "y"))
    subscription.cancel()
  }

  private func makeRows() -> ObservableArray<Row> {
    ObservableArray([Row(id: 1, title: "old"), Row(id: 2, title: "x")])
  }

  @Test func aFieldWriteThroughAProjectionKeepsTheNewerTitle() throws {
    let rows = makeRows()
    let done = try #require(rows.cell(for: 1, \.flags.done))
    inTheWindow(rows) { done.value = true }
    #expect(rows[id: 1] == Row(id: 1, title: "new", flags: .init(done: true)))
    #expect(done.value == true)
    #expect(rows.cell(for: 1)?.value == rows[id: 1])
  }

  @Test func anInPlaceToggleThroughAProjectionStartsFromTheArray() throws {
    let rows = makeRows()
    let done = try #require(rows.cell(for: 1, \.flags.done))
    inTheWindow(rows) {
      rows.update(Row(id: 1, title: "new", flags: .init(done: true)))
      done.value.toggle()  // the array says true: the toggle makes it false
    }
    #expect(rows[id: 1] == Row(id: 1, title: "new", flags: .init(done: false)))
  }

  @Test func anInPlaceMutationOfAnElementCellKeepsTheNewerTitle() throws {
    let rows = makeRows()
    let cell = try #require(rows.cell(for: 1))
    inTheWindow(rows) { cell.value.flags.done = true }
    #expect(rows[id: 1] == Row(id: 1, title: "new", flags: .init(done: true)))
    #expect(cell.value == rows[id: 1])
  }

  @Test func aProjectionOfAProjectionKeepsTheNewerTitle() throws {
    let rows = makeRows()
    let flags = try #require(rows.cell(for: 1, \.flags))
    let done = flags.projection(\.done)
    inTheWindow(rows) { done.value = true }
    #expect(rows[id: 1] == Row(id: 1, title: "new", flags: .init(done: true)))
    #expect(flags.value.done == true)
  }

  @Test func aComputedFieldProjectionStartsFromTheArray() throws {
    let rows = makeRows()
    let cell = try #require(rows.cell(for: 1))
    let flags = cell.projection(\.flags)
    let shout = cell.projection(\.shout)
    inTheWindow(rows) {
      rows.update(Row(id: 1, title: "new", flags: .init(done: true)))
      shout.value = "NEWER"
    }
    #expect(rows[id: 1] == Row(id: 1, title: "newer", flags: .init(done: true)))
    #expect(flags.value.done == true)
  }

  @Test func aTwoWayBindingIntoAFieldKeepsTheNewerTitle() throws {
    let rows = makeRows()
    let done = try #require(rows.cell(for: 1, \.flags.done))
    let checkbox = Observable(false)
    let token = done.bidirectionalBind(to: checkbox)
    inTheWindow(rows) { checkbox.value = true }
    #expect(rows[id: 1] == Row(id: 1, title: "new", flags: .init(done: true)))
    #expect(checkbox.value == true)
    token.cancel()
  }

  @Test func liveElementAndCountsEndOnTheArraysValue() throws {
    let rows = makeRows()
    let before = rows.liveElement(for: 1)
    let doneBefore = rows.liveCount { $0.flags.done }
    var published: [Row?] = []
    let subscription = before.observeChanges { published.append($0) }
    var during: Derived<Row?>?
    var doneDuring: ArrayCount<Row>?
    let done = try #require(rows.cell(for: 1, \.flags.done))
    inTheWindow(rows) {
      during = rows.liveElement(for: 1)
      doneDuring = rows.liveCount { $0.flags.done }
      done.value = true
    }
    let current = rows[id: 1]
    #expect(current == Row(id: 1, title: "new", flags: .init(done: true)))
    #expect(before.value == current)
    #expect(during?.value == current)
    #expect(doneBefore.value == 1)
    #expect(doneDuring?.value == 1)
    // In order, and never back to an older value after the newest.
    #expect(published.last == current)
    #expect(published.map { $0?.title } == ["new", "new"])
    subscription.cancel()
  }
}
