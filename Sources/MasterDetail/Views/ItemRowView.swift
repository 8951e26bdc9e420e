import POMVVM

/// A list row, rendered as text: `[x] text`.
///
/// The row's controls are cells, as a real row's label and switch would be:
/// the view model's cells are bound to them, and the user's tap travels back
/// as an event to the view model's shared ``Switchable`` logic. Rows are
/// reused: binding a row to another item ends every binding to the previous
/// one.
@MainActor
public final class ItemRowView: BindableCell {
  /// The item the row shows.
  public var viewModel: DateCellViewModel?

  /// The tokens of the row's current binding.
  public let bindings = SubscriptionBag()

  /// The row's label: the item's text.
  public let label = Observable("")

  /// The row's switch control.
  public let switchControl = Observable(false)

  /// The user tapped the switch.
  public let switchTapped = EventStream<Void>()

  /// The row as a line of text, `[x] text`, kept up to date.
  public let line: Derived<String>

  /// How the label is emphasized, from the view model.
  public private(set) var style: TextStyle = .plain

  /// Creates an unbound row.
  public init() {
    line = combine(.every, switchControl, label, initial: "[ ] ") { on, text in
      "\(on ? "[x]" : "[ ]") \(text)"
    }
  }

  /// Binds the label and switch to the item, and the tap to its toggle.
  ///
  /// - Parameter viewModel: The row's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: DateCellViewModel) -> [any SubscriptionToken] {
    style = viewModel.textStyle
    return [
      viewModel.text.bind(to: label),
      viewModel.on.bind(to: switchControl),
      switchTapped.observe { viewModel.toggleSwitch() },
    ]
  }

  /// The user taps the switch.
  public func tapSwitch() {
    switchTapped.send()
  }
}
