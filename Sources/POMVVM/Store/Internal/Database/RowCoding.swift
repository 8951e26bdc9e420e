#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// An element is stored as one row: each top-level field of its keyed
// container is a column. A field whose value is one scalar (a number, a
// string, a Boolean, or a type that encodes as one, such as `Date` or
// `UUID`) is stored as that SQLite value; any other (an array, a nested
// struct) as its JSON text. A missing or `nil` field is NULL. Decoding
// reads the columns directly: no JSON round trip for scalar fields.

/// Thrown by the scalar coders when a value needs a container: it is
/// stored as JSON instead.
struct _NeedsJSON: Error {}

/// A column's value for a field: scalars as themselves, anything else as
/// JSON text.
enum _ColumnValue {
  static func encode<T: Encodable>(_ value: T) throws -> _SQLValue {
    switch value {
    case let value as String: return .text(value)
    case let value as Int: return .integer(Int64(value))
    case let value as Bool: return .integer(value ? 1 : 0)
    case let value as Double: return .real(value)
    case let value as Int64: return .integer(value)
    default: break
    }
    let probe = _ScalarEncoder()
    do {
      try value.encode(to: probe)
      if let scalar = probe.scalar, !probe.usedContainer { return scalar }
    } catch is _NeedsJSON {
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return .text(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  static func decode<T: Decodable>(
    _ type: T.Type, from value: _SQLValue, codingPath: [any CodingKey]
  )
    throws -> T
  {
    // The common scalars directly: the same results as their `init(from:)`
    // through `_ScalarDecoder`, without its existential containers (opening
    // a store decodes every row's id and dates this way).
    switch value {
    case .integer(let integer):
      if T.self == Int.self, let result = Int(exactly: integer) as? T { return result }
      if T.self == Int64.self, let result = integer as? T { return result }
    case .text(let text):
      if T.self == String.self, let result = text as? T { return result }
    case .real(let real):
      if T.self == Date.self, let result = Date(timeIntervalSinceReferenceDate: real) as? T {
        return result
      }
      if T.self == Double.self, let result = real as? T { return result }
    default: break
    }
    do {
      return try T(from: _ScalarDecoder(value: value, codingPath: codingPath))
    } catch is _NeedsJSON {
      guard case .text(let text) = value else {
        throw DecodingError.typeMismatch(
          T.self,
          DecodingError.Context(
            codingPath: codingPath, debugDescription: "it holds \(value.kindName), not JSON text"))
      }
      do {
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
      } catch let error as DecodingError {
        throw error.prefixed(by: codingPath)
      }
    }
  }
}

extension _SQLValue {
  /// What the value is, as messages name it.
  var kindName: String {
    switch self {
    case .null: "NULL"
    case .integer: "an integer"
    case .real: "a real number"
    case .text: "text"
    case .blob: "a blob"
    }
  }
}

extension DecodingError {
  /// The same error, its coding path behind `prefix`.
  func prefixed(by prefix: [any CodingKey]) -> DecodingError {
    func moved(_ context: Context) -> Context {
      Context(
        codingPath: prefix + context.codingPath, debugDescription: context.debugDescription,
        underlyingError: context.underlyingError)
    }
    switch self {
    case .typeMismatch(let type, let context): return .typeMismatch(type, moved(context))
    case .valueNotFound(let type, let context): return .valueNotFound(type, moved(context))
    case .keyNotFound(let key, let context): return .keyNotFound(key, moved(context))
    case .dataCorrupted(let context): return .dataCorrupted(moved(context))
    @unknown default: return self
    }
  }
}

// MARK: - Encoding a row

/// Encodes an element as the columns of its row.
final class _RowEncoder: Encoder {
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]
  /// The fields, in the order the element encoded them.
  var fields: [(name: String, value: _SQLValue)] = []
  private var isKeyed = false

  /// The columns of an element's row.
  ///
  /// - Throws: `EncodingError` if the element does not encode as a keyed
  ///   container (a struct's fields), or a field does not encode.
  static func columns<Element: Encodable>(of element: Element) throws -> [(
    name: String, value: _SQLValue
  )] {
    let encoder = _RowEncoder()
    try element.encode(to: encoder)
    guard encoder.isKeyed else {
      throw EncodingError.invalidValue(
        element,
        EncodingError.Context(
          codingPath: [],
          debugDescription:
            "a database store keeps elements that encode their fields in a keyed container "
            + "(as a struct's synthesized Codable does)"))
    }
    return encoder.fields
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    isKeyed = true
    return KeyedEncodingContainer(Container<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    _RefusingEncodingContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _RefusingEncodingContainer(codingPath: codingPath)
  }

  func set(_ value: _SQLValue, for key: String) {
    if let index = fields.firstIndex(where: { $0.name == key }) {
      fields[index].value = value
    } else {
      fields.append((key, value))
    }
  }

  struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _RowEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      encoder.set(.integer(value ? 1 : 0), for: key.stringValue)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      encoder.set(.text(value), for: key.stringValue)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      encoder.set(.real(value), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
      encoder.set(.real(Double(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
      encoder.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
      encoder.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
      encoder.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
      encoder.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
      encoder.set(.integer(value), for: key.stringValue)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
      try encoder.set(_ScalarEncoder.unsigned(value, codingPath: [key]), for: key.stringValue)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
      encoder.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
      encoder.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
      encoder.set(.integer(Int64(value)), for: key.stringValue)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
      try encoder.set(_ScalarEncoder.unsigned(value, codingPath: [key]), for: key.stringValue)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      encoder.set(try _ColumnValue.encode(value), for: key.stringValue)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(_RefusingEncodingContainer.Keyed<NestedKey>(codingPath: [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      _RefusingEncodingContainer(codingPath: [key])
    }
    mutating func superEncoder() -> any Encoder { _ScalarEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { _ScalarEncoder() }
  }
}

/// Encodes a field's value that is one scalar, which it keeps in
/// ``scalar``.
///
/// A value that asks for a container is stored as JSON instead.
final class _ScalarEncoder: Encoder, SingleValueEncodingContainer {
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]
  var scalar: _SQLValue?
  var usedContainer = false

  static func unsigned<T: BinaryInteger>(_ value: T, codingPath: [any CodingKey]) throws
    -> _SQLValue
  {
    guard let value = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath, debugDescription: "\(value) is too large for SQLite's integers"))
    }
    return .integer(value)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    usedContainer = true
    return KeyedEncodingContainer(_RefusingEncodingContainer.Keyed<Key>(codingPath: codingPath))
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    usedContainer = true
    return _RefusingEncodingContainer(codingPath: codingPath)
  }
  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { scalar = .null }
  func encode(_ value: Bool) throws { scalar = .integer(value ? 1 : 0) }
  func encode(_ value: String) throws { scalar = .text(value) }
  func encode(_ value: Double) throws { scalar = .real(value) }
  func encode(_ value: Float) throws { scalar = .real(Double(value)) }
  func encode(_ value: Int) throws { scalar = .integer(Int64(value)) }
  func encode(_ value: Int8) throws { scalar = .integer(Int64(value)) }
  func encode(_ value: Int16) throws { scalar = .integer(Int64(value)) }
  func encode(_ value: Int32) throws { scalar = .integer(Int64(value)) }
  func encode(_ value: Int64) throws { scalar = .integer(value) }
  func encode(_ value: UInt) throws { scalar = try Self.unsigned(value, codingPath: codingPath) }
  func encode(_ value: UInt8) throws { scalar = .integer(Int64(value)) }
  func encode(_ value: UInt16) throws { scalar = .integer(Int64(value)) }
  func encode(_ value: UInt32) throws { scalar = .integer(Int64(value)) }
  func encode(_ value: UInt64) throws { scalar = try Self.unsigned(value, codingPath: codingPath) }
  func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

/// A container that throws ``_NeedsJSON`` at the first value: what a
/// field's value gets when it asks for a container, so that it is stored
/// as JSON; and what a row's element gets when it is not keyed.
struct _RefusingEncodingContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
  var codingPath: [any CodingKey]
  var count: Int { 0 }

  mutating func encodeNil() throws { throw _NeedsJSON() }
  mutating func encode<T: Encodable>(_ value: T) throws { throw _NeedsJSON() }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(Keyed<NestedKey>(codingPath: codingPath))
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
  mutating func superEncoder() -> any Encoder { _ScalarEncoder() }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey]
    mutating func encodeNil(forKey key: Key) throws { throw _NeedsJSON() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw _NeedsJSON() }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(Keyed<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      _RefusingEncodingContainer(codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder { _ScalarEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { _ScalarEncoder() }
  }
}

// MARK: - Decoding a row

/// The columns of a query's rows, by name: shared by the decoders of
/// every row it returns.
final class _RowLayout {
  let statement: _SQLiteStatement
  /// Element fields by name, and their column index.
  let columns: [String: Int32]
  /// The element fields' columns, in the statement's order.
  let fieldColumns: [(name: String, index: Int32)]

  /// - Parameters:
  ///   - statement: The query.
  ///   - reserved: Columns that are the store's, not the element's.
  init(_ statement: _SQLiteStatement, reserved: Set<String>) {
    self.statement = statement
    var columns: [String: Int32] = [:]
    var fieldColumns: [(String, Int32)] = []
    for index in 0..<statement.columnCount {
      let name = statement.columnName(at: index)
      guard !reserved.contains(name) else { continue }
      columns[name] = index
      fieldColumns.append((name, index))
    }
    self.columns = columns
    self.fieldColumns = fieldColumns
  }
}

/// Decodes an element from the current row of a statement, reading its
/// columns directly, and notes which columns it read.
final class _RowDecoder: Decoder {
  let layout: _RowLayout
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]
  /// The columns the element read, by index; reset for every row.
  var read: [Bool]
  /// The fields the last row looked up, in the order it looked them up,
  /// and their columns: the next row of the type looks them up in the same
  /// order, so comparing a name replaces hashing it.
  private var lookups: [(name: String, index: Int32?)] = []
  /// The row's next lookup in `lookups`.
  private var lookup = 0

  init(layout: _RowLayout) {
    self.layout = layout
    read = Array(repeating: false, count: Int(layout.statement.columnCount))
  }

  /// The column of a field, if the table has one.
  func index(of name: String) -> Int32? {
    defer { lookup += 1 }
    if lookup < lookups.count {
      if lookups[lookup].name == name { return lookups[lookup].index }
      let index = layout.columns[name]
      lookups[lookup] = (name, index)
      return index
    }
    let index = layout.columns[name]
    lookups.append((name, index))
    return index
  }

  /// Decodes the element of the current row.
  ///
  /// - Returns: The element, and the first field that holds a value the
  ///   element did not read (a field its type does not know), if any.
  func decode<Element: Decodable>(_ type: Element.Type) throws -> (
    element: Element, unknownField: String?
  ) {
    for index in read.indices { read[index] = false }
    lookup = 0
    let element = try Element(from: self)
    var unknown: String?
    for (name, index) in layout.fieldColumns
    where !read[Int(index)] && !layout.statement.isNull(at: index) {
      unknown = name
      break
    }
    return (element, unknown)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Container<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      DecodingError.Context(
        codingPath: [], debugDescription: "a database store's element is a row of fields"))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw DecodingError.typeMismatch(
      Any.self,
      DecodingError.Context(
        codingPath: [], debugDescription: "a database store's element is a row of fields"))
  }

  struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: _RowDecoder
    var codingPath: [any CodingKey] { [] }
    private var statement: _SQLiteStatement { decoder.layout.statement }

    var allKeys: [Key] {
      decoder.layout.fieldColumns.compactMap { name, index in
        statement.isNull(at: index) ? nil : Key(stringValue: name)
      }
    }

    func contains(_ key: Key) -> Bool {
      guard let index = decoder.index(of: key.stringValue) else { return false }
      return !statement.isNull(at: index)
    }

    /// The column of a field, marked as read; throws if there is none or
    /// it is NULL.
    private func column(_ key: Key, _ type: Any.Type) throws -> Int32 {
      guard let index = decoder.index(of: key.stringValue) else {
        throw DecodingError.keyNotFound(
          key, DecodingError.Context(codingPath: [key], debugDescription: "no such field"))
      }
      decoder.read[Int(index)] = true
      guard !statement.isNull(at: index) else {
        throw DecodingError.valueNotFound(
          type, DecodingError.Context(codingPath: [key], debugDescription: "it is NULL"))
      }
      return index
    }

    func decodeNil(forKey key: Key) throws -> Bool {
      guard let index = decoder.index(of: key.stringValue) else { return true }
      return statement.isNull(at: index)
    }

    private func integer<T: FixedWidthInteger>(_ key: Key, _ type: T.Type) throws -> T {
      let index = try column(key, type)
      let value = statement.value(at: index)
      guard case .integer(let integer) = value else {
        throw DecodingError.typeMismatch(
          type,
          DecodingError.Context(
            codingPath: [key], debugDescription: "it holds \(value.kindName), not an integer"))
      }
      guard let result = T(exactly: integer) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: [key], debugDescription: "\(integer) does not fit in \(type)"))
      }
      return result
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try integer(key, Int64.self) != 0
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      let index = try column(key, type)
      let value = statement.value(at: index)
      guard case .text(let text) = value else {
        throw DecodingError.typeMismatch(
          type,
          DecodingError.Context(
            codingPath: [key], debugDescription: "it holds \(value.kindName), not text"))
      }
      return text
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      let index = try column(key, type)
      switch statement.value(at: index) {
      case .real(let value): return value
      case .integer(let value): return Double(value)
      case let value:
        throw DecodingError.typeMismatch(
          type,
          DecodingError.Context(
            codingPath: [key], debugDescription: "it holds \(value.kindName), not a number"))
      }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      Float(try decode(Double.self, forKey: key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key, type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key, type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key, type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key, type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key, type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key, type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key, type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key, type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key, type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key, type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      if type == String.self, let value = try decode(String.self, forKey: key) as? T {
        return value
      }
      if type == Int.self, let value = try decode(Int.self, forKey: key) as? T { return value }
      if type == Bool.self, let value = try decode(Bool.self, forKey: key) as? T { return value }
      if type == Double.self, let value = try decode(Double.self, forKey: key) as? T {
        return value
      }
      let index = try column(key, type)
      return try _ColumnValue.decode(type, from: statement.value(at: index), codingPath: [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    {
      throw DecodingError.typeMismatch(
        type,
        DecodingError.Context(
          codingPath: [key],
          debugDescription: "a database store reads nested values as Decodable fields"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw DecodingError.typeMismatch(
        [Any].self,
        DecodingError.Context(
          codingPath: [key],
          debugDescription: "a database store reads nested values as Decodable fields"))
    }

    func superDecoder() throws -> any Decoder {
      throw DecodingError.typeMismatch(
        Any.self,
        DecodingError.Context(
          codingPath: [], debugDescription: "a database store's element has no super decoder"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder() }
  }
}

/// Decodes a value that is one scalar from a column's value; a value that
/// asks for a container throws ``_NeedsJSON``, and is read as JSON text.
struct _ScalarDecoder: Decoder, SingleValueDecodingContainer {
  let value: _SQLValue
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw _NeedsJSON()
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw _NeedsJSON() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
    if value == .null {
      return .valueNotFound(
        type, DecodingError.Context(codingPath: codingPath, debugDescription: "it is NULL"))
    }
    return .typeMismatch(
      type,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "it holds \(value.kindName), not \(expected)"))
  }

  private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard case .integer(let integer) = value else { throw mismatch(type, "an integer") }
    guard let result = T(exactly: integer) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "\(integer) does not fit in \(type)"))
    }
    return result
  }

  func decodeNil() -> Bool { value == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try integer(Int64.self) != 0 }
  func decode(_ type: String.Type) throws -> String {
    guard case .text(let text) = value else { throw mismatch(type, "text") }
    return text
  }
  func decode(_ type: Double.Type) throws -> Double {
    switch value {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: throw mismatch(type, "a number")
    }
  }
  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
  func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}
