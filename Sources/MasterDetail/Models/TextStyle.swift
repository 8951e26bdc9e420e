/// How a view should emphasize an item's text; the terminal app maps it to
/// colors, plain text output ignores it.
public enum TextStyle: Sendable, Hashable {
  /// No emphasis.
  case plain
  /// The accent color, for text in lists.
  case accent
  /// Strong emphasis, for the item a screen is about.
  case emphasis
}
