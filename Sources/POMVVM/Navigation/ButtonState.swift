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
  /// The number of the alert made with this button; 0 for a button made on
  /// its own.
  ///
  /// It tells a button of the alert shown from an equal one of an alert
  /// that is gone (``AlertState/init(title:message:buttons:style:)`` sets
  /// it). Not part of the button's value: `==`, `hash(into:)` and its
  /// mirror leave it out.
  var _alert: UInt64 = 0

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
  /// Whether `other` is this button: the same label and role, no action on
  /// either or actions that are equal (when `Action` is `Equatable` at run
  /// time; otherwise any two actions match), and, if `other` came from an
  /// alert, this button's alert.
  func _matches(_ other: ButtonState) -> Bool {
    guard label == other.label, role == other.role else { return false }
    guard other._alert == 0 || other._alert == _alert else { return false }
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

extension ButtonState: Equatable where Action: Equatable {
  /// Whether two buttons have the same label, role and action.
  ///
  /// - Parameters:
  ///   - lhs: A button.
  ///   - rhs: Another button.
  /// - Returns: `true` if the label, the role and the action are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.label == rhs.label && lhs.role == rhs.role && lhs.action == rhs.action
  }
}

extension ButtonState: Hashable where Action: Hashable {
  /// Hashes the label, the role and the action.
  ///
  /// - Parameter hasher: The hasher to use.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(label)
    hasher.combine(role)
    hasher.combine(action)
  }
}

extension ButtonState: CustomReflectable {
  /// The label, the role and the action, as a dump or a test's diff shows
  /// them.
  public var customMirror: Mirror {
    Mirror(
      self, children: ["label": label, "role": role as Any, "action": action as Any],
      displayStyle: .struct)
  }
}
extension ButtonState: Sendable where Action: Sendable {}
