/// An object whose observations end when it is deallocated.
///
/// Conform a view model or a view to `SubscriptionOwner` and observe with the
/// owner-scoped form of `observe`: the handler receives the owner, so it needs
/// no `[weak self]`, and the subscription is kept in the owner's bag, so it
/// ends when the owner goes away.
///
/// ```swift
/// final class Greeter: SubscriptionOwner {
///   let subscriptions = SubscriptionBag()
///   var greeting = ""
///   init(name: Observable<String>) {
///     name.observe(self) { greeter, name in greeter.greeting = "Hello, \(name)" }
///   }
/// }
/// ```
@MainActor
public protocol SubscriptionOwner: AnyObject {
  /// The bag that keeps the owner's subscriptions.
  var subscriptions: SubscriptionBag { get }
}
