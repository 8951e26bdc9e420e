import MasterDetail
import TextUI

extension MasterDetailFeature {
  /// The keys of the screen showing, for the help line, with what undo
  /// and redo would do next (`u undo: Rename`).
  public var keyHelp: String {
    let historyKeys = HistoryCommand.keyHelp(for: history)
    switch screen {
    case .list:
      return "↑/↓ move  space toggle  enter open  a add  d delete  \(historyKeys)  q quit"
    case .detail where editor != nil:
      return LineEditor.keyHelp
    case .detail:
      return "space toggle  e edit text  d delete  \(historyKeys)  esc/b back  q quit"
    }
  }

  /// The list or the detail screen, fitted to the terminal.
  ///
  /// The list shows its header and the rows that fit, scrolled to keep the
  /// selected row in view; the selected row is marked with `>` and drawn
  /// reversed. Only the rows in view are read from the list screen. The
  /// detail shows the ``MasterDetail/DetailView``'s lines, with the line
  /// editor in place of the text while it is being edited.
  ///
  /// - Parameter size: The space for the screen.
  /// - Returns: The frame.
  public func body(size: TerminalSize) -> Frame {
    switch screen {
    case .list: return listBody(size: size)
    case .detail: return detailBody(size: size)
    }
  }

  private func listBody(size: TerminalSize) -> Frame {
    var lines = [Frame.Line(list.header.title.value, style: .bold)]
    guard rowCount > 0 else {
      lines.append(Frame.Line("  No items yet: press a to add one.", style: .dim))
      return Frame(lines: lines)
    }
    for index in cursor.window(rowCount: rowCount, capacity: size.height - 1) {
      var style = Self.style(for: list.rows[index].style)
      var text = list.line(forRow: index)
      if index == cursor.row {
        // The line starts with two spaces of indentation: mark it there.
        text = ">" + text.dropFirst()
        style.insert(.reverse)
      }
      lines.append(Frame.Line(text, style: style))
    }
    return Frame(lines: lines)
  }

  private func detailBody(size: TerminalSize) -> Frame {
    // The detail's lines are its title, then `  Label:   value` lines.
    let textLabel = "  Text:   "
    let textStyle = Self.style(for: detail.style)
    var lines = detail.lines.enumerated().map { index, line in
      Frame.Line(line, style: index == 0 ? .bold : line.hasPrefix(textLabel) ? textStyle : [])
    }
    guard let editor, let textRow = lines.firstIndex(where: { $0.text.hasPrefix(textLabel) })
    else { return Frame(lines: lines) }
    let field = editor.visible(inWidth: size.width - textLabel.count)
    lines[textRow] = Frame.Line(textLabel + field.text, style: .underline)
    return Frame(
      lines: lines, cursor: Position(row: textRow, column: textLabel.count + field.cursorColumn))
  }

  private static func style(for style: TextStyle) -> LineStyle {
    switch style {
    case .plain: return []
    case .accent: return .accent
    case .emphasis: return .bold
    }
  }

  /// Reacts to a key on the list, on the detail, or in the line editor.
  ///
  /// - Parameter key: The key.
  /// - Returns: ``TextUI/KeyResponse/quit`` for `q` (outside the editor).
  public func handle(_ key: Key) -> KeyResponse {
    if editor != nil {
      edit(with: key)
      return .continue
    }
    if key == .character("q") { return .quit }
    if handleHistoryKey(key) { return .continue }
    switch screen {
    case .list: handleOnList(key)
    case .detail: handleOnDetail(key)
    }
    return .continue
  }

  private func handleOnList(_ key: Key) {
    guard !cursor.move(for: key, rowCount: rowCount) else { return }
    switch key {
    case .character(" "):
      if list.rows.indices.contains(cursor.row) {
        master.history.transaction("Toggle") { list.rows[cursor.row].tapSwitch() }
      }
    case .enter:
      open(row: cursor.row)
    case .character("a"):
      master.insertNowDate(text: nil)
      cursor.row = 0
    case .character("d"):
      if list.rows.indices.contains(cursor.row) {
        master.delete(at: cursor.row)
        cursor.clamp(toRowCount: rowCount)
      }
    default:
      break
    }
  }

  private func handleOnDetail(_ key: Key) {
    switch key {
    case .character(" "):
      master.history.transaction("Toggle") { detail.tapSwitch() }
    case .character("e"):
      editor = LineEditor(text: detail.textField.value)
    case .character("d"):
      detail.tapDelete()
      back()
    case .escape, .character("b"), .left:
      back()
    default:
      break
    }
  }

  private func edit(with key: Key) {
    guard var editing = editor else { return }
    switch editing.handle(key) {
    case .editing:
      editor = editing
    case .committed(let text):
      editor = nil
      master.history.transaction("Rename") { detail.edit(text: text) }
    case .cancelled:
      editor = nil
    }
  }
}
