import TextUI

/// The selected row of a list on the terminal, and the window of rows the
/// screen shows.
///
/// The list screens of every feature move and scroll the same way: ↑/↓
/// (and k/j), home, end, page up and page down.
struct ListCursor {
  /// The selected row, from 0.
  var row = 0

  /// The first row shown.
  private(set) var top = 0

  /// How many rows the screen showed last time.
  private(set) var pageSize = 10

  /// Moves the selection for a navigation key.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - rowCount: How many rows the list has.
  /// - Returns: Whether the key was a navigation key.
  mutating func move(for key: Key, rowCount: Int) -> Bool {
    let last = max(rowCount - 1, 0)
    switch key {
    case .up, .character("k"): row = max(row - 1, 0)
    case .down, .character("j"): row = min(row + 1, last)
    case .home: row = 0
    case .end: row = last
    case .pageUp: row = max(row - pageSize, 0)
    case .pageDown: row = min(row + pageSize, last)
    default: return false
    }
    return true
  }

  /// Keeps the selection on an existing row, after rows were removed.
  ///
  /// - Parameter rowCount: How many rows the list has now.
  mutating func clamp(toRowCount rowCount: Int) {
    row = min(max(row, 0), max(rowCount - 1, 0))
  }

  /// The rows to show in `capacity` lines, scrolled so that the selection
  /// is visible.
  ///
  /// - Parameters:
  ///   - rowCount: How many rows the list has.
  ///   - capacity: How many rows fit on the screen.
  /// - Returns: The indices of the rows to show.
  mutating func window(rowCount: Int, capacity: Int) -> Range<Int> {
    clamp(toRowCount: rowCount)
    pageSize = max(capacity, 1)
    top = min(max(top, row - pageSize + 1), row)
    top = max(min(top, rowCount - pageSize), 0)
    return top..<min(top + pageSize, rowCount)
  }
}
