import CSQLite

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

  /// Decodes a column's value.
  ///
  /// - Parameters:
  ///   - type: The field's type.
  ///   - value: The column's value.
  ///   - codingPath: The field's path, for errors.
  ///   - unknownField: Called with the path (such as `.color` or
  ///     `[0].color`) of the first field of a nested value, stored as JSON,
  ///     that decoding it and encoding it again does not write: a field the
  ///     type does not know, which a save would lose. Checking costs a
  ///     decode and an encode of the nested value; without it, none.
  /// - Returns: The value.
  /// - Throws: `DecodingError` if the value is not one of `type`.
  static func decode<T: Decodable>(
    _ type: T.Type, from value: _SQLValue, codingPath: [any CodingKey],
    unknownField: ((String) -> Void)? = nil
  )
    throws -> T
  {
    // The common scalars directly: the same results as their `init(from:)`
    // through `_ScalarDecoder`, without its existential containers (opening
    // a store decodes every row's id and dates this way). The casts are
    // reinterpretations: the type is the same.
    switch value {
    case .integer(let integer):
      if T.self == Int.self { return unsafeBitCast(Int(truncatingIfNeeded: integer), to: T.self) }
      if T.self == Int64.self { return unsafeBitCast(integer, to: T.self) }
    case .text(let text):
      if T.self == String.self { return unsafeBitCast(text, to: T.self) }
    case .real(let real):
      if T.self == Date.self {
        return unsafeBitCast(Date(timeIntervalSinceReferenceDate: real), to: T.self)
      }
      if T.self == Double.self { return unsafeBitCast(real, to: T.self) }
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
      let data = Data(text.utf8)
      let decoded: T
      do {
        decoded = try JSONDecoder().decode(T.self, from: data)
      } catch let error as DecodingError {
        throw error.prefixed(by: codingPath)
      }
      if let unknownField, let field = firstUnknownField(of: decoded, in: data) {
        unknownField(field.hasPrefix("[") ? field : "." + field)
      }
      return decoded
    }
  }

  /// The first field of the JSON `data` that encoding `value` (decoded
  /// from it) again does not write, such as `color` or `[0].color`.
  static func firstUnknownField<T>(of value: T, in data: Data) -> String? {
    guard let value = value as? any Encodable,
      let stored = try? JSONDecoder().decode(_JSONShape.self, from: data),
      let encoded = try? JSONEncoder().encode(value),
      let written = try? JSONDecoder().decode(_JSONShape.self, from: encoded)
    else { return nil }
    return stored.firstField(missingFrom: written)
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
///
/// Opening a store runs it for every row, in code that is generic over
/// the element (not specialized for it): the common scalars are read
/// straight from SQLite's columns, without an enum value, a dynamic cast
/// or a generic integer conversion, and the marks of the columns read are
/// numbers in a buffer, not flags to reset per row.
final class _RowDecoder: Decoder {
  let layout: _RowLayout
  /// The statement's handle: read without going through the layout.
  let handle: OpaquePointer
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]
  /// For each column, the number of the last row that read it (`0`:
  /// none): the row being decoded read it if it holds ``row``.
  private let marks: UnsafeMutablePointer<Int>
  private let columnCount: Int
  /// The number of the row being decoded, from 1.
  private(set) var row = 0
  /// The element fields' columns, in the statement's order.
  private let fieldIndices: [Int32]
  /// The first field of a nested value (a column's JSON) that the element
  /// type does not know, as a path such as `meta.color`, in the row being
  /// decoded.
  var unknownNestedField: String?
  /// The fields the last row looked up, in the order it looked them up,
  /// and their columns: the next row of the type looks them up in the same
  /// order, so comparing a name replaces hashing it.
  private var lookups: [(name: String, index: Int32?)] = []
  /// The row's next lookup in `lookups`.
  private var lookup = 0

  init(layout: _RowLayout) {
    self.layout = layout
    handle = layout.statement.handle
    columnCount = Int(layout.statement.columnCount)
    marks = .allocate(capacity: max(columnCount, 1))
    marks.initialize(repeating: 0, count: max(columnCount, 1))
    fieldIndices = layout.fieldColumns.map(\.index)
  }

  deinit {
    marks.deallocate()
  }

  /// Whether the row being decoded read a column.
  func read(_ index: Int32) -> Bool {
    marks[Int(index)] == row
  }

  /// Whether any row decoded so far read a column.
  func everRead(_ index: Int32) -> Bool {
    marks[Int(index)] != 0
  }

  /// Marks a column as read by the row being decoded.
  @inline(__always)
  func mark(_ index: Int32) {
    marks[Int(index)] = row
  }

  /// The column of a field, if the table has one.
  func index(of name: String) -> Int32? {
    defer { lookup &+= 1 }
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
  ///   element did not read (a field its type does not know), if any — a
  ///   top-level column, or a path into a nested value.
  func decode<Element: Decodable>(_ type: Element.Type) throws -> (
    element: Element, unknownField: String?
  ) {
    row &+= 1
    lookup = 0
    unknownNestedField = nil
    let element = try Element(from: self)
    for (position, index) in fieldIndices.enumerated()
    where marks[Int(index)] != row && sqlite3_column_type(handle, index) != SQLITE_NULL {
      return (element, layout.fieldColumns[position].name)
    }
    return (element, unknownNestedField)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Container<Key>(decoder: self, handle: handle))
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
    let handle: OpaquePointer
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
      decoder.layout.fieldColumns.compactMap { name, index in
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : Key(stringValue: name)
      }
    }

    private func type(at index: Int32) -> Int32 {
      sqlite3_column_type(handle, index)
    }

    private var statement: _SQLiteStatement { decoder.layout.statement }

    func contains(_ key: Key) -> Bool {
      guard let index = decoder.index(of: key.stringValue) else { return false }
      return type(at: index) != SQLITE_NULL
    }

    /// The column of a field, marked as read, and the type of its value;
    /// throws if there is none or it is NULL.
    private func column(_ key: Key, _ type: Any.Type) throws -> (index: Int32, type: Int32) {
      guard let index = decoder.index(of: key.stringValue) else {
        throw DecodingError.keyNotFound(
          key, DecodingError.Context(codingPath: [key], debugDescription: "no such field"))
      }
      decoder.mark(index)
      let kind = self.type(at: index)
      guard kind != SQLITE_NULL else {
        throw DecodingError.valueNotFound(
          type, DecodingError.Context(codingPath: [key], debugDescription: "it is NULL"))
      }
      return (index, kind)
    }

    /// The column of a field that may be missing or NULL (`nil`), marked
    /// as read.
    private func presentColumn(_ key: Key) -> (index: Int32, type: Int32)? {
      guard let index = decoder.index(of: key.stringValue) else { return nil }
      decoder.mark(index)
      let kind = type(at: index)
      return kind == SQLITE_NULL ? nil : (index, kind)
    }

    private func mismatch(_ key: Key, _ type: Any.Type, at index: Int32, _ expected: String)
      -> DecodingError
    {
      .typeMismatch(
        type,
        DecodingError.Context(
          codingPath: [key],
          debugDescription: "it holds \(statement.value(at: index).kindName), not \(expected)"))
    }

    func decodeNil(forKey key: Key) throws -> Bool {
      guard let index = decoder.index(of: key.stringValue) else { return true }
      return type(at: index) == SQLITE_NULL
    }

    // MARK: Scalars, read from the column

    private func int64(_ key: Key, _ type: Any.Type, _ column: (index: Int32, type: Int32))
      throws -> Int64
    {
      guard column.type == SQLITE_INTEGER else {
        throw mismatch(key, type, at: column.index, "an integer")
      }
      return sqlite3_column_int64(handle, column.index)
    }

    private func integer<T: FixedWidthInteger>(_ key: Key, _ type: T.Type) throws -> T {
      let integer = try int64(key, type, column(key, type))
      guard let result = T(exactly: integer) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: [key], debugDescription: "\(integer) does not fit in \(type)"))
      }
      return result
    }

    private func string(_ key: Key, _ column: (index: Int32, type: Int32)) throws -> String {
      guard column.type == SQLITE_TEXT else {
        throw mismatch(key, String.self, at: column.index, "text")
      }
      // From the handle: not through the layout's statement, which would
      // retain it per field.
      guard let bytes = sqlite3_column_text(handle, column.index) else { return "" }
      let count = Int(sqlite3_column_bytes(handle, column.index))
      return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private func double(_ key: Key, _ type: Any.Type, _ column: (index: Int32, type: Int32))
      throws -> Double
    {
      switch column.type {
      case SQLITE_FLOAT: return sqlite3_column_double(handle, column.index)
      case SQLITE_INTEGER: return Double(sqlite3_column_int64(handle, column.index))
      default: throw mismatch(key, type, at: column.index, "a number")
      }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try int64(key, type, column(key, type)) != 0
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try string(key, column(key, type))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try double(key, type, column(key, type))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      Float(try decode(Double.self, forKey: key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      // Int is 64 bits wide on every platform Swift 6 supports for this.
      Int(truncatingIfNeeded: try int64(key, type, column(key, type)))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key, type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key, type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key, type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      try int64(key, type, column(key, type))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key, type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key, type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key, type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key, type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key, type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try value(type, key, column(key, type))
    }

    /// A field's value of any type, from its column (not NULL).
    private func value<T: Decodable>(
      _ type: T.Type, _ key: Key, _ column: (index: Int32, type: Int32)
    ) throws -> T {
      // The common scalars straight from the column; the cast is a
      // reinterpretation, the type being the same.
      if T.self == String.self { return unsafeBitCast(try string(key, column), to: T.self) }
      if T.self == Int.self {
        return unsafeBitCast(
          Int(truncatingIfNeeded: try int64(key, Int.self, column)), to: T.self)
      }
      if T.self == Bool.self { return unsafeBitCast(try int64(key, type, column) != 0, to: T.self) }
      if T.self == Double.self { return unsafeBitCast(try double(key, type, column), to: T.self) }
      if T.self == Date.self, column.type == SQLITE_FLOAT {
        return unsafeBitCast(
          Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, column.index)),
          to: T.self)
      }
      // A nested value is JSON text: its fields that the type does not
      // know would be lost by a save.
      let decoder = decoder
      return try _ColumnValue.decode(
        type, from: statement.value(at: column.index), codingPath: [key],
        unknownField: { field in
          if decoder.unknownNestedField == nil {
            decoder.unknownNestedField = key.stringValue + field
          }
        })
    }

    // MARK: Optional fields: one look-up, not three

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
      guard let column = presentColumn(key) else { return nil }
      return try int64(key, type, column) != 0
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      guard let column = presentColumn(key) else { return nil }
      return try string(key, column)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      guard let column = presentColumn(key) else { return nil }
      return try double(key, type, column)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
      guard let column = presentColumn(key) else { return nil }
      return Int(truncatingIfNeeded: try int64(key, type, column))
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
      guard let column = presentColumn(key) else { return nil }
      return try int64(key, type, column)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      guard let column = presentColumn(key) else { return nil }
      return try value(type, key, column)
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
