import POMVVM
import ToDo

extension ToDoFeature {
  /// Performs a command of the list or the detail screen.
  ///
  /// List: `add [TITLE]` (at the end; without a title the view model names
  /// it `ToDo Item N`), `delete N`, `open N`, `toggle N` (done or not;
  /// completed items sort last after `wait 1s`), `filter all|active|completed`
  /// (which rows show), `refresh` (the changes other processes saved, taken
  /// in by ``settle()`` after every command), rows numbered from 1 as displayed. Detail: `title TEXT` (everything after the first space,
  /// exactly), `delete` (then back to the list), `back`. Both: `undo`,
  /// `redo`, saved like any other change. `edit N` on the list opens the
  /// edit sheet over it, which takes only its own commands: `title TEXT`
  /// and `toggle` change the draft, `done` writes it into the item (one
  /// undo step, saved), `cancel` closes the sheet leaving the item as it
  /// was.
  ///
  /// A change that the store could not save is an error too, although it
  /// was made: the store keeps it in memory, the screen shows
  /// `Save failed: …`, and the next save that succeeds writes it.
  ///
  /// - Parameter command: A command the current screen lists.
  /// - Throws: ``ScriptError`` for a missing, extra or bad argument, for
  ///   `add` at 10 items, and for a change that could not be saved.
  public func perform(_ command: ScriptCommand) throws(ScriptError) {
    if let sheet {
      try perform(command, on: sheet)
      return
    }
    if try performHistoryCommand(command) { return }
    switch screen {
    case .list: try performOnList(command)
    case .detail: try performOnDetail(command)
    }
  }

  private func performOnList(_ command: ScriptCommand) throws(ScriptError) {
    switch command.word {
    case "refresh":
      // The runner's `settle()` takes the other processes' changes in.
      try command.expectNoArgument()
    case "add":
      // A line that ends right after `add` (or its space) uses the default.
      let title = command.argument.flatMap { $0.isEmpty ? nil : $0 }
      var refusal: ToDoRefusal?
      let saveError = saving {
        do throws(ToDoRefusal) {
          try list.add(title: title)
        } catch {
          refusal = error
        }
      }
      if let refusal { throw ScriptError(refusal.description) }
      try report(saveError)
    case "delete":
      let row = try command.rowNumber(usage: "delete N", rowCount: rowCount)
      var refusal: ToDoRefusal?
      let saveError = saving {
        do throws(ToDoRefusal) {
          try list.delete(row: row)
        } catch {
          refusal = error
        }
      }
      if let refusal { throw ScriptError(refusal.description) }
      try report(saveError)
    case "open":
      let row = try command.rowNumber(usage: "open N", rowCount: rowCount)
      do throws(ToDoRefusal) {
        try open(row: row)
      } catch {
        throw ScriptError(error.description)
      }
    case "edit":
      let row = try command.rowNumber(usage: "edit N", rowCount: rowCount)
      do throws(ToDoRefusal) {
        try editSheet(row: row)
      } catch {
        throw ScriptError(error.description)
      }
    case "filter":
      let usage = "filter all, filter active or filter completed"
      guard let name = command.trimmedArgument else {
        throw ScriptError("filter needs a filter: use \(usage)")
      }
      guard let filter = ToDoFilter(rawValue: name) else {
        throw ScriptError("'\(name)' is not a filter: use \(usage)")
      }
      list.filter.value = filter
      cursor.clamp(toRowCount: rowCount)
    case "toggle":
      let row = try command.rowNumber(usage: "toggle N", rowCount: rowCount)
      var refusal: ToDoRefusal?
      let saveError = saving {
        do throws(ToDoRefusal) {
          try list.toggle(row: row)
        } catch {
          refusal = error
        }
      }
      if let refusal { throw ScriptError(refusal.description) }
      try report(saveError)
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  private func performOnDetail(_ command: ScriptCommand) throws(ScriptError) {
    guard let item = editorView.viewModel else {
      throw ScriptError("no item is open; use: back")
    }
    switch command.word {
    case "title":
      let title = try command.requiredArgument("the new title", usage: "title TEXT")
      try refuseIfDeleted(item)
      try report(saving { list.history.transaction("Rename") { editorView.type(title: title) } })
    case "delete":
      try command.expectNoArgument()
      try refuseIfDeleted(item)
      let saveError = saving { item.delete() }
      back()
      try report(saveError)
    case "back":
      try command.expectNoArgument()
      back()
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  /// The edit sheet's commands: the draft's `title TEXT` and `toggle`,
  /// `done` and `cancel`.
  private func perform(_ command: ScriptCommand, on sheet: ToDoEditViewModel) throws(ScriptError) {
    switch command.word {
    case "title":
      sheet.title.value = try command.requiredArgument("the new title", usage: "title TEXT")
    case "toggle":
      try command.expectNoArgument()
      sheet.isCompleted.value.toggle()
    case "done":
      try command.expectNoArgument()
      var isWritten = true
      let saveError = saving { isWritten = sheet.done() }
      guard isWritten else { throw ScriptError("the item was deleted; nothing was written") }
      try report(saveError)
    case "cancel":
      try command.expectNoArgument()
      sheet.cancel()
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  /// `undo` and `redo`, on either screen, each saved like any other change.
  ///
  /// - Returns: Whether the command was one of them.
  private func performHistoryCommand(_ command: ScriptCommand) throws(ScriptError) -> Bool {
    var saveError: StoreError?
    switch command.word {
    case "undo":
      try command.expectNoArgument()
      try HistoryCommand.undo(in: history) {
        var isDone = false
        saveError = saving { isDone = undo() }
        return isDone
      }
    case "redo":
      try command.expectNoArgument()
      try HistoryCommand.redo(in: history) {
        var isDone = false
        saveError = saving { isDone = redo() }
        return isDone
      }
    default:
      return false
    }
    try report(saveError)
    return true
  }

  private func refuseIfDeleted(_ item: ToDoEditorViewModel) throws(ScriptError) {
    if item.isDetached {
      throw ScriptError("the item was deleted and takes no more edits; use: back")
    }
  }

  /// Makes a failed save the command's error.
  private func report(_ saveError: StoreError?) throws(ScriptError) {
    if let saveError {
      throw ScriptError("the change was made but not saved: \(saveError)")
    }
  }
}
