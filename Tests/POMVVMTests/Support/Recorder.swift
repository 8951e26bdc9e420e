import POMVVM
import TestSupport

/// An object whose lifetime the tests watch through weak references.
final class Probe {
  var count = 0
}

/// A value that is not `Equatable`: cells of it notify on every set.
struct Opaque {
  var number: Int
}

/// A tagged history entry, for observers whose order matters.
struct Seen: Equatable, CustomStringConvertible {
  var observer: String
  var value: Int

  init(_ observer: String, _ value: Int) {
    self.observer = observer
    self.value = value
  }

  var description: String { "\(observer):\(value)" }
}
