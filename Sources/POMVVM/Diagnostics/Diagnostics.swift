#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the kit reports misuse that it survives: a write refused by a
/// detached element cell, a binding that did not settle, a failed save.
///
/// The kit never crashes on these; it refuses, keeps going and reports here.
/// By default a report goes to standard error. Tests capture the reports'
/// messages with ``capturing(_:)-9p8jg`` (or its asynchronous twin,
/// ``capturing(_:)-13eg8``), and whole reports, with their culprits, with
/// ``capturingReports(_:)-4zk0t`` (or ``capturingReports(_:)-4h72l``).
///
/// ## Culprits
///
/// Every report names its culprit, the code of *yours* that caused it, and
/// never a line inside the kit. ``Report/culprit`` says which of three it
/// is, and ``Report/description`` (what the default handler prints) writes
/// it out after the message:
///
/// - ``Report/Culprit/call``: the line that called the kit, as a
///   ``Report/fileID`` (`Module/File.swift`, like `#fileID`) and a
///   ``Report/line``. The kit's entry points that can cause a report take
///   the caller's location as defaulted `fileID` and `line` arguments, so
///   you never pass them yourself: a write with ``ElementCell/set(_:fileID:line:)``,
///   ``ProjectedCell/set(_:fileID:line:)`` or ``AnyMutableCell/set(_:fileID:line:)``
///   (which `cell.set(value)` calls); a switch operation of a ``Switchable``
///   view model (`openSwitch()`, `closeSwitch()`, `toggleSwitch()`); a
///   store's failed save, which names the line that opened it
///   (``Store/init(contentsOf:fileID:line:)``); and your own
///   ``report(_:fileID:line:)``.
///
///   ```
///   write refused: the element with id 2 was removed from its array; its cell is detached and keeps the last value (at App/DetailScreen.swift:42)
///   ```
///
/// - ``Report/Culprit/binding``: the write came through a binding; the
///   location is the line that made it
///   (``ObservableCell/bind(to:fileID:line:)``,
///   ``MutableObservableCell/bidirectionalBind(to:fileID:line:)``). A
///   binding that does not settle is a ``Report/Culprit/call`` of that line.
///
///   ```
///   write refused: the element with id 2 was removed from its array; its cell is detached and keeps the last value (through the binding made at App/DetailScreen.swift:18)
///   ```
///
/// - ``Report/Culprit/cell``: the write went through a cell's `value`
///   (`cell.value = …`, `cell.value.field = …`, `cell.value.toggle()`), or
///   through `set(_:)` called on a generic or existential cell. A property
///   setter cannot take its caller's location, so the message names what
///   the kit does know: the cell written, by its label
///   (``ObservableCell/labelled(_:)``, or the property path
///   ``BindingGraph/labelByPropertyPath(_:)`` gives it) or else its kind
///   and type, and where it was made. ``Report/fileID`` and ``Report/line``
///   are where it was made (empty and 0 when it was not made by your code,
///   as an element cell is not):
///
///   ```
///   detail.name (made at App/DetailScreen.swift:12) refused a write: the element with id 2 was removed from its array; its cell is detached and keeps the last value
///   ```
///
///   Call `set(_:)` instead where the report should name your line.
///
/// ## Captures
///
/// A capture belongs to the task that runs it (a task-local value): two
/// tasks that capture at the same time, interleaving on the main actor,
/// each get only their own reports. A report goes to the innermost open
/// capture of the task that made it, and a report made where no capture is
/// active goes to ``handler``.
@MainActor
public enum Diagnostics {
  /// One report: what went wrong, and the code of yours that caused it.
  public struct Report: Hashable, Sendable, CustomStringConvertible {
    /// What the location of a report stands for.
    public enum Culprit: Hashable, Sendable {
      /// The line of the call that caused the report.
      case call
      /// The line that made the binding a refused write came through.
      case binding
      /// Where the cell that a write through its `value` was refused by was
      /// made; the message names that cell. The location is empty (an empty
      /// ``Report/fileID`` and ``Report/line`` 0) when no code of yours made
      /// the cell, and when the caller is unknown.
      case cell
    }

    /// What went wrong and what the kit did about it.
    public var message: String

    /// The file of the culprit, as `#fileID` spells it:
    /// `Module/File.swift`; empty when it is unknown.
    public var fileID: String

    /// The line of the culprit; 0 when it is unknown.
    public var line: UInt

    /// What ``fileID`` and ``line`` stand for: a call, a binding, or the
    /// cell written through its `value`.
    public var culprit: Culprit

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - message: What went wrong and what the kit did about it.
    ///   - fileID: The culprit's file, as `#fileID` spells it.
    ///   - line: The culprit's line.
    ///   - culprit: What the location stands for; by default, a call.
    public init(_ message: String, fileID: String, line: UInt, culprit: Culprit = .call) {
      self.message = message
      self.fileID = fileID
      self.line = line
      self.culprit = culprit
    }

    /// The message followed by the culprit: `<message> (at <fileID>:<line>)`
    /// for a call, `<message> (through the binding made at
    /// <fileID>:<line>)` for a binding, and the message alone for a cell,
    /// which the message names.
    public var description: String {
      if fileID.isEmpty { return message }
      switch culprit {
      case .call: return "\(message) (at \(fileID):\(line))"
      case .binding: return "\(message) (through the binding made at \(fileID):\(line))"
      case .cell: return message
      }
    }
  }

  /// Receives every report that no capture takes; by default writes
  /// `POMVVM: <message> (at <fileID>:<line>)` to standard error, with
  /// control characters written as visible escapes (`\u{1B}`).
  ///
  /// It is isolated to the main actor, like every report, so setting it
  /// cannot race with a report or with another setter: the compiler
  /// rejects any access from elsewhere. Being main-actor isolated, the
  /// closure is `Sendable` whatever it captures.
  public static var handler: @MainActor @Sendable (Report) -> Void = {
    writeToStandardError($0.description)
  }

  /// The innermost capture of the current task, if any.
  @TaskLocal private static var capture: _Capture?

  /// Sends a report to the current task's innermost capture, or else to
  /// ``handler``.
  ///
  /// A cell of yours that reports a refused write passes on the `fileID`
  /// and `line` its `set(_:fileID:line:)` was given: the kit's writes through
  /// a binding or a cell's `value` mark them, and the report then names that
  /// binding or cell (see ``Report/Culprit``).
  ///
  /// - Parameters:
  ///   - message: What went wrong and what the kit did about it.
  ///   - fileID: The culprit's file; by default, the caller's.
  ///   - line: The culprit's line; by default, the caller's.
  public static func report(
    _ message: String, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    report(_Culprit.report(message, fileID: fileID, line: line))
  }

  /// Sends a report, as it is, to the current task's innermost capture, or
  /// else to ``handler``; for passing on a captured report.
  ///
  /// - Parameter report: The report.
  public static func report(_ report: Report) {
    if let capture, capture.isOpen {
      capture.reports.append(report)
    } else {
      handler(report)
    }
  }

  /// Runs `body` with the reports it causes collected instead of printed,
  /// and returns their messages.
  ///
  /// - Parameter body: The code whose reports to collect.
  /// - Returns: The reports' messages, in order, without their culprits.
  public static func capturing(_ body: () throws -> Void) rethrows -> [String] {
    try capturingReports(body).map(\.message)
  }

  /// Runs asynchronous `body` with the reports it causes collected instead
  /// of printed, and returns their messages.
  ///
  /// Only the reports of this task (and of tasks it creates, while `body`
  /// runs) are collected; another task running meanwhile keeps its own. A
  /// report that a task created here makes after `body` returned goes to
  /// ``handler``: nothing is lost.
  ///
  /// - Parameter body: The code whose reports to collect.
  /// - Returns: The reports' messages, in order, without their culprits.
  public static func capturing(_ body: () async throws -> Void) async rethrows -> [String] {
    try await capturingReports(body).map(\.message)
  }

  /// Runs `body` with the reports it causes collected instead of printed,
  /// and returns them with their culprits.
  ///
  /// ```swift
  /// let reports = Diagnostics.capturingReports { detachedCell.set(item) }
  /// // [write refused: … (at AppTests/DetailTests.swift:12)]
  /// ```
  ///
  /// - Parameter body: The code whose reports to collect.
  /// - Returns: The reports, in order.
  public static func capturingReports(_ body: () throws -> Void) rethrows -> [Report] {
    let capture = _Capture()
    defer { capture.isOpen = false }
    try $capture.withValue(capture) {
      try body()
    }
    return capture.reports
  }

  /// Runs asynchronous `body` with the reports it causes collected instead
  /// of printed, and returns them with their culprits.
  ///
  /// It collects what ``capturing(_:)-13eg8`` collects: the reports of
  /// this task, and of the tasks it creates while `body` runs.
  ///
  /// - Parameter body: The code whose reports to collect.
  /// - Returns: The reports, in order.
  public static func capturingReports(
    _ body: () async throws -> Void
  ) async rethrows -> [Report] {
    let capture = _Capture()
    defer { capture.isOpen = false }
    try await $capture.withValue(capture) {
      try await body()
    }
    return capture.reports
  }

  nonisolated private static func writeToStandardError(_ message: String) {
    var bytes = Array(standardErrorLine(for: message).utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  }

  /// The line the default handler writes: `POMVVM: <message>` and a line
  /// feed, with every control character of the message (which may quote a
  /// user's text or a file's name) written as a visible escape, `\u{1B}`.
  ///
  /// Not API; for the package's tests.
  nonisolated package static func standardErrorLine(for message: String) -> String {
    "POMVVM: " + _visibleControls(message) + "\n"
  }
}

/// `text` with every control character written as a visible escape,
/// `\u{1B}`: text the kit prints may quote a user's input.
func _visibleControls(_ text: String) -> String {
  var visible = ""
  for scalar in text.unicodeScalars {
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
      let hex = String(scalar.value, radix: 16, uppercase: true)
      visible += "\\u{" + (hex.count < 2 ? "0" : "") + hex + "}"
    } else {
      visible.unicodeScalars.append(scalar)
    }
  }
  return visible
}

/// The reports one capture collects while it is open; touched on the main
/// actor only.
final class _Capture: @unchecked Sendable {
  var reports: [Diagnostics.Report] = []
  var isOpen = true
}
