/// Where a check was called from: every failure the check finds is reported
/// there, not inside POMVVMTesting.
struct CallerLocation {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}
