import POMVVM
import Testing

@MainActor
@Suite("AlertState")
struct AlertStateTests {
  enum Action: Equatable { case delete, archive }

  @Test func alertsWithEqualPartsAreEqual() {
    let a = AlertState<Action>(
      title: "Delete?", message: "Cannot be undone.",
      buttons: [.destructive("Delete", action: .delete), .cancel()])
    var b = a
    #expect(a == b)
    b.buttons[0].action = .archive
    #expect(a != b)
    b = a
    b.style = .confirmationDialog
    #expect(a != b)
  }

  @Test func theDefaultAlertHasOneOKButtonThatCancels() {
    let alert = AlertState<Action>(title: "Saved")
    #expect(alert.buttons == [ButtonState("OK", role: .cancel)])
    #expect(alert.cancelButton.label == "OK")
    #expect(alert.style == .alert)
  }

  @Test func anAlertWithoutCancelButtonCancelsWithAnImplicitOne() {
    let alert = AlertState<Action>(
      title: "Choose", buttons: [ButtonState("Archive", action: .archive)],
      style: .confirmationDialog)
    #expect(alert.cancelButton == .cancel())
    #expect(alert.cancelButton.action == nil)
    #expect(alert.button(labelled: "Archive")?.action == .archive)
    #expect(alert.button(labelled: "Nope") == nil)
  }
}
