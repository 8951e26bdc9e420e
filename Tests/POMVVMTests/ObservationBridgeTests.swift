import Observation
import POMVVM
import TestSupport
import Testing

/// An app's existing model, tracked by Observation.
@Observable
final class Profile {
  var name = "Ada"
  var age = 36
}

/// Lets the main actor run the tasks that a change scheduled.
@MainActor
func settle() async {
  for _ in 0..<20 {
    await Task.yield()
  }
}

/// `Derived(observing:)`: Observation state flowing into the kit.
@MainActor
@Suite("Observation bridge")
struct ObservationBridgeTests {
  @Test func recomputesAfterAChangeToAPropertyItReadAndNotOtherwise() async {
    let profile = Profile()
    var runs = 0
    let greeting = Derived(observing: {
      runs += 1
      return "Hello, \(profile.name)"
    })
    let seen = Recorder<String>()
    let subscription = greeting.observeChanges(seen.handler)
    #expect(greeting.value == "Hello, Ada")
    profile.age = 40
    await settle()
    #expect(runs == 1, "age was not read")
    profile.name = "Grace"
    await settle()
    profile.name = "Hopper"
    await settle()
    #expect(seen.events == ["Hello, Grace", "Hello, Hopper"])
    #expect(runs == 3)
    subscription.cancel()
  }

  @Test func aBurstOfChangesIsOneRecomputation() async {
    let profile = Profile()
    var runs = 0
    let summary = Derived(observing: {
      runs += 1
      return "\(profile.name), \(profile.age)"
    })
    profile.name = "Grace"
    profile.age = 85
    await settle()
    #expect(summary.value == "Grace, 85")
    #expect(runs == 2)
  }

  @Test func worksWithCombineAndBindings() async {
    let profile = Profile()
    let name = Derived(observing: { profile.name })
    let suffix = Observable("!")
    let title = combine(.every, name, suffix, initial: "") { $0 + $1 }
    let label = Observable("")
    title.bind(to: label)
    profile.name = "Grace"
    await settle()
    #expect(label.value == "Grace!")
  }

  @Test func aReleasedBridgeStopsTracking() async {
    let profile = Profile()
    var runs = 0
    weak var weakCell: Derived<String>?
    do {
      let cell = Derived(observing: {
        runs += 1
        return profile.name
      })
      weakCell = cell
    }
    #expect(weakCell == nil)
    profile.name = "Grace"
    await settle()
    #expect(runs == 1, "never computed after release")
  }

  @Test func aBranchThatStopsReadingAPropertyStopsDependingOnIt() async {
    let profile = Profile()
    var runs = 0
    let label = Derived(observing: {
      runs += 1
      return profile.name == "Ada" ? "Ada, \(profile.age)" : profile.name
    })
    profile.name = "Grace"
    await settle()
    #expect(label.value == "Grace")
    profile.age = 99
    await settle()
    #expect(runs == 2, "age is no longer read")
    #expect(label.value == "Grace")
  }
}
