import DemoApp
import Testing

/// The form as the script prints it, for the boundary tables.
private func form(
  username: String, passwordLength: Int, instruction: String, isEnabled: Bool
) -> String {
  """
  Login
    Username:    \(username)
    Password:    \(String(repeating: "•", count: passwordLength))
    Instruction: \(instruction)
    Log in:      \(isEnabled ? "enabled" : "disabled")

  """
}

/// The rule's problem with a credential of a given length, as the form's
/// instruction says it; `nil` when the length is accepted.
private func problem(_ name: String, length: Int) -> String? {
  switch length {
  case 0: "\(name) can't be empty"
  case 1...5: "\(name) must be at least 6 characters"
  case 6...24: nil
  default: "\(name) can't be longer than 24 characters"
  }
}

private let accepted = "(the username and the password need 6-24 characters each)"

/// Characters that are one character each as a reader sees them: a letter,
/// an emoji with a skin tone, a letter with a combining accent, a family
/// joined with zero-width joiners, a Hangul syllable.
private let oneCharacter = ["a", "👍🏽", "e\u{301}", "👨‍👩‍👧‍👦", "한"]

/// Script-mode flows of the login form, each compared whole: the exit
/// status, everything printed to standard output and to standard error.
@MainActor
@Suite("Login in script mode")
struct LoginScriptTests {
  @Test func theFormIsExactlyAsSpecifiedAndLoggingInSaysWho() async {
    #expect(
      await runScript(
        """
        render
        username alice_w
        password secret
        login
        """, arguments: ["login"])
        == Transcript(
          status: 0,
          output: """
            Login
              Username:    
              Password:    
              Instruction: 
              Log in:      disabled

            Login
              Username:    alice_w
              Password:    
              Instruction: Password can't be empty
              Log in:      disabled

            Login
              Username:    alice_w
              Password:    ••••••
              Instruction: 
              Log in:      enabled

            Login
              Username:    alice_w
              Password:    ••••••
              Instruction: Logged in as alice_w
              Log in:      enabled

            """))
  }

  @Test func aFieldTakesEverythingAfterTheFirstSpaceAndNothingClearsIt() async {
    // Spelled with \n: the trailing spaces are part of the test.
    let password = String(repeating: "•", count: 11)
    #expect(
      await runScript(
        "username  alice w \npassword  pass word \nusername \nusername alice_w\nlogin\n",
        arguments: ["login"])
        == Transcript(
          status: 0,
          output: "Login\n"
            + "  Username:     alice w \n"
            + "  Password:    \n"
            + "  Instruction: Password can't be empty\n"
            + "  Log in:      disabled\n"
            + "\n"
            + "Login\n"
            + "  Username:     alice w \n"
            + "  Password:    \(password)\n"
            + "  Instruction: \n"
            + "  Log in:      enabled\n"
            + "\n"
            + "Login\n"
            + "  Username:    \n"
            + "  Password:    \(password)\n"
            + "  Instruction: Username can't be empty\n"
            + "  Log in:      disabled\n"
            + "\n"
            + "Login\n"
            + "  Username:    alice_w\n"
            + "  Password:    \(password)\n"
            + "  Instruction: \n"
            + "  Log in:      enabled\n"
            + "\n"
            + "Login\n"
            + "  Username:    alice_w\n"
            + "  Password:    \(password)\n"
            + "  Instruction: Logged in as alice_w\n"
            + "  Log in:      enabled\n"))
  }

  /// The username's boundaries, end to end: 0, 5, 6, 24 and 25 characters,
  /// each counted as a reader sees it.
  @Test(arguments: oneCharacter, [0, 5, 6, 24, 25])
  func usernameBoundaries(character: String, length: Int) async {
    let username = String(repeating: character, count: length)
    let isValid = problem("Username", length: length) == nil
    let afterLogin =
      isValid
      ? "\n"
        + form(
          username: username, passwordLength: 6, instruction: "Logged in as \(username)",
          isEnabled: true)
      : ""
    #expect(
      await runScript("password secret\nusername \(username)\nlogin", arguments: ["login"])
        == Transcript(
          status: isValid ? 0 : 1,
          output: form(
            username: "", passwordLength: 6, instruction: "Username can't be empty",
            isEnabled: false)
            + "\n"
            + form(
              username: username, passwordLength: 6,
              instruction: problem("Username", length: length) ?? "", isEnabled: isValid)
            + afterLogin,
          error: problem("Username", length: length).map {
            "error: login is disabled: \($0) \(accepted)\n"
          } ?? ""))
  }

  /// The password's boundaries, end to end, with the password masked one
  /// bullet per character as a reader sees it.
  @Test(arguments: oneCharacter, [0, 5, 6, 24, 25])
  func passwordBoundaries(character: String, length: Int) async {
    let isValid = problem("Password", length: length) == nil
    let afterLogin =
      isValid
      ? "\n"
        + form(
          username: "alice_w", passwordLength: length, instruction: "Logged in as alice_w",
          isEnabled: true)
      : ""
    #expect(
      await runScript(
        "username alice_w\npassword \(String(repeating: character, count: length))\nlogin",
        arguments: ["login"])
        == Transcript(
          status: isValid ? 0 : 1,
          output: form(
            username: "alice_w", passwordLength: 0, instruction: "Password can't be empty",
            isEnabled: false)
            + "\n"
            + form(
              username: "alice_w", passwordLength: length,
              instruction: problem("Password", length: length) ?? "", isEnabled: isValid)
            + afterLogin,
          error: problem("Password", length: length).map {
            "error: login is disabled: \($0) \(accepted)\n"
          } ?? ""))
  }

  @Test func badCommandsSayWhatIsAcceptedAndChangeNothing() async {
    #expect(
      await runScript(
        """
        login
        username
        password
        frob
        Username alice_w
        add first
        username alice_w
        login now
        login
        render now
        help me
        quit now
        render
        """, arguments: ["login", "--quiet"])
        == Transcript(
          status: 1,
          output: """
            Login
              Username:    alice_w
              Password:    
              Instruction: Password can't be empty
              Log in:      disabled

            """,
          error: """
            error: login is disabled: the username and the password need 6-24 characters each
            error: username needs the text to type: username TEXT
            error: password needs the text to type: password TEXT
            error: unknown command 'frob'; on the login screen use: username TEXT, password TEXT, login, render, graph [dot], trace on|off, help, quit
            error: unknown command 'Username'; on the login screen use: username TEXT, password TEXT, login, render, graph [dot], trace on|off, help, quit
            error: unknown command 'add'; on the login screen use: username TEXT, password TEXT, login, render, graph [dot], trace on|off, help, quit
            error: login takes no argument, got 'now': use 'login' alone
            error: login is disabled: Password can't be empty \(accepted)
            error: render takes no argument, got 'now': use 'render' alone
            error: help takes no argument, got 'me': use 'help' alone
            error: quit takes no argument, got 'now': use 'quit' alone

            """))
  }

  @Test func helpListsTheFormsCommandsAndQuitEndsTheScript() async {
    #expect(
      await runScript(
        """
        help
        username alice_w
        quit
        username ignored
        """, arguments: ["login"])
        == Transcript(
          status: 0,
          output: """
            Commands on the login screen:
              username TEXT  type TEXT into the username field, replacing it
              password TEXT  type TEXT into the password field, replacing it
              login          tap the login button (an error while it is disabled)
              render         print the screen
              graph [dot]    print the screen's live binding graph (dot: for Graphviz)
              trace on|off   print every step of the propagations of later commands
              help           print the commands of this screen
              quit           end the script

            Login
              Username:    alice_w
              Password:    
              Instruction: Password can't be empty
              Log in:      disabled

            """))
  }

  @Test func editingAfterLoggingInValidatesAgain() async {
    #expect(
      await runScript(
        """
        username alice_w
        password secret
        login
        username al
        login
        render
        """, arguments: ["login", "--quiet"])
        == Transcript(
          status: 1,
          output: form(
            username: "al", passwordLength: 6,
            instruction: "Username must be at least 6 characters", isEnabled: false),
          error: "error: login is disabled: Username must be at least 6 characters \(accepted)\n"
        ))
  }
}
