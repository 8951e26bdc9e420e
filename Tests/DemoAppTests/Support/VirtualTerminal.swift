import Testing
import TextUI

/// A terminal for tests: it replays scripted reads and keeps a screen by
/// interpreting what is written to it — the cursor moves, erases and text
/// that ``TextUI/ScreenRenderer`` emits — so that tests compare whole
/// screens, as a user would see them, after each step.
///
/// A control character outside those sequences, and text written past the
/// right edge (where a real terminal would wrap it onto the next row), are
/// violations, recorded as issues unless the terminal is given another
/// handler: text from a script or a file must never reach a terminal as
/// control, and lines are cut to the width as they are drawn.
@MainActor
final class VirtualTerminal: TerminalDevice {
  private(set) var cells: [[String]]
  private(set) var cursor = Position(row: 0, column: 0)
  private(set) var isCursorVisible = true
  private(set) var isFullScreen = false
  private(set) var wasRestored = false
  /// The screen each time the application waited for input.
  private(set) var screens: [String] = []
  /// The rows each write changed (wrote text on or erased), from 0.
  private(set) var rowsWritten: [[Int]] = []
  private var rowsTouched: Set<Int> = []
  private var reads: [TerminalInput]
  let screenSize: TerminalSize
  private let violation: @MainActor (String) -> Void

  init(
    reads: [TerminalInput], size: TerminalSize = .standard,
    violation: @escaping @MainActor (String) -> Void = { Issue.record(Comment(rawValue: $0)) }
  ) {
    self.reads = reads
    screenSize = size
    self.violation = violation
    cells = Array(repeating: Array(repeating: " ", count: size.width), count: size.height)
  }

  /// Reads that type each string in one read each.
  convenience init(typing reads: [String], size: TerminalSize = .standard) {
    self.init(reads: reads.map { .bytes(Array($0.utf8)) }, size: size)
  }

  /// The screen as text: rows without trailing spaces, trailing empty rows
  /// dropped.
  var screen: String {
    var rows = cells.map { row in
      String(row.joined().reversed().drop { $0 == " " }.reversed())
    }
    while rows.last?.isEmpty == true { rows.removeLast() }
    return rows.joined(separator: "\n")
  }

  func enterFullScreen() {
    isFullScreen = true
  }

  func leaveFullScreen() {
    if isFullScreen {
      wasRestored = true
    }
    isFullScreen = false
  }

  func size() -> TerminalSize { screenSize }

  func read(timeout: Duration?) -> TerminalInput {
    if timeout == nil {
      screens.append(screen)
    }
    return reads.isEmpty ? .endOfInput : reads.removeFirst()
  }

  func write(_ text: String) {
    rowsTouched = []
    var characters = text[...]
    while let character = characters.popFirst() {
      guard character == "\u{1B}" else {
        put(character)
        continue
      }
      // CSI: "[", parameters, one final letter; TextUI writes no other
      // escape sequence.
      guard characters.popFirst() == "[" else {
        violation("an escape character outside a CSI sequence reached the terminal")
        continue
      }
      var parameters = ""
      while let next = characters.popFirst() {
        if next.isLetter || next == "~" {
          perform(next, parameters)
          break
        }
        parameters.append(next)
      }
    }
    rowsWritten.append(rowsTouched.sorted())
  }

  private func put(_ character: Character) {
    // Text is data: a control character in it would move the cursor or
    // start a sequence on a real terminal.
    if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      violation("a raw control character reached the terminal: \(character.debugDescription)")
      return
    }
    let width = character.displayWidth
    if cursor.column + width > screenSize.width {
      violation("\(character.debugDescription) was written past the right edge, row \(cursor.row)")
    }
    guard cursor.row < screenSize.height, cursor.column < screenSize.width else { return }
    rowsTouched.insert(cursor.row)
    cells[cursor.row][cursor.column] = String(character)
    if width == 2, cursor.column + 1 < screenSize.width {
      cells[cursor.row][cursor.column + 1] = ""
    }
    cursor.column += width
  }

  private func perform(_ command: Character, _ parameters: String) {
    let numbers = parameters.split(separator: ";").map { Int($0) ?? 0 }
    switch (command, parameters) {
    case ("H", _):
      cursor = Position(
        row: max((numbers.first ?? 1) - 1, 0), column: max((numbers.dropFirst().first ?? 1) - 1, 0))
    case ("J", "2"):
      rowsTouched.formUnion(cells.indices)
      for row in cells.indices {
        cells[row] = Array(repeating: " ", count: screenSize.width)
      }
    case ("K", _):
      rowsTouched.insert(cursor.row)
      for column in min(cursor.column, screenSize.width)..<screenSize.width {
        cells[cursor.row][column] = " "
      }
    case ("h", "?25"): isCursorVisible = true
    case ("l", "?25"): isCursorVisible = false
    default: break  // styles and synchronized updates do not change the text
    }
  }
}
