/// Checks that a `BindableView` shows its view model, follows it, and
/// rebinds cleanly: rebinding ends every old binding and releases the old
/// view model, and binding the same view model twice does not subscribe
/// twice.
///
/// You say what the view shows with `rendering`, and what it should show
/// for a view model with `expected`; `mutate` changes a view model in a way
/// the view shows:
///
/// ```swift
/// @Test @MainActor func rowViewRebindsCleanly() {
///   let master = MasterViewModel()
///   checkBindableView(
///     ItemRowView.init,
///     viewModels: { master.cellViewModel(for: master.insertNowDate(text: "a").id)! },
///     rendering: { $0.line.value },
///     expected: { "\($0.on.value ? "[x]" : "[ ]") \($0.text.value)" },
///     mutate: { $0.toggleSwitch() })
/// }
/// ```
///
/// With view models *a*, *b* and *c* from `viewModels`, the check binds a
/// view to *a*, then to *b*, and checks these laws:
///
/// - *binding shows the view model*: the view's rendering is `expected(a)`;
/// - *the view follows its view model*: after `mutate(a)`, it is
///   `expected(a)` again (and `expected(a)` changed);
/// - *rebinding shows the new view model*: after binding to *b*, it is
///   `expected(b)`;
/// - *rebinding ends the old bindings*: `mutate(a)` no longer reaches the
///   view;
/// - *rebinding releases the old view model*: once the check lets go of *a*,
///   every object `releasing(a)` names is deallocated, so no binding or
///   token kept it;
/// - *binding the same view model twice does not subscribe twice*: binding
///   *b* again leaves as many tokens in `BindableView.bindings`, and the
///   view still follows *b*;
/// - *unbinding ends every binding*: after `BindableView.unbind()` the view
///   forgets *b*, holds no tokens, ignores `mutate(b)`, and *b* is released;
/// - *a bound view is released with its last reference*: a view bound to *c*
///   and then dropped is deallocated (its bindings do not keep it alive).
///
/// - Parameters:
///   - makeView: Makes an unbound view.
///   - makeViewModel: Makes a view model. Each call must give a new one,
///     independent of the others (changing one does not change what another
///     shows), that nothing outside the check keeps alive.
///   - render: What the view shows, such as its label's text.
///   - expected: What the view should show for a view model.
///   - mutate: Changes a view model so that `expected` changes.
///   - releasing: The objects that must be deallocated when a view model is
///     no longer shown and no longer used, such as the view model and its
///     cells; by default, the view model.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkBindableView<View: BindableView, Rendering: Equatable>(
  _ makeView: () -> View,
  viewModels makeViewModel: () -> View.ViewModelType,
  rendering render: (View) -> Rendering,
  expected: (View.ViewModelType) -> Rendering,
  mutate: (View.ViewModelType) -> Void,
  releasing: (View.ViewModelType) -> [AnyObject] = { [$0] },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) where View.ViewModelType: AnyObject {
  let context = CheckContext(
    "checkBindableView(\(View.self))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  let laws = context.laws("BindableView", for: "\(View.self)")

  /// Mutates a view model, reporting a mutation that changes nothing the
  /// view should show: the laws that use it would pass without checking.
  func change(_ viewModel: View.ViewModelType) {
    let before = expected(viewModel)
    mutate(viewModel)
    if expected(viewModel) == before {
      laws.misuse(
        "`mutate` did not change what `expected` gives for the view model "
          + "(\(describe(before))), so the check cannot tell whether the view follows it")
    }
  }

  let view = makeView()
  var oldObjects: [WeakReference] = []
  var unboundObjects: [WeakReference] = []
  do {
    let b = makeViewModel()
    do {
      let a = makeViewModel()
      context.step("binding to a first view model") {
        view.bind(to: a)
        laws.expectEqual("binding shows the view model", render(view), expected(a))
        change(a)
        laws.expectEqual(
          "the view follows its view model", render(view), expected(a), "after `mutate`")
      }
      context.step("rebinding to a second view model") {
        view.bind(to: b)
        laws.expectEqual("rebinding shows the new view model", render(view), expected(b))
        let shown = expected(b)
        mutate(a)
        if expected(b) != shown {
          laws.misuse(
            "mutating one view model changed what another shows; make independent ones")
        }
        laws.expectEqual(
          "rebinding ends the old bindings", render(view), expected(b),
          "after mutating the old view model")
      }
      oldObjects = releasing(a).map(WeakReference.init)
    }
    context.step("rebinding to a second view model") {
      let alive = survivors(oldObjects)
      laws.expect(
        "rebinding releases the old view model", alive.isEmpty,
        "still alive after rebinding and dropping the old view model: "
          + alive.joined(separator: ", "))
    }

    context.step("binding the second view model again") {
      let tokens = view.bindings.count
      view.bind(to: b)
      laws.expectEqual(
        "binding the same view model twice does not subscribe twice", view.bindings.count,
        tokens, "tokens in `bindings`")
      laws.expectEqual(
        "binding the same view model twice does not subscribe twice", render(view),
        expected(b), "rendering")
      change(b)
      laws.expectEqual(
        "the view follows its view model", render(view), expected(b), "after `mutate`")
    }

    context.step("unbinding") {
      let shown = render(view)
      view.unbind()
      laws.expect(
        "unbinding ends every binding", view.viewModel == nil && view.bindings.isEmpty,
        "after `unbind()` the view "
          + (view.viewModel == nil ? "forgot its view model" : "still has its view model")
          + " and holds \(view.bindings.count) tokens")
      mutate(b)
      laws.expectEqual(
        "unbinding ends every binding", render(view), shown, "after mutating the view model")
    }
    unboundObjects = releasing(b).map(WeakReference.init)
  }
  context.step("unbinding") {
    let alive = survivors(unboundObjects)
    laws.expect(
      "unbinding ends every binding", alive.isEmpty,
      "still alive after unbinding and dropping the view model: "
        + alive.joined(separator: ", "))
  }

  context.step("releasing a bound view") {
    let c = makeViewModel()
    var watched: WeakReference?
    do {
      let view = makeView()
      view.bind(to: c)
      watched = WeakReference(view)
    }
    laws.expect(
      "a bound view is released with its last reference", watched?.isAlive == false,
      "\(View.self) stays alive after its last reference is dropped while it is bound, "
        + "so its bindings keep it (does a binding capture the view strongly?)")
    // Break the cycle, so that a leaking view does not keep following `c`.
    (watched?.object as? View)?.unbind()
    withExtendedLifetime(c) {}
  }
  withExtendedLifetime(view) {}
}
