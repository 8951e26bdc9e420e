import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("Presentation")
struct PresentationTests {
  @MainActor
  final class Edit: ViewModel, Dismissible {
    let effects = Effects()
    init(clock: ManualClock) {
      effects.run(id: "autosave") {
        while true { try await clock.sleep(for: .seconds(1)) }
      }
    }
  }

  enum Destination {
    case edit(Edit)
    case alert(AlertState<String>)
  }

  @Test func presentThenDismiss() {
    let presentation = Presentation<String>()
    var seen: [String?] = []
    let subscription = presentation.observe { seen.append($0) }
    presentation.present("sheet")
    #expect(presentation.isPresented)
    presentation.dismiss()
    presentation.dismiss()
    #expect(seen == [nil, "sheet", nil], "a second dismiss tells no one")
    withExtendedLifetime(subscription) {}
  }

  @Test func aSecondPresentReplacesTheFirstAndReleasesIt() {
    let clock = ManualClock()
    let presentation = Presentation<Destination>()
    var first: Edit? = Edit(clock: clock)
    weak let weakFirst = first
    presentation.present(.edit(first!))
    first = nil
    presentation.present(.alert(AlertState(title: "Saved")))
    #expect(weakFirst == nil)
    if case .alert(let alert) = presentation.destination {
      #expect(alert.title == "Saved")
    } else {
      Issue.record("the alert replaced the sheet")
    }
  }

  @Test func thePlatformsDismissalWritesNil() {
    let presentation = Presentation<String>()
    let presenter = HeadlessPresenter(presentation)
    presentation.present("sheet")
    #expect(presenter.isShowing)
    #expect(presenter.userDismiss())
    #expect(presentation.destination == nil)
    #expect(presenter.userDismiss() == false, "nothing left to swipe")
    #expect(presenter.violations.isEmpty)
  }

  @Test func aDismissedDestinationIsReleasedAndItsWorkCancelled() async {
    let clock = ManualClock()
    let presentation = Presentation<Destination>()
    var edit: Edit? = Edit(clock: clock)
    weak let weakEdit = edit
    presentation.present(.edit(edit!))
    edit = nil
    await clock.advance()
    #expect(clock.sleeperCount == 1)
    presentation.destination = nil
    #expect(weakEdit == nil)
    #expect(clock.sleeperCount == 0)
  }

  @Test func aDismissalWrittenDuringDeliveryIsTakenAfterIt() {
    let presentation = Presentation<String>()
    var seen: [String?] = []
    let first = presentation.observeChanges { destination in
      if destination == "sheet" { presentation.destination = nil }
    }
    let second = presentation.observeChanges { seen.append($0) }
    presentation.present("sheet")
    #expect(presentation.destination == nil)
    #expect(seen == ["sheet", nil])
    withExtendedLifetime((first, second)) {}
  }

  @Test func aDestinationWrittenDuringDeliveryIsRefusedAndReported() {
    let presentation = Presentation<String>()
    var deliveries = 0
    let subscription = presentation.observeChanges { _ in
      deliveries += 1
      presentation.destination = "again \(deliveries)"
    }
    let reports = Diagnostics.capturing { presentation.present("sheet") }
    #expect(presentation.destination == "sheet")
    #expect(deliveries == 1)
    #expect(reports.count == 1)
    #expect(reports.first?.contains("did not take a destination") == true)
    withExtendedLifetime(subscription) {}
  }

  @Test func answeringAnAlertDismissesItAndGivesTheAction() {
    let presentation = Presentation<AlertState<String>>()
    let alert = AlertState(
      title: "Delete?", buttons: [.destructive("Delete", action: "delete"), .cancel()])
    presentation.present(alert)
    #expect(presentation.answer(alert.buttons[0]) == "delete")
    #expect(presentation.destination == nil)
    presentation.present(alert)
    #expect(presentation.answer(alert.cancelButton) == nil, "cancel only dismisses")
    #expect(presentation.destination == nil)
  }

  @Test func aSecondTapOnADismissedAlertDoesNothing() {
    let presentation = Presentation<AlertState<String>>()
    let delete = ButtonState("Delete", role: .destructive, action: "delete")
    presentation.present(AlertState(title: "Delete?", buttons: [delete, .cancel()]))
    var actions: [String] = []
    let reports = Diagnostics.capturing {
      for _ in 0..<2 {
        if let action = presentation.answer(delete) { actions.append(action) }
      }
    }
    #expect(actions == ["delete"])
    #expect(reports.count == 1)
    #expect(reports.first?.contains("nothing is presented") == true)
  }

  struct Item: Identifiable, Equatable {
    var id: Int
    var text: String
  }

  @Test func aDestinationTiedToAnElementIsDismissedWhenItIsRemovedAndNotBroughtBack() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let history = UndoHistory(clock: ManualClock())
    history.track(items)
    let presentation = Presentation<String>()
    #expect(presentation.present("edit 1", tiedTo: items.cell(for: 1)!))
    items.remove(id: 2)
    #expect(presentation.destination == "edit 1", "another element's removal changes nothing")
    items.remove(id: 1)
    #expect(presentation.destination == nil)
    #expect(history.undo())
    #expect(items[id: 1] != nil)
    #expect(presentation.destination == nil, "the undo brings the element back, not the sheet")
  }

  @Test func aReplacedTiedDestinationNoLongerFollowsItsElement() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let presentation = Presentation<String>()
    presentation.present("edit 1", tiedTo: items.cell(for: 1)!)
    presentation.present("other")
    items.remove(id: 1)
    #expect(presentation.destination == "other")
  }

  @Test func presentingTiedToARemovedElementIsRefused() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let cell = items.cell(for: 1)!
    items.remove(id: 1)
    let presentation = Presentation<String>()
    var presented = true
    let reports = Diagnostics.capturing { presented = presentation.present("edit", tiedTo: cell) }
    #expect(presented == false && presentation.destination == nil)
    #expect(reports.count == 1 && reports.first?.contains("present refused") == true)
  }

  @Test func observationTrackingSeesPresentAndDismiss() {
    let presentation = Presentation<String>()
    let tracker = track { _ = presentation.destination }
    presentation.present("a")
    #expect(tracker.fired == 1)
  }
  // MARK: - Ties made during delivery (issue 49, items 2 and 3)

  @Test func anObserverThatRemovesTheElementDuringThePresentationDismissesIt() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let presentation = Presentation<String>()
    let presenter = HeadlessPresenter(presentation)
    let remover = presentation.observeChanges { destination in
      if destination == "edit 1", items[id: 1] != nil { items.remove(id: 1) }
    }
    #expect(presentation.present("edit 1", tiedTo: items.cell(for: 1)!))
    #expect(presentation.destination == nil)
    #expect(!presenter.isShowing && presenter.violations.isEmpty)
    withExtendedLifetime(remover) {}
  }

  @Test func anUntiedAlertThatAnObserverPresentedIsNotDismissedByTheSheetsElement() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let presentation = Presentation<String>()
    let replacer = presentation.observeChanges { destination in
      if destination == "edit 1" { presentation.present("alert") }
    }
    presentation.present("edit 1", tiedTo: items.cell(for: 1)!)
    #expect(presentation.destination == "alert")
    items.remove(id: 1)
    #expect(presentation.destination == "alert", "the alert is tied to nothing")
    withExtendedLifetime(replacer) {}
  }

  @Test func aNestedTiedPresentationKeepsItsOwnTie() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let presentation = Presentation<String>()
    let second = items.cell(for: 2)!
    let nester = presentation.observeChanges { destination in
      if destination == "edit 1" { presentation.present("edit 2", tiedTo: second) }
    }
    presentation.present("edit 1", tiedTo: items.cell(for: 1)!)
    #expect(presentation.destination == "edit 2")
    items.remove(id: 1)
    #expect(presentation.destination == "edit 2", "not tied to the first element")
    items.remove(id: 2)
    #expect(presentation.destination == nil, "tied to its own")
    withExtendedLifetime(nester) {}
  }

  // MARK: - Answers belong to the alert shown (issue 49, item 4)

  enum Answer: Equatable {
    case delete
    case undo
  }

  enum Shown: Equatable {
    case alert(AlertState<Answer>)
    case toast(String)
  }

  private static var deleteAlert: AlertState<Answer> {
    AlertState(title: "Delete?", buttons: [.destructive("Delete", action: .delete), .cancel()])
  }

  @Test func aStaleSecondTapOnAFollowUpAlertIsRefused() {
    let presentation = Presentation<Shown>()
    let alert = Self.deleteAlert
    let followUp = AlertState<Answer>(
      title: "Deleted", buttons: [ButtonState("Undo", action: .undo), .cancel("OK")])
    var actions: [Answer] = []
    let reports = Diagnostics.capturing {
      presentation.present(.alert(alert))
      for _ in 0..<2 {
        if let action = presentation.answer(alert.buttons[0]) {
          actions.append(action)
          presentation.present(.alert(followUp))
        }
      }
    }
    #expect(actions == [.delete], "Delete runs once")
    #expect(presentation.destination == .alert(followUp), "the follow-up stays")
    #expect(reports.count == 1 && reports.first?.contains("has no such button") == true)
  }

  @Test func aStaleTapOnAButtonWithTheSameLabelButAnotherActionIsRefused() {
    let presentation = Presentation<AlertState<Answer>>()
    let alert = Self.deleteAlert
    let other = AlertState<Answer>(
      title: "Undo?", buttons: [.destructive("Delete", action: .undo), .cancel()])
    presentation.present(other)
    _ = Diagnostics.capturing { #expect(presentation.answer(alert.buttons[0]) == nil) }
    #expect(presentation.destination == other)
    #expect(presentation.answer(other.buttons[0]) == .undo)
  }

  @Test func aStaleTapOnTheCancelOfAnAlertReplacedByAnotherWithACancelIsRefused() {
    let presentation = Presentation<Shown>()
    let first = Self.deleteAlert
    let followUp = Self.deleteAlert
    #expect(first == followUp, "equal values, two alerts")
    presentation.present(.alert(first))
    presentation.present(.alert(followUp))
    _ = Diagnostics.capturing {
      #expect(presentation.answer(first.cancelButton) == nil)
      #expect(presentation.answer(first.buttons[0]) == nil)
    }
    #expect(presentation.destination == .alert(followUp), "the follow-up stays")
    #expect(presentation.answer(followUp.buttons[0]) == .delete)
  }

  @Test func aButtonMadeOnItsOwnIsTakenByItsValue() {
    let presentation = Presentation<AlertState<Answer>>()
    presentation.present(Self.deleteAlert)
    let delete = ButtonState<Answer>("Delete", role: .destructive, action: .delete)
    #expect(presentation.answer(delete) == .delete)
  }

  @Test func aStaleTapWhileAToastOrASheetIsShownIsRefused() {
    let presentation = Presentation<Shown>()
    presentation.present(.toast("Deleted"))
    let reports = Diagnostics.capturing {
      #expect(presentation.answer(Self.deleteAlert.buttons[0]) == nil)
      #expect(presentation.answer(Self.deleteAlert.cancelButton) == nil)
    }
    #expect(presentation.destination == .toast("Deleted"))
    #expect(reports.count == 2)
  }

  @Test func theImplicitCancelButtonOfAnAlertIsItsOwn() {
    let presentation = Presentation<Shown>()
    let alert = AlertState<Answer>(
      title: "Delete?", buttons: [.destructive("Delete", action: .delete)])
    presentation.present(.alert(alert))
    #expect(presentation.answer(alert.cancelButton) == nil)
    #expect(presentation.destination == nil, "the platform's Cancel dismisses")
  }

  /// An action that is not `Equatable`: buttons match by label and role.
  struct Opaque {
    let run: () -> Void
  }

  @Test func anAlertOfActionsThatAreNotEquatableMatchesByLabelAndRole() {
    let presentation = Presentation<AlertState<Opaque>>()
    let alert = AlertState(
      title: "Delete?", buttons: [.destructive("Delete", action: Opaque {}), .cancel()])
    presentation.present(alert)
    _ = Diagnostics.capturing {
      #expect(presentation.answer(ButtonState("Delete", action: Opaque {})) == nil, "no role")
    }
    #expect(presentation.answer(alert.buttons[0]) != nil)
    #expect(presentation.destination == nil)
  }
}
