import DemoApp
import Testing
import TextUI

/// A whole 80×24 screen: the given lines at the top, blank rows, and the
/// help line at the bottom.
private func screen(_ top: String) -> String {
  let lines = top.split(separator: "\n", omittingEmptySubsequences: false)
  return (lines + Array(repeating: "", count: 23 - lines.count) + [Substring(help)])
    .joined(separator: "\n")
}

private let help = "tab/↑/↓ next field  ←/→ move  backspace erase  enter log in  esc quit  ^G graph"

/// The login form's screen and keys, on a virtual terminal and driven
/// directly.
@MainActor
@Suite("Login in interactive mode")
struct LoginInteractiveTests {
  private let feature = LoginFeature(environment: FeatureEnvironment())

  /// The body as text (see `renderedBody(width:height:)`).
  private func body(width: Int = 80, height: Int = 10) -> String {
    feature.renderedBody(width: width, height: height)
  }

  private func press(
    _ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation
  ) {
    feature.press(keys, sourceLocation: sourceLocation)
  }

  private func type(_ text: String) {
    for character in text {
      press(.character(character))
    }
  }

  @Test func typingFillsTheFieldsTheLetterQIncludedAndEnterLogsIn() async {
    let (transcript, terminal) = await runInteractive(
      typing: ["alice_w", "\t", "secre", "q", "\u{7F}", "t", "\r", "\u{1B}", "x"],
      arguments: ["login"])
    #expect(transcript == Transcript(status: 0, output: ""))
    #expect(terminal.wasRestored && !terminal.isFullScreen)
    #expect(
      terminal.screens == [
        screen("Login\n  Username:\n  Password:\n  Instruction:\n  Log in:      disabled"),
        screen(
          """
          Login
            Username:    alice_w
            Password:
            Instruction: Password can't be empty
            Log in:      disabled
          """),
        screen(
          """
          Login
            Username:    alice_w
            Password:
            Instruction: Password can't be empty
            Log in:      disabled
          """),
        screen(
          """
          Login
            Username:    alice_w
            Password:    •••••
            Instruction: Password must be at least 6 characters
            Log in:      disabled
          """),
        screen(
          """
          Login
            Username:    alice_w
            Password:    ••••••
            Instruction:
            Log in:      enabled
          """),
        screen(
          """
          Login
            Username:    alice_w
            Password:    •••••
            Instruction: Password must be at least 6 characters
            Log in:      disabled
          """),
        screen(
          """
          Login
            Username:    alice_w
            Password:    ••••••
            Instruction:
            Log in:      enabled
          """),
        screen(
          """
          Login
            Username:    alice_w
            Password:    ••••••
            Instruction: Logged in as alice_w
            Log in:      enabled
          """),
      ], "escape quit before the x was typed")
  }

  @Test func enterWhileDisabledSaysWhyUntilTheNextKey() async {
    let (transcript, terminal) = await runInteractive(
      typing: ["\r", "al", "\r", "i"], arguments: ["login"])
    #expect(transcript == Transcript(status: 0, output: ""))
    #expect(
      terminal.screens == [
        screen("Login\n  Username:\n  Password:\n  Instruction:\n  Log in:      disabled"),
        screen(
          """
          Login
            Username:
            Password:
            Instruction:
            Log in:      disabled

            Login is disabled
            The username and the password need 6-24 characters each
          """),
        screen(
          """
          Login
            Username:    al
            Password:
            Instruction: Username must be at least 6 characters
            Log in:      disabled
          """),
        screen(
          """
          Login
            Username:    al
            Password:
            Instruction: Username must be at least 6 characters
            Log in:      disabled

            Login is disabled: Username must be at least 6 characters
            The username and the password need 6-24 characters each
          """),
        screen(
          """
          Login
            Username:    ali
            Password:
            Instruction: Username must be at least 6 characters
            Log in:      disabled
          """),
      ])
  }

  @Test func theFocusedFieldIsUnderlinedAndThePasswordStaysMaskedWhileEdited() {
    #expect(feature.keyHelp + "  ^G graph" == help)
    #expect(
      body() == """
        Login |bold
          Username:     |underline
          Password:    
          Instruction:  |accent
          Log in:      disabled |dim
        cursor at 1,15
        """)
    type("alice_w")
    press(.tab)
    type("pa😀ss")
    press(.left, .left, .backspace)
    #expect(
      body() == """
        Login |bold
          Username:    alice_w
          Password:    •••• |underline
          Instruction: Password must be at least 6 characters |accent
          Log in:      disabled |dim
        cursor at 2,17
        """)
    #expect(feature.view.passwordField.value == "pass", "the emoji went in one backspace")
    press(.up)
    #expect(body().hasSuffix("cursor at 1,22"), "the username's cursor stayed at its end")
    press(.down, .home, .character("x"), .end, .character("!"), .enter)
    #expect(
      body() == """
        Login |bold
          Username:    alice_w
          Password:    •••••• |underline
          Instruction: Logged in as alice_w |accent
          Log in:      enabled |bold
        cursor at 2,21
        """)
    #expect(feature.view.passwordField.value == "xpass!")
    #expect(feature.handle(.escape) == .quit)
  }

  @Test func aLongFieldScrollsAroundTheCursorAndAScriptEditIsPickedUp() throws {
    try feature.perform(ScriptCommand(word: "username", argument: "abcdefghijklmnopqrstuvwx"))
    #expect(
      body(width: 30).split(separator: "\n")[1] == "  Username:    …lmnopqrstuvwx |underline")
    press(.home)
    #expect(
      body(width: 30).split(separator: "\n")[1] == "  Username:    abcdefghijklmn… |underline")
    press(.unknown("[Z"))
    try feature.perform(ScriptCommand(word: "password", argument: "hunter22"))
    press(.backspace)
    #expect(feature.view.passwordField.value == "hunter2")
  }
}
