import POMVVM
import Testing

@Suite("ButtonState")
struct ButtonStateTests {
  @Test func rolesAndActions() {
    let cancel = ButtonState<Int>.cancel()
    #expect(cancel.role == .cancel && cancel.action == nil && cancel.label == "Cancel")
    let delete = ButtonState.destructive("Delete", action: 1)
    #expect(delete.role == .destructive && delete.action == 1)
    #expect(delete.id == "Delete")
    #expect(ButtonState("Delete", role: .destructive, action: 1) == delete)
    #expect(ButtonState("Delete", action: 1) != delete)
  }
}
