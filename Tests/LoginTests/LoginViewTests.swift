import Login
import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("LoginView")
struct LoginViewTests {
  func makeView() -> (LoginView, LoginViewModel) {
    let model = LoginViewModel()
    let view = LoginView()
    view.bind(to: model)
    return (view, model)
  }

  @Test func rendersTheFormExactly() {
    let (view, _) = makeView()
    view.type(username: "alice_w")
    view.type(password: "secret")
    #expect(
      view.lines.joined(separator: "\n") == """
        Login
          Username:    alice_w
          Password:    ••••••
          Instruction: 
          Log in:      enabled
        """)
  }

  @Test func aDisabledButtonDoesNothing() {
    let (view, model) = makeView()
    view.type(username: "al")
    #expect(view.tapLogin() == false)
    #expect(
      view.lines.joined(separator: "\n") == """
        Login
          Username:    al
          Password:    
          Instruction: Username must be at least 6 characters
          Log in:      disabled
        """)
    #expect(model.instruction.value == "Username must be at least 6 characters")
  }

  @Test func theFieldsEditsReachTheViewModelAsEvents() {
    let (view, model) = makeView()
    let edits = Recorder<String>()
    let subscription = model.usernameEdited.observe(edits.handler)
    view.type(username: "a")
    view.type(username: "ab")
    #expect(edits.events == ["a", "ab"])
    #expect(model.username.value == "ab")
    withExtendedLifetime(subscription) {}
  }

  @Test func loggingInFromTheView() {
    let (view, _) = makeView()
    view.type(username: "alice_w")
    view.type(password: "😀😀😀😀😀😀")
    #expect(view.tapLogin())
    #expect(view.lines[2] == "  Password:    ••••••")
    #expect(view.lines[3] == "  Instruction: Logged in as alice_w")
  }
}
