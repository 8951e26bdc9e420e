import Movies
import TextUI

extension MoviesFeature {
  /// The keys of the current screen.
  public var keyHelp: String {
    if searchEditor != nil { return "type to search  enter/esc done" }
    if detailViewModel?.alert.isPresented == true {
      return "r retry  c/esc cancel  q quit"
    }
    return detailViewModel == nil
      ? "l load  ↑/↓ move  ←/→ page  enter open  / search  r retry  f fail next  q quit"
      : "esc/b back  r retry  f fail next  q quit"
  }

  /// The current screen for the terminal: the list with a cursor, or the
  /// detail.
  ///
  /// - Parameter size: The space for the screen.
  /// - Returns: The lines to draw.
  public func body(size: TerminalSize) -> Frame {
    var frame = screenBody()
    if detailViewModel == nil {
      frame.lines += searchLines(width: size.width)
    }
    // `f` changes nothing on screen by itself: say what it armed.
    let failures = catalog.pendingFailureCount
    if failures > 0 {
      let what = failures == 1 ? "The next request" : "The next \(failures) requests"
      frame.lines += [Frame.Line(""), Frame.Line("  \(what) will fail (f).", style: .dim)]
    }
    return frame
  }

  /// The search field while it is edited, then the search's results.
  private func searchLines(width: Int) -> [Frame.Line] {
    var lines = searchView.lines.map { Frame.Line($0) }
    if let searchEditor {
      let label = "Search: "
      let field = searchEditor.visible(inWidth: max(1, width - label.count))
      lines.insert(Frame.Line(label + field.text, style: .underline), at: 0)
    }
    return lines.isEmpty ? [] : [Frame.Line("")] + lines
  }

  private func screenBody() -> Frame {
    guard detailViewModel == nil else {
      // The detail, with its failed-load alert under it while it shows:
      // the alert's title bold, its buttons reversed.
      let alertTitle = detail.lines.count + 1
      return Frame(
        lines: lines.enumerated().map { index, line in
          let isButtons = index > alertTitle && line.hasPrefix("  [")
          return Frame.Line(
            line, style: index == 0 || index == alertTitle ? .bold : isButtons ? .reverse : [])
        })
    }
    let lines = list.lines
    guard rowCount > 0 else {
      let hint = lines.first == "Movies: idle" ? ["  Press l to load the catalog."] : []
      return Frame(
        lines: [Frame.Line(lines.first ?? "", style: .bold)]
          + hint.map { Frame.Line($0, style: .dim) })
    }
    cursor.clamp(toRowCount: rowCount)
    return Frame(
      lines: lines.enumerated().map { index, line in
        if index == 0 { return Frame.Line(line, style: .bold) }
        guard index - 1 == cursor.row else { return Frame.Line(line) }
        // The row starts with two spaces of indentation: mark it there.
        return Frame.Line(">" + line.dropFirst(), style: .reverse)
      })
  }

  /// Reacts to a key on the current screen.
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether to go on or quit.
  public func handle(_ key: Key) -> KeyResponse {
    if var editing = searchEditor {
      // Every keystroke is a new query; the view model debounces them.
      switch editing.handle(key) {
      case .editing:
        searchEditor = editing
        search.query.value = editing.text
      case .committed, .cancelled:
        searchEditor = nil
      }
      return .continue
    }
    switch key {
    case .character("q"):
      return .quit
    case .character("f"):
      catalog.failNextRequest()
    case .character("r"):
      if detailViewModel == nil {
        movies.send(.retry)
      } else if let alert = detailViewModel?.alert.destination,
        let retry = alert.button(labelled: "Retry")
      {
        answer(retry)
      } else {
        retryDetail()
      }
    case .character("c") where detailViewModel?.alert.isPresented == true,
      .escape where detailViewModel?.alert.isPresented == true:
      if let alert = detailViewModel?.alert.destination { answer(alert.cancelButton) }
    default:
      if detailViewModel == nil {
        handleOnList(key)
      } else if key == .escape || key == .character("b") || key == .left {
        back()
      }
    }
    return .continue
  }

  private func handleOnList(_ key: Key) {
    // Page keys turn the catalog's pages; the rest move within a page.
    switch key {
    case .character("l"): movies.send(.load)
    case .character("/"): searchEditor = LineEditor(text: search.query.value)
    case .right, .character("n"), .pageDown:
      if movies.send(.next) { cursor.row = 0 }
    case .left, .character("p"), .pageUp:
      if movies.send(.previous) { cursor.row = 0 }
    case .enter: open(row: cursor.row)
    default: _ = cursor.move(for: key, rowCount: rowCount)
    }
  }
}
