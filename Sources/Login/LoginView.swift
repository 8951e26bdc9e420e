import POMVVM

/// The login form, rendered as text.
///
/// ```
/// Login
///   Username:    alice_w
///   Password:    ••••••
///   Instruction:
///   Log in:      enabled
/// ```
///
/// Its fields send every edit to the view model as an event; its labels
/// follow the view model's cells.
@MainActor
public final class LoginView: BindableView {
  /// The form the view shows.
  public var viewModel: LoginViewModel?

  /// The tokens of the view's current binding.
  public let bindings = SubscriptionBag()

  /// The username field.
  public let usernameField = Observable("")

  /// The password field.
  public let passwordField = Observable("")

  /// The instruction label.
  public let instructionLabel = Observable("")

  /// Whether the login button is enabled.
  public let loginButtonEnabled = Observable(false)

  /// The user tapped the login button.
  public let loginTapped = EventStream<Void>()

  /// Creates an unbound view.
  public init() {}

  /// Sends the fields' edits and the tap to the view model, and shows its
  /// state.
  ///
  /// - Parameter viewModel: The form's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: LoginViewModel) -> [any SubscriptionToken] {
    [
      viewModel.username.bind(to: usernameField),
      viewModel.password.bind(to: passwordField),
      usernameField.observeChanges { viewModel.usernameEdited.send($0) },
      passwordField.observeChanges { viewModel.passwordEdited.send($0) },
      loginTapped.observe { viewModel.loginTapped.send() },
      viewModel.instruction.bind(to: instructionLabel),
      viewModel.loginEnabled.bind(to: loginButtonEnabled),
    ]
  }

  /// The user types into the username field.
  ///
  /// - Parameter text: The field's new content.
  public func type(username text: String) {
    usernameField.value = text
  }

  /// The user types into the password field.
  ///
  /// - Parameter text: The field's new content.
  public func type(password text: String) {
    passwordField.value = text
  }

  /// The user taps the login button; a disabled button does nothing.
  ///
  /// - Returns: Whether the button was enabled.
  @discardableResult
  public func tapLogin() -> Bool {
    guard loginButtonEnabled.value else { return false }
    loginTapped.send()
    return true
  }

  /// The form as lines of text; the password is masked, one bullet per
  /// character.
  public var lines: [String] {
    [
      "Login",
      "  Username:    \(usernameField.value)",
      "  Password:    \(String(repeating: "•", count: passwordField.value.count))",
      "  Instruction: \(instructionLabel.value)",
      "  Log in:      \(loginButtonEnabled.value ? "enabled" : "disabled")",
    ]
  }
}
