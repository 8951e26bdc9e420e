import Foundation
import MasterDetail
import POMVVM
import Testing

@MainActor
@Suite("Switchable view models")
struct SwitchableTests {
  @Test func aRowAndADetailShareTheSameSwitch() throws {
    let sample = Sample()
    let row = try #require(sample.master.cellViewModel(at: 1))
    let detail = try #require(sample.master.detailViewModel(for: row.id))
    #expect(row.openSwitch())
    #expect(detail.on.value == true)
    #expect(detail.toggleSwitch())
    #expect(row.on.value == false)
    #expect(detail.closeSwitch())
    #expect(sample.master.openSwitchCount.value == 0)
  }

  @Test func openingTwiceIsOpeningOnceAndNotifiesOnce() throws {
    let sample = Sample()
    let row = try #require(sample.master.cellViewModel(at: 0))
    var seen: [Bool] = []
    let subscription = row.on.observeChanges { seen.append($0) }
    row.openSwitch()
    row.openSwitch()
    row.closeSwitch()
    row.closeSwitch()
    #expect(seen == [true, false])
    withExtendedLifetime(subscription) {}
  }

  @Test func aDeletedItemsSwitchRefusesAndSaysWhy() throws {
    let sample = Sample()
    let row = try #require(sample.master.cellViewModel(at: 0))
    let detail = try #require(sample.master.detailViewModel(for: row.id))
    sample.master.delete(at: 0)
    var results: [Bool] = []
    let reports = Diagnostics.capturing {
      results = [row.openSwitch(), detail.toggleSwitch(), detail.closeSwitch()]
    }
    #expect(results == [false, false, false])
    #expect(reports.count == 3)
    #expect(row.isDetached && detail.isDetached)
  }

  @Test func aRefusedSwitchNamesTheLineThatAsked() throws {
    let sample = Sample()
    let row = try #require(sample.master.cellViewModel(at: 0))
    let detail = try #require(sample.master.detailViewModel(for: row.id))
    sample.master.delete(at: 0)
    let first: UInt = #line + 2
    let reports = Diagnostics.capturingReports {
      row.toggleSwitch()
      detail.openSwitch()
      detail.closeSwitch()
    }
    #expect(reports.map(\.fileID) == Array(repeating: #fileID, count: 3))
    #expect(reports.map(\.line) == [first, first + 1, first + 2])
  }

  @Test func rowsUseTheDefaultTextStyleAndDetailsOverrideIt() throws {
    let sample = Sample()
    let row = try #require(sample.master.cellViewModel(at: 0))
    let detail = try #require(sample.master.detailViewModel(for: row.id))
    #expect(row.textStyle == .accent)
    #expect(detail.textStyle == .emphasis)
    let rowView = ItemRowView()
    rowView.bind(to: row)
    #expect(rowView.style == .accent)
  }

  /// The two view models get their switch code from the protocol extension:
  /// the sample's sources define none of it.
  @Test func theSwitchableDefaultsAreTheOnlyImplementation() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/MasterDetail")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    #expect(files.contains("ViewModels/DateCellViewModel.swift"))
    for file in files {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for name in ["openSwitch", "closeSwitch", "toggleSwitch"] {
        #expect(!text.contains("func \(name)"), "\(file) implements \(name)")
      }
    }
  }
}
