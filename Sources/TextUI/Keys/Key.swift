/// A key the user pressed, decoded from the bytes a terminal sends.
///
/// Printable input, including UTF-8 text, arrives as ``character(_:)``; the
/// keys that send escape sequences (arrows, Home, Delete, …) and control
/// bytes have cases of their own. ``KeyDecoder`` turns bytes into keys.
public enum Key: Hashable, Sendable {
  /// A printable character: a letter, a digit, a space, CJK, an emoji, ….
  case character(Character)
  /// Return or Enter (carriage return or line feed).
  case enter
  /// The Tab key.
  case tab
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// The Escape key, pressed alone.
  case escape
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// Delete (forward delete).
  case delete
  /// Ctrl-C: in raw mode the terminal sends it as a byte instead of a signal.
  case interrupt
  /// Another control key, named by its letter: Ctrl-U is `.control("u")`.
  case control(Character)
  /// An escape sequence the decoder does not know, kept as its bytes after
  /// the escape (for example `"[15~"` for F5); applications ignore it.
  case unknown(String)
}
