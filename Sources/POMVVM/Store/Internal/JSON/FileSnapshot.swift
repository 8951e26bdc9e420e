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

/// What a store knows of its file as it last read or wrote it: enough to
/// tell, before the next save, whether another program changed it since.
///
/// A file's status can match although its contents changed: file systems
/// stamp times with a coarse clock (a few milliseconds on Linux), so a
/// rewrite of the same size right after the store's own write may keep
/// every time. As Git does for its index, a status stamped less than
/// ``clockGranularity`` before the store took it is not trusted, and the
/// contents are compared by their hash instead.
struct _FileSnapshot {
  /// What the store did last: it names it in messages.
  enum Access: String {
    case loading = "loaded it"
    case saving = "saved it"
  }

  /// How long after its times a status is trusted to tell a change.
  static let clockGranularity: Int64 = 2_000_000_000

  let access: Access
  let digest: UInt64
  private var device: UInt64
  private var inode: UInt64
  private var size: Int64
  private var modified: Int64
  private var changed: Int64
  private var taken: Int64

  /// Takes the status of an open file and the hash of the contents the
  /// store read from it or wrote to it.
  init(_ descriptor: Int32, contents: Data, after access: Access) {
    self.access = access
    digest = Self.digest(of: contents)
    var status = stat()
    if fstat(descriptor, &status) != 0 {
      status = stat()
    }
    (device, inode, size, modified, changed) = Self.fields(of: status)
    taken = Self.now()
  }

  /// Whether a status is the one taken, and old enough to trust: if not,
  /// compare the contents.
  func matches(_ status: stat) -> Bool {
    let fields = Self.fields(of: status)
    return fields == (device, inode, size, modified, changed)
      && taken - max(modified, changed) >= Self.clockGranularity
  }

  /// Takes a new status of a file whose contents are still the known ones.
  mutating func refresh(_ status: stat) {
    (device, inode, size, modified, changed) = Self.fields(of: status)
    taken = Self.now()
  }

  /// The 64-bit FNV-1a hash of some bytes: not a defence against an
  /// adversary (who could as well wait for the next save), but against
  /// another program's edit going unnoticed.
  static func digest(of data: Data) -> UInt64 {
    data.withUnsafeBytes { bytes in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      }
      return hash
    }
  }

  private static func fields(of status: stat) -> (UInt64, UInt64, Int64, Int64, Int64) {
    #if canImport(Darwin)
    let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
    #else
    let (modified, changed) = (status.st_mtim, status.st_ctim)
    #endif
    return (
      UInt64(truncatingIfNeeded: status.st_dev), UInt64(truncatingIfNeeded: status.st_ino),
      Int64(status.st_size), nanoseconds(modified), nanoseconds(changed)
    )
  }

  private static func nanoseconds(_ time: timespec) -> Int64 {
    Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
  }

  private static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return nanoseconds(time)
  }
}
