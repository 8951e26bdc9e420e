import POMVVM

/// The login form's view model: a username and a password validated by the
/// kit's combiners, an instruction line, and a login action enabled only
/// when both are valid.
///
/// Views send their edits and taps as events (``usernameEdited``,
/// ``passwordEdited``, ``loginTapped``); the view model turns them into
/// state, and views observe the state.
///
/// The instruction shows the username's problem first, else the password's,
/// else nothing; a pristine form shows nothing until the user types.
@MainActor
public final class LoginViewModel: ViewModel {
  /// The username as typed.
  public let username = Observable("")

  /// The password as typed.
  public let password = Observable("")

  /// Whether the username follows its rule.
  public let usernameValid: Derived<Bool>

  /// Whether the password follows its rule.
  public let passwordValid: Derived<Bool>

  /// Whether logging in is allowed: both are valid.
  public let loginEnabled: Derived<Bool>

  /// What the user should do next, or what happened.
  public let instruction = Observable("")

  /// The user edited the username field.
  public let usernameEdited = EventStream<String>()

  /// The user edited the password field.
  public let passwordEdited = EventStream<String>()

  /// The user tapped the login button.
  public let loginTapped = EventStream<Void>()

  private let subscriptions = SubscriptionBag()

  /// Creates an empty form.
  public init() {
    let usernameRule = CredentialRule(name: "Username")
    let passwordRule = CredentialRule(name: "Password")
    usernameValid = username.map { usernameRule.problem(with: $0) == nil }
    passwordValid = password.map { passwordRule.problem(with: $0) == nil }
    loginEnabled = combine(.every, usernameValid, passwordValid, initial: false) { $0 && $1 }
      .labelled("login button enabled")
    combine(.every, username, password, initial: "") { username, password in
      usernameRule.problem(with: username) ?? passwordRule.problem(with: password) ?? ""
    }
    .bind(to: instruction)
    .store(in: subscriptions)
    usernameEdited.bind(to: username).store(in: subscriptions)
    passwordEdited.bind(to: password).store(in: subscriptions)
    loginTapped.observe { [weak self] in self?.logIn() }.store(in: subscriptions)
  }

  /// Logs in, if allowed: the instruction becomes "Logged in as NAME".
  ///
  /// - Returns: `false` if logging in is not allowed (nothing changes).
  @discardableResult
  public func logIn() -> Bool {
    guard loginEnabled.value else { return false }
    instruction.value = "Logged in as \(username.value)"
    return true
  }
}
