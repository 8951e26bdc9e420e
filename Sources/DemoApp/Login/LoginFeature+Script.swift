extension LoginFeature {
  /// Performs a command of the form.
  ///
  /// `username TEXT` and `password TEXT` type everything after the first
  /// space into the field, exactly (spaces included; nothing after the space
  /// clears the field). `login` taps the button.
  ///
  /// - Parameter command: A command the form lists.
  /// - Throws: ``ScriptError`` for a missing or extra argument, and for
  ///   `login` while the button is disabled (saying why it is).
  public func perform(_ command: ScriptCommand) throws(ScriptError) {
    switch command.word {
    case "username":
      view.type(username: try command.requiredArgument("the text to type", usage: "username TEXT"))
    case "password":
      view.type(password: try command.requiredArgument("the text to type", usage: "password TEXT"))
    case "login":
      try command.expectNoArgument()
      guard view.tapLogin() else {
        let (problem, accepted) = loginRefusal
        throw ScriptError(
          problem.map { "login is disabled: \($0) (\(accepted))" }
            ?? "login is disabled: \(accepted)")
      }
    default:
      throw .unknownCommand(command.word, on: currentScreen)
    }
  }
}
