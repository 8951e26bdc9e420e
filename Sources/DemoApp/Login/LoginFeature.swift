import Login
import POMVVM
import TextUI

/// The login form (article 000): a username and a password validated as
/// they are typed, an instruction line, and a login button enabled only
/// when both are valid.
///
/// The feature holds the form's view model and a ``Login/LoginView`` bound
/// to it for the whole run. Both modes act through the view, as a user
/// would: typing goes into the view's fields, which send every edit to the
/// view model as an event, and logging in is a tap on the view's button,
/// which a disabled button ignores. What either mode shows is what the view
/// observes.
@MainActor
public final class LoginFeature: DemoFeature {
  /// `login`.
  public static let name = "login"

  /// What the feature shows, for `--help`.
  public static let summary = "a login form validated as you type"

  /// The form's script commands.
  public static let loginScreen = ScriptScreen(
    name: "login",
    commands: [
      CommandHelp("username TEXT", "type TEXT into the username field, replacing it"),
      CommandHelp("password TEXT", "type TEXT into the password field, replacing it"),
      CommandHelp("login", "tap the login button (an error while it is disabled)"),
    ])

  /// The form, the feature's only screen.
  public static var screens: [ScriptScreen] { [loginScreen] }

  /// The form's fields, in the order the focus moves through them.
  enum Field: CaseIterable {
    case username
    case password
  }

  /// The form's view model.
  public let form = LoginViewModel()

  /// The form's screen, bound to ``form`` for the whole run.
  public let view = LoginView()

  // Interactive state: the field with the focus, a line editor per field
  // (always editing, so that every letter is text), and the message of a
  // refused login, shown until the next key.
  var focus = Field.username
  var editors: [Field: LineEditor] = [.username: LineEditor(), .password: LineEditor()]
  var notice: [String] = []

  /// Creates the feature with an empty form.
  ///
  /// - Parameter environment: Unused: the form depends on nothing.
  public init(environment: FeatureEnvironment) {
    view.bind(to: form)
  }

  /// The form.
  public var currentScreen: ScriptScreen { Self.loginScreen }

  /// The lines of the form: ``Login/LoginView/lines``, the password masked.
  public var lines: [String] { view.lines }

  /// Why the login button is disabled, and what it takes to enable it.
  ///
  /// The problem is the form's instruction, which says what is wrong once
  /// the user has typed (`nil` before); what is accepted comes from the
  /// credential rule.
  var loginRefusal: (problem: String?, accepted: String) {
    let rule = CredentialRule(name: "Username")
    let problem = view.instructionLabel.value
    return (
      problem.isEmpty ? nil : problem,
      "the username and the password need \(rule.minimumLength)-\(rule.maximumLength) characters each"
    )
  }
}
