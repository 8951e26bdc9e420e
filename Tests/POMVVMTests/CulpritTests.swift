import POMVVM
import TestSupport
import Testing

/// A refused write names the code that caused it, whichever way it came,
/// and never a line inside the kit.
@MainActor
@Suite("Culprits of refused writes")
struct CulpritTests {
  static let removed =
    "the element with id 2 was removed from its array; its cell is detached and keeps the last value"

  static func detachedItem() throws -> (ObservableArray<TestItem>, ElementCell<TestItem>) {
    let items = ObservableArray([TestItem(1, "first"), TestItem(2, "second")])
    let item = try #require(items.cell(for: 2))
    items.remove(id: 2)
    return (items, item)
  }

  @Test func aWriteThroughAnElementCellsValueNamesTheCell() throws {
    let (items, item) = try Self.detachedItem()
    let reports = Diagnostics.capturingReports { item.value = TestItem(2, "b") }
    #expect(
      reports.map(\.description) == ["element cell<TestItem> refused a write: \(Self.removed)"])
    #expect(reports.map(\.culprit) == [.cell])
    #expect(reports.map(\.fileID) == [""], "an element cell is not made by the caller's code")
    withExtendedLifetime(items) {}
  }

  @Test func anInPlaceMutationNamesTheCellByItsLabel() throws {
    let (items, item) = try Self.detachedItem()
    item.labelled("item")
    let reports = Diagnostics.capturingReports {
      item.value.text = "b"
      item.value.on.toggle()
    }
    #expect(
      reports.map(\.description) == [
        "item refused a write: \(Self.removed)", "item refused a write: \(Self.removed)",
      ])
    withExtendedLifetime(items) {}
  }

  @Test func aWriteThroughAProjectionNamesTheProjectionAndWhereItWasMade() throws {
    let items = ObservableArray([TestItem(1, "first"), TestItem(2, "second")])
    let line: UInt = #line + 1
    let name = try #require(items.cell(for: 2, \.text)).labelled("detail.name")
    let on = try #require(items.cell(for: 2, \.on))
    items.remove(id: 2)
    let reports = Diagnostics.capturingReports {
      name.value = "a"
      on.value.toggle()
    }
    #expect(
      reports.map(\.description) == [
        "detail.name (made at POMVVMTests/CulpritTests.swift:\(line)) refused a write: "
          + Self.removed,
        "projection<Bool> (made at POMVVMTests/CulpritTests.swift:\(line + 1)) refused a write: "
          + Self.removed,
      ])
    #expect(reports.map(\.culprit) == [.cell, .cell])
    #expect(reports.map(\.fileID) == [#fileID, #fileID])
    #expect(reports.map(\.line) == [line, line + 1])
  }

  @Test func aWriteThroughABindingNamesTheBinding() throws {
    let (items, item) = try Self.detachedItem()
    let name = item.projection(\.text)
    let field = Observable("second")
    let line: UInt = #line + 2
    let reports = Diagnostics.capturingReports {
      field.bind(to: name)  // writes "second" now: refused
      field.value = "c"
    }
    let report = Diagnostics.Report(
      "write refused: \(Self.removed)", fileID: #fileID, line: line, culprit: .binding)
    #expect(reports == [report, report])
    #expect(
      reports.first?.description
        == "write refused: \(Self.removed) (through the binding made at "
        + "POMVVMTests/CulpritTests.swift:\(line))")
    withExtendedLifetime(items) {}
  }

  @Test func aTwoWayBindingNamesTheBindingToo() throws {
    let (items, item) = try Self.detachedItem()
    let field = Observable("second")
    let line: UInt = #line + 1
    item.projection(\.text).bidirectionalBind(to: field)
    let reports = Diagnostics.capturingReports { field.value = "c" }
    #expect(reports.map(\.culprit) == [.binding])
    #expect(reports.map(\.line) == [line])
    #expect(field.value == "second", "the refusing side's value is written back")
    withExtendedLifetime(items) {}
  }

  @Test func setNamesTheLineThatCalledIt() throws {
    let (items, item) = try Self.detachedItem()
    let line: UInt = #line + 1
    let reports = Diagnostics.capturingReports { item.projection(\.text).set("d") }
    #expect(
      reports.map(\.description) == [
        "write refused: \(Self.removed) (at POMVVMTests/CulpritTests.swift:\(line))"
      ])
    withExtendedLifetime(items) {}
  }

  @Test func aGenericWriteNamesTheCellNotTheKit() throws {
    let (items, item) = try Self.detachedItem()
    func write<Cell: MutableObservableCell>(_ cell: Cell, _ value: Cell.Value) {
      cell.set(value)
    }
    let line: UInt = #line + 1
    let erased = item.projection(\.text).labelled("title").erasedToAnyMutableCell()
    let reports = Diagnostics.capturingReports {
      write(item, TestItem(2, "e"))
      erased.value = "f"
      write(erased, "g")
    }
    #expect(
      reports.map(\.description) == [
        "element cell<TestItem> refused a write: \(Self.removed)",
        "title (made at POMVVMTests/CulpritTests.swift:\(line)) refused a write: \(Self.removed)",
        "title (made at POMVVMTests/CulpritTests.swift:\(line)) refused a write: \(Self.removed)",
      ])
    #expect(reports.allSatisfy { !$0.fileID.hasPrefix("POMVVM/") })
    withExtendedLifetime(items) {}
  }

  @Test func aCellOfYoursThatReportsNamesTheKitsCulpritsToo() {
    let field = Observable("")
    let refusing = RefusingCell()
    let line: UInt = #line + 2
    let reports = Diagnostics.capturingReports {
      field.bind(to: refusing)
      field.value = "x"
    }
    #expect(
      reports.map(\.description)
        == Array(
          repeating: "no (through the binding made at POMVVMTests/CulpritTests.swift:\(line))",
          count: 2))
  }
}

/// A cell of an app's own that refuses every write and reports it.
@MainActor
private final class RefusingCell: MutableObservableCell {
  let stored = Observable("")

  var value: String {
    get { stored.value }
    set { set(newValue) }
  }

  @discardableResult
  func set(_ newValue: String) -> Bool { set(newValue, fileID: #fileID, line: #line) }

  @discardableResult
  func set(_ newValue: String, fileID: StaticString, line: UInt) -> Bool {
    Diagnostics.report("no", fileID: fileID, line: line)
    return false
  }

  func observe(_ handler: @escaping @MainActor (String) -> Void) -> Subscription {
    stored.observe(handler)
  }

  func observeChanges(_ handler: @escaping @MainActor (String) -> Void) -> Subscription {
    stored.observeChanges(handler)
  }
}
