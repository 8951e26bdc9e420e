import Movies
import POMVVM

extension MoviesFeature {
  /// Performs a command of the current screen.
  ///
  /// - Parameter command: The command.
  /// - Throws: ``ScriptError`` for a command the current state refuses,
  ///   saying why and what is accepted.
  public func perform(_ command: ScriptCommand) throws(ScriptError) {
    if command.word == "fail" {
      guard command.trimmedArgument == "next" else {
        throw ScriptError("fail takes 'next': fail next")
      }
      catalog.failNextRequest()
      return
    }
    if detailViewModel != nil {
      try performOnDetail(command)
    } else {
      try performOnList(command)
    }
  }

  private func performOnList(_ command: ScriptCommand) throws(ScriptError) {
    let state = movies.state.value
    switch command.word {
    case "load":
      try command.expectNoArgument()
      guard movies.send(.load) else {
        throw ScriptError(
          "the movies are already \(Self.describe(state)); use: \(Self.useful(in: state))")
      }
    case "retry":
      try command.expectNoArgument()
      guard movies.send(.retry) else {
        throw ScriptError("nothing failed to retry; use: \(Self.useful(in: state))")
      }
    case "next", "prev":
      try command.expectNoArgument()
      guard case .loaded(let page) = state else {
        throw ScriptError("no page is shown; use: \(Self.useful(in: state))")
      }
      guard movies.send(command.word == "next" ? .next : .previous) else {
        throw ScriptError(
          "page \(page.number) of \(page.count) is the \(command.word == "next" ? "last" : "first"); "
            + "use: \(Self.useful(in: state))")
      }
    case "search":
      // Everything after the first space, as typed; `search` alone clears.
      search.query.value = command.argument ?? ""
    case "open":
      guard case .loaded = state else {
        throw ScriptError("no page is shown; use: \(Self.useful(in: state))")
      }
      let row = try command.rowNumber(usage: "open N", rowCount: rowCount)
      open(row: row - 1)
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  private func performOnDetail(_ command: ScriptCommand) throws(ScriptError) {
    switch command.word {
    case "retry":
      try command.expectNoArgument()
      if let detail = detailViewModel, let alert = detail.alert.destination,
        let retry = alert.button(labelled: "Retry")
      {
        answer(retry)
      } else {
        retryDetail()
      }
    case "cancel":
      try command.expectNoArgument()
      guard let alert = detailViewModel?.alert.destination else {
        throw ScriptError("no alert is shown; use: retry, back")
      }
      answer(alert.cancelButton)
    case "back":
      try command.expectNoArgument()
      back()
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  /// The list's state, in words.
  private static func describe(_ state: MoviesListViewModel.State) -> String {
    switch state {
    case .idle: "idle"
    case .loading: "loading"
    case .loaded: "loaded"
    case .failed: "failed"
    }
  }

  /// The commands that do something in a state.
  private static func useful(in state: MoviesListViewModel.State) -> String {
    let commands =
      switch state {
      case .idle: ["load"]
      case .loading: ["render"]
      case .failed: ["retry"]
      case .loaded(let page):
        (page.number < page.count ? ["next"] : []) + (page.number > 1 ? ["prev"] : [])
          + ["open N"]
      }
    return commands.joined(separator: ", ")
  }
}
