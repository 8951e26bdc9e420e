import MasterDetail

extension MasterDetailFeature {
  /// Performs a command of the list or the detail screen.
  ///
  /// List: `add [TEXT]`, `toggle N`, `open N`, `delete N`, rows numbered
  /// from 1 as displayed across sections, `search [TEXT]` (everything after
  /// the first space; nothing shows every item), `group on|off`. Detail: `on`, `off`, `toggle`, `text TEXT`,
  /// `delete` (asks; `yes` deletes and goes back to the list, `no` keeps the
  /// item), `back`. List and detail: `undo`, `redo`.
  ///
  /// - Parameter command: A command the current screen lists.
  /// - Throws: ``ScriptError`` for a missing, extra or bad argument.
  public func perform(_ command: ScriptCommand) throws(ScriptError) {
    if try performHistoryCommand(command) { return }
    switch screen {
    case .list: try performOnList(command)
    case .detail: try performOnDetail(command)
    case .confirmDelete: try performOnConfirmation(command)
    }
  }

  private func performOnList(_ command: ScriptCommand) throws(ScriptError) {
    switch command.word {
    case "add":
      // A line that ends right after `add` (or its space) uses the date.
      let text = command.argument.flatMap { $0.isEmpty ? nil : $0 }
      master.insertNowDate(text: text)
    case "toggle":
      let row = try command.rowNumber(usage: "toggle N", rowCount: rowCount)
      master.history.transaction("Toggle") { list.rows[row - 1].tapSwitch() }
    case "open":
      let row = try command.rowNumber(usage: "open N", rowCount: rowCount)
      open(row: row - 1)
    case "delete":
      let row = try command.rowNumber(usage: "delete N", rowCount: rowCount)
      if let id = list.rows[row - 1].viewModel?.id { master.delete(id: id) }
    case "search":
      // Everything after the first space, exactly; nothing clears it.
      master.searchText.value = command.argument ?? ""
      cursor.clamp(toRowCount: rowCount)
    case "group":
      switch command.trimmedArgument {
      case "on": master.isGrouped.value = true
      case "off": master.isGrouped.value = false
      case let other:
        throw ScriptError(
          "group takes 'on' or 'off', got \(other.map { "'\($0)'" } ?? "nothing"): "
            + "use 'group on' or 'group off'")
      }
      cursor.clamp(toRowCount: rowCount)
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  private func performOnDetail(_ command: ScriptCommand) throws(ScriptError) {
    guard let viewModel = detail.viewModel else {
      throw ScriptError("no item is open; use: back")
    }
    switch command.word {
    case "on":
      // Checked first, as for every edit: a write to a deleted item would
      // also be reported to Diagnostics, a second line out of order.
      try command.expectNoArgument()
      try refuseIfDeleted(!viewModel.isDetached)
      try refuseIfDeleted(master.history.transaction("Switch On") { viewModel.openSwitch() })
    case "off":
      try command.expectNoArgument()
      try refuseIfDeleted(!viewModel.isDetached)
      try refuseIfDeleted(master.history.transaction("Switch Off") { viewModel.closeSwitch() })
    case "toggle":
      try command.expectNoArgument()
      try refuseIfDeleted(!viewModel.isDetached)
      master.history.transaction("Toggle") { detail.tapSwitch() }
    case "text":
      let text = try command.requiredArgument("the new text", usage: "text TEXT")
      try refuseIfDeleted(!viewModel.isDetached)
      master.history.transaction("Rename") { detail.edit(text: text) }
    case "delete":
      try command.expectNoArgument()
      try refuseIfDeleted(viewModel.askToDelete())
    case "back":
      try command.expectNoArgument()
      back()
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  private func performOnConfirmation(_ command: ScriptCommand) throws(ScriptError) {
    guard let viewModel = master.openDetail, let alert = viewModel.alert.destination else {
      throw ScriptError("no question is asked")
    }
    switch command.word {
    case "yes":
      try command.expectNoArgument()
      viewModel.answer(alert.buttons.first { $0.role == .destructive } ?? alert.cancelButton)
    case "no":
      try command.expectNoArgument()
      viewModel.answer(alert.cancelButton)
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  private func refuseIfDeleted(_ isAccepted: Bool) throws(ScriptError) {
    guard isAccepted else {
      throw ScriptError("the item was deleted and takes no more edits; use: back")
    }
  }
}
