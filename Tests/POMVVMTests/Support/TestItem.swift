/// An identifiable value with fields that look alike across elements.
struct TestItem: Identifiable, Equatable, CustomStringConvertible {
  var id: Int
  var text: String
  var on: Bool

  init(_ id: Int, _ text: String = "x", on: Bool = false) {
    self.id = id
    self.text = text
    self.on = on
  }

  var description: String { "\(id):\(text)\(on ? "+" : "-")" }
}
