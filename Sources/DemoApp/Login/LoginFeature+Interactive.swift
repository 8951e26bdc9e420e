import TextUI

extension LoginFeature {
  /// The keys of the form, for the help line.
  ///
  /// The fields are always editing, so every printable key is text — `q`
  /// included — and Escape quits (Ctrl-C too, as everywhere).
  public var keyHelp: String {
    "tab/↑/↓ next field  ←/→ move  backspace erase  enter log in  esc quit"
  }

  /// The form, with the field that has the focus drawn as a line editor.
  ///
  /// The form's lines are the ``Login/LoginView``'s; the focused field is
  /// underlined and shows the cursor, scrolled to fit the terminal's width;
  /// the password stays masked while it is edited. A refused login shows
  /// why below the form, and what is accepted, until the next key.
  ///
  /// - Parameter size: The space for the screen.
  /// - Returns: The frame.
  public func body(size: TerminalSize) -> Frame {
    let enabled = view.loginButtonEnabled.value
    var lines = view.lines.enumerated().map { index, line in
      switch index {
      case 0: Frame.Line(line, style: .bold)
      case 3: Frame.Line(line, style: .accent)
      case 4: Frame.Line(line, style: enabled ? .bold : .dim)
      default: Frame.Line(line)
      }
    }
    if !notice.isEmpty {
      lines += [Frame.Line("")] + notice.map { Frame.Line($0, style: .accent) }
    }
    let label = Self.label(of: focus)
    guard let row = lines.firstIndex(where: { $0.text.hasPrefix(label) }) else {
      return Frame(lines: lines)
    }
    let field = shownEditor(of: focus).visible(inWidth: size.width - label.count)
    lines[row] = Frame.Line(label + field.text, style: .underline)
    return Frame(lines: lines, cursor: Position(row: row, column: label.count + field.cursorColumn))
  }

  /// Reacts to a key: moves the focus, edits the focused field, logs in or
  /// quits.
  ///
  /// Tab, ↓ and ↑ (and Shift-Tab) move between the fields; Enter taps the
  /// login button, and a disabled one shows why; Escape quits; every other
  /// key goes to the focused field's line editor, and each edit is typed
  /// into the view's field, which sends it to the view model.
  ///
  /// - Parameter key: The key.
  /// - Returns: ``TextUI/KeyResponse/quit`` for Escape.
  public func handle(_ key: Key) -> KeyResponse {
    notice = []
    switch key {
    case .escape:
      return .quit
    case .tab, .down, .up, .unknown("[Z"):
      // With two fields, the next field and the previous one are the same.
      focus = focus == .username ? .password : .username
    case .enter:
      if !view.tapLogin() {
        // Two lines, so that both fit an 80-column terminal.
        let (problem, accepted) = loginRefusal
        notice = [
          "  Login is disabled" + (problem.map { ": \($0)" } ?? ""),
          "  " + accepted.prefix(1).uppercased() + accepted.dropFirst(),
        ]
      }
    default:
      var editor = editor(of: focus)
      editor.handle(key)
      editors[focus] = editor
      switch focus {
      case .username: view.type(username: editor.text)
      case .password: view.type(password: editor.text)
      }
    }
    return .continue
  }

  /// The label before a field's text, as ``Login/LoginView`` draws it.
  private static func label(of field: Field) -> String {
    switch field {
    case .username: "  Username:    "
    case .password: "  Password:    "
    }
  }

  /// The field's line editor; a new one, with the cursor at the end, if the
  /// field changed by other means than the editor (a script command).
  private func editor(of field: Field) -> LineEditor {
    let text =
      switch field {
      case .username: view.usernameField.value
      case .password: view.passwordField.value
      }
    if let editor = editors[field], editor.text == text {
      return editor
    }
    return LineEditor(text: text)
  }

  /// The field's line editor as it shows: the password's characters masked,
  /// one bullet each, with the cursor where it is in the real text.
  private func shownEditor(of field: Field) -> LineEditor {
    let editor = editor(of: field)
    guard field == .password else { return editor }
    let count = editor.text.count
    var masked = LineEditor(text: String(repeating: "•", count: count))
    for _ in 0..<max(count - editor.cursor, 0) {
      masked.moveLeft()
    }
    return masked
  }
}
