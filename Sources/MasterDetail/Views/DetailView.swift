import POMVVM

/// The detail screen, rendered as text.
///
/// ```
/// Detail
///   Date:   2026-11-21 10:00:00 +0000
///   Text:   first
///   Switch: [x]
/// ```
///
/// The text field is bound both ways to the item's text; the switch and the
/// delete button send events to the view model. When the item is deleted
/// elsewhere, the screen says so and its edits are refused.
@MainActor
public final class DetailView: BindableView {
  /// The item the screen shows.
  public var viewModel: DetailViewModel?

  /// The tokens of the screen's current binding.
  public let bindings = SubscriptionBag()

  /// The date label.
  public let dateLabel = Observable("")

  /// The text field; what the user types here goes to the item.
  public let textField = Observable("")

  /// The switch control.
  public let switchControl = Observable(false).labelled("detail switch")

  /// Whether the screen shows that its item was deleted.
  public let deletedNotice = Observable(false)

  /// The user tapped the switch.
  public let switchTapped = EventStream<Void>()

  /// The user tapped delete.
  public let deleteTapped = EventStream<Void>()

  /// How the text is emphasized, from the view model.
  public private(set) var style: TextStyle = .plain

  /// Creates an unbound screen.
  public init() {}

  /// Binds the controls to the item and the taps to the view model.
  ///
  /// - Parameter viewModel: The screen's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: DetailViewModel) -> [any SubscriptionToken] {
    style = viewModel.textStyle
    return [
      viewModel.date.map(\.description).bind(to: dateLabel),
      viewModel.text.bidirectionalBind(to: textField),
      viewModel.on.bind(to: switchControl),
      viewModel.detachment.bind(to: deletedNotice),
      switchTapped.observe { viewModel.toggleSwitch() },
      deleteTapped.observe { viewModel.delete() },
    ]
  }

  /// The user types a new text into the field.
  ///
  /// - Parameter text: The field's new content.
  public func edit(text: String) {
    textField.value = text
  }

  /// The user taps the switch.
  public func tapSwitch() {
    switchTapped.send()
  }

  /// The user taps delete.
  public func tapDelete() {
    deleteTapped.send()
  }

  /// The screen as lines of text.
  public var lines: [String] {
    var lines = [
      "Detail",
      "  Date:   \(dateLabel.value)",
      "  Text:   \(textField.value)",
      "  Switch: \(switchControl.value ? "[x]" : "[ ]")",
    ]
    if deletedNotice.value {
      lines.append("  (deleted: this item is no longer in the list)")
    }
    return lines
  }
}
