import POMVVM
import TextUI
import ToDo

extension ToDoFeature {
  /// The keys of the screen showing, for the help line; at 10 items the
  /// list's `a` says it is disabled.
  public var keyHelp: String {
    let historyKeys = HistoryCommand.keyHelp(for: history)
    if sheet != nil {
      return editor != nil
        ? LineEditor.keyHelp : "e edit title  space toggle  enter done  esc cancel  q quit"
    }
    switch screen {
    case .list:
      let add = list.canAdd.value ? "a add" : "a add (full)"
      return "↑/↓ move  enter open  e edit  space toggle  f filter  \(add)  d delete  "
        + "\(historyKeys)  q quit"
    case .detail where editor != nil:
      return LineEditor.keyHelp
    case .detail:
      return "e edit title  d delete  \(historyKeys)  esc/b back  q quit"
    }
  }

  /// The list or the detail screen, fitted to the terminal.
  ///
  /// The list shows the ``ToDo/ToDoListView``'s header, the rows that fit
  /// (scrolled to keep the selected row in view; the selected row is marked
  /// with `>` and drawn reversed) and its last-change line. The detail
  /// shows the ``ToDo/ToDoEditorView``'s lines, with the line editor in
  /// place of the title while it is being edited. Under either comes the
  /// ``SaveStatusView``'s line while a save fails, and the reason for a
  /// refused key until the next key.
  ///
  /// - Parameter size: The space for the screen.
  /// - Returns: The frame.
  public func body(size: TerminalSize) -> Frame {
    var footer = saveStatus.lines.map { Frame.Line($0, style: .bold) }
    if let notice {
      footer += [Frame.Line(""), Frame.Line("  " + notice, style: .accent)]
    }
    if sheet != nil { return sheetBody(size: size, footer: footer) }
    switch screen {
    case .list: return listBody(size: size, footer: footer)
    case .detail: return detailBody(size: size, footer: footer)
    }
  }

  /// The edit sheet over the list: the list's header, the rows that fit
  /// and its last-change line, then a blank line and the sheet, with the
  /// line editor in place of the draft's title while it is being edited.
  private func sheetBody(size: TerminalSize, footer: [Frame.Line]) -> Frame {
    let sheetLines = sheetLines
    let rows = size.height - sheetLines.count - 1 - footer.count
    let below = listBody(size: TerminalSize(width: size.width, height: max(3, rows)), footer: [])
    var lines = sheetLines.enumerated().map { index, line in
      Frame.Line(line, style: index == 0 ? .bold : index == sheetLines.count - 1 ? .reverse : [])
    }
    let label = Self.sheetTitleLabel
    guard let editor, let titleRow = lines.firstIndex(where: { $0.text.hasPrefix(label) })
    else { return Frame(lines: below.lines + [Frame.Line("")] + lines + footer) }
    let field = editor.visible(inWidth: size.width - label.count)
    lines[titleRow] = Frame.Line(label + field.text, style: .underline)
    let top = below.lines.count + 1
    return Frame(
      lines: below.lines + [Frame.Line("")] + lines + footer,
      cursor: Position(row: top + titleRow, column: label.count + field.cursorColumn))
  }

  private func listBody(size: TerminalSize, footer: [Frame.Line]) -> Frame {
    let viewLines = listView.lines
    var lines = [Frame.Line(listView.header.value, style: .bold)]
    let lastChange = Frame.Line(listView.lastChange.value, style: .dim)
    guard rowCount > 0 else {
      lines.append(Frame.Line("  No items: press a to add one.", style: .dim))
      return Frame(lines: lines + [lastChange] + footer)
    }
    for index in cursor.window(rowCount: rowCount, capacity: size.height - 2 - footer.count) {
      // The view's lines are its header, then one line per row.
      var text = viewLines[index + 1]
      var style: LineStyle = []
      if index == cursor.row {
        // The line starts with two spaces of indentation: mark it there.
        text = ">" + text.dropFirst()
        style = .reverse
      }
      lines.append(Frame.Line(text, style: style))
    }
    return Frame(lines: lines + [lastChange] + footer)
  }

  private func detailBody(size: TerminalSize, footer: [Frame.Line]) -> Frame {
    // The editor's lines are its title, then `  Title: value`.
    let titleLabel = "  Title: "
    var lines = editorView.lines.enumerated().map { index, line in
      Frame.Line(line, style: index == 0 ? .bold : line.hasPrefix(titleLabel) ? [] : .dim)
    }
    guard let editor, let titleRow = lines.firstIndex(where: { $0.text.hasPrefix(titleLabel) })
    else { return Frame(lines: lines + footer) }
    let field = editor.visible(inWidth: size.width - titleLabel.count)
    lines[titleRow] = Frame.Line(titleLabel + field.text, style: .underline)
    return Frame(
      lines: lines + footer,
      cursor: Position(row: titleRow, column: titleLabel.count + field.cursorColumn))
  }

  /// Reacts to a key on the list, on the detail, or in the line editor.
  ///
  /// - Parameter key: The key.
  /// - Returns: ``TextUI/KeyResponse/quit`` for `q` (outside the editor).
  public func handle(_ key: Key) -> KeyResponse {
    notice = nil
    if editor != nil {
      edit(with: key)
      return .continue
    }
    if key == .character("q") { return .quit }
    if let sheet {
      handle(key, on: sheet)
      return .continue
    }
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
    case .enter:
      guard rowCount > 0 else { return }
      do throws(ToDoRefusal) {
        try open(row: cursor.row + 1)
      } catch {
        notice = "\(error)"
      }
    case .character("a"):
      do throws(ToDoRefusal) {
        try list.add()
        cursor.row = rowCount - 1
      } catch {
        notice = "\(error); press d to delete one"
      }
    case .character("e"):
      guard rowCount > 0 else { return }
      _ = try? editSheet(row: cursor.row + 1)
    case .character(" "):
      guard rowCount > 0 else { return }
      _ = try? list.toggle(row: cursor.row + 1)
    case .character("f"):
      list.filter.value = list.filter.value.next
      cursor.clamp(toRowCount: rowCount)
    case .character("d"):
      guard rowCount > 0 else { return }
      _ = try? list.delete(row: cursor.row + 1)
      cursor.clamp(toRowCount: rowCount)
    default:
      break
    }
  }

  private func handleOnDetail(_ key: Key) {
    switch key {
    case .character("e"):
      if editorView.viewModel?.isDetached == false {
        editor = LineEditor(text: editorView.titleField.value)
      }
    case .character("d"):
      if let item = editorView.viewModel, !item.isDetached {
        item.delete()
      }
      back()
    case .escape, .character("b"), .left:
      back()
    default:
      break
    }
  }

  /// The edit sheet's keys: `e` edits the draft's title, space marks it
  /// done or not, enter writes it (Done), esc closes the sheet (Cancel).
  private func handle(_ key: Key, on sheet: ToDoEditViewModel) {
    switch key {
    case .character("e"):
      editor = LineEditor(text: sheet.title.value)
    case .character(" "):
      sheet.isCompleted.value.toggle()
    case .enter:
      if !sheet.done() { notice = "the item was deleted; nothing was written" }
    case .escape:
      sheet.cancel()
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
      if let sheet {
        sheet.title.value = text
        return
      }
      list.history.transaction("Rename") { editorView.type(title: text) }
    case .cancelled:
      editor = nil
    }
  }
}
