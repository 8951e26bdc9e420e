import Foundation
import MasterDetail
import POMVVM

/// A clock that starts at 2026-11-21 10:00:00 UTC and advances a minute per
/// reading, so that every item has a distinct, known date.
@MainActor
final class TestClock {
  private(set) var readings = 0
  let start = Date(timeIntervalSince1970: 1_795_255_200)

  func now() -> Date {
    defer { readings += 1 }
    return start.addingTimeInterval(Double(readings) * 60)
  }
}

/// A list with "first" then "second" inserted at the top (so "second" is
/// row 1), its screen bound, and the clock.
@MainActor
struct Sample {
  let clock = TestClock()
  let master: MasterViewModel
  let list = MasterListView()

  init(texts: [String] = ["first", "second"], bindingTheList: Bool = true) {
    let clock = clock
    master = MasterViewModel(clock: { clock.now() })
    for text in texts {
      master.insertNowDate(text: text)
    }
    if bindingTheList {
      list.bind(to: master)
    }
  }

  /// The list screen's text.
  var screen: String { list.lines.joined(separator: "\n") }

  /// A detail screen bound to the item at a row.
  func detail(row: Int) -> DetailView? {
    guard let viewModel = master.detailViewModel(for: master.items[row].id) else { return nil }
    let view = DetailView()
    view.bind(to: viewModel)
    return view
  }
}

extension DetailView {
  /// The detail screen's text.
  var screen: String { lines.joined(separator: "\n") }
}
