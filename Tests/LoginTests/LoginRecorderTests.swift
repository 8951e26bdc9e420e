import Login
import POMVVMTesting
import Testing

/// The login form under the state recorder: each edit's every change, from
/// the view's field to the view model and back to the view's labels.
@MainActor
@Suite("Login, every change")
struct LoginRecorderTests {
  @Test func typingAValidUsernameThenPasswordEnablesLoginAndNothingElseMoves() {
    let view = LoginView()
    view.bind(to: LoginViewModel())
    let recorder = StateRecorder(of: view)
    recorder.perform {
      view.type(username: "alice_w")
    } expecting: {
      $0.changed(\.usernameField, to: "alice_w")
      $0.sent(\.viewModel!.usernameEdited, ["alice_w"])
      $0.changed(\.viewModel!.username, to: "alice_w")
      $0.changed(\.viewModel!.usernameValid, to: true)
      $0.changed(\.viewModel!.instruction, to: "Password can't be empty")
      $0.changed(\.instructionLabel, to: "Password can't be empty")
    }
    recorder.perform {
      view.type(password: "secret!")
    } expecting: {
      $0.changed(\.passwordField, to: "secret!")
      $0.sent(\.viewModel!.passwordEdited, ["secret!"])
      $0.changed(\.viewModel!.password, to: "secret!")
      $0.changed(\.viewModel!.passwordValid, to: true)
      $0.changed(\.viewModel!.loginEnabled, to: true)
      $0.changed(\.loginButtonEnabled, to: true)
      $0.changed(\.viewModel!.instruction, to: "")
      $0.changed(\.instructionLabel, to: "")
    }
    recorder.perform {
      view.tapLogin()
    } expecting: {
      $0.sent(\.loginTapped)
      $0.sent(\.viewModel!.loginTapped)
      $0.changed(\.viewModel!.instruction, to: "Logged in as alice_w")
      $0.changed(\.instructionLabel, to: "Logged in as alice_w")
    }
    recorder.finish()
  }

  @Test func aTapOnTheDisabledButtonSendsNothingAndChangesNothing() {
    let view = LoginView()
    view.bind(to: LoginViewModel())
    let recorder = StateRecorder(of: view)
    var tapped = true
    recorder.perform {
      tapped = view.tapLogin()
    }
    #expect(!tapped)
    recorder.finish()
  }
}
