import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("combine")
struct CombineTests {
  /// Three sources of different types, and a transform that records each call.
  @MainActor
  struct Fixture {
    let name = Observable("")
    let age = Observable(0)
    let admin = Observable(false)
    let calls = Recorder<String>()

    func combined(_ strategy: CombineStrategy) -> Derived<String?> {
      let calls = self.calls
      return combine(strategy, name, age, admin) { name, age, admin in
        let text = "\(name)/\(age)/\(admin)"
        calls.record(text)
        return text
      }
    }
  }

  @Test func everyFiresOnEveryChangeOfAnySource() {
    let fixture = Fixture()
    let combined = fixture.combined(.every)
    let emitted = Recorder<String?>()
    let subscription = combined.observeChanges(emitted.handler)
    #expect(combined.value == nil)
    fixture.age.value = 30
    fixture.name.value = "ada"
    fixture.name.value = "ada"  // a duplicate is not a change
    fixture.admin.value = true
    #expect(fixture.calls.events == ["/30/false", "ada/30/false", "ada/30/true"])
    #expect(emitted.events == ["/30/false", "ada/30/false", "ada/30/true"])
    withExtendedLifetime(subscription) {}
  }

  @Test func allWaitsForEverySourceThenFiresOnEveryChange() {
    let fixture = Fixture()
    let combined = fixture.combined(.all)
    fixture.name.value = "ada"
    fixture.name.value = "grace"
    fixture.age.value = 30
    #expect(fixture.calls.events == [])
    #expect(combined.value == nil)
    fixture.admin.value = true
    fixture.age.value = 31
    #expect(fixture.calls.events == ["grace/30/true", "grace/31/true"])
    #expect(combined.value == "grace/31/true")
  }

  @Test func firstFiresOnceOnTheFirstChange() {
    let fixture = Fixture()
    let combined = fixture.combined(.first)
    fixture.admin.value = true
    fixture.name.value = "ada"
    fixture.age.value = 30
    #expect(fixture.calls.events == ["/0/true"])
    #expect(combined.value == "/0/true")
  }

  @Test(arguments: CombineStrategy.allCases)
  func setsBeforeTheCombinerWasMadeAreNotChanges(strategy: CombineStrategy) {
    let fixture = Fixture()
    fixture.name.value = "ada"
    fixture.age.value = 30
    fixture.admin.value = true
    let combined = fixture.combined(strategy)
    #expect(combined.value == nil)
    #expect(fixture.calls.events == [])
  }

  @Test func anInitialValueStandsUntilTheFirstFiring() {
    let username = Observable("")
    let password = Observable("")
    let canLogIn = combine(.every, username, password, initial: false) { user, pass in
      user.count >= 6 && pass.count >= 6
    }
    let emitted = Recorder<Bool>()
    let subscription = canLogIn.observe(emitted.handler)
    username.value = "alice_w"
    password.value = "secret"
    password.value = "secret!"  // still true: equal results notify no one
    username.value = "al"
    #expect(emitted.events == [false, true, false])
    withExtendedLifetime(subscription) {}
  }

  @Test func aCombinerKeepsItsSourcesAliveAndStopsWhenReleased() {
    weak var weakSource: Observable<Int>?
    var combined: Derived<Int>?
    let calls = Recorder<Int>()
    do {
      let source = Observable(1)
      weakSource = source
      combined = combine(.every, source, initial: 0) { value in
        calls.record(value)
        return value * 2
      }
    }
    #expect(weakSource != nil)
    weakSource?.value = 5
    #expect(combined?.value == 10)
    let source = weakSource
    combined = nil
    source?.value = 6
    #expect(calls.events == [5])
    #expect(source?.observerCount == 0)
  }

  @Test func aCombinerOfTwoSourcesOfTheSameCell() {
    let cell = Observable(1)
    let combined = combine(.every, cell, cell, initial: 0) { $0 + $1 }
    cell.value = 2
    #expect(combined.value == 4)
  }

  @Test func aCombinerOfNonEquatableValuesFiresOnEverySet() {
    let cell = Observable(Opaque(number: 1))
    let calls = Recorder<Int>()
    let combined = combine(.every, cell, initial: 0) { value in
      calls.record(value.number)
      return value.number
    }
    cell.value = Opaque(number: 1)
    cell.value = Opaque(number: 1)
    #expect(calls.events == [1, 1])
    #expect(combined.value == 1)
  }

  @Test func mapDerivesAndKeepsTheChainAliveThroughItsSubscription() {
    let name = Observable("Ada")
    let recorder = Recorder<Int>()
    // The derived cell is not stored: its subscription keeps it alive.
    let subscription = name.map(\.count).observe(recorder.handler)
    name.value = "Grace"
    name.value = "Alan!"  // same length: no notification
    #expect(recorder.events == [3, 5])
    subscription.cancel()
    #expect(name.observerCount == 0, "the derived cell went away with its last subscription")
  }
}

@MainActor
@Suite("combine without a strategy")
struct CombineCurrentValuesTests {
  @Test func holdsTheTransformOfTheCurrentValuesFromTheStart() {
    let first = Observable("Ada")
    let last = Observable("Lovelace")
    let fullName = combine(first, last) { "\($0) \($1)" }
    #expect(fullName.value == "Ada Lovelace", "computed at once, as map is")
    let seen = Recorder<String>()
    let subscription = fullName.observeChanges(seen.handler)
    last.value = "Byron"
    first.value = "Augusta"
    last.value = "Byron"  // equal: no change
    #expect(seen.events == ["Ada Byron", "Augusta Byron"])
    subscription.cancel()
  }

  @Test func aStrategyHoldsItsInitialValueUntilItFirstFires() {
    let a = Observable(2)
    let b = Observable(3)
    let everyCell = combine(.every, a, b, initial: 0) { $0 * $1 }
    let current = combine(a, b) { $0 * $1 }
    #expect([everyCell.value, current.value] == [0, 6])
    a.value = 4
    #expect([everyCell.value, current.value] == [12, 12])
  }
}
