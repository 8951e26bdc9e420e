/// A one-line text editor: a text and a cursor, edited by keys.
///
/// The cursor sits between characters, and a `Character` is a whole
/// grapheme cluster, so Backspace removes what the user sees as one
/// character: `é` written as `e` plus a combining accent, a flag, an emoji
/// with skin tone. Text typed in pieces joins up as it would in the string:
/// a combining mark typed after a letter becomes part of it.
///
/// ```swift
/// var editor = LineEditor(text: "café 👍")
/// editor.handle(.backspace)        // "café ": the emoji goes in one key
/// editor.handle(.character("!"))   // "café !"
/// editor.handle(.enter)            // .committed("café !")
/// ```
public struct LineEditor: Hashable, Sendable {
  /// The editor's keys, for a help line while it edits.
  public static let keyHelp = "enter save  esc cancel  ←/→ move  backspace erase  ctrl-u clear"

  /// The text, one element per grapheme cluster, so that moving and
  /// deleting cost no index walks and a long paste stays linear.
  private var characters: [Character]

  /// The text being edited.
  public var text: String { String(characters) }

  /// The cursor: how many characters are before it, from `0` through the
  /// text's character count.
  public private(set) var cursor: Int

  /// What a key did to the edit.
  public enum Outcome: Hashable, Sendable {
    /// The edit goes on (the key changed the text or the cursor, or was
    /// ignored).
    case editing
    /// Enter: the user accepted the text.
    case committed(String)
    /// Escape: the user abandoned the edit.
    case cancelled
  }

  /// Creates an editor with the cursor at the end of a text.
  ///
  /// - Parameter text: The initial text.
  public init(text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  /// Applies a key to the text.
  ///
  /// Characters are inserted; Backspace and Delete (or Ctrl-D) remove a
  /// character; the arrows, Home and End (or Ctrl-B, Ctrl-F, Ctrl-A and
  /// Ctrl-E) move the cursor; Ctrl-U erases everything before the cursor;
  /// Enter commits and Escape cancels. Other keys are ignored.
  ///
  /// - Parameter key: The key the user pressed.
  /// - Returns: Whether the edit goes on, was committed or was cancelled.
  @discardableResult
  public mutating func handle(_ key: Key) -> Outcome {
    switch key {
    case .character(let character): insert(String(character))
    case .backspace: deleteBackward()
    case .delete, .control("d"): deleteForward()
    case .left, .control("b"): moveLeft()
    case .right, .control("f"): moveRight()
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .control("u"): deleteToStart()
    case .enter: return .committed(text)
    case .escape: return .cancelled
    default: break
    }
    return .editing
  }

  /// Inserts text at the cursor and moves the cursor past it.
  ///
  /// A character that extends the one before the cursor — a combining
  /// mark, a zero-width joiner and what follows it, a skin tone — joins it,
  /// as it would in a string.
  ///
  /// - Parameter string: The text to insert.
  /// - Complexity: O(*n* + *m*), where *n* is the length of the text and
  ///   *m* of the insertion.
  public mutating func insert(_ string: some StringProtocol) {
    var inserted: [Character] = []
    for character in string {
      if let last = inserted.last ?? (cursor > 0 ? characters[cursor - 1] : nil) {
        let joined = String(last) + String(character)
        if joined.count == 1, let combined = joined.first {
          if inserted.isEmpty {
            characters[cursor - 1] = combined
          } else {
            inserted[inserted.count - 1] = combined
          }
          continue
        }
      }
      inserted.append(character)
    }
    characters.insert(contentsOf: inserted, at: cursor)
    cursor += inserted.count
  }

  /// Removes the character before the cursor, if any.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public mutating func deleteBackward() {
    guard cursor > 0 else { return }
    characters.remove(at: cursor - 1)
    cursor -= 1
  }

  /// Removes the character after the cursor, if any.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public mutating func deleteForward() {
    guard cursor < characters.count else { return }
    characters.remove(at: cursor)
  }

  /// Removes every character before the cursor.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public mutating func deleteToStart() {
    characters.removeFirst(cursor)
    cursor = 0
  }

  /// Moves the cursor one character to the left, if it can.
  public mutating func moveLeft() {
    cursor = max(cursor - 1, 0)
  }

  /// Moves the cursor one character to the right, if it can.
  public mutating func moveRight() {
    cursor = min(cursor + 1, characters.count)
  }

  /// The part of the text to show in a field of a given width, and the
  /// column of the cursor in it.
  ///
  /// The field scrolls to keep the cursor in view, with a column left for
  /// the cursor after the last character; an ellipsis marks text cut off at
  /// either end. Columns are counted as ``ScreenRenderer`` draws the text: a
  /// control character takes the six columns of its visible escape
  /// (`\u{1B}`), so the cursor shows after it.
  ///
  /// ```swift
  /// LineEditor(text: "a long line of text").visible(inWidth: 8)
  /// // (text: "…f text", cursorColumn: 7): the cursor is after "text"
  /// ```
  ///
  /// - Parameter width: The field's width in columns, at least 2.
  /// - Returns: The text to show and the cursor's column in it, from 0.
  /// - Complexity: O(*n*) in the length of the text.
  public func visible(inWidth width: Int) -> (text: String, cursorColumn: Int) {
    let width = max(width, 2)
    let before = characters[..<cursor]
    let after = String(characters[cursor...])
    var beforeWidth = 0
    for character in before {
      beforeWidth += character.displayWidth
    }
    if beforeWidth + 1 <= width {
      return (String(before) + after.truncated(toWidth: width - beforeWidth), beforeWidth)
    }
    // Show the end of the text before the cursor, after an ellipsis.
    var start = cursor
    var shownWidth = 0
    while start > 0 {
      let characterWidth = characters[start - 1].displayWidth
      guard shownWidth + characterWidth <= width - 2 else { break }
      shownWidth += characterWidth
      start -= 1
    }
    let cursorColumn = 1 + shownWidth
    let shown = "…" + String(characters[start..<cursor])
    return (shown + after.truncated(toWidth: width - cursorColumn), cursorColumn)
  }
}
