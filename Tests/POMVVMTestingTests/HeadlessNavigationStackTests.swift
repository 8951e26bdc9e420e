import POMVVM
import POMVVMTesting
import Testing

@MainActor
@Suite("HeadlessNavigationStack")
struct HeadlessNavigationStackTests {
  final class Child: ViewModel, Dismissible {
    let number: Int
    init(_ number: Int) { self.number = number }
  }

  @Test func itShowsWhatTheModelPublishes() {
    let path = StackPath<String>(["a"])
    let navigation = HeadlessNavigationStack(path)
    #expect(navigation.shown == path.ids)
    path.push("b")
    #expect(navigation.shown == path.ids)
    #expect(navigation.userPop())
    #expect(path.screens == ["a"])
    #expect(navigation.userPop())
    #expect(navigation.userPop() == false, "the root has no Back button")
    #expect(navigation.violations.isEmpty)
  }

  @Test func aUserPopInTheFrameOfAModelPushEndsInOneStack() {
    let path = StackPath<String>(["a", "b"])
    let navigation = HeadlessNavigationStack(path, showsChangesAtFrameEnd: true)
    path.push("c")
    #expect(navigation.shown.count == 2, "not shown before the frame ends")
    navigation.userPop()
    #expect(navigation.endFrame().isEmpty)
    #expect(path.screens == ["a"], "the user left b, and c above it")
    #expect(navigation.shown == path.ids)
  }

  @Test func aDoubleTapOnBackDuringAModelPopDoesNotTrap() {
    let path = StackPath<String>(["a", "b", "c"])
    let navigation = HeadlessNavigationStack(path, showsChangesAtFrameEnd: true)
    path.popToRoot()
    let reports = Diagnostics.capturing {
      navigation.userPop()
      navigation.userPop()
    }
    navigation.endFrame()
    #expect(path.isEmpty)
    #expect(navigation.shown.isEmpty)
    #expect(navigation.violations.isEmpty)
    #expect(reports.count == 2, "both pops named screens already gone")
  }

  @Test func aModelThatAnswersEveryPopWithAPushIsCalledALoop() {
    let path = StackPath<String>(["a"])
    let navigation = HeadlessNavigationStack(path)
    navigation.maximumDeliveriesPerStep = 1
    var pushes = 0
    let subscription = path.observeChanges { entries in
      if entries.isEmpty && pushes < 3 {
        pushes += 1
        path.push("again")
      }
    }
    navigation.userPop()
    #expect(navigation.violations.count == 1)
    #expect(navigation.violations.first?.contains("loop") == true)
    withExtendedLifetime(subscription) {}
  }

  // MARK: - Random interleavings

  /// A small seeded generator, so that a failing seed replays.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  enum Destination {
    case sheet(Child)
  }

  @Test(arguments: [(1, false), (2, true), (3, false), (4, true), (5, true)])
  func randomInterleavingsNeverTrapLoopOrDisagree(seed: UInt64, frames: Bool) {
    var random = Generator(state: seed)
    let path = StackPath<Child>()
    let presentation = Presentation<Destination>()
    let navigation = HeadlessNavigationStack(path, showsChangesAtFrameEnd: frames)
    let presenter = HeadlessPresenter(presentation, showsChangesAtFrameEnd: frames)
    var made = 0
    var children: [Weak] = []
    var seenIDs: [StackPath<Child>.ID] = []
    func child() -> Child {
      made += 1
      let child = Child(made)
      children.append(Weak(child))
      return child
    }
    // Now and then the user pops while the model's change is delivered.
    var popsDuringDelivery = false
    let subscription = path.observeChanges { _ in
      if popsDuringDelivery && Bool.random(using: &random) { navigation.userPop() }
    }
    var steps = 0
    _ = Diagnostics.capturing {
      for _ in 0..<2_000 {
        steps += 1
        popsDuringDelivery = random.next() % 8 == 0
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          switch random.next() % 14 {
          case 0, 1, 2: seenIDs.append(path.push(child()))
          case 3: path.pop()
          case 4: if let id = seenIDs.randomElement(using: &random) { path.pop(from: id) }
          case 5: if let id = seenIDs.randomElement(using: &random) { path.pop(to: id) }
          case 6:
            path.replace(with: (0..<Int.random(in: 0...4, using: &random)).map { _ in child() })
          case 7: navigation.userPop()
          case 8: navigation.userPop(toCount: Int.random(in: 0...4, using: &random))
          case 9:
            let alive = children.compactMap(\.object)
            alive.randomElement(using: &random)?.dismiss()
          case 10: presentation.present(.sheet(child()))
          case 11: presentation.dismiss()
          case 12: presenter.userDismiss()
          default: path.popToRoot()
          }
        }
        if frames {
          navigation.endFrame()
          presenter.endFrame()
        }
        #expect(navigation.check().isEmpty, "seed \(seed), step \(steps)")
        #expect(presenter.check().isEmpty, "seed \(seed), step \(steps)")
        #expect(navigation.shown == path.ids, "seed \(seed), step \(steps)")
        #expect(Set(path.ids).count == path.count, "seed \(seed), step \(steps)")
        if navigation.violations.count + presenter.violations.count > 0 { break }
      }
    }
    withExtendedLifetime(subscription) {}
    #expect(navigation.violations.isEmpty)
    #expect(presenter.violations.isEmpty)
    // Everything that left the stack and the sheet is gone.
    path.popToRoot()
    presentation.dismiss()
    seenIDs.removeAll()
    #expect(children.allSatisfy { $0.object == nil })
  }

  @MainActor
  final class Weak {
    weak var object: Child?
    init(_ object: Child) { self.object = object }
  }
}
