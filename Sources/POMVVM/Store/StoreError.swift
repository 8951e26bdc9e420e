/// Why a ``Store`` could not open, read or save its file.
///
/// The message names the file and says what the store did about it: a file
/// it cannot read is never overwritten, and a failed save leaves the previous
/// file as it was.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Hashable {
    /// The file exists but cannot be read (a directory, no permission, an
    /// I/O error).
    case unreadable
    /// The file was read but is not a valid store file: not valid JSON for
    /// the store's elements, or two elements with the same id.
    case corrupt
    /// A save failed.
    case unwritable
    /// The file is read-only: its permissions grant no write access, so
    /// the store refuses to replace it. Make it writable, and the next save
    /// writes every change.
    case readOnly
    /// Another store has the file: a store locks its file while it is
    /// open, and a second store on the same file, in this process or
    /// another, is refused rather than let the two overwrite each other's
    /// changes.
    case inUse
  }

  /// What went wrong.
  public let kind: Kind

  /// The store's file.
  public let path: String

  /// The underlying reason, as the system or the decoder reported it.
  public let reason: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - path: The store's file.
  ///   - reason: The underlying reason.
  public init(_ kind: Kind, path: String, reason: String) {
    self.kind = kind
    self.path = path
    self.reason = reason
  }

  /// A message that names the file, the problem and its consequence.
  public var description: String {
    switch kind {
    case .unreadable:
      "cannot read \(path): \(reason); the file was left untouched"
    case .corrupt:
      "cannot read \(path): it is not a valid store file (\(reason)); the file was left untouched"
    case .unwritable:
      "cannot save \(path): \(reason); the file on disk was not changed"
    case .readOnly:
      "cannot save \(path): the file is read-only (\(reason)); the file on disk was not changed"
    case .inUse:
      "cannot use \(path): \(reason); the file was left untouched"
    }
  }
}
