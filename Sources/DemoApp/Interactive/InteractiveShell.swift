import TextUI

/// Interactive mode: a feature as a full-screen terminal application, with
/// a help line that is always visible at the bottom.
///
/// The shell draws the feature's ``DemoFeature/body(size:)`` at the top
/// and the feature's ``DemoFeature/keyHelp`` in the rows the body leaves,
/// at least the last one (``frame(size:)``);
/// ``TextUI/FullScreenSession`` runs it and redraws only the lines that
/// changed.
///
/// Ctrl-G, on every screen, shows the screen's live binding graph in a
/// pane of its own instead of the screen (↑/↓ and page keys scroll it);
/// Ctrl-G or Escape goes back. Ctrl-G types nothing in a text field, so it
/// works on the forms too. In the pane, `t` turns the propagation trace on
/// or off: while it is on, the pane shows, above the graph, every step
/// that the last key given to the screen caused, one a line starting with
/// `trace: `.
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

  isolated deinit {
    trace.stop()
  }

  /// The entry of the help line for the graph pane, after the feature's.
  static var graphKeyHelp: String { "^G graph" }

  /// The lines of the graph pane while it shows, and how far it is
  /// scrolled.
  private var graphPane: (lines: [String], top: Int)?

  /// While the trace is on, the steps of the last key given to the
  /// feature (and of the work it started).
  private let trace = TraceLog()

  /// The smallest window the screens work in; a smaller one shows only
  /// ``tooSmallMessage(for:)``.
  ///
  /// Two rows of content and one of help: a list's title and its selected
  /// row, a form's title and its focused field.
  public static var minimumSize: TerminalSize { TerminalSize(width: 20, height: 3) }

  /// The one line a window smaller than ``minimumSize`` shows, as much of
  /// it as fits: the screen comes back whole when the window grows.
  ///
  /// - Parameter size: The window's size.
  /// - Returns: The line.
  public static func tooSmallMessage(for size: TerminalSize) -> String {
    let minimum = minimumSize
    let candidates = [
      "Window too small (\(size.width)×\(size.height)): make it \(minimum.width)×\(minimum.height) or more",
      "Window too small: \(minimum.width)×\(minimum.height) or more",
      "Window too small",
      "Too small",
    ]
    return candidates.first { $0.displayWidth <= size.width }
      ?? String("Too small".prefix(max(size.width, 0)))
  }

  /// The feature's screen above its help line: content first.
  ///
  /// The body takes the rows it needs, up to all but the last; the help
  /// line gets the rest. A help line wider than the terminal wraps between
  /// its entries (`a add`, `q quit`, …) onto as many rows as it needs and
  /// gets; when it gets fewer, its last rows show (`q quit` and the graph
  /// stay). A body whose cursor would fall below its rows is scrolled up
  /// to show it. A window smaller than ``minimumSize`` shows one line
  /// that says so (``tooSmallMessage(for:)``).
  ///
  /// - Parameter size: The terminal's size.
  /// - Returns: The frame: the body, blank rows, then the help rows.
  public func frame(size: TerminalSize) -> Frame {
    guard size.height > 0, size.width > 0 else { return Frame() }
    guard size.width >= Self.minimumSize.width, size.height >= Self.minimumSize.height else {
      return Frame(lines: [Frame.Line(Self.tooSmallMessage(for: size), style: .accent)])
    }
    let keyHelp =
      graphPane == nil
      ? feature.keyHelp + "  " + Self.graphKeyHelp
      : "↑/↓ scroll  t trace \(trace.isOn ? "off" : "on")  ^G/esc close graph"
    let available = size.height - 1
    var frame =
      graphPane.map { pane in
        Frame(lines: pane.lines.dropFirst(pane.top).prefix(available).map { Frame.Line($0) })
      } ?? feature.body(size: TerminalSize(width: size.width, height: available))
    var help = Self.wrap(keyHelp, width: size.width)
    let helpRows = min(help.count, size.height - min(frame.lines.count, available))
    help = Array(help.suffix(helpRows))
    let bodyHeight = size.height - helpRows
    if let cursor = frame.cursor, cursor.row >= bodyHeight {
      let shift = cursor.row - bodyHeight + 1
      frame.lines.removeFirst(min(shift, frame.lines.count))
      frame.cursor = Position(row: cursor.row - shift, column: cursor.column)
    }
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
    guard var pane = graphPane else {
      if key == .control("g") {
        graphPane = (paneLines(), 0)
        return .continue
      }
      trace.beginStep(of: feature)
      return feature.handle(key)
    }
    switch key {
    case .control("g"), .escape:
      graphPane = nil
      return .continue
    case .character("t"):
      if trace.isOn { trace.stop() } else { trace.start() }
      pane.lines = paneLines()
    case .up: pane.top -= 1
    case .down: pane.top += 1
    case .pageUp: pane.top -= 10
    case .pageDown: pane.top += 10
    case .interrupt: return feature.handle(key)
    default: break
    }
    pane.top = min(max(pane.top, 0), max(pane.lines.count - 1, 0))
    graphPane = pane
    return .continue
  }

  /// The graph pane's lines: the last key's trace while the trace is on,
  /// then the graph.
  private func paneLines() -> [String] {
    let graph = feature.graphLines()
    guard trace.isOn else { return graph }
    let steps = trace.lines.isEmpty ? ["trace: (the last key changed nothing)"] : trace.lines
    return ["Trace of the last key:"] + steps + ["", "Graph:"] + graph
  }

  /// Whether the feature's work is still under way, or changes may come
  /// from outside (``DemoFeature/watchesForOutsideChanges``): the session
  /// then wakes without a key to take them in and draw them.
  public var hasPendingWork: Bool { feature.hasPendingWork || feature.watchesForOutsideChanges }
}
