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
    /// Another program changed the file since the store last read or wrote
    /// it: it renamed a new file over it, or rewrote it in place (as
    /// `echo … > file` and many editors do). The store refuses to save over
    /// that program's contents: both stay as they are, the store's changes
    /// in memory. Move the file aside, or merge by hand, and reopen it.
    case changedOnDisk
    /// The file has more than one name (hard link). A save replaces the
    /// file by renaming a new one over the store's name, which would split
    /// that name from the others, and a second store opened through another
    /// name would not be refused; the store refuses the file instead.
    case hardLinked
    /// Another process changed or removed an element of the store's
    /// database (or added one with the same id) since this store last
    /// read it, and this store changed it too. The save is refused whole
    /// rather than write over the other process's value: that value stays
    /// in the database, and this store's in memory. The reason names the
    /// ids.
    case conflict
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
    case .inUse, .hardLinked:
      "cannot use \(path): \(reason); the file was left untouched"
    case .conflict:
      "cannot save \(path): \(reason); neither value was lost: the database keeps the other "
        + "process's, and this store's stays in memory"
    case .changedOnDisk:
      "cannot save \(path): \(reason); neither its contents nor this store's changes were lost: "
        + "the file was left as it is, and the changes stay in memory"
    }
  }
}
