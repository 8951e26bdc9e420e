import POMVVM

/// The navigation rows: a push and a pop through a `StackPath` against a
/// plain array and against the `[Screen]` + callback apps write by hand, and
/// the O(n) operations of a deep stack.
let navigationComparisons: [Comparison] = [
  Comparison(
    "navigation/push + pop of a screen with one observed cell, stack observed",
    target: .ratioAtMost(3), baselineName: "hand-written: [Screen] + a change callback",
    kit: { kitPushPop(newScreen: false) }, baseline: { handPushPop(newScreen: false) }),
  Comparison(
    "navigation/push + pop of a screen with one observed cell, vs a plain array",
    target: .none, baselineName: "[Screen]: append + removeLast",
    kit: { kitPushPop(newScreen: false) }, baseline: { plainPushPop() }),
  Comparison(
    "navigation/make, push + pop a new screen with one observed cell",
    target: .ratioAtMost(3), baselineName: "hand-written: [Screen] + a change callback",
    kit: { kitPushPop(newScreen: true) }, baseline: { handPushPop(newScreen: true) }),
  Comparison(
    "navigation/pop(from:) the bottom of a 1,000-deep stack, then refill",
    target: .ratioAtMost(3),
    baselineName: "hand-written: [(id, Screen)] removeAll + refill with new ids + callback",
    perSample: 1,
    kit: { kitPopFromBottom(depth: 1_000) }, baseline: { handPopFromBottom(depth: 1_000) }),
  Comparison(
    "navigation/replace(with:) of a 1,000-deep stack", target: .ratioAtMost(3),
    baselineName: "hand-written: [(id, Screen)] with new ids + callback", perSample: 1,
    kit: { kitReplace(depth: 1_000) }, baseline: { handReplace(depth: 1_000) }),
  Comparison(
    "navigation/replace(with:) of a 1,000-deep stack vs 100-deep (O(n): about 10)",
    target: .ratioAtMost(15), baselineName: "the same at depth 100", perSample: 1,
    kit: { kitReplace(depth: 1_000) }, baseline: { kitReplace(depth: 100) }),
]

/// A screen's view model with one cell that its view observes.
@MainActor
final class ScreenModel {
  let title = POMVVM.Observable(0)
  let subscription: Subscription

  init() {
    subscription = title.observeChanges(makeObserver())
  }
}

/// What the platform's observer of a stack does: reads its depth.
@MainActor
@inline(never)
func makeStackObserver<Entry>() -> @MainActor ([Entry]) -> Void {
  { sharedSink.total &+= $0.count }
}

@MainActor
func kitPushPop(newScreen: Bool) -> any Fixture {
  let path = StackPath<ScreenModel>()
  let subscription = path.observeChanges(makeStackObserver())
  let screen = ScreenModel()
  return Loop(keeping: (path, subscription, screen)) { iterations in
    for _ in 0..<iterations {
      path.push(newScreen ? ScreenModel() : screen)
      path.pop()
    }
  }
}

/// The stack apps write by hand: an array and a callback after each change.
@MainActor
final class HandStack {
  var screens: [ScreenModel] = []
  var onChange: (@MainActor ([ScreenModel]) -> Void)?

  func push(_ screen: ScreenModel) {
    screens.append(screen)
    onChange?(screens)
  }

  func pop() {
    guard !screens.isEmpty else { return }
    screens.removeLast()
    onChange?(screens)
  }
}

@MainActor
func handPushPop(newScreen: Bool) -> any Fixture {
  let stack = HandStack()
  stack.onChange = makeStackObserver()
  let screen = ScreenModel()
  return Loop(keeping: (stack, screen)) { iterations in
    for _ in 0..<iterations {
      stack.push(newScreen ? ScreenModel() : screen)
      stack.pop()
    }
  }
}

@MainActor
func plainPushPop() -> any Fixture {
  var screens: [ScreenModel] = []
  let screen = ScreenModel()
  return Loop(keeping: screen) { iterations in
    for _ in 0..<iterations {
      screens.append(screen)
      blackHole(screens.removeLast())
    }
  }
}

@MainActor
func kitPopFromBottom(depth: Int) -> any Fixture {
  let screens = (0..<depth).map { _ in ScreenModel() }
  let path = StackPath<ScreenModel>(screens)
  let subscription = path.observeChanges(makeStackObserver())
  return Loop(keeping: (path, subscription)) { iterations in
    for _ in 0..<iterations {
      if let bottom = path.ids.first { path.pop(from: bottom) }
      path.replace(with: screens)
    }
  }
}

/// The stack apps write by hand when the platform needs stable ids (as
/// SwiftUI's `NavigationStack(path:)` does): screens and the ids of their
/// pushes, and a callback.
@MainActor
final class HandIdentifiedStack {
  var entries: [(id: Int, screen: ScreenModel)] = []
  var nextID = 0
  var onChange: (@MainActor (Int) -> Void)?

  func replace(with screens: [ScreenModel]) {
    entries.removeAll(keepingCapacity: true)
    for screen in screens {
      nextID += 1
      entries.append((nextID, screen))
    }
    onChange?(entries.count)
  }
}

@MainActor
func handPopFromBottom(depth: Int) -> any Fixture {
  let screens = (0..<depth).map { _ in ScreenModel() }
  let stack = HandIdentifiedStack()
  stack.replace(with: screens)
  stack.onChange = makeObserver()
  return Loop(keeping: stack) { iterations in
    for _ in 0..<iterations {
      if let bottom = stack.entries.first?.id,
        let index = stack.entries.firstIndex(where: { $0.id == bottom })
      {
        stack.entries.removeSubrange(index...)
        stack.onChange?(stack.entries.count)
      }
      stack.replace(with: screens)
    }
  }
}

@MainActor
func kitReplace(depth: Int) -> any Fixture {
  let screens = (0..<depth).map { _ in ScreenModel() }
  let path = StackPath<ScreenModel>()
  let subscription = path.observeChanges(makeStackObserver())
  return Loop(keeping: (path, subscription)) { iterations in
    for _ in 0..<iterations {
      path.replace(with: screens)
    }
  }
}

@MainActor
func handReplace(depth: Int) -> any Fixture {
  let screens = (0..<depth).map { _ in ScreenModel() }
  let stack = HandIdentifiedStack()
  stack.onChange = makeObserver()
  return Loop(keeping: stack) { iterations in
    for _ in 0..<iterations {
      stack.replace(with: screens)
    }
  }
}
