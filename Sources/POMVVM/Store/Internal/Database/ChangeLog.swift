/// The ids of the rows that the last commits wrote, so that another
/// process finds what changed by looking them up, not by reading every
/// row's version.
///
/// It is the value of the key `changes` in `pomvvm_store`, a blob beside
/// the commit number, on the page every commit writes already: keeping it
/// costs an edit no page. So it is small (``limit(pageSize:)``, under the
/// size at which SQLite would move it to a page of its own), and covers
/// the last commits only: `(since, through]`. A commit whose ids do not fit
/// leaves a log that covers nothing before it.
///
/// A reader may use it if it covers every commit after the last one the
/// reader read, up to the database's commit number: `since` at most the
/// reader's, `through` the commit number. Otherwise (it fell behind, a
/// large commit, a database or a writer of a version without the log) it
/// reads every row's version, as before the log.
///
/// The blob: a format byte (1), then `since` and `through` as unsigned
/// LEB128 numbers, then one group per commit, oldest first: the commit,
/// the number of ids, and each id (a tag byte, then a zigzag LEB128
/// integer, a length and UTF-8 text, 8 bytes of a real, or a length and
/// bytes).
struct _ChangeLog: Equatable {
  /// The log covers the commits after this one...
  var since: Int64
  /// ...through this one.
  var through: Int64
  /// Each commit's group of ids, encoded, oldest first, one after the
  /// other: a commit's write reads, extends and writes them without taking
  /// them apart.
  var body: [UInt8]

  /// The largest blob a database of pages of `pageSize` bytes keeps on
  /// the page of the commit number: 400 bytes (some 45 one-row commits
  /// with integer ids; every commit reads and writes it, so it is kept
  /// small), and below SQLite's largest local payload of an index b-tree's
  /// cell (`pomvvm_store` is `WITHOUT ROWID`), less room for the key and
  /// the record's header.
  static func limit(pageSize: Int) -> Int {
    let maxLocal = (pageSize - 12) * 64 / 255 - 23
    return max(0, min(400, maxLocal - 40))
  }

  /// The size of the blob.
  var size: Int {
    1 + Self.lengthOfNumber(UInt64(bitPattern: since))
      + Self.lengthOfNumber(UInt64(bitPattern: through)) + body.count
  }

  /// Reads a blob; `nil` if it is not one (then readers read every row).
  ///
  /// - Parameters:
  ///   - blob: The blob.
  ///   - checksGroups: Whether to read every group, or only the header. A
  ///     writer, which appends, reads the header only: a group that does
  ///     not read makes ``ids(after:through:skipping:)`` return `nil`, and
  ///     ``append(commit:ids:limit:)`` start the log again when it meets
  ///     it.
  init?(_ blob: [UInt8], checksGroups: Bool = true) {
    var reader = Reader(bytes: blob)
    guard reader.byte() == 1, let since = reader.number(), let through = reader.number() else {
      return nil
    }
    let start = reader.offset
    while checksGroups, !reader.isAtEnd {
      guard reader.skipGroup() != nil else { return nil }
    }
    self.since = Int64(bitPattern: since)
    self.through = Int64(bitPattern: through)
    body = Array(blob[start...])
  }

  init(since: Int64, through: Int64) {
    self.since = since
    self.through = through
    body = []
  }

  /// The blob.
  var encoded: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    bytes.append(1)
    Self.append(UInt64(bitPattern: since), to: &bytes)
    Self.append(UInt64(bitPattern: through), to: &bytes)
    bytes += body
    return bytes
  }

  /// Adds a commit's ids, and drops the oldest commits until the blob is
  /// at most `limit` bytes.
  ///
  /// A log that does not end at the commit before (a writer without the
  /// log committed since) starts again at this commit; a commit whose ids
  /// alone do not fit leaves a log that covers nothing up to it.
  mutating func append(commit: Int64, ids: [_SQLValue], limit: Int) {
    if through != commit - 1 {
      self = _ChangeLog(since: commit - 1, through: commit - 1)
    }
    // Each id takes 2 bytes or more: a reload's thousands are not encoded
    // to be dropped.
    guard ids.count * 2 <= limit else {
      self = _ChangeLog(since: commit, through: commit)
      return
    }
    Self.append(UInt64(bitPattern: commit), to: &body)
    Self.append(UInt64(ids.count), to: &body)
    for id in ids { Self.append(id, to: &body) }
    through = commit
    var excess = size - limit
    guard excess > 0 else { return }
    var reader = Reader(bytes: body)
    while excess > 0 {
      guard let (dropped, length) = reader.skipGroup() else {
        // Bytes that are not a group: start again, covering nothing.
        self = _ChangeLog(since: commit, through: commit)
        return
      }
      since = dropped
      excess -= length
    }
    body.removeFirst(reader.offset)
  }

  /// The ids written by the commits after `cursor` that are not in
  /// `skipping`, once each, in the order they were logged; `nil` if the log
  /// does not cover every commit from `cursor` through `commit`.
  func ids(after cursor: Int64, through commit: Int64, skipping: Set<Int64>) -> [_SQLValue]? {
    guard through == commit, since <= cursor else { return nil }
    var ids: [_SQLValue] = []
    var seen = Set<_SQLValue>()
    var reader = Reader(bytes: body)
    while !reader.isAtEnd {
      guard let group = reader.number(), let count = reader.number() else { return nil }
      let wanted = Int64(bitPattern: group) > cursor && !skipping.contains(Int64(bitPattern: group))
      for _ in 0..<count {
        guard let id = reader.value() else { return nil }
        if wanted, seen.insert(id).inserted { ids.append(id) }
      }
    }
    return ids
  }

  // MARK: - Bytes

  static func lengthOfNumber(_ value: UInt64) -> Int {
    var value = value
    var length = 1
    while value >= 0x80 {
      value >>= 7
      length += 1
    }
    return length
  }

  static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  static func append(_ value: _SQLValue, to bytes: inout [UInt8]) {
    switch value {
    case .null:
      bytes.append(4)
    case .integer(let integer):
      bytes.append(0)
      append(UInt64(bitPattern: (integer << 1) ^ (integer >> 63)), to: &bytes)
    case .text(let text):
      bytes.append(1)
      append(UInt64(text.utf8.count), to: &bytes)
      bytes += text.utf8
    case .real(let real):
      bytes.append(2)
      withUnsafeBytes(of: real.bitPattern.littleEndian) { bytes += $0 }
    case .blob(let blob):
      bytes.append(3)
      append(UInt64(blob.count), to: &bytes)
      bytes += blob
    }
  }

  /// Reads the blob's parts; each read returns `nil` past the end or at a
  /// malformed part.
  struct Reader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8? {
      guard offset < bytes.count else { return nil }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func number() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while let byte = byte() {
        guard shift < 64 else { return nil }
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }

    mutating func bytes(_ count: UInt64) -> ArraySlice<UInt8>? {
      guard count <= UInt64(bytes.count - offset) else { return nil }
      defer { offset += Int(count) }
      return bytes[offset..<offset + Int(count)]
    }

    /// Passes over one commit's group; returns its commit and length.
    mutating func skipGroup() -> (commit: Int64, length: Int)? {
      let start = offset
      guard let commit = number(), let count = number(), count <= UInt64(bytes.count) else {
        return nil
      }
      for _ in 0..<count {
        switch byte() {
        case 0: guard number() != nil else { return nil }
        case 1, 3: guard let length = number(), bytes(length) != nil else { return nil }
        case 2: guard bytes(8) != nil else { return nil }
        case 4: break
        default: return nil
        }
      }
      return (Int64(bitPattern: commit), offset - start)
    }

    mutating func value() -> _SQLValue? {
      switch byte() {
      case 0:
        guard let number = number() else { return nil }
        return .integer(Int64(bitPattern: number >> 1) ^ -Int64(bitPattern: number & 1))
      case 1:
        guard let length = number(), let text = bytes(length) else { return nil }
        return .text(String(decoding: text, as: UTF8.self))
      case 2:
        guard let raw = bytes(8) else { return nil }
        var bits: UInt64 = 0
        for (index, byte) in raw.enumerated() { bits |= UInt64(byte) << (8 * UInt64(index)) }
        return .real(Double(bitPattern: bits))
      case 3:
        guard let length = number(), let blob = bytes(length) else { return nil }
        return .blob(Array(blob))
      case 4:
        return .null
      default:
        return nil
      }
    }
  }
}
