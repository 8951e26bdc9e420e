import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("StackPath")
struct StackPathTests {
  /// A screen's view model that starts work on a clock and a load, and
  /// observes one cell.
  @MainActor
  final class Detail: ViewModel, SubscriptionOwner, Dismissible {
    let subscriptions = SubscriptionBag()
    let effects = Effects()
    let load = Load<Int>()
    let title: Observable<String>
    let settled: Derived<String>
    var seen: [String] = []

    init(title: Observable<String>, clock: ManualClock) {
      self.title = title
      settled = title.debounced(for: .seconds(1), clock: clock)
      title.observe(self) { detail, title in detail.seen.append(title) }
      effects.run(id: "timer") {
        while true { try await clock.sleep(for: .seconds(5)) }
      }
      load.start {
        try await clock.sleep(for: .seconds(10))
        return 1
      }
    }
  }

  enum Screen {
    case detail(Detail)
    case text(String)
  }

  @Test func pushesGiveNewIdsThatAreNeverReused() {
    let path = StackPath<String>(["a"])
    let b = path.push("b")
    path.pop()
    let c = path.push("c")
    #expect(b != c)
    #expect(path.screens == ["a", "c"])
    #expect(path.count == 2)
    #expect(path.ids.count == 2 && path.ids[1] == c)
    #expect(path[id: b] == nil)
    #expect(path[id: c] == "c")
  }

  @Test func popOnAnEmptyStackChangesNothingAndTellsNoOne() {
    let path = StackPath<String>()
    var told = 0
    let subscription = path.observeChanges { _ in told += 1 }
    #expect(path.pop() == false)
    #expect(path.isEmpty)
    #expect(told == 0)
    withExtendedLifetime(subscription) {}
  }

  @Test func popFromRemovesTheScreenAndEverythingAbove() {
    let path = StackPath<String>()
    path.push("a")
    let b = path.push("b")
    path.push("c")
    #expect(path.pop(from: b))
    #expect(path.screens == ["a"])
    #expect(path.pop(from: b) == false, "b was popped already")
  }

  @Test func popToKeepsTheScreenOnTop() {
    let path = StackPath<String>()
    let a = path.push("a")
    path.push("b")
    path.push("c")
    #expect(path.pop(to: a))
    #expect(path.screens == ["a"])
    path.popToRoot()
    #expect(path.screens.isEmpty)
  }

  @Test func replaceWithGivesEveryScreenANewIdAndTellsOnce() {
    let path = StackPath<String>(["a", "b"])
    let old = path.ids
    var told: [[String]] = []
    let subscription = path.observeChanges { told.append($0.map(\.screen)) }
    path.replace(with: ["x", "y", "z"])
    #expect(told == [["x", "y", "z"]])
    #expect(Set(old).isDisjoint(with: path.ids))
    withExtendedLifetime(subscription) {}
  }

  @Test func observersSeeEveryChangeInOrder() {
    let path = StackPath<String>()
    var seen: [[String]] = []
    let subscription = path.observe { seen.append($0.map(\.screen)) }
    path.push("a")
    path.push("b")
    path.pop()
    path.replace(with: ["c"])
    #expect(seen == [[], ["a"], ["a", "b"], ["a"], ["c"]])
    withExtendedLifetime(subscription) {}
  }

  @Test func ownerScopedObservationEndsWithItsOwner() {
    final class Owner: SubscriptionOwner {
      let subscriptions = SubscriptionBag()
      var counts: [Int] = []
    }
    let path = StackPath<String>()
    var owner: Owner? = Owner()
    weak let weakOwner = owner
    path.observeChanges(owner!) { owner, entries in owner.counts.append(entries.count) }
    path.push("a")
    #expect(owner?.counts == [1])
    owner = nil
    #expect(weakOwner == nil)
    path.push("b")
    #expect(path.count == 2)
  }

  @Test func observationTrackingFiresOnceForAChange() {
    let path = StackPath<String>()
    let tracker = track { _ = path.ids }
    path.push("a")
    path.push("b")
    #expect(tracker.fired == 1)
  }

  // MARK: - The platform's writes

  @Test func writingAPrefixOfTheIdsIsAPop() {
    let path = StackPath<String>(["a", "b", "c"])
    let reports = Diagnostics.capturing {
      path.ids = Array(path.ids.prefix(1))
    }
    #expect(path.screens == ["a"])
    #expect(reports.isEmpty)
  }

  @Test func writingTheSameIdsChangesNothingAndTellsNoOne() {
    let path = StackPath<String>(["a", "b"])
    var told = 0
    let subscription = path.observeChanges { _ in told += 1 }
    path.ids = path.ids
    #expect(told == 0)
    withExtendedLifetime(subscription) {}
  }

  @Test func aStaleWriteAfterTheModelPushedCutsAtTheFirstScreenLeftOut() {
    // The screen showed a, b, c; the model pushed d; the user popped c in
    // the same frame. The write leaves out c: c and what is above it go.
    let path = StackPath<String>(["a", "b", "c"])
    let shown = path.ids
    path.push("d")
    let reports = Diagnostics.capturing { path.ids = Array(shown.prefix(2)) }
    #expect(path.screens == ["a", "b"])
    #expect(reports.isEmpty, "a prefix is a plain pop")
  }

  @Test func aWriteWithIdsAlreadyPoppedKeepsTheStackBelowAndIsReported() {
    // The model popped b and c, then pushed e; the user, still seeing
    // a, b, c, popped c.
    let path = StackPath<String>(["a", "b", "c"])
    let shown = path.ids
    path.pop(from: shown[1])
    path.push("e")
    var told: [[String]] = []
    let subscription = path.observeChanges { told.append($0.map(\.screen)) }
    let reports = Diagnostics.capturing { path.ids = Array(shown.prefix(2)) }
    #expect(path.screens == ["a"], "e is above the first screen the write left out")
    #expect(told == [["a"]])
    #expect(reports.count == 1)
    #expect(reports.first?.contains("#2 are not on the stack") == true)
    withExtendedLifetime(subscription) {}
  }

  @Test func aReorderingIsRefusedReportedAndToldBack() {
    let path = StackPath<String>(["a", "b"])
    let ids = path.ids
    var told: [[String]] = []
    let subscription = path.observeChanges { told.append($0.map(\.screen)) }
    var accepted = true
    let reports = Diagnostics.capturingReports {
      accepted = path.setIDs([ids[1], ids[0]])
    }.map { "\($0.fileID): \($0.message)" }
    #expect(accepted == false)
    #expect(path.screens == ["a", "b"])
    #expect(told == [["a", "b"]], "the platform is told the stack again")
    #expect(reports.count == 1)
    #expect(reports.first?.contains("cannot be reordered") == true)
    #expect(reports.first?.contains("StackPathTests.swift") == true, "names the caller")
    withExtendedLifetime(subscription) {}
  }

  @Test func anUnknownIdAlone() {
    let path = StackPath<String>(["a"])
    let reports = Diagnostics.capturing {
      path.ids = path.ids + [StackPath<String>.ID(rawValue: 99)]
    }
    #expect(path.screens == ["a"])
    #expect(reports.count == 1)
  }

  @Test func aWriteDuringDeliveryIsTakenWhenTheDeliveryEnds() {
    let path = StackPath<String>(["a"])
    var seenByLater: [[String]] = []
    var wrote = false
    let first = path.observeChanges { entries in
      guard !wrote, entries.count == 2 else { return }
      wrote = true
      // The platform pops back to the root while the push is delivered.
      path.ids = []
      #expect(path.count == 2, "not yet: the delivery is under way")
    }
    let second = path.observeChanges { seenByLater.append($0.map(\.screen)) }
    path.push("b")
    #expect(path.screens.isEmpty)
    #expect(seenByLater == [["a", "b"], []])
    withExtendedLifetime((first, second)) {}
  }

  @Test func anObserverThatRewritesARefusedOrderDoesNotLoop() {
    let path = StackPath<String>(["a", "b"])
    var deliveries = 0
    let subscription = path.observeChanges { entries in
      deliveries += 1
      guard deliveries < 1_000 else { return }
      path.ids = entries.map(\.id).reversed()
    }
    let reports = Diagnostics.capturing { path.ids = path.ids.reversed() }
    #expect(deliveries == 1, "the correction, then nothing more")
    #expect(path.screens == ["a", "b"])
    #expect(reports.count == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test(arguments: [true, false])
  func twoWritesInOneFrameConvergeInEitherOrder(modelFirst: Bool) {
    let path = StackPath<String>(["a", "b", "c"])
    let shown = path.ids
    if modelFirst {
      path.pop()
      path.push("d")
      path.ids = Array(shown.prefix(1))
    } else {
      path.ids = Array(shown.prefix(1))
      path.pop()
      path.push("d")
    }
    let navigation = HeadlessNavigationStack(path)
    #expect(navigation.shown == path.ids)
    #expect(path.screens == (modelFirst ? ["a"] : ["d"]))
  }

  // MARK: - Lifetimes

  @Test func aPoppedScreenIsReleasedWithEverythingItStarted() async {
    let clock = ManualClock()
    let title = Observable("t")
    let path = StackPath<Screen>()
    let observersBefore = title.observerCount
    var detail: Detail? = Detail(title: title, clock: clock)
    weak let weakDetail = detail
    weak let effects = detail?.effects
    path.push(.detail(detail!))
    detail = nil
    title.value = "u"
    await clock.advance()
    #expect(clock.sleeperCount == 3, "the timer, the load and the debounce")
    #expect(title.observerCount > observersBefore)
    path.pop()
    #expect(weakDetail == nil)
    #expect(effects == nil)
    #expect(clock.sleeperCount == 0, "the timer, the load and the debounce were cancelled")
    #expect(title.observerCount == observersBefore, "the graph shrank back")
  }

  @Test func replacingAndPoppingToRootReleaseEveryScreen() {
    let clock = ManualClock()
    let title = Observable("t")
    let path = StackPath<Screen>()
    var weakDetails: [Weak<Detail>] = []
    for _ in 0..<3 {
      let detail = Detail(title: title, clock: clock)
      weakDetails.append(Weak(detail))
      path.push(.detail(detail))
    }
    path.replace(with: [.text("home")])
    #expect(weakDetails.allSatisfy { $0.object == nil })
    path.popToRoot()
    #expect(path.isEmpty)
  }

  @Test func theBindingGraphFindsTheScreensViewModels() {
    // Screens that are view models themselves; enum payloads are the
    // finder's to follow.
    final class Root: ViewModel {
      let path = StackPath<Detail>()
    }
    let root = Root()
    let clock = ManualClock()
    let title = Observable("t").labelled("title")
    root.path.push(Detail(title: title, clock: clock))
    let graph = BindingGraph(reachableFrom: root)
    #expect(graph.nodes.contains { $0.label?.contains("load") == true })
  }
}

/// A weak reference, for lists of them.
@MainActor
final class Weak<Object: AnyObject> {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}
