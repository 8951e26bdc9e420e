import POMVVM

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DateGenerator {
  /// A generator that always gives `date`, for tests.
  ///
  /// ```swift
  /// let model = withDependencies {
  ///   $0.date = .constant(Date(timeIntervalSince1970: 1_234_567_890))
  /// } operation: {
  ///   MasterViewModel()
  /// }
  /// ```
  ///
  /// - Parameter date: The date every read gives.
  /// - Returns: The generator.
  public static func constant(_ date: Date) -> DateGenerator {
    DateGenerator { date }
  }
}
