import Login
import POMVVM
import POMVVMTesting
import Testing

/// The login form's view model and view, checked by POMVVMTesting's
/// conformance suites as an app would check its own types.
@MainActor
@Suite("Login conformance")
struct LoginConformanceTests {
  /// What ``LoginView`` should show for a form, from the form's own cells.
  static func lines(for form: LoginViewModel) -> [String] {
    [
      "Login",
      "  Username:    \(form.username.value)",
      "  Password:    \(String(repeating: "•", count: form.password.value.count))",
      "  Instruction: \(form.instruction.value)",
      "  Log in:      \(form.loginEnabled.value ? "enabled" : "disabled")",
    ]
  }

  @Test func theLoginViewRebindsCleanly() {
    checkBindableView(
      LoginView.init,
      viewModels: { LoginViewModel() },
      rendering: { $0.lines },
      expected: Self.lines(for:),
      mutate: { form in
        // Each call edits both fields, so the instruction and the button
        // change too: from empty to too short to valid.
        form.usernameEdited.send(form.username.value + "abc")
        form.passwordEdited.send(form.password.value + "🔑🔑🔑")
      },
      releasing: { form in
        [
          form, form.username, form.password, form.instruction, form.usernameValid,
          form.passwordValid, form.loginEnabled, form.usernameEdited, form.passwordEdited,
          form.loginTapped,
        ]
      })
  }

  @Test func theFormAndItsViewAreReleasedAfterUse() {
    checkNoLeaks {
      let form = LoginViewModel()
      let view = LoginView()
      view.bind(to: form)
      view.type(username: "alice_w")
      view.type(password: "secret")
      view.tapLogin()
      return [
        form, view, form.username, form.password, form.instruction, form.loginEnabled,
        view.usernameField, view.passwordField, view.loginTapped,
      ]
    }
  }

  @Test func aViewThatIsUnboundReleasesTheForm() {
    let view = LoginView()
    checkNoLeaks {
      let form = LoginViewModel()
      view.bind(to: form)
      view.type(username: "alice_w")
      view.unbind()
      return [form, form.username, form.instruction, form.loginEnabled]
    }
    #expect(view.lines[1] == "  Username:    alice_w", "the view keeps what it showed")
  }
}
