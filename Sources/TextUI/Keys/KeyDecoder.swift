/// Turns the bytes a terminal sends in raw mode into ``Key``s.
///
/// A single read can hold several keys (fast typing, a paste, a key repeat),
/// and one key can be split across reads (an arrow key's escape sequence, a
/// multi-byte UTF-8 character). The decoder keeps an incomplete tail for the
/// next read:
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.decode(Array("jk\u{1B}[".utf8))   // [.character("j"), .character("k")]
/// decoder.decode(Array("A".utf8))            // [.up]
/// ```
///
/// ## The Escape key
///
/// The Escape key sends the byte that also starts every escape sequence, so
/// a lone `ESC` is ambiguous only while it is the last byte read so far:
///
/// - `ESC` followed by `[` or `O` starts a sequence (an arrow key, Home, …);
/// - `ESC` followed by any other byte is the Escape key, then that byte's
///   key (so Escape then `q`, typed quickly, is two keys);
/// - `ESC`, or an unfinished sequence, at the end of a read waits for the
///   next read. ``isAwaitingMore`` is then `true`: the caller waits a short
///   time for more input (``FullScreenSession`` waits 50 ms) and calls
///   ``flush()`` if none came, which reports the Escape key. Terminals send
///   a whole sequence in one write, so its bytes arrive well within that
///   time, while a person cannot type `[` 50 ms after Escape by accident.
public struct KeyDecoder: Sendable {
  /// The bytes of an unfinished escape sequence or UTF-8 character.
  private var pending: [UInt8] = []
  /// Whether the last byte was a carriage return, so that a line feed right
  /// after it (a pasted CR LF) is not a second Enter.
  private var afterCarriageReturn = false

  /// The longest escape sequence the decoder waits for; longer ones are
  /// reported as ``Key/unknown(_:)``.
  static let maximumSequenceLength = 32

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether the last read ended inside an escape sequence or a UTF-8
  /// character: the caller should read again soon, and call ``flush()`` if
  /// nothing arrives.
  public var isAwaitingMore: Bool { !pending.isEmpty }

  /// Decodes the bytes of one read, together with any tail left over from
  /// the previous read.
  ///
  /// - Parameter bytes: The bytes the terminal sent.
  /// - Returns: The keys, in order; an unfinished tail is kept for the next
  ///   call.
  /// - Complexity: O(*n*) in the number of bytes.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    let input = pending + bytes
    pending = []
    return decode(input, isFinal: false)
  }

  /// Ends the wait for the rest of an unfinished tail: a lone `ESC` is the
  /// Escape key, the bytes after it are keys of their own, and an unfinished
  /// UTF-8 character is a replacement character.
  ///
  /// - Returns: The keys of the pending tail; empty if nothing was pending.
  public mutating func flush() -> [Key] {
    let input = pending
    pending = []
    return decode(input, isFinal: true)
  }

  private mutating func decode(_ input: [UInt8], isFinal: Bool) -> [Key] {
    var keys: [Key] = []
    var text = String.UnicodeScalarView()
    func emit(_ key: Key) {
      if !text.isEmpty {
        keys += String(text).map(Key.character)
        text = String.UnicodeScalarView()
      }
      keys.append(key)
    }

    var index = 0
    while index < input.count {
      let byte = input[index]
      let wasAfterCarriageReturn = afterCarriageReturn
      afterCarriageReturn = byte == 0x0D
      switch byte {
      case 0x1B:
        switch escapeSequence(in: input, at: index, isFinal: isFinal) {
        case .incomplete:
          pending = Array(input[index...])
          index = input.count
        case .key(let key, let length):
          emit(key)
          index += length
        }
        continue
      case 0x0D:
        emit(.enter)
      case 0x0A:
        if !wasAfterCarriageReturn { emit(.enter) }
      case 0x09:
        emit(.tab)
      case 0x08, 0x7F:
        emit(.backspace)
      case 0x03:
        emit(.interrupt)
      case 0x00..<0x20:
        emit(.control(Character(Unicode.Scalar(byte + 0x40)).lowercased().first ?? "@"))
      case 0x20..<0x80:
        text.append(Unicode.Scalar(byte))
      default:
        switch utf8Scalar(in: input, at: index, isFinal: isFinal) {
        case .incomplete:
          pending = Array(input[index...])
          index = input.count
        case .scalar(let scalar, let length):
          text.append(scalar)
          index += length
        }
        continue
      }
      index += 1
    }
    if !text.isEmpty {
      keys += String(text).map(Key.character)
    }
    return keys
  }

  private enum DecodedSequence {
    case incomplete
    case key(Key, length: Int)
  }

  /// The key of the escape sequence that starts at `start` (an `ESC` byte).
  private func escapeSequence(in input: [UInt8], at start: Int, isFinal: Bool) -> DecodedSequence {
    guard start + 1 < input.count else {
      return isFinal ? .key(.escape, length: 1) : .incomplete
    }
    let introducer = input[start + 1]
    if introducer == UInt8(ascii: "O") {
      guard start + 2 < input.count else {
        return isFinal ? .key(.escape, length: 1) : .incomplete
      }
      let final = input[start + 2]
      let key =
        Self.ss3Keys[final]
        ?? .unknown(String(decoding: input[start + 1...start + 2], as: UTF8.self))
      return .key(key, length: 3)
    }
    guard introducer == UInt8(ascii: "[") else {
      // ESC then another key: the Escape key alone.
      return .key(.escape, length: 1)
    }
    // CSI: parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, one
    // final byte 0x40-0x7E.
    var end = start + 2
    while end < input.count, (0x20...0x3F).contains(input[end]) {
      end += 1
    }
    guard end < input.count else {
      if isFinal { return .key(.escape, length: 1) }
      if end - start >= Self.maximumSequenceLength {
        return .key(
          .unknown(String(decoding: input[start + 1..<end], as: UTF8.self)), length: end - start)
      }
      return .incomplete
    }
    let final = input[end]
    let body = input[start + 2..<end]
    guard (0x40...0x7E).contains(final) else {
      // Not a valid sequence: drop what was read of it.
      return .key(
        .unknown(String(decoding: input[start + 1..<end], as: UTF8.self)), length: end - start)
    }
    let parameters = String(decoding: body, as: UTF8.self).split(separator: ";")
    let key: Key?
    if final == UInt8(ascii: "~") {
      key = parameters.first.flatMap { Int($0) }.flatMap { Self.tildeKeys[$0] }
    } else {
      key = Self.csiKeys[final]
    }
    let sequence = String(decoding: input[start + 1...end], as: UTF8.self)
    return .key(key ?? .unknown(sequence), length: end + 1 - start)
  }

  private enum DecodedScalar {
    case incomplete
    case scalar(Unicode.Scalar, length: Int)
  }

  /// The scalar of the UTF-8 sequence that starts at `start`; an invalid
  /// byte is a replacement character.
  private func utf8Scalar(in input: [UInt8], at start: Int, isFinal: Bool) -> DecodedScalar {
    let lead = input[start]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .scalar("\u{FFFD}", length: 1)
    }
    var end = start + 1
    while end < start + length, end < input.count, (0x80...0xBF).contains(input[end]) {
      end += 1
    }
    if end < start + length {
      if end == input.count && !isFinal { return .incomplete }
      return .scalar("\u{FFFD}", length: end - start)
    }
    var scalars = String(decoding: input[start..<end], as: UTF8.self).unicodeScalars.makeIterator()
    return .scalar(scalars.next() ?? "\u{FFFD}", length: length)
  }

  private static let csiKeys: [UInt8: Key] = [
    UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right,
    UInt8(ascii: "D"): .left, UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
  ]

  private static let ss3Keys = csiKeys

  private static let tildeKeys: [Int: Key] = [
    1: .home, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown, 7: .home, 8: .end,
  ]
}
