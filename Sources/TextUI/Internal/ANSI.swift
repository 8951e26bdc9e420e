/// The escape sequences TextUI writes (ECMA-48 and the xterm extensions
/// every current terminal understands).
enum ANSI {
  static let escape = "\u{1B}["
  /// Resets colors and attributes.
  static let resetStyle = "\u{1B}[0m"
  /// Moves the cursor home and erases the screen.
  static let clearScreen = "\u{1B}[H\u{1B}[2J"
  /// Erases from the cursor to the end of the line.
  static let clearToEndOfLine = "\u{1B}[K"
  static let hideCursor = "\u{1B}[?25l"
  static let showCursor = "\u{1B}[?25h"
  static let enterAlternateScreen = "\u{1B}[?1049h"
  static let leaveAlternateScreen = "\u{1B}[?1049l"
  /// Asks the terminal to show the following output at once (terminals
  /// that do not know the mode ignore it), so a frame never shows half
  /// drawn.
  static let beginSynchronizedUpdate = "\u{1B}[?2026h"
  static let endSynchronizedUpdate = "\u{1B}[?2026l"

  /// Moves the cursor to a position, counted from 0.
  static func moveCursor(to position: Position) -> String {
    "\u{1B}[\(position.row + 1);\(position.column + 1)H"
  }

  /// Sets the style's attributes.
  static func setStyle(_ style: LineStyle) -> String {
    "\u{1B}[\(style.sgrParameters)m"
  }
}
