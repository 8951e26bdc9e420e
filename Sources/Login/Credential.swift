/// The rules a username or a password must follow.
///
/// A credential is valid when it has 6 to 24 characters, counted as a
/// reader sees them: an emoji, or a letter with combining marks, is one
/// character.
public struct CredentialRule: Sendable {
  /// What the credential is, as it appears in messages ("Username").
  public let name: String

  /// The fewest characters allowed.
  public let minimumLength = 6

  /// The most characters allowed.
  public let maximumLength = 24

  /// Creates the rule for a credential.
  ///
  /// - Parameter name: What the credential is, as it appears in messages.
  public init(name: String) {
    self.name = name
  }

  /// What is wrong with a value, or `nil` if it is valid.
  ///
  /// - Parameter value: The value to check.
  /// - Returns: A message such as "Username must be at least 6 characters".
  public func problem(with value: String) -> String? {
    let length = value.count
    if length == 0 { return "\(name) can't be empty" }
    if length < minimumLength { return "\(name) must be at least \(minimumLength) characters" }
    if length > maximumLength { return "\(name) can't be longer than \(maximumLength) characters" }
    return nil
  }
}
