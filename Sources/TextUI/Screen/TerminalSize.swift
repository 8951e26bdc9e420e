/// The size of a terminal, in character cells.
public struct TerminalSize: Hashable, Sendable {
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int

  /// Creates a size.
  ///
  /// - Parameters:
  ///   - width: The number of columns.
  ///   - height: The number of rows.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The classic terminal size, 80 columns by 24 rows; used when the real
  /// size cannot be read.
  public static let standard = TerminalSize(width: 80, height: 24)
}
