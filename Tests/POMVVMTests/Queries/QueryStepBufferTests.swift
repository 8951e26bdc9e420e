import POMVVM
import Testing

/// A query reuses its buffer of touched rows from one move to the next;
/// the buffer keeps no element once its step is published.
@MainActor
@Suite("Query step buffer")
struct QueryStepBufferTests {
  final class Payload {}

  struct Item: Identifiable {
    let id: Int
    var on: Bool
    var payload: Payload
  }

  /// A row moved across sections, then given a new payload: the old one,
  /// which the move's step held as the row's old value, is freed.
  @Test(arguments: [false, true])
  func aMovedRowsOldValueIsNotKeptAfterItsStep(sectioned: Bool) {
    weak var old: Payload?
    let items: ObservableArray<Item>
    var keep: [AnyObject] = []
    do {
      let payload = Payload()
      old = payload
      items = ObservableArray((0..<6).map { Item(id: $0, on: $0 < 3, payload: Payload()) })
      items.cell(for: 1)?.value.payload = payload
    }
    if sectioned {
      let query = items.query(sortedBy: { $0.id < $1.id }, sectionedBy: { $0.on ? 1 : 0 })
      keep.append(query)
      items.cell(for: 1)?.value.on.toggle()
      #expect(query.sections.map(\.ids) == [[1, 3, 4, 5], [0, 2]])
    } else {
      let query = items.query(where: { $0.on }, sortedBy: { $0.id < $1.id })
      keep.append(query)
      items.cell(for: 1)?.value.on.toggle()
      #expect(query.ids == [0, 2])
    }
    #expect(old != nil)
    // The row's new value: nothing holds the old payload now but a kept
    // step would.
    items.cell(for: 1)?.value.payload = Payload()
    #expect(old == nil)
    withExtendedLifetime(keep) {}
  }
}
