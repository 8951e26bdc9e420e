import MasterDetail
import Observation
import POMVVM
import Testing

/// The sample's view models, seen through Observation as a SwiftUI view
/// would see them.
@MainActor
@Suite("Master-Detail under Observation")
struct MasterDetailObservationTests {
  /// Counts a tracker's firings; touched only on the main thread.
  final class Fired: @unchecked Sendable {
    var count = 0
  }

  func track(_ read: @MainActor () -> Void) -> Fired {
    let fired = Fired()
    withObservationTracking({ read() }, onChange: { [fired] in fired.count += 1 })
    return fired
  }

  @Test func theDetailsSwitchFiresWhenTheRowTogglesIt() throws {
    let sample = Sample()
    let row = try #require(sample.master.cellViewModel(at: 1))
    let other = try #require(sample.master.cellViewModel(at: 0))
    let detail = try #require(sample.master.detailViewModel(for: row.id))
    let detailSwitch = track { _ = detail.on.value }
    let openCount = track { _ = sample.master.openSwitchCount.value }
    other.text.value = "renamed"
    #expect(detailSwitch.count == 0, "another row's edit")
    row.toggleSwitch()
    #expect(detailSwitch.count == 1)
    #expect(openCount.count == 1)
  }

  @Test func theListsItemsFireOnInsertion() {
    let sample = Sample()
    let rows = track { _ = sample.master.items.count }
    sample.master.insertNowDate(text: "third")
    #expect(rows.count == 1)
  }
}
