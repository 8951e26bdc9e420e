/// One full screen of text: the lines from the top, and where the cursor
/// shows.
///
/// An application describes each screen as a frame; ``ScreenRenderer``
/// works out what to write to get from the previous frame to this one.
///
/// ```swift
/// let frame = Frame(lines: [Frame.Line("Items", style: .bold), Frame.Line("  1. [ ] first")])
/// ```
public struct Frame: Hashable, Sendable {
  /// One line of a frame: its text and how it is drawn.
  public struct Line: Hashable, Sendable {
    /// The text; it is cut to the screen's width when drawn, and control
    /// characters in it, tabs included, are drawn as visible escapes
    /// (`\u{1B}`, see ``Swift/StringProtocol/withVisibleControlCharacters``),
    /// never sent to the terminal.
    public var text: String
    /// How the whole line is drawn.
    public var style: LineStyle

    /// Creates a line.
    ///
    /// - Parameters:
    ///   - text: The line's text.
    ///   - style: How it is drawn; plain by default.
    public init(_ text: String, style: LineStyle = []) {
      self.text = text
      self.style = style
    }
  }

  /// The lines, from the top of the screen; lines past the screen's height
  /// are not drawn, and rows past the last line are blank.
  public var lines: [Line]

  /// Where the terminal's cursor shows (to edit text), or `nil` to hide it.
  public var cursor: Position?

  /// Creates a frame.
  ///
  /// - Parameters:
  ///   - lines: The lines, from the top.
  ///   - cursor: Where the cursor shows; hidden by default.
  public init(lines: [Line] = [], cursor: Position? = nil) {
    self.lines = lines
    self.cursor = cursor
  }
}

/// A place on the screen, counted from 0 at the top left.
public struct Position: Hashable, Sendable {
  /// The row, from 0 at the top.
  public var row: Int
  /// The column, from 0 at the left.
  public var column: Int

  /// Creates a position.
  ///
  /// - Parameters:
  ///   - row: The row, from 0 at the top.
  ///   - column: The column, from 0 at the left.
  public init(row: Int, column: Int) {
    self.row = row
    self.column = column
  }
}

/// How a line is drawn: a set of terminal attributes.
public struct LineStyle: OptionSet, Hashable, Sendable {
  /// The attributes, one bit each.
  public var rawValue: UInt8

  /// Creates a style from its bits.
  ///
  /// - Parameter rawValue: The attributes, one bit each.
  public init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// Bold (or bright) text.
  public static let bold = LineStyle(rawValue: 1 << 0)
  /// Dim text, for secondary information such as help.
  public static let dim = LineStyle(rawValue: 1 << 1)
  /// Underlined text.
  public static let underline = LineStyle(rawValue: 1 << 2)
  /// Reversed colors across the whole width of the screen, for a selection.
  public static let reverse = LineStyle(rawValue: 1 << 3)
  /// The accent color (cyan).
  public static let accent = LineStyle(rawValue: 1 << 4)

  /// The Select Graphic Rendition parameters of the style, such as `"1;7"`.
  var sgrParameters: String {
    var parameters: [String] = []
    if contains(.bold) { parameters.append("1") }
    if contains(.dim) { parameters.append("2") }
    if contains(.underline) { parameters.append("4") }
    if contains(.reverse) { parameters.append("7") }
    if contains(.accent) { parameters.append("36") }
    return parameters.joined(separator: ";")
  }
}
