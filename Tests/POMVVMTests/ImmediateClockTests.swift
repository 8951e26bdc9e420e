import POMVVM
import Testing

@MainActor
@Suite("ImmediateClock")
struct ImmediateClockTests {
  @Test func aSleepReturnsAtOnceAndMovesNowToItsDeadline() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(5))
    #expect(clock.now.offset == .seconds(5))
    try await clock.sleep(until: .init(offset: .seconds(1)))
    #expect(clock.now.offset == .seconds(5), "never back")
  }

  @Test func aCancelledTaskSleepThrows() async {
    let clock = ImmediateClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func aTimerOnAnImmediateClockTicksWithoutWaiting() async {
    let effects = Effects()
    var ticks = 0
    effects.timer(id: "tick", every: .seconds(60), clock: ImmediateClock()) {
      ticks += 1
      if ticks == 3 { effects.cancel(id: "tick") }
    }
    await effects.waitUntilIdle()
    #expect(ticks == 3)
  }
}
