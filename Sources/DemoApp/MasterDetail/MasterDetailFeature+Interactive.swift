import MasterDetail
import TextUI

extension MasterDetailFeature {
  /// The keys of the screen showing, for the help line, with what undo
  /// and redo would do next (`u undo: Rename`).
  public var keyHelp: String {
    let historyKeys = HistoryCommand.keyHelp(for: history)
    switch screen {
    case .list:
      return "↑/↓ move  space toggle  enter open  a add  d delete  / search  g group  "
        + "\(historyKeys)  q quit"
    case .list where searchEditor != nil:
      return "enter done  esc clear  ←/→ move  backspace erase  ctrl-u clear"
    case .detail where editor != nil:
      return LineEditor.keyHelp
    case .detail:
      return "space toggle  e edit text  d delete  \(historyKeys)  esc/b back  q quit"
    case .confirmDelete:
      return "←/→ choose  enter confirm  esc cancel"
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
    case .confirmDelete:
      // The alert is drawn over the detail, under a blank line.
      let below = detailBody(size: size)
      let alert = alertLines.enumerated().map { index, line in
        Frame.Line(line, style: index == 0 ? .bold : line.hasPrefix("  [") ? .reverse : [])
      }
      return Frame(lines: below.lines + [Frame.Line("")] + alert)
    }
  }

  private func listBody(size: TerminalSize) -> Frame {
    var lines = [Frame.Line(list.header.title.value, style: .bold)]
    var cursorPosition: Position?
    if let searchEditor {
      let label = "  Search: "
      let field = searchEditor.visible(inWidth: size.width - label.count)
      cursorPosition = Position(row: lines.count, column: label.count + field.cursorColumn)
      lines.append(Frame.Line(label + field.text, style: .underline))
    } else if let search = list.searchLine {
      lines.append(Frame.Line(search, style: .dim))
    }
    guard rowCount > 0 else {
      let empty =
        master.searchText.value.isEmpty
        ? "  No items yet: press a to add one." : "  No items match the search."
      lines.append(Frame.Line(empty, style: .dim))
      return Frame(lines: lines, cursor: cursorPosition)
    }
    let sections = list.sectionKeys?.count ?? 0
    let capacity = size.height - lines.count - sections
    for index in cursor.window(rowCount: rowCount, capacity: capacity) {
      if let title = list.sectionTitle(beforeRow: index) {
        lines.append(Frame.Line(title, style: .bold))
      }
      var style = Self.style(for: list.rows[index].style)
      var text = list.line(forRow: index)
      if index == cursor.row && searchEditor == nil {
        // The line starts with two spaces of indentation: mark it there.
        text = ">" + text.dropFirst()
        style.insert(.reverse)
      }
      lines.append(Frame.Line(text, style: style))
    }
    return Frame(lines: lines, cursor: cursorPosition)
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
    if searchEditor != nil {
      search(with: key)
      return .continue
    }
    if screen == .confirmDelete {
      handleOnConfirmation(key)
      return .continue
    }
    if key == .character("q") { return .quit }
    if handleHistoryKey(key) { return .continue }
    switch screen {
    case .list: handleOnList(key)
    case .detail: handleOnDetail(key)
    case .confirmDelete: break
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
      if list.rows.indices.contains(cursor.row), let id = list.rows[cursor.row].viewModel?.id {
        master.delete(id: id)
        cursor.clamp(toRowCount: rowCount)
      }
    case .character("/"):
      searchEditor = LineEditor(text: master.searchText.value)
    case .character("g"):
      master.isGrouped.value.toggle()
      cursor.clamp(toRowCount: rowCount)
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
      alertSelection = 0
      master.openDetail?.askToDelete()
    case .escape, .character("b"), .left:
      back()
    default:
      break
    }
  }

  /// Chooses a button of the delete confirmation: ←/→ move, enter
  /// answers, esc cancels.
  private func handleOnConfirmation(_ key: Key) {
    guard let viewModel = master.openDetail, let alert = viewModel.alert.destination else {
      return
    }
    switch key {
    case .left, .up:
      alertSelection = max(0, alertSelection - 1)
    case .right, .down, .tab:
      alertSelection = min(alert.buttons.count - 1, alertSelection + 1)
    case .enter:
      let index = min(max(0, alertSelection), alert.buttons.count - 1)
      alertSelection = 0
      viewModel.answer(alert.buttons[index])
    case .escape:
      alertSelection = 0
      viewModel.answer(alert.cancelButton)
    default:
      break
    }
  }

  /// Edits the search text: the list follows every keystroke; enter keeps
  /// the text, esc clears it.
  private func search(with key: Key) {
    guard var editing = searchEditor else { return }
    switch editing.handle(key) {
    case .editing:
      searchEditor = editing
      master.searchText.value = editing.text
    case .committed(let text):
      searchEditor = nil
      master.searchText.value = text
    case .cancelled:
      searchEditor = nil
      master.searchText.value = ""
    }
    cursor.clamp(toRowCount: rowCount)
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
