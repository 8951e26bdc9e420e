/// One button of an alert or a confirmation dialog: its label, its role and
/// the action the parent carries out when the user chooses it.
///
/// `Equatable` when `Action` is, so a test compares whole alerts.
public struct ButtonState<Action>: Identifiable {
  /// What a button is for, which the platform shows (a cancel button is
  /// bold and placed apart; a destructive one is red).
  public enum Role: Hashable, Sendable {
    /// Cancels: the alert is dismissed and nothing else happens, unless
    /// the button has an action.
    case cancel
    /// Destroys something, such as Delete.
    case destructive
  }

  /// The button's identity within its alert: its label.
  public var id: String { label }
  /// The text on the button.
  public var label: String
  /// What the button is for; `nil` for an ordinary button.
  public var role: Role?
  /// The action the parent carries out when the user chooses the button;
  /// `nil` for a button that only dismisses.
  public var action: Action?

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - label: The text on the button.
  ///   - role: What the button is for; `nil` for an ordinary button.
  ///   - action: What the parent carries out when the button is chosen;
  ///     `nil` for a button that only dismisses.
  public init(_ label: String, role: Role? = nil, action: Action? = nil) {
    self.label = label
    self.role = role
    self.action = action
  }

  /// A Cancel button, with no action: choosing it only dismisses.
  ///
  /// - Parameter label: The text on the button; "Cancel" by default.
  /// - Returns: The button.
  public static func cancel(_ label: String = "Cancel") -> Self {
    Self(label, role: .cancel)
  }

  /// A destructive button, such as Delete.
  ///
  /// - Parameters:
  ///   - label: The text on the button.
  ///   - action: What the parent carries out when it is chosen.
  /// - Returns: The button.
  public static func destructive(_ label: String, action: Action) -> Self {
    Self(label, role: .destructive, action: action)
  }
}

extension ButtonState {
  /// Whether `other` is this button: the same label and role, and no
  /// action on either or actions that are equal (when `Action` is
  /// `Equatable` at run time; otherwise any two actions match).
  func _matches(_ other: ButtonState) -> Bool {
    guard label == other.label, role == other.role else { return false }
    switch (action, other.action) {
    case (nil, nil): return true
    case (let mine?, let theirs?): return _equalIfEquatable(mine, theirs) ?? true
    default: return false
    }
  }
}

/// Whether two values are equal, if the first is `Equatable`; `nil` if it
/// is not.
private func _equalIfEquatable(_ lhs: Any, _ rhs: Any) -> Bool? {
  guard let lhs = lhs as? any Equatable else { return nil }
  return lhs._isEqual(to: rhs)
}

extension Equatable {
  fileprivate func _isEqual(to other: Any) -> Bool {
    (other as? Self) == self
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
