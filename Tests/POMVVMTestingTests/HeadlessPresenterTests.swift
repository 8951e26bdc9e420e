import POMVVM
import POMVVMTesting
import Testing

@MainActor
@Suite("HeadlessPresenter")
struct HeadlessPresenterTests {
  @Test func itFollowsPresentsReplacementsAndDismissals() {
    let presentation = Presentation<String>()
    let presenter = HeadlessPresenter(presentation)
    presentation.present("a")
    presentation.present("b")
    #expect(presenter.isShowing)
    #expect(presenter.presentations == 2, "a replacement is a second presentation")
    presentation.dismiss()
    #expect(presenter.isShowing == false)
    #expect(presenter.violations.isEmpty)
  }

  @Test func aSwipeDownInTheFrameOfAPresentDismissesWhatIsPresented() {
    let presentation = Presentation<String>()
    presentation.present("a")
    let presenter = HeadlessPresenter(presentation, showsChangesAtFrameEnd: true)
    presentation.present("b")
    #expect(presenter.userDismiss())
    #expect(presenter.endFrame().isEmpty)
    #expect(presentation.destination == nil)
    #expect(presenter.isShowing == false)
  }

  @Test func aSwipeWithNothingShownDoesNothing() {
    let presentation = Presentation<String>()
    let presenter = HeadlessPresenter(presentation)
    #expect(presenter.userDismiss() == false)
    #expect(presenter.check().isEmpty)
  }
}
