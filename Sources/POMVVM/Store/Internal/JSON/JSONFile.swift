#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A store's JSON file: loading it, replacing it atomically, the lock that
/// keeps a second store off it, and the clean-up of temporary files that a
/// killed save left behind.
///
/// - Symbolic links are resolved once, when the store opens: saves replace
///   the link's target, in the target's directory, and the link stays.
/// - A save writes `.<name>.<pid>.<random>.saving` beside the file, gives
///   it the file's owner (where allowed) and permissions, flushes it to
///   disk, renames it over the file and flushes the directory. A reader, or
///   a crash, sees the old file or the new one, never a half-written one. A
///   failed save removes its temporary file and leaves the old file as it
///   was.
/// - The lock is an exclusive `flock(2)` on the file the store last loaded
///   or saved, held from loading until ``unlock()``. Each save locks its new
///   file before renaming it into place, so the lock follows the file from
///   inode to inode; a store that opens the file checks that the inode it
///   locked is still the one at the path.
///
/// Not thread-safe: the store's writer confines it to its queue.
final class _JSONFile: @unchecked Sendable {
  /// The path the store was given, as messages name it.
  let path: String

  /// The file itself: ``path`` with symbolic links resolved.
  let target: String

  /// The directory of ``target``, where temporary files go.
  let directory: String

  /// The last component of ``target``.
  let name: String

  /// A descriptor of the file the store loaded or last saved, locked; -1
  /// while there is no file, or after ``unlock()``.
  private var lock: Int32 = -1

  /// The file as the store last read or wrote it, to tell a change made by
  /// another program; `nil` while there is no file.
  private var known: _FileSnapshot?

  init(path: String) {
    self.path = path
    target = Self.resolvingLinks(path)
    (directory, name) = Self.split(target)
  }

  deinit {
    unlock()
  }

  /// Releases the lock; the file takes no more saves.
  func unlock() {
    if lock >= 0 {
      Self.release(lock)
      lock = -1
    }
  }

  /// Unlocks and closes a descriptor.
  ///
  /// Unlocking first matters: a process being spawned meanwhile shares the
  /// open file until it executes, and closing alone would leave the lock
  /// held until then.
  private static func release(_ descriptor: Int32) {
    _ = flock(descriptor, LOCK_UN)
    _ = close(descriptor)
  }

  // MARK: - Loading

  /// Locks and reads the file; `nil` if there is no file.
  ///
  /// Also removes the temporary files of saves whose process is gone.
  func load() throws(StoreError) -> Data? {
    defer { removeStaleTemporaryFiles() }
    // A file replaced between `open` and `flock` is opened again.
    for _ in 0..<8 {
      let descriptor = open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      guard descriptor >= 0 else {
        let code = errno
        if code == ENOENT { return nil }
        throw StoreError(.unreadable, path: path, reason: Self.text(code))
      }
      var opened = stat()
      guard fstat(descriptor, &opened) == 0 else {
        let code = errno
        _ = close(descriptor)
        throw StoreError(.unreadable, path: path, reason: Self.text(code))
      }
      guard opened.st_mode & S_IFMT == S_IFREG else {
        _ = close(descriptor)
        let what = opened.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
        throw StoreError(.unreadable, path: path, reason: "it is \(what)")
      }
      if flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK {
        _ = close(descriptor)
        throw StoreError(.inUse, path: path, reason: Self.inUseReason)
      }
      // Any other flock failure is a file system without locks: carry on.
      var current = stat()
      guard stat(target, &current) == 0, current.st_dev == opened.st_dev,
        current.st_ino == opened.st_ino
      else {
        Self.release(descriptor)
        continue
      }
      if opened.st_nlink > 1 {
        Self.release(descriptor)
        throw StoreError(.hardLinked, path: path, reason: Self.hardLinkReason(opened.st_nlink))
      }
      do {
        let data = try Self.readAll(descriptor)
        lock = descriptor
        known = _FileSnapshot(descriptor, contents: data, after: .loading)
        return data
      } catch {
        Self.release(descriptor)
        throw StoreError(.unreadable, path: path, reason: error.description)
      }
    }
    throw StoreError(.unreadable, path: path, reason: "another program keeps replacing it")
  }

  static let inUseReason =
    "another store has it open, in this process or another; close that one first"

  /// Why a file with more than one hard link is refused.
  static func hardLinkReason(_ links: nlink_t) -> String {
    "it has \(links) hard links, and a save replaces the file by renaming a new one over this "
      + "name only, which would split it from the others; give it a single name"
  }

  /// Reads a descriptor to its end: from its position, or from `offset`
  /// without moving the position.
  private static func readAll(_ descriptor: Int32, from offset: off_t? = nil)
    throws(_POSIXFailure) -> Data
  {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { bytes in
        if let offset {
          pread(descriptor, bytes.baseAddress, bytes.count, offset + off_t(data.count))
        } else {
          read(descriptor, bytes.baseAddress, bytes.count)
        }
      }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        throw posixError("read")
      }
      data.append(contentsOf: buffer[..<count])
    }
  }

  // MARK: - Saving

  /// Replaces the file's contents, atomically.
  ///
  /// A new file gets the permissions of any new file (0666 less the
  /// umask); a replaced file keeps its owner, where allowed, and its
  /// permissions.
  ///
  /// - Throws: ``StoreError/Kind-swift.enum/changedOnDisk`` if another
  ///   program replaced or rewrote the file since the store last read or
  ///   wrote it, ``StoreError/Kind-swift.enum/hardLinked`` if it has more
  ///   than one name now, ``StoreError/Kind-swift.enum/readOnly`` if the
  ///   file grants no write permission,
  ///   ``StoreError/Kind-swift.enum/inUse`` if another process created the
  ///   file after this store found none, and
  ///   ``StoreError/Kind-swift.enum/unwritable`` for anything else.
  func save(_ data: Data) throws(StoreError) {
    var existing = stat()
    // A file deleted behind the store's back is created anew.
    let replacing = lock >= 0 && fstat(lock, &existing) == 0 && existing.st_nlink > 0
    try checkUnchanged(replacing ? existing : nil)
    if replacing, let permissions = Self.readOnlyPermissions(existing, path: target) {
      throw StoreError(.readOnly, path: path, reason: "permissions \(permissions)")
    }
    let temporary =
      "\(directory)/.\(name).\(getpid()).\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).saving"
    let descriptor = open(
      temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, replacing ? 0o600 : 0o666)
    guard descriptor >= 0 else {
      throw StoreError(
        .unwritable, path: path,
        reason: "cannot create a temporary file in \(directory): \(Self.text(errno))")
    }
    var isInPlace = false
    defer {
      if !isInPlace {
        // Unlink first: nothing else may open the file and find it locked.
        unlink(temporary)
        Self.release(descriptor)
      }
    }
    do throws(_POSIXFailure) {
      try Self.writeAll(data, to: descriptor)
      if replacing {
        // The owner first: changing it clears the set-id bits.
        if fchown(descriptor, existing.st_uid, existing.st_gid) != 0 {
          _ = fchown(descriptor, uid_t.max, existing.st_gid)
        }
        guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
          throw Self.posixError("setting its permissions")
        }
      }
      guard fsync(descriptor) == 0 else { throw Self.posixError("flushing it to disk") }
      _ = flock(descriptor, LOCK_EX | LOCK_NB)
      if replacing {
        guard rename(temporary, target) == 0 else { throw Self.posixError("replacing it") }
      } else {
        try Self.createWithoutReplacing(target, from: temporary)
      }
    } catch {
      if error.code == EEXIST {
        throw StoreError(
          .inUse, path: path,
          reason: "another process created it after this store found none")
      }
      throw StoreError(.unwritable, path: path, reason: error.description)
    }
    isInPlace = true
    Self.syncDirectory(directory)
    unlock()
    lock = descriptor
    known = _FileSnapshot(descriptor, contents: data, after: .saving)
  }

  /// Throws if the file at the path is no longer the one the store last
  /// read or wrote: another program renamed a file over it, or rewrote it
  /// in place (as `echo … > file` and many editors do).
  ///
  /// The file's identity, size, modification and change times are compared
  /// first; where they disagree, or are too recent to tell a change within
  /// the clock's granularity, its contents are hashed and compared, so a
  /// file only touched still takes the save.
  ///
  /// - Parameter existing: The status of the locked file, if it still has a
  ///   name; `nil` if it was deleted, or if there was none.
  /// - Throws: ``StoreError/Kind-swift.enum/changedOnDisk`` or
  ///   ``StoreError/Kind-swift.enum/hardLinked``; ``StoreError/Kind-swift.enum/unwritable``
  ///   if the file cannot be read back.
  private func checkUnchanged(_ existing: stat?) throws(StoreError) {
    guard let known else { return }
    var current = stat()
    let isAtPath = stat(target, &current) == 0
    guard let existing else {
      // Deleted: created anew, unless another file took its name.
      guard isAtPath else { return }
      throw StoreError(
        .changedOnDisk, path: path,
        reason:
          "another program replaced it with a new file after this store \(known.access.rawValue)")
    }
    guard isAtPath else {
      // Renamed away: the save creates the file anew at the path.
      return
    }
    guard current.st_dev == existing.st_dev, current.st_ino == existing.st_ino else {
      throw StoreError(
        .changedOnDisk, path: path,
        reason:
          "another program replaced it with a new file after this store \(known.access.rawValue)")
    }
    if existing.st_nlink > 1 {
      throw StoreError(.hardLinked, path: path, reason: Self.hardLinkReason(existing.st_nlink))
    }
    guard !known.matches(existing) else { return }
    let digest: UInt64
    do throws(_POSIXFailure) {
      digest = _FileSnapshot.digest(of: try Self.readAll(lock, from: 0))
    } catch {
      throw StoreError(
        .unwritable, path: path,
        reason: "cannot check it for changes by another program: \(error.description)")
    }
    guard digest == known.digest else {
      throw StoreError(
        .changedOnDisk, path: path,
        reason: "another program changed its contents after this store \(known.access.rawValue)")
    }
    self.known?.refresh(existing)
  }

  /// Puts a new file in place only if there is none: `link(2)` fails
  /// rather than replace a file another process created meanwhile.
  private static func createWithoutReplacing(_ target: String, from temporary: String)
    throws(_POSIXFailure)
  {
    if link(temporary, target) == 0 {
      unlink(temporary)
      return
    }
    let code = errno
    guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EMLINK else {
      throw _POSIXFailure(operation: "creating it", code: code)
    }
    // A file system without hard links: check, then rename.
    var status = stat()
    guard lstat(target, &status) != 0 else {
      throw _POSIXFailure(operation: "creating it", code: EEXIST)
    }
    guard rename(temporary, target) == 0 else { throw posixError("creating it") }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32) throws(_POSIXFailure) {
    let failure: Int32? = data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(
          descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return written < 0 ? errno : EIO }
        offset += written
      }
      return nil
    }
    if let failure { throw _POSIXFailure(operation: "writing it", code: failure) }
  }

  /// Flushes a directory's entries, so that a rename survives a power cut.
  ///
  /// Best effort: the new file is in place, whatever this says.
  static func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    _ = close(descriptor)
  }

  /// The permissions, as `ls` shows them, of a file that this process may
  /// not write; `nil` if it may.
  ///
  /// The superuser may write any file, but a file that grants write access
  /// to no one is read-only for it too.
  static func readOnlyPermissions(_ status: stat, path: String) -> String? {
    let mode = status.st_mode & 0o777
    let isReadOnly = geteuid() == 0 ? mode & 0o222 == 0 : access(path, W_OK) != 0
    guard isReadOnly else { return nil }
    let letters: [Character] = ["r", "w", "x"]
    return String(
      (0..<9).map { bit in mode & (0o400 >> mode_t(bit)) != 0 ? letters[bit % 3] : "-" })
  }

  // MARK: - Temporary files

  /// Removes this file's temporary files whose process is gone, and any
  /// older than ten minutes (a process id can be reused).
  private func removeStaleTemporaryFiles() {
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    let prefix = ".\(name)."
    let now = time(nil)
    while let entry = readdir(stream) {
      let entryName = Self.name(of: entry)
      guard entryName.hasPrefix(prefix), entryName.hasSuffix(".saving") else { continue }
      let parts = entryName.dropFirst(prefix.count).dropLast(".saving".count)
        .split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 2, let owner = pid_t(parts[0]), owner > 0,
        UInt32(parts[1], radix: 16) != nil
      else { continue }
      let file = "\(directory)/\(entryName)"
      var status = stat()
      guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      let isOwnerGone = kill(owner, 0) != 0 && errno == ESRCH
      if isOwnerGone || now - Self.modificationTime(status) > 600 {
        unlink(file)
      }
    }
  }

  /// The name of a directory entry, read in place up to its terminating
  /// NUL.
  ///
  /// The C library fills `d_name` only up to that NUL: copying the whole
  /// array and scanning the copy reads the bytes after it, which were never
  /// written (valgrind reports a jump on uninitialised values). `strlen`,
  /// which `String(cString:)` calls, reads no further than it may.
  private static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    let name = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
    return String(cString: name)
  }

  private static func modificationTime(_ status: stat) -> time_t {
    #if canImport(Darwin)
    status.st_mtimespec.tv_sec
    #else
    status.st_mtim.tv_sec
    #endif
  }

  // MARK: - Paths

  /// Follows symbolic links to the file they name, which may not exist yet.
  static func resolvingLinks(_ path: String) -> String {
    var current = path
    // As many links as the system follows; past that, `open` reports ELOOP.
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
        return current
      }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let length = buffer.withUnsafeMutableBytes { bytes -> Int in
        guard let base = bytes.baseAddress else { return -1 }
        return readlink(current, base.assumingMemoryBound(to: CChar.self), bytes.count)
      }
      guard length > 0 else { return current }
      let link = String(decoding: buffer[..<length], as: UTF8.self)
      current = link.hasPrefix("/") ? link : "\(split(current).directory)/\(link)"
    }
    return current
  }

  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  // MARK: - Errors

  private static func posixError(_ operation: String) -> _POSIXFailure {
    _POSIXFailure(operation: operation, code: errno)
  }

  static func text(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// A failed system call.
struct _POSIXFailure: Error, CustomStringConvertible {
  let operation: String
  let code: Int32
  var description: String { "\(operation) failed: \(_JSONFile.text(code))" }
}
