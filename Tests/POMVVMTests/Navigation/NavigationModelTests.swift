import Foundation
import POMVVM
import POMVVMTesting
import TestSupport
import Testing

/// Random pushes, presents, ties, removals, answers and operations that
/// cancel themselves (or are cancelled by someone else), with observers
/// that react during delivery, checked after every step against a model of
/// what the docs say (issue 49, items 1–4).
///
/// An action comes back only from the alert shown, so an answer's outcome,
/// compared with the model's, shows an action run twice. The model applies
/// an observer's reaction after the change it reacts to: the docs say that
/// a change made during a delivery comes to the same.
///
/// `POMVVM_NAVIGATION_MODEL_STEPS` sets the number of steps per seed (1,500
/// by default, a fraction of a second).
@MainActor
@Suite("Navigation against its model")
struct NavigationModelTests {
  struct Item: Identifiable, Equatable {
    var id: Int
  }

  struct Screen: Equatable {
    var tag: Int
  }

  /// An action that names its alert and button, so that no two alerts
  /// share one and a second run of an action shows.
  struct Act: Hashable, CustomStringConvertible {
    var alert: Int
    var button: Int

    var description: String { "\(alert).\(button)" }
  }

  enum Destination: Equatable {
    case sheet(Int)
    case alert(AlertState<Act>)
    case toast(Int)
  }

  /// One screen of a deep link.
  struct Pushed {
    var tag: Int
    var element: Int?
    var policy: ElementRemovalPolicy
  }

  indirect enum Op {
    case push(tag: Int)
    case pushTied(tag: Int, element: Int, policy: ElementRemovalPolicy)
    case pop
    case popFrom(id: Int)
    case userPop
    case remove(element: Int)
    case insert(element: Int)
    case presentSheet(tag: Int, tiedTo: Int?)
    /// Presents alert number `alert` (made once, then shown again as it
    /// was).
    case presentAlert(alert: Int)
    case presentToast(tag: Int)
    case dismiss
    case userDismiss
    /// Answers with a button of alert `from` (the one shown, or one that
    /// is gone), then presents `followUp` if an action came back.
    case answer(from: Int, button: Int, followUp: Destination?)
    case replace([Pushed])
    /// Runs the change in an operation that cancels itself first.
    case selfCancelling(Op)
    /// Runs the change in an operation that another one cancelled.
    case cancelledByOther(Op)
  }

  /// What an observer does during the next delivery of a change.
  enum Reaction {
    case none
    /// An observer of the stack removes an element ("hide read items").
    case removeOnStackDelivery(Int)
    /// An observer of the presentation replaces a sheet with an untied
    /// destination.
    case replaceSheet(with: Destination)
    /// An observer of the presentation presents another sheet, tied.
    case nestSheet(tag: Int, tiedTo: Int)
  }

  // MARK: - The model: what the docs say

  struct ModelScreen: Equatable {
    var id: Int
    var tag: Int
    var element: Int?
    var policy: ElementRemovalPolicy
    var deleted = false
  }

  struct Model {
    var stack: [ModelScreen] = []
    var shown: Destination?
    /// The element the shown destination is tied to.
    var shownElement: Int?
    /// The number of the alert shown.
    var shownAlert: Int?
    var items: [Int] = []
    /// The elements removed, whose cells are detached.
    var removed: [Int] = []
    var nextID = 1
    var stackDelivered = false
    var sheetDelivered = false

    /// An element leaves: screens tied to it pop (with those above) or are
    /// marked; a destination tied to it is dismissed.
    mutating func removeElement(_ element: Int) {
      guard let index = items.firstIndex(of: element) else { return }
      items.remove(at: index)
      removed.append(element)
      var touched = false
      if let cut = stack.firstIndex(where: { $0.element == element && $0.policy == .pop }) {
        stack.removeSubrange(cut...)
        touched = true
      }
      for index in stack.indices where stack[index].element == element {
        stack[index].deleted = true
        touched = true
      }
      if touched { stackDelivered = true }
      if shownElement == element { show(nil) }
    }

    mutating func show(_ destination: Destination?, tiedTo element: Int? = nil, alert: Int? = nil) {
      shown = destination
      shownElement = element
      shownAlert = alert
      if case .sheet? = destination { sheetDelivered = true }
    }

    mutating func push(_ tag: Int, element: Int? = nil, policy: ElementRemovalPolicy = .pop) -> Int
    {
      let id = nextID
      nextID += 1
      stack.append(ModelScreen(id: id, tag: tag, element: element, policy: policy))
      stackDelivered = true
      return id
    }

    mutating func cut(at index: Int) {
      stack.removeSubrange(index...)
      stackDelivered = true
    }

    /// Applies `op`, as the docs say; what its call returns.
    mutating func apply(_ op: Op, alerts: [Int: AlertState<Act>]) -> String {
      switch op {
      case .push(let tag):
        return "id \(push(tag))"
      case .pushTied(let tag, let element, let policy):
        guard items.contains(element) else { return "nil" }
        return "id \(push(tag, element: element, policy: policy))"
      case .pop, .userPop:
        guard !stack.isEmpty else { return "false" }
        cut(at: stack.count - 1)
        return "true"
      case .popFrom(let id):
        guard let index = stack.firstIndex(where: { $0.id == id }) else { return "false" }
        cut(at: index)
        return "true"
      case .remove(let element):
        guard items.contains(element) else { return "false" }
        removeElement(element)
        return "true"
      case .insert(let element):
        items.append(element)
        return "true"
      case .presentSheet(let tag, let element):
        if let element, !items.contains(element) { return "false" }
        show(.sheet(tag), tiedTo: element)
        return "true"
      case .presentAlert(let number):
        show(.alert(alerts[number, default: missing]), alert: number)
        return "true"
      case .presentToast(let tag):
        show(.toast(tag))
        return "true"
      case .dismiss, .userDismiss:
        guard shown != nil else { return "false" }
        show(nil)
        return "true"
      case .answer(let from, let index, let followUp):
        guard shown != nil, shownAlert == from else { return "answer nil" }
        let button = NavigationModelTests.button(index, of: alerts[from, default: missing])
        show(nil)
        if let action = button.action, let followUp {
          show(followUp, alert: NavigationModelTests.alertNumber(of: followUp))
          return "answer \(action)"
        }
        return "answer \(button.action.map(\.description) ?? "nil")"
      case .replace(let pushes):
        var complete = true
        var next: [ModelScreen] = []
        for pushed in pushes {
          if let element = pushed.element, !items.contains(element) {
            complete = false
            continue
          }
          next.append(
            ModelScreen(id: nextID, tag: pushed.tag, element: pushed.element, policy: pushed.policy)
          )
          nextID += 1
        }
        stack = next
        stackDelivered = true
        return "\(complete)"
      case .selfCancelling(let inner):
        return apply(inner, alerts: alerts)
      case .cancelledByOther(let inner):
        return refused(inner)
      }
    }

    /// What a refused change returns; it changes nothing but the ids a
    /// push uses up.
    mutating func refused(_ op: Op) -> String {
      switch op {
      case .push:
        nextID += 1
        return "id \(nextID - 1)"
      case .pushTied(_, let element, _):
        if items.contains(element) { nextID += 1 }
        return "nil"
      case .answer: return "answer nil"
      // `remove(id:)` gives the element it leaves in place.
      case .remove(let element): return "\(items.contains(element))"
      default: return "false"
      }
    }

    /// The observer's reaction, after the change it reacts to (during its
    /// delivery in the real thing, which the docs say comes to the same).
    mutating func react(_ reaction: Reaction) {
      switch reaction {
      case .none:
        break
      case .removeOnStackDelivery(let element):
        if stackDelivered { removeElement(element) }
      case .replaceSheet(let destination):
        if sheetDelivered {
          show(destination, alert: NavigationModelTests.alertNumber(of: destination))
        }
      case .nestSheet(let tag, let element):
        if sheetDelivered, items.contains(element) { show(.sheet(tag), tiedTo: element) }
      }
    }
  }

  /// Stands for an alert the run never made (it makes each before use).
  nonisolated static let missing = AlertState<Act>(title: "missing")

  nonisolated static func alertNumber(of destination: Destination) -> Int? {
    guard case .alert(let alert) = destination else { return nil }
    return alert.buttons.first?.action?.alert
  }

  /// Button `index` of `alert`, the last one being its cancel button
  /// (implicit for an alert without one).
  nonisolated static func button(_ index: Int, of alert: AlertState<Act>) -> ButtonState<Act> {
    index < alert.buttons.count ? alert.buttons[index] : alert.cancelButton
  }

  // MARK: - The real thing

  @MainActor
  final class Real {
    let items = ObservableArray<Item>([])
    var cells: [Int: ElementCell<Item>] = [:]
    let path = StackPath<Screen>()
    let presentation = Presentation<Destination>()
    let navigation: HeadlessNavigationStack<Screen>
    let presenter: HeadlessPresenter<Destination>
    let effects = Effects()
    var reaction = Reaction.none
    var tokens: [Subscription] = []

    init() {
      navigation = HeadlessNavigationStack(path)
      presenter = HeadlessPresenter(presentation)
      tokens = [
        path.observeChanges { [unowned self] _ in stackDelivered() },
        presentation.observeChanges { [unowned self] in presentationDelivered($0) },
      ]
    }

    private func stackDelivered() {
      guard case .removeOnStackDelivery(let element) = reaction else { return }
      reaction = .none
      if items[id: element] != nil { items.remove(id: element) }
    }

    private func presentationDelivered(_ destination: Destination?) {
      guard case .sheet? = destination else { return }
      switch reaction {
      case .replaceSheet(let replacement):
        reaction = .none
        presentation.present(replacement)
      case .nestSheet(let tag, let element):
        reaction = .none
        if let cell = cells[element] { presentation.present(.sheet(tag), tiedTo: cell) }
      default:
        break
      }
    }

    /// Makes the change now, in the current task; what its call returns.
    func performNow(_ op: Op, alerts: [Int: AlertState<Act>]) -> String {
      switch op {
      case .push(let tag):
        return "id \(path.push(Screen(tag: tag)).rawValue)"
      case .pushTied(let tag, let element, let policy):
        guard let cell = cells[element] else { return "no cell" }
        let id = path.push(Screen(tag: tag), tiedTo: cell, whenRemoved: policy)
        return id.map { "id \($0.rawValue)" } ?? "nil"
      case .pop:
        return "\(path.pop())"
      case .popFrom(let id):
        return "\(path.pop(from: .init(rawValue: id)))"
      case .userPop:
        return "\(navigation.userPop())"
      case .remove(let element):
        return "\(items.remove(id: element) != nil)"
      case .insert(let element):
        items.append(Item(id: element))
        cells[element] = items.cell(for: element)
        return "\(cells[element] != nil)"
      case .presentSheet(let tag, let element?):
        guard let cell = cells[element] else { return "no cell" }
        return "\(presentation.present(.sheet(tag), tiedTo: cell))"
      case .presentSheet(let tag, nil):
        return "\(presentation.present(.sheet(tag)))"
      case .presentAlert(let number):
        return "\(presentation.present(.alert(alerts[number, default: missing])))"
      case .presentToast(let tag):
        return "\(presentation.present(.toast(tag)))"
      case .dismiss:
        return "\(presentation.dismiss())"
      case .userDismiss:
        return "\(presenter.userDismiss())"
      case .answer(let from, let index, let followUp):
        let action = presentation.answer(
          NavigationModelTests.button(index, of: alerts[from, default: missing]))
        if action != nil, let followUp { presentation.present(followUp) }
        return "answer \(action.map(\.description) ?? "nil")"
      case .replace(let pushes):
        let made = pushes.map { pushed -> StackPath<Screen>.Push in
          guard let element = pushed.element, let cell = cells[element] else {
            return .init(Screen(tag: pushed.tag))
          }
          return .init(Screen(tag: pushed.tag), tiedTo: cell, whenRemoved: pushed.policy)
        }
        return "\(path.replace(with: made))"
      case .selfCancelling, .cancelledByOther:
        preconditionFailure("not nested")
      }
    }

    /// Makes the change, in an operation when the step asks for one.
    func perform(_ op: Op, alerts: [Int: AlertState<Act>]) async -> String {
      let outcome = Outcome()
      switch op {
      case .selfCancelling(let inner):
        effects.run(id: "self") { [self, effects] in
          effects.cancelAll()
          outcome.text = performNow(inner, alerts: alerts)
        }
        await effects.waitUntilIdle()
      case .cancelledByOther(let inner):
        effects.run(id: "late") { [self] in outcome.text = performNow(inner, alerts: alerts) }
        effects.cancelAll()
        await effects.waitUntilIdle()
      default:
        outcome.text = performNow(op, alerts: alerts)
      }
      return outcome.text
    }
  }

  @MainActor
  final class Outcome {
    var text = "not run"
  }

  // MARK: - The run

  struct Run {
    var random: SplitMix64
    var model = Model()
    var alerts: [Int: AlertState<Act>] = [:]
    var nextElement = 1
    var nextTag = 1

    init(seed: UInt64) {
      random = SplitMix64(seed: seed)
    }

    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    mutating func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    mutating func tag() -> Int {
      nextTag += 1
      return nextTag
    }

    /// An element: one in the array mostly, one removed sometimes (every
    /// element chosen was inserted, so the real thing has its cell).
    mutating func element() -> Int {
      if !model.items.isEmpty, model.removed.isEmpty || chance(85) {
        return model.items[pick(model.items.count)]
      }
      return model.removed[pick(model.removed.count)]
    }

    mutating func policy() -> ElementRemovalPolicy { chance(70) ? .pop : .keepShownAsDeleted }

    mutating func newAlert() -> Int {
      let number = alerts.count + 1
      var buttons = [
        ButtonState("Delete", role: .destructive, action: Act(alert: number, button: 0)),
        ButtonState("Archive", action: Act(alert: number, button: 1)),
      ]
      // Some alerts have their own Cancel; the others get the implicit one.
      if chance(50) { buttons.append(.cancel()) }
      alerts[number] = AlertState(title: "Alert \(number)", buttons: buttons)
      return number
    }

    mutating func destination() -> Destination {
      switch pick(3) {
      case 0: return .sheet(tag())
      case 1: return .alert(alerts[newAlert(), default: NavigationModelTests.missing])
      default: return .toast(tag())
      }
    }

    /// A change that an operation may make.
    mutating func change() -> Op {
      switch pick(13) {
      case 0: return .push(tag: tag())
      case 1, 2: return .pushTied(tag: tag(), element: element(), policy: policy())
      case 3: return .pop
      case 4:
        let ids = model.stack.map(\.id)
        return .popFrom(
          id: ids.isEmpty || chance(20) ? max(1, model.nextID - 1) : ids[pick(ids.count)])
      case 5: return .remove(element: element())
      case 6:
        nextElement += 1
        return .insert(element: nextElement - 1)
      case 7: return .presentSheet(tag: tag(), tiedTo: chance(70) ? element() : nil)
      case 8:
        let number = alerts.isEmpty || chance(70) ? newAlert() : 1 + pick(alerts.count)
        return .presentAlert(alert: number)
      case 9: return .presentToast(tag: tag())
      case 10: return .dismiss
      case 11:
        // The alert shown mostly; one that is gone (a stale tap) often.
        let from: Int
        if let shown = model.shownAlert, chance(60) {
          from = shown
        } else if !alerts.isEmpty {
          from = 1 + pick(alerts.count)
        } else {
          return .dismiss
        }
        // The two actions and a cancel button, the alert's own or the implicit one.
        return .answer(from: from, button: pick(3), followUp: chance(50) ? destination() : nil)
      default:
        return .replace(
          (0..<pick(4)).map { _ in
            Pushed(tag: tag(), element: chance(60) ? element() : nil, policy: policy())
          })
      }
    }

    mutating func step() -> (Op, Reaction) {
      let op: Op
      switch pick(10) {
      case 0: op = .selfCancelling(change())
      case 1: op = .cancelledByOther(change())
      case 2: op = chance(50) ? .userPop : .userDismiss
      default: op = change()
      }
      let reaction: Reaction
      switch pick(6) {
      case 0:
        // Most often the element of the change itself: a tie made while
        // its element is removed.
        if case .pushTied(_, let element, _) = op {
          reaction = .removeOnStackDelivery(element)
        } else {
          reaction = .removeOnStackDelivery(element())
        }
      case 1:
        reaction = .replaceSheet(
          with: chance(50)
            ? .alert(alerts[newAlert(), default: NavigationModelTests.missing]) : .toast(tag()))
      case 2: reaction = .nestSheet(tag: tag(), tiedTo: element())
      default: reaction = .none
      }
      return (op, reaction)
    }
  }

  static var steps: Int {
    ProcessInfo.processInfo.environment["POMVVM_NAVIGATION_MODEL_STEPS"].flatMap(Int.init) ?? 1_500
  }

  @Test(arguments: 1...8)
  func everyStepMatchesTheModel(seed: UInt64) async {
    let real = Real()
    var run = Run(seed: seed)
    for element in 0..<3 {
      _ = real.performNow(.insert(element: element), alerts: [:])
      run.model.items.append(element)
    }
    run.nextElement = 3
    var failed = false
    _ = await Diagnostics.capturing {
      for step in 1...Self.steps {
        let (op, reaction) = run.step()
        run.model.stackDelivered = false
        run.model.sheetDelivered = false
        real.reaction = reaction
        let expected = run.model.apply(op, alerts: run.alerts)
        run.model.react(reaction)
        let outcome = await real.perform(op, alerts: run.alerts)
        real.reaction = .none
        let context = "seed \(seed), step \(step): \(op), reacting \(reaction)"
        let model = run.model
        let ids = real.path.ids
        let checks = [
          outcome == expected,
          ids.map(\.rawValue) == model.stack.map(\.id),
          real.path.screens.map(\.tag) == model.stack.map(\.tag),
          ids.map(real.path.isShownAsDeleted) == model.stack.map(\.deleted),
          real.presentation.destination == model.shown,
          real.items.elements.map(\.id) == model.items,
          real.navigation.check().isEmpty && real.navigation.shown == ids,
          real.presenter.check().isEmpty,
        ]
        if checks.contains(false) {
          Issue.record(
            """
            \(context)
            checks \(checks)
            outcome \(outcome), model \(expected)
            stack \(ids.map(\.rawValue)) \(real.path.screens.map(\.tag)), \
            model \(model.stack.map { ($0.id, $0.tag, $0.element as Any, $0.deleted) })
            shown \(String(describing: real.presentation.destination)), \
            model \(String(describing: model.shown))
            """)
          failed = true
          break
        }
      }
    }
    #expect(!failed)
  }
}
