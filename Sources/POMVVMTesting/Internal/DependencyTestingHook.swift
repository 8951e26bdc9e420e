import POMVVM
import Synchronization

#if canImport(Testing)
import Testing
#endif

// The kit looks this conformance up at run time: linking POMVVMTesting into
// a test process is what makes its dependencies take their test values, and
// what fails a test that reads one it did not override.
extension _DependencyTestingHook: _DependencyTesting {
  package static var isTesting: Bool {
    #if canImport(Testing)
    if Test.current != nil { return true }
    #endif
    return isTestProcess
  }

  package static func reportUnimplemented(_ message: String, by reader: _DependencyReader?) {
    if UnimplementedDependencyUses.collect(message) { return }
    let location =
      reader.map {
        CallerLocation(fileID: $0.fileID, filePath: $0.filePath, line: $0.line, column: $0.column)
      } ?? CallerLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    recordFailure(message, at: location)
  }
}

/// The reads of unoverridden dependencies that a `StateRecorder` step
/// collects, to fail the step with them.
///
/// A step opens a log for the test running it; a read made meanwhile in that
/// test (in the step's action, or in a task it started, which inherits the
/// test) goes to the innermost log open for the test instead of failing at
/// the read. A read made while no step of its test is open fails the test
/// where it is.
enum UnimplementedDependencyUses {
  /// The messages of one step.
  final class Log: Sendable {
    fileprivate let test: String?
    fileprivate let messages = _Locked<[String]>([])

    fileprivate init(test: String?) {
      self.test = test
    }
  }

  private static let open = _Locked<[Log]>([])

  /// Opens a log for the current test.
  static func beginCollecting() -> Log {
    let log = Log(test: currentTest)
    open.withLock { $0.append(log) }
    return log
  }

  /// Closes `log` and returns what it collected.
  static func endCollecting(_ log: Log) -> [String] {
    open.withLock { logs in logs.removeAll { $0 === log } }
    return log.messages.withLock { $0 }
  }

  /// Adds `message` to the innermost log of the current test; `false` when
  /// none is open.
  static func collect(_ message: String) -> Bool {
    let test = currentTest
    guard let log = open.withLock({ logs in logs.last { $0.test == test } }) else {
      return false
    }
    log.messages.withLock { $0.append(message) }
    return true
  }

  /// The Swift Testing test that the current task belongs to; `nil` under
  /// XCTest, which runs one test at a time.
  private static var currentTest: String? {
    #if canImport(Testing)
    return Test.current.map { "\($0.id)" }
    #else
    return nil
    #endif
  }
}
