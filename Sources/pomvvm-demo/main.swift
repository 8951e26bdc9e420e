import POMVVM

// Replaced by the sample app issue. Until then, the cells at work.
@MainActor
func demo() {
  let name = Observable("Ada")
  let subscription = name.observe { print("name:", $0) }
  name.value = "Grace"
  subscription.cancel()
}
MainActor.assumeIsolated { demo() }
