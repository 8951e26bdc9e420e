import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Diagnostics")
struct DiagnosticsTests {
  @Test func capturingCollectsReportsAndRestoresTheHandler() {
    var outer: [String] = []
    let saved = Diagnostics.handler
    Diagnostics.handler = { outer.append($0) }
    defer { Diagnostics.handler = saved }
    let captured = Diagnostics.capturing {
      Diagnostics.report("one")
      Diagnostics.report("two")
    }
    Diagnostics.report("three")
    #expect(captured == ["one", "two"])
    #expect(outer == ["three"])
  }
}
