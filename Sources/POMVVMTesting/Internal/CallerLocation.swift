/// Where a check was called from: every failure the check finds is reported
/// there, not inside POMVVMTesting.
struct CallerLocation {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
  /// A location a test helper passed through (a Swift Testing
  /// `SourceLocation`), which failures name instead of the static one.
  var forwarded: ForwardedLocation?
}

/// A caller's location known only at run time: what Swift Testing's
/// `SourceLocation` holds, which a helper forwards from its own caller.
struct ForwardedLocation {
  let fileID: String
  let filePath: String
  let line: Int
  let column: Int
}

extension CallerLocation {
  /// The file path where failures show.
  var reportedFilePath: String { forwarded?.filePath ?? "\(filePath)" }

  /// The line where failures show.
  var reportedLine: Int { forwarded?.line ?? Int(line) }
}
