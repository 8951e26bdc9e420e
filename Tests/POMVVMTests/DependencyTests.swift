import Foundation
import POMVVM
import POMVVMTesting
import Testing

/// A dependency the app adds: a source of numbers.
private struct NumberSource: Sendable {
  var next: @Sendable () -> Int
}

private enum NumberSourceKey: DependencyKey {
  static let liveValue = NumberSource { 1 }
  static let testValue = NumberSource { -1 }
}

extension DependencyValues {
  fileprivate var numbers: NumberSource {
    get { self[NumberSourceKey.self] }
    set { self[NumberSourceKey.self] = newValue }
  }
}

/// A view model that makes ids now, in an effect, and reads the date.
@MainActor
private final class Maker {
  static let uuidLine = #line + 1
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  static let numbersLine = #line + 1
  @Dependency(\.numbers) var numbers
  let effects = Effects()
  var made: [UUID] = []

  func makeLater() {
    effects.run(id: "make") { [weak self] in
      guard let self else { return }
      made.append(uuid())
    }
  }
}

private func id(_ last: UInt8) -> UUID {
  UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last))
}

/// The issues `body` records, each as its comment and its line, expected to
/// fail (inside `withKnownIssue`).
@MainActor
private func unimplementedReads(_ body: () -> Void) -> [(message: String, line: Int?)] {
  let log = _Locked<[(message: String, line: Int?)]>([])
  withKnownIssue("not a bug: a dependency read on purpose without an override") {
    body()
  } matching: { issue in
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    log.withLock { $0.append((message, issue.sourceLocation?.line)) }
    return true
  }
  return log.withLock { $0 }
}

/// A service off the main actor that reads a dependency.
private actor Stamper {
  @Dependency(\.uuid) private var uuid

  func stamp() -> UUID { uuid() }
}

/// A search that debounces its query on the dependency clock.
@MainActor
private final class DebouncedSearch {
  @Dependency(\.clock) private var clock
  let query = Observable("")
  private(set) var settled: Derived<String>?

  func start() {
    // `self.clock`: Swift 6.3 does not open the existential for a bare
    // `clock` here ("'any Clock<Duration>' cannot conform to 'Clock'").
    settled = query.debounced(for: .milliseconds(300), clock: self.clock)
  }
}

/// A form that a list makes when a button is tapped.
@MainActor
private final class Form {
  @Dependency(\.uuid) var uuid
  let id: UUID

  init() {
    @Dependency(\.uuid) var uuid
    id = uuid()
  }
}

/// A list that makes its forms later, outside the scope it was made in.
@MainActor
private final class FormList {
  @Dependency(\.date) var date
  let effects = Effects()
  let load = Load<UUID>()
  var forms: [Form] = []

  /// A tap on "Add": the form is made with the list's dependencies.
  func addTapped() {
    forms.append(withDependencies(from: self) { Form() })
  }

  /// A form made in an effect the list starts.
  func addLater() {
    effects.run(id: "add") { [weak self] in self?.forms.append(Form()) }
  }

  /// A request whose service reads a dependency.
  func fetch() {
    load.start {
      @Dependency(\.uuid) var uuid
      return uuid()
    }
  }
}

/// A model that keeps no dependencies.
@MainActor
private final class Bare {}

@MainActor
@Suite("Dependencies")
struct DependencyTests {
  @Test func anOverrideReachesAnEffectsOperationStartedInItsScope() async {
    let maker = Maker()
    withDependencies {
      $0.uuid = .incrementing
    } operation: {
      maker.makeLater()
      maker.makeLater()
    }
    // The operations run after the scope ended, in tasks that inherited it.
    await maker.effects.waitUntilIdle()
    #expect(maker.made.sorted { $0.uuidString < $1.uuidString } == [id(0), id(1)])
  }

  @Test func anOverrideReachesALoadRequestStartedInItsScope() async {
    let load = Load<Date>()
    let then = Date(timeIntervalSince1970: 1_000)
    withDependencies {
      $0.date = .constant(then)
    } operation: {
      load.start {
        @Dependency(\.date) var date
        return date.now
      }
    }
    await load.waitUntilFinished()
    #expect(load.value == .loaded(then))
  }

  @Test func anOverrideReachesAStateMachineFeedbackStartedInItsScope() async {
    enum State: Equatable {
      case idle
      case loading
      case loaded(UUID)
    }
    enum Event: Sendable {
      case start
      case loaded(UUID)
    }
    let machine = StateMachine<State, Event>(
      initial: .idle,
      reduce: { state, event in
        switch (state, event) {
        case (.idle, .start): state = .loading
        case (.loading, .loaded(let id)): state = .loaded(id)
        default: break
        }
      },
      feedbacks: [
        .effect(whenever: { $0 == .loading ? true : nil }) { _ in
          @Dependency(\.uuid) var uuid
          return .loaded(uuid())
        }
      ])
    withDependencies {
      $0.uuid = UUIDGenerator { id(7) }
    } operation: {
      machine.send(.start)
    }
    await machine.waitUntilIdle()
    #expect(machine.state.value == .loaded(id(7)))
  }

  @Test func anOverriddenClockIsTheOneAnEffectSleepsOn() async {
    let clock = ManualClock()
    let effects = Effects()
    var woke = false
    withDependencies {
      $0.clock = clock
    } operation: {
      effects.run(id: "wait") {
        @Dependency(\.clock) var clock
        try await clock.sleep(for: .seconds(5))
        woke = true
      }
    }
    await clock.advance(by: .seconds(4))
    #expect(!woke)
    await clock.advance(by: .seconds(1))
    await effects.waitUntilIdle()
    #expect(woke)
  }

  @Test func nestedOverridesAddToTheOuterOnesAndTheInnerValueWins() {
    let outer = Date(timeIntervalSince1970: 1)
    let inner = Date(timeIntervalSince1970: 2)
    var seen: [String] = []
    withDependencies {
      $0.uuid = UUIDGenerator { id(1) }
      $0.date = .constant(outer)
    } operation: {
      @Dependency(\.uuid) var uuid
      @Dependency(\.date) var date
      seen.append("outer \(uuid() == id(1)) \(date() == outer)")
      withDependencies {
        $0.date = .constant(inner)
      } operation: {
        seen.append("inner \(uuid() == id(1)) \(date() == inner)")
      }
      seen.append("outer again \(uuid() == id(1)) \(date() == outer)")
    }
    #expect(
      seen == ["outer true true", "inner true true", "outer again true true"])
  }

  @Test func theUpdateSeesTheOverridesInEffect() {
    withDependencies {
      $0.numbers = NumberSource { 40 }
    } operation: {
      withDependencies {
        let outer = $0.numbers
        $0.numbers = NumberSource { outer.next() + 2 }
      } operation: {
        @Dependency(\.numbers) var numbers
        #expect(numbers.next() == 42)
      }
    }
  }

  @Test func overridesDoNotLeakOutOfTheirScope() {
    withDependencies {
      $0.uuid = .incrementing
    } operation: {
      @Dependency(\.uuid) var uuid
      _ = uuid()
    }
    let maker = Maker()
    let reads = unimplementedReads {
      #expect(maker.uuid() == id(0))  // the test value, after the failure
    }
    #expect(reads.map(\.line) == [Maker.uuidLine])
  }

  @Test func anAsyncScopeEndsWhenItsOperationReturns() async {
    let inside = await withDependencies {
      $0.numbers = NumberSource { 5 }
    } operation: {
      await Task.yield()
      @Dependency(\.numbers) var numbers
      return numbers.next()
    }
    #expect(inside == 5)
    let maker = Maker()
    let reads = unimplementedReads { _ = maker.numbers.next() }
    #expect(reads.count == 1)
  }

  @Test func aViewModelMadeInAScopeKeepsItsOverridesOutsideIt() {
    let maker = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      Maker()
    }
    #expect([maker.uuid(), maker.uuid()] == [id(0), id(1)])
  }

  @Test func anAppsOwnDependencyIsOverriddenThroughItsKey() {
    let maker = withDependencies {
      $0[NumberSourceKey.self] = NumberSource { 9 }
    } operation: {
      Maker()
    }
    #expect(maker.numbers.next() == 9)
  }

  @Test func aReadWithNoOverrideFailsTheTestNamingTheDependencyAndItsLine() {
    let maker = Maker()
    let reads = unimplementedReads {
      #expect(maker.uuid() == id(0))
    }
    #expect(reads.map(\.line) == [Maker.uuidLine])
    let message = reads.first?.message ?? ""
    #expect(message.contains("Unimplemented dependency \\.uuid (UUIDGenerator)"))
    #expect(message.contains("read by @Dependency at POMVVMTests/DependencyTests.swift:"))
    #expect(message.contains("withDependencies { $0.uuid = … }"))
  }

  @Test func anAppsDependencyWithNoOverrideFailsNamingItsKeyAndGivesItsTestValue() {
    let maker = Maker()
    let reads = unimplementedReads {
      #expect(maker.numbers.next() == -1)
    }
    #expect(reads.map(\.line) == [Maker.numbersLine])
    let message = reads.first?.message ?? ""
    #expect(message.contains("Unimplemented dependency NumberSourceKey (NumberSource)"))
    #expect(message.contains("withDependencies { $0[NumberSourceKey.self] = … }"))
  }

  @Test func aReadInsideTheUpdateWithNoOverrideFailsAtTheWithDependenciesLine() {
    var line = 0
    let reads = unimplementedReads {
      line = #line + 1
      withDependencies {
        _ = $0.date.now
      } operation: {
      }
    }
    #expect(reads.map(\.line) == [line])
    #expect(reads.first?.message.contains("read by withDependencies at") == true)
  }

  @Test func aReadWithNoOverrideInAnEffectFailsTheTestThatStartedIt() async {
    let maker = Maker()
    let log = _Locked<[Int?]>([])
    await withKnownIssue("not a bug: a dependency read on purpose without an override") {
      maker.makeLater()
      await maker.effects.waitUntilIdle()
    } matching: { issue in
      log.withLock { $0.append(issue.sourceLocation?.line) }
      return true
    }
    #expect(log.withLock { $0 } == [Maker.uuidLine])
    #expect(maker.made == [id(0)])
  }

  @Test func aDependencyShowsNoChildrenToMirrorBasedSearches() {
    let maker = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      Maker()
    }
    let wrapper = Mirror(reflecting: maker).children.first { $0.label == "_uuid" }?.value
    #expect(wrapper != nil)
    #expect(wrapper.map { Mirror(reflecting: $0).children.count } == 0)
  }

  @Test func anActorReadsTheOverridesOfTheTaskThatCallsIt() async {
    let stamper = Stamper()
    let stamped = await withDependencies {
      $0.uuid = UUIDGenerator { id(3) }
    } operation: {
      await stamper.stamp()
    }
    #expect(stamped == id(3))
  }

  @Test func aTimeOperatorMadeWithTheDependencyClockWaitsOnTheOverride() async {
    let clock = ManualClock()
    let search = DebouncedSearch()
    withDependencies {
      $0.clock = clock
    } operation: {
      search.start()
    }
    search.query.value = "dune"
    await clock.advance(by: .milliseconds(299))
    #expect(search.settled?.value == "")
    await clock.advance(by: .milliseconds(1))
    #expect(search.settled?.value == "dune")
  }

  // MARK: - What a view model makes later

  @Test func aChildMadeLaterWithDependenciesFromItsParentSeesItsOverrides() {
    let list = withDependencies {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      FormList()
    }
    list.addTapped()
    list.addTapped()
    #expect(list.forms.map(\.id) == [id(0), id(1)])
    #expect(list.forms.last?.uuid() == id(2))
  }

  @Test func theOverridesWhereTheChildIsMadeWinOverTheParents() {
    let list = withDependencies {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      FormList()
    }
    let form = withDependencies {
      $0.uuid = UUIDGenerator { id(9) }
    } operation: {
      withDependencies(from: list) { Form() }
    }
    let updated = withDependencies(from: list) {
      $0.uuid = UUIDGenerator { id(8) }
    } operation: {
      Form()
    }
    #expect([form.id, updated.id] == [id(9), id(8)])
  }

  @Test func anEffectStartedLaterSeesTheOverridesItsRunnerWasMadeWith() async {
    let list = withDependencies {
      $0.uuid = UUIDGenerator { id(3) }
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      FormList()
    }
    // Outside the scope: the form made in the effect sees the list's
    // overrides through the effect's task.
    list.addLater()
    await list.effects.waitUntilIdle()
    #expect(list.forms.map(\.id) == [id(3)])
  }

  @Test func aRequestStartedLaterSeesTheOverridesItsLoadWasMadeWith() async {
    let list = withDependencies {
      $0.uuid = UUIDGenerator { id(4) }
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      FormList()
    }
    list.fetch()
    await list.load.waitUntilFinished()
    #expect(list.load.value == .loaded(id(4)))
  }

  @Test func aFeedbackStartedLaterSeesTheOverridesItsMachineWasMadeWith() async {
    let machine = withDependencies {
      $0.uuid = UUIDGenerator { id(5) }
    } operation: {
      StateMachine<UUID?, UUID?>(
        initial: nil,
        reduce: { state, event in state = event },
        feedbacks: [
          .effect(whenever: { $0 == id(0) ? true : nil }) { _ in
            @Dependency(\.uuid) var uuid
            return uuid()
          }
        ])
    }
    machine.send(id(0))
    await machine.waitUntilIdle()
    #expect(machine.state.value == id(5))
  }

  @Test func withDependenciesFromAModelThatKeepsNoneFailsNamingIt() {
    let reads = unimplementedReads {
      withDependencies {
        $0.uuid = UUIDGenerator { id(6) }
      } operation: {
        let form = withDependencies(from: Bare()) { Form() }
        #expect(form.id == id(6))  // the dependencies in effect here
      }
    }
    #expect(reads.count == 1)
    #expect(reads.first?.message.contains("found no dependencies in Bare") == true)
  }

  @Test func aLocalDependencyClockCanBePassedToATimeOperator() async {
    let manual = ManualClock()
    let query = Observable("")
    let settled = withDependencies {
      $0.clock = manual
    } operation: {
      @Dependency(\.clock) var clock
      return query.debounced(for: .milliseconds(300), clock: clock)
    }
    query.value = "dune"
    await manual.advance(by: .milliseconds(300))
    #expect(settled.value == "dune")
  }
}
