import Login
import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("LoginViewModel")
struct LoginViewModelTests {
  /// A value with a given number of user-perceived characters.
  static func text(_ count: Int, of character: String = "a") -> String {
    String(repeating: character, count: count)
  }

  @Test(
    arguments: [
      (0, "Username can't be empty"),
      (5, "Username must be at least 6 characters"),
      (6, nil),
      (24, nil),
      (25, "Username can't be longer than 24 characters"),
    ] as [(Int, String?)])
  func usernameBoundaries(length: Int, problem: String?) {
    #expect(CredentialRule(name: "Username").problem(with: Self.text(length)) == problem)
  }

  @Test(arguments: ["👍🏽", "e\u{301}", "👨‍👩‍👧‍👦", "한"])
  func emojiAndCombiningMarksCountAsOneCharacter(character: String) {
    let rule = CredentialRule(name: "Password")
    #expect(
      rule.problem(with: Self.text(5, of: character)) == "Password must be at least 6 characters")
    #expect(rule.problem(with: Self.text(6, of: character)) == nil)
    #expect(rule.problem(with: Self.text(24, of: character)) == nil)
    #expect(rule.problem(with: Self.text(25, of: character)) != nil)
  }

  @Test func aPristineFormShowsNoInstructionAndCannotLogIn() {
    let form = LoginViewModel()
    #expect(form.instruction.value == "")
    #expect(form.loginEnabled.value == false)
    #expect(form.logIn() == false)
    #expect(form.instruction.value == "")
  }

  @Test func theInstructionShowsTheUsernamesProblemFirst() {
    let form = LoginViewModel()
    let instructions = Recorder<String>()
    let subscription = form.instruction.observeChanges(instructions.handler)
    form.passwordEdited.send("abc")
    form.usernameEdited.send("alice")
    form.usernameEdited.send("alice_w")
    form.passwordEdited.send("secret!")
    form.passwordEdited.send(Self.text(25))
    #expect(
      instructions.events == [
        "Username can't be empty",
        "Username must be at least 6 characters",
        "Password must be at least 6 characters",
        "",
        "Password can't be longer than 24 characters",
      ])
    withExtendedLifetime(subscription) {}
  }

  @Test func loginIsEnabledOnlyWhileBothAreValid() {
    let form = LoginViewModel()
    let enabled = Recorder<Bool>()
    let subscription = form.loginEnabled.observe(enabled.handler)
    form.usernameEdited.send("alice_w")
    form.passwordEdited.send("secret!")
    form.usernameEdited.send("al")
    form.usernameEdited.send("alice_w")
    #expect(enabled.events == [false, true, false, true])
    withExtendedLifetime(subscription) {}
  }

  @Test func loggingInSaysWhoIsLoggedIn() {
    let form = LoginViewModel()
    form.usernameEdited.send("alice_w")
    form.passwordEdited.send("secret!")
    form.loginTapped.send()
    #expect(form.instruction.value == "Logged in as alice_w")
  }
}
