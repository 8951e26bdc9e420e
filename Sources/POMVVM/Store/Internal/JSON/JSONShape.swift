/// The shape of a JSON value — its objects' keys, its arrays' elements —
/// without its scalars: what a store compares to find the fields of a file
/// that its element type does not know.
enum _JSONShape: Decodable, Equatable {
  case object([String: _JSONShape])
  case array([_JSONShape])
  case null
  case scalar

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let object = try? container.decode([String: _JSONShape].self) {
      self = .object(object)
    } else if let array = try? container.decode([_JSONShape].self) {
      self = .array(array)
    } else {
      self = .scalar
    }
  }

  /// The path of the first field that `self` holds and `other` lacks, such
  /// as `done` or `meta.color`; `nil` if there is none.
  ///
  /// A field whose value is `null` holds nothing to lose.
  func firstField(missingFrom other: _JSONShape) -> String? {
    switch (self, other) {
    case (.object(let fields), .object(let otherFields)):
      for key in fields.keys.sorted() {
        guard let value = fields[key], value != .null else { continue }
        guard let otherValue = otherFields[key] else { return key }
        if let inner = value.firstField(missingFrom: otherValue) {
          return "\(key).\(inner)"
        }
      }
      return nil
    case (.array(let elements), .array(let otherElements)):
      for (index, (element, otherElement)) in zip(elements, otherElements).enumerated() {
        if let inner = element.firstField(missingFrom: otherElement) {
          return "[\(index)].\(inner)"
        }
      }
      return nil
    default:
      return nil
    }
  }
}
