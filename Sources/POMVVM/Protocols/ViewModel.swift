/// The root protocol of every view model.
///
/// `ViewModel` asks for nothing: its value is in its extensions. Behaviour
/// written once in `extension ViewModel where Self: SomeCapability` is shared
/// by every view model that has the capability — a list row and a detail
/// screen share their switch logic through ``Switchable`` without copying
/// it.
///
/// ```swift
/// final class RowViewModel: ViewModel, Switchable {
///   let on: Observable<Bool>
///   init(on: Bool) { self.on = Observable(on) }
/// }
/// RowViewModel(on: false).toggleSwitch()   // the shared default
/// ```
@MainActor
public protocol ViewModel {}
