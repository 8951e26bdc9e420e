import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Diagnostics")
struct DiagnosticsTests {
  @Test func capturingCollectsReportsAndRestoresTheHandler() {
    var outer: [String] = []
    let saved = Diagnostics.handler
    Diagnostics.handler = { outer.append($0.message) }
    defer { Diagnostics.handler = saved }
    let captured = Diagnostics.capturing {
      Diagnostics.report("one")
      Diagnostics.report("two")
    }
    Diagnostics.report("three")
    #expect(captured == ["one", "two"])
    #expect(outer == ["three"])
  }

  @Test func aReportNamesTheLineThatMadeIt() {
    let line: UInt = #line + 1
    let reports = Diagnostics.capturingReports { Diagnostics.report("one") }
    #expect(reports == [Diagnostics.Report("one", fileID: #fileID, line: line)])
    #expect(reports.map(\.description) == ["one (at POMVVMTests/DiagnosticsTests.swift:\(line))"])
  }

  @Test func aCapturedReportIsPassedOnAsItIs() {
    let report = Diagnostics.Report("kept", fileID: "App/Screen.swift", line: 7)
    let outer = Diagnostics.capturingReports {
      let inner = Diagnostics.capturingReports { Diagnostics.report(report) }
      for report in inner { Diagnostics.report(report) }
    }
    #expect(outer == [report])
  }

  @Test func aReportGoesToTheInnermostCapture() {
    var inner: [String] = []
    let outer = Diagnostics.capturing {
      Diagnostics.report("outer: before")
      inner = Diagnostics.capturing { Diagnostics.report("inner") }
      Diagnostics.report("outer: after")
    }
    #expect(inner == ["inner"])
    #expect(outer == ["outer: before", "outer: after"])
  }
}

@MainActor
@Suite("Diagnostics captures")
struct DiagnosticsCaptureTests {
  /// Two tasks capture at once, interleaving on the main actor: each gets
  /// its own reports, none stolen, none lost.
  @Test func overlappingTasksKeepTheirOwnReports() async {
    let started = Latch()
    let first = Task { @MainActor in
      await Diagnostics.capturing {
        Diagnostics.report("first: before")
        _ = await started.wait()
        Diagnostics.report("first: after")
      }
    }
    let second = Task { @MainActor in
      await Diagnostics.capturing {
        Diagnostics.report("second: before")
        started.open()
        await Task.yield()
        Diagnostics.report("second: after")
      }
    }
    let firstReports = await first.value
    let secondReports = await second.value
    #expect(firstReports == ["first: before", "first: after"])
    #expect(secondReports == ["second: before", "second: after"])
  }

  /// Many tasks capture at once and interleave at every report: each
  /// capture gets exactly its own task's reports, in order, and a report a
  /// task makes outside its own capture reaches the enclosing one.
  @Test func manyOverlappingTasksEachGetExactlyTheirOwnReports() async {
    let taskCount = 8
    let steps = 5
    var perTask: [[Diagnostics.Report]] = []
    let outer = await Diagnostics.capturingReports {
      // Tasks made here inherit the enclosing capture, not each other's.
      let tasks = (0..<taskCount).map { task in
        Task { @MainActor in
          Diagnostics.report("task \(task): outside", fileID: "Tests/Task.swift", line: 0)
          return await Diagnostics.capturingReports {
            for step in 0..<steps {
              Diagnostics.report(
                "task \(task): step \(step)", fileID: "Tests/Task.swift", line: UInt(step))
              await Task.yield()
            }
          }
        }
      }
      for task in tasks {
        perTask.append(await task.value)
      }
    }
    let expected = (0..<taskCount).map { task in
      (0..<steps).map { step in
        Diagnostics.Report(
          "task \(task): step \(step)", fileID: "Tests/Task.swift", line: UInt(step))
      }
    }
    #expect(perTask == expected, "each capture has its own task's reports, in order")
    #expect(
      Set(outer.map(\.message)) == Set((0..<taskCount).map { "task \($0): outside" }),
      "only the reports made outside the tasks' own captures reach the enclosing one")
    #expect(outer.count == taskCount)
  }

  @Test func aReportAfterTheCaptureEndedGoesToTheHandler() async {
    let saved = Diagnostics.handler
    var handled: [String] = []
    Diagnostics.handler = { handled.append($0.message) }
    defer { Diagnostics.handler = saved }
    var late: Task<Void, Never>?
    let captured = Diagnostics.capturing {
      late = Task { @MainActor in Diagnostics.report("late") }
      Diagnostics.report("inside")
    }
    await late?.value
    #expect(captured == ["inside"])
    #expect(handled == ["late"])
  }
}

@Suite("Diagnostics on standard error")
struct DiagnosticsStandardErrorTests {
  @Test func controlCharactersInAReportAreWrittenVisibly() {
    #expect(
      Diagnostics.standardErrorLine(for: "cannot save /tmp/a\u{1B}[2Jb\rc: refused")
        == "POMVVM: cannot save /tmp/a\\u{1B}[2Jb\\u{0D}c: refused\n")
    #expect(Diagnostics.standardErrorLine(for: "plain") == "POMVVM: plain\n")
  }
}
