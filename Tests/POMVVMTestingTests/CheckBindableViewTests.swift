import MasterDetail
import POMVVMTesting
import Testing

/// A label that shows a title and appends "!" when tapped: done right.
@MainActor
private final class TitleView: BindableView {
  var viewModel: TitleViewModel?
  let bindings = SubscriptionBag()
  let label = Observable("")
  let tapped = EventStream<Void>()

  func makeBindings(to viewModel: TitleViewModel) -> [any SubscriptionToken] {
    [viewModel.title.bind(to: label), tapped.observe { viewModel.title.value += "!" }]
  }
}

/// A label whose own `bind(to:)` forgets to end the previous bindings.
@MainActor
private final class StickyTitleView: BindableView {
  var viewModel: TitleViewModel?
  let bindings = SubscriptionBag()
  let label = Observable("")
  let tapped = EventStream<Void>()

  func makeBindings(to viewModel: TitleViewModel) -> [any SubscriptionToken] {
    [viewModel.title.bind(to: label), tapped.observe { viewModel.title.value += "!" }]
  }

  func bind(to viewModel: TitleViewModel) {
    self.viewModel = viewModel
    for token in makeBindings(to: viewModel) {
      bindings.insert(token)
    }
  }
}

/// A label whose observation captures the view strongly: the view keeps
/// its own bindings, and they keep it.
@MainActor
private final class LeakingTitleView: BindableView {
  var viewModel: TitleViewModel?
  let bindings = SubscriptionBag()
  var label = ""

  func makeBindings(to viewModel: TitleViewModel) -> [any SubscriptionToken] {
    [viewModel.title.observe { self.label = $0 }]
  }
}

/// A label that copies the title once instead of binding to it.
@MainActor
private final class SnapshotTitleView: BindableView {
  var viewModel: TitleViewModel?
  let bindings = SubscriptionBag()
  var label = ""

  func makeBindings(to viewModel: TitleViewModel) -> [any SubscriptionToken] {
    label = viewModel.title.value
    return []
  }
}

@MainActor
@Suite("checkBindableView")
struct CheckBindableViewTests {
  @Test func theSampleRowViewRebindsCleanly() {
    let master = makeMaster()
    checkBindableView(
      ItemRowView.init,
      viewModels: {
        required(master.cellViewModel(for: master.insertNowDate(text: "a").id), "row")
      },
      rendering: { $0.line.value },
      expected: { "\($0.on.value ? "[x]" : "[ ]") \($0.text.value)" },
      mutate: {
        $0.toggleSwitch()
        $0.text.value += "!"
      },
      releasing: { [$0, $0.on, $0.text, $0.on.base] })
  }

  @Test func theSampleHeaderRebindsCleanly() {
    checkBindableView(
      ListHeaderView.init,
      viewModels: { makeMaster(["a", "b"]) },
      rendering: { $0.title.value },
      expected: { "Items (open switches: \($0.openSwitchCount.value))" },
      mutate: { $0.cellViewModel(at: 0)?.toggleSwitch() },
      releasing: { [$0, $0.items, $0.openSwitchCount] })
  }

  @Test func theSampleDetailViewRebindsCleanly() {
    let master = makeMaster()
    checkBindableView(
      DetailView.init,
      viewModels: {
        required(master.detailViewModel(for: master.insertNowDate(text: "a").id), "detail")
      },
      rendering: { $0.lines },
      expected: { viewModel in
        [
          "Detail",
          "  Date:   \(viewModel.date.value)",
          "  Text:   \(viewModel.text.value)",
          "  Switch: \(viewModel.on.value ? "[x]" : "[ ]")",
        ] + (viewModel.isDetached ? ["  (deleted: this item is no longer in the list)"] : [])
      },
      mutate: {
        $0.toggleSwitch()
        $0.text.value += "!"
      },
      releasing: { [$0, $0.on, $0.text, $0.date, $0.on.base] })
  }

  /// The list screen binds its header and rows by hand, and tears them down
  /// with a `TeardownToken`, so unbinding and rebinding are both clean.
  @Test func theSampleListScreenRebindsCleanly() {
    checkBindableView(
      MasterListView.init,
      viewModels: { makeMaster(["a", "b"]) },
      rendering: { $0.lines },
      expected: { master in
        ["Items (open switches: \(master.openSwitchCount.value))"]
          + master.items.enumerated().map { row, item in
            "  \(row + 1). \(item.on ? "[x]" : "[ ]") \(item.text)"
          }
      },
      mutate: {
        $0.insertNowDate(text: "new")
        $0.cellViewModel(at: 1)?.toggleSwitch()
      },
      releasing: { [$0, $0.items] })
  }

  @Test func aHandWrittenViewRebindsCleanly() {
    checkBindableView(
      TitleView.init, viewModels: { TitleViewModel("title") }, rendering: { $0.label.value },
      expected: { $0.title.value }, mutate: { $0.title.value += "!" })
  }

  @Test func aViewThatKeepsItsOldBindingsFailsTheRebindingLaws() {
    let line = #line + 2
    let failures = recordedFailures {
      checkBindableView(
        StickyTitleView.init, viewModels: { TitleViewModel("title") },
        rendering: { $0.label.value }, expected: { $0.title.value },
        mutate: { $0.title.value += "!" })
    }
    #expect(
      failures.laws == [
        "rebinding ends the old bindings", "rebinding releases the old view model",
        "binding the same view model twice does not subscribe twice",
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.map(\.message).prefix(3) == [
        """
        BindableView law 'rebinding ends the old bindings' failed for StickyTitleView: after \
        mutating the old view model: expected "title", saw "title!!"
        Trace:
          - checkBindableView(StickyTitleView)
          - rebinding to a second view model
        """,
        """
        BindableView law 'rebinding releases the old view model' failed for StickyTitleView: \
        still alive after rebinding and dropping the old view model: TitleViewModel (#1)
        Trace:
          - checkBindableView(StickyTitleView)
          - rebinding to a second view model
        """,
        """
        BindableView law 'binding the same view model twice does not subscribe twice' failed \
        for StickyTitleView: tokens in `bindings`: expected 4, saw 6
        Trace:
          - checkBindableView(StickyTitleView)
          - binding the second view model again
        """,
      ])
  }

  @Test func aViewThatKeepsItselfAliveFailsTheReleaseLaw() {
    let line = #line + 2
    let failures = recordedFailures {
      checkBindableView(
        LeakingTitleView.init, viewModels: { TitleViewModel("title") },
        rendering: { $0.label }, expected: { $0.title.value }, mutate: { $0.title.value += "!" })
    }
    #expect(failures.laws == ["a bound view is released with its last reference"])
    #expect(failures.locations == [here(line)])
  }

  @Test func aViewThatDoesNotFollowItsViewModelFailsTheFollowLaw() {
    let line = #line + 2
    let failures = recordedFailures {
      checkBindableView(
        SnapshotTitleView.init, viewModels: { TitleViewModel("title") },
        rendering: { $0.label }, expected: { $0.title.value }, mutate: { $0.title.value += "!" })
    }
    #expect(
      failures.laws == ["the view follows its view model", "the view follows its view model"])
    #expect(failures.locations == [here(line)])
  }

  @Test func aMutationThatChangesNothingIsReported() {
    let line = #line + 2
    let failures = recordedFailures {
      checkBindableView(
        TitleView.init, viewModels: { TitleViewModel("title") }, rendering: { $0.label.value },
        expected: { $0.title.value }, mutate: { _ in })
    }
    #expect(failures.laws == ["misuse", "misuse"])
    #expect(failures.locations == [here(line)])
  }
}
