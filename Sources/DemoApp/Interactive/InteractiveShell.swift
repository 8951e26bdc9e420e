import TextUI

/// Interactive mode: a feature as a full-screen terminal application, with
/// a help line that is always visible at the bottom.
///
/// The shell draws the feature's ``DemoFeature/body(size:)`` in every row
/// but the last, and the feature's ``DemoFeature/keyHelp`` in the last row;
/// ``TextUI/FullScreenSession`` runs it and redraws only the lines that
/// changed.
@MainActor
public final class InteractiveShell<Feature: DemoFeature>: TerminalApplication {
  /// The feature on screen.
  public let feature: Feature

  /// Creates a shell for a feature.
  ///
  /// - Parameter feature: The feature to show.
  public init(feature: Feature) {
    self.feature = feature
  }

  /// The feature's screen above its help line.
  ///
  /// A help line wider than the terminal wraps between its entries (`a add`,
  /// `q quit`, …) onto as many rows as it needs, so that no key is cut off;
  /// the body keeps at least one row.
  ///
  /// - Parameter size: The terminal's size.
  /// - Returns: The frame: the body, blank rows, then the help rows.
  public func frame(size: TerminalSize) -> Frame {
    guard size.height > 0 else { return Frame() }
    var help = Self.wrap(feature.keyHelp, width: size.width)
    if help.count > size.height - 1 {
      help = Array(help.suffix(max(size.height - 1, 1)))
    }
    let bodyHeight = max(size.height - help.count, 0)
    var frame = feature.body(size: TerminalSize(width: size.width, height: bodyHeight))
    if frame.lines.count > bodyHeight {
      frame.lines.removeLast(frame.lines.count - bodyHeight)
    }
    frame.lines += Array(repeating: Frame.Line(""), count: bodyHeight - frame.lines.count)
    frame.lines += help.map { Frame.Line($0, style: .dim) }
    return frame
  }

  /// Splits a help line between its entries (separated by two spaces) into
  /// rows of at most `width` columns; an entry wider than that gets a row of
  /// its own.
  static func wrap(_ help: String, width: Int) -> [String] {
    guard help.displayWidth > width else { return [help] }
    var rows: [String] = []
    var row = ""
    for entry in help.split(separator: "  ") {
      let joined = row.isEmpty ? String(entry) : row + "  " + entry
      if row.isEmpty || joined.displayWidth <= width {
        row = joined
      } else {
        rows.append(row)
        row = String(entry)
      }
    }
    rows.append(row)
    return rows
  }

  /// Passes a key to the feature.
  ///
  /// - Parameter key: The key.
  /// - Returns: The feature's response.
  public func handle(_ key: Key) -> KeyResponse {
    feature.handle(key)
  }

  /// Whether the feature's work is still under way.
  public var hasPendingWork: Bool { feature.hasPendingWork }
}
