import POMVVM

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension UUIDGenerator {
  /// A generator of predictable ids, for tests: `00000000-0000-0000-0000-000000000000`,
  /// then `00000000-0000-0000-0000-000000000001`, and so on.
  ///
  /// ```swift
  /// let model = withDependencies {
  ///   $0.uuid = .incrementing
  /// } operation: {
  ///   MasterViewModel()
  /// }
  /// ```
  ///
  /// Each use of `.incrementing` makes a new generator, which starts at 0;
  /// copies of one generator share its count, which is safe to use from any
  /// task.
  public static var incrementing: UUIDGenerator {
    let next = _Locked<UInt64>(0)
    return UUIDGenerator {
      let count = next.withLock { value in
        defer { value &+= 1 }
        return value
      }
      let bytes = withUnsafeBytes(of: count.bigEndian) { Array($0) }
      return UUID(
        uuid: (
          0, 0, 0, 0, 0, 0, 0, 0, bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5],
          bytes[6], bytes[7]
        ))
    }
  }
}
