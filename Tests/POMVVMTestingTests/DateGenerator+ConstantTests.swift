import Foundation
import POMVVMTesting
import Testing

@Suite("DateGenerator.constant")
struct DateGeneratorConstantTests {
  @Test func everyReadGivesTheSameDate() {
    let then = Date(timeIntervalSince1970: 1_234_567_890)
    let date = DateGenerator.constant(then)
    #expect([date.now, date(), date.now] == [then, then, then])
  }

  @Test func anOverrideWithAConstantIsWhatTheCodeReads() {
    let then = Date(timeIntervalSince1970: 86_400)
    let read = withDependencies {
      $0.date = .constant(then)
    } operation: {
      @Dependency(\.date) var date
      return date()
    }
    #expect(read == then)
  }
}
