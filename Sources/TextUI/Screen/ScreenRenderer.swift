/// Draws frames on a terminal, writing only the lines that changed since
/// the previous frame.
///
/// The renderer remembers what it drew. ``update(to:size:)`` compares the
/// new frame with it line by line (after cutting each line to the width)
/// and returns the escape sequences that rewrite the changed lines in place,
/// each from its first column: unchanged lines are not touched, so nothing
/// flickers. The first frame, and the first after ``invalidate()`` or a
/// change of size, clears the screen and draws every line.
///
/// ```swift
/// var renderer = ScreenRenderer()
/// let size = TerminalSize(width: 80, height: 24)
/// write(renderer.update(to: Frame(lines: [Frame.Line("a"), Frame.Line("b")]), size: size))
/// write(renderer.update(to: Frame(lines: [Frame.Line("a"), Frame.Line("c")]), size: size))
/// // the second call rewrites row 2 only
/// ```
public struct ScreenRenderer: Sendable {
  /// A line as drawn: cut to the width, control characters made visible.
  private struct DrawnLine: Equatable {
    var text: String
    var width: Int
    var style: LineStyle

    static let blank = DrawnLine(text: "", width: 0, style: [])
  }

  private var drawn: [DrawnLine]?
  private var drawnSize: TerminalSize?
  private var drawnCursor: Position?

  /// Creates a renderer; its first update draws the whole screen.
  public init() {}

  /// Forgets what is on the screen, so that the next update draws every
  /// line (after the screen was resized or written to by someone else).
  public mutating func invalidate() {
    drawn = nil
  }

  /// The output that changes the screen from the last frame to a new one.
  ///
  /// - Parameters:
  ///   - frame: The new frame.
  ///   - size: The terminal's size; when it differs from the last update's,
  ///     the whole screen is drawn.
  /// - Returns: The text to write to the terminal: empty if the screen
  ///   already shows the frame, otherwise cursor moves and the changed
  ///   lines, inside a synchronized update.
  /// - Complexity: O(*h* × *w*) for a screen of *h* rows of *w* columns,
  ///   whatever the length of the frame's texts.
  public mutating func update(to frame: Frame, size: TerminalSize) -> String {
    let height = max(size.height, 0)
    let width = max(size.width, 0)
    var next: [DrawnLine] = []
    next.reserveCapacity(height)
    for row in 0..<height {
      next.append(row < frame.lines.count ? Self.fit(frame.lines[row], width: width) : .blank)
    }
    let cursor = frame.cursor.map {
      Position(
        row: min(max($0.row, 0), max(height - 1, 0)),
        column: min(max($0.column, 0), max(width - 1, 0)))
    }

    let isFullRedraw = drawn == nil || drawnSize != size
    let previous = isFullRedraw ? Array(repeating: DrawnLine.blank, count: height) : drawn ?? []
    let changedRows = (0..<height).filter { next[$0] != previous[$0] }
    defer {
      drawn = next
      drawnSize = size
      drawnCursor = cursor
    }
    guard isFullRedraw || !changedRows.isEmpty || cursor != drawnCursor else { return "" }

    var output = ANSI.beginSynchronizedUpdate
    if isFullRedraw {
      output += ANSI.hideCursor + ANSI.resetStyle + ANSI.clearScreen
    } else if drawnCursor != nil && !changedRows.isEmpty {
      output += ANSI.hideCursor
    }
    for row in changedRows {
      output += ANSI.moveCursor(to: Position(row: row, column: 0))
      output += Self.draw(next[row], width: width)
    }
    if let cursor {
      output += ANSI.moveCursor(to: cursor) + ANSI.showCursor
    } else if drawnCursor != nil && !isFullRedraw {
      output += ANSI.hideCursor
    }
    output += ANSI.endSynchronizedUpdate
    return output
  }

  /// The line's text as drawn: cut to the width, control characters made
  /// visible, and padded across the width when reversed.
  private static func fit(_ line: Frame.Line, width: Int) -> DrawnLine {
    var text = line.text
    let isPlainASCII = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    if !isPlainASCII || text.utf8.count > width {
      // Cut first, then escape: `displayWidth` measures a control character
      // as its escape, so the escape fits and is never cut in two. Cutting
      // looks only at the part that can show: a long text costs the width,
      // not its length.
      text = text.truncated(toWidth: width).withVisibleControlCharacters
    }
    var textWidth = text.displayWidth
    if line.style.contains(.reverse) && textWidth < width {
      text += String(repeating: " ", count: width - textWidth)
      textWidth = width
    }
    return DrawnLine(text: text, width: textWidth, style: line.style)
  }

  private static func draw(_ line: DrawnLine, width: Int) -> String {
    var output = ""
    if !line.style.isEmpty {
      output += ANSI.setStyle(line.style)
    }
    output += line.text
    if !line.style.isEmpty {
      output += ANSI.resetStyle
    }
    // A full line leaves the cursor in the last column, where erasing would
    // erase the line's last character.
    if line.width < width {
      output += ANSI.clearToEndOfLine
    }
    return output
  }
}
