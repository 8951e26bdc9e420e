import POMVVM
import Testing

@MainActor
@Suite("Dismissible")
struct DismissibleTests {
  final class Child: ViewModel, Dismissible {}

  enum Screen {
    case child(Child)
    case pair(Child, Int)
    case plain
  }

  @Test func aPushedChildPopsItselfAndWhatIsAbove() {
    let path = StackPath<Screen>()
    path.push(.plain)
    let child = Child()
    path.push(.child(child))
    path.push(.plain)
    #expect(child.isShown)
    #expect(child.dismiss())
    #expect(path.count == 1)
    #expect(child.isShown == false)
  }

  @Test func aChildInACaseWithSeveralValuesIsFound() {
    let path = StackPath<Screen>()
    let child = Child()
    path.push(.pair(child, 1))
    #expect(child.dismiss())
    #expect(path.isEmpty)
  }

  @Test func aChildThatIsTheScreenItself() {
    let path = StackPath<Child>()
    let child = Child()
    path.push(child)
    #expect(child.dismiss())
    #expect(path.isEmpty)
  }

  @Test func aPresentedChildIsDismissed() {
    let presentation = Presentation<Screen>()
    let child = Child()
    presentation.present(.child(child))
    #expect(child.dismiss())
    #expect(presentation.destination == nil)
  }

  @Test func aChildNothingShowsIsReportedNotCrashed() {
    let child = Child()
    var result = true
    let reports = Diagnostics.capturingReports { result = child.dismiss() }
    #expect(result == false)
    #expect(reports.count == 1)
    #expect(reports.first?.message.contains("no stack or presentation shows it") == true)
    #expect(reports.first?.fileID.hasSuffix("DismissibleTests.swift") == true)
  }

  @Test func aChildDismissedTwiceIsReportedTheSecondTime() {
    let path = StackPath<Screen>()
    let child = Child()
    path.push(.child(child))
    let reports = Diagnostics.capturing {
      #expect(child.dismiss())
      #expect(child.dismiss() == false)
    }
    #expect(reports.count == 1)
  }

  @Test func aLateDismissDoesNotCloseANewerDestination() {
    let presentation = Presentation<Screen>()
    let old = Child()
    presentation.present(.child(old))
    presentation.present(.child(Child()))
    _ = Diagnostics.capturing { #expect(old.dismiss() == false) }
    #expect(presentation.destination != nil)
  }

  @Test func aChildKeptByAReplaceStillDismissesItself() {
    let path = StackPath<Screen>()
    let child = Child()
    path.push(.child(child))
    path.replace(with: [.plain, .child(child)])
    #expect(child.dismiss())
    #expect(path.count == 1)
  }

  @Test func aChildPushedTwiceIsStillShownAfterOneLeaves() {
    let path = StackPath<Screen>()
    let child = Child()
    path.push(.child(child))
    path.push(.child(child))
    path.pop()
    #expect(child.isShown)
    #expect(child.dismiss())
    #expect(path.isEmpty)
  }

  @Test func aChildOfAStackThatIsGoneIsNotShown() {
    let child = Child()
    var path: StackPath<Screen>? = StackPath()
    path?.push(.child(child))
    #expect(child.isShown)
    path = nil
    #expect(child.isShown == false)
  }
}
