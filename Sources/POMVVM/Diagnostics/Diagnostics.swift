#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the kit reports misuse that it survives: a write refused by a
/// detached element cell, a binding that did not settle.
///
/// The kit never crashes on these; it refuses, keeps going and reports here.
/// By default a report goes to standard error. Tests capture reports with
/// ``capturing(_:)-9p8jg`` (or its asynchronous twin,
/// ``capturing(_:)-13eg8``).
@MainActor
public enum Diagnostics {
  /// Receives every report; by default writes `POMVVM: <message>` to
  /// standard error.
  public static var handler: (String) -> Void = writeToStandardError

  /// Sends a report to ``handler``.
  ///
  /// - Parameter message: What went wrong and what the kit did about it.
  public static func report(_ message: String) {
    handler(message)
  }

  /// Runs `body` with reports collected instead of printed, and returns them.
  ///
  /// - Parameter body: The code whose reports to collect.
  /// - Returns: The reports, in order.
  public static func capturing(_ body: () throws -> Void) rethrows -> [String] {
    let saved = handler
    var reports: [String] = []
    handler = { reports.append($0) }
    defer { handler = saved }
    try body()
    return reports
  }

  /// Runs asynchronous `body` with reports collected instead of printed,
  /// and returns them.
  ///
  /// - Parameter body: The code whose reports to collect.
  /// - Returns: The reports, in order.
  public static func capturing(_ body: () async throws -> Void) async rethrows -> [String] {
    let saved = handler
    var reports: [String] = []
    handler = { reports.append($0) }
    defer { handler = saved }
    try await body()
    return reports
  }

  nonisolated private static func writeToStandardError(_ message: String) {
    let line = "POMVVM: \(message)\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  }
}
