import Testing
import TextUI

@Suite("Key decoding")
struct KeyDecoderTests {
  /// Decodes reads in order, then flushes what is pending (as the session
  /// does when the escape timeout passes), and returns every key.
  private func keys(_ reads: [[UInt8]], flushing: Bool = true) -> [Key] {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for read in reads {
      keys += decoder.decode(read)
    }
    if flushing {
      keys += decoder.flush()
    }
    return keys
  }

  private func keys(_ reads: String...) -> [Key] {
    keys(reads.map { Array($0.utf8) })
  }

  @Test func severalKeysInOneReadComeOutInOrder() {
    #expect(
      keys("jk q\r\u{1B}[A\u{1B}[B\u{7F}a")
        == [
          .character("j"), .character("k"), .character(" "), .character("q"), .enter, .up, .down,
          .backspace, .character("a"),
        ])
  }

  @Test(arguments: [
    ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
    ("\u{1B}OA", .up), ("\u{1B}OD", .left), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
    ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp),
    ("\u{1B}[6~", .pageDown), ("\u{1B}[1;5A", .up), ("\u{1B}[15~", .unknown("[15~")),
    ("\r", .enter), ("\n", .enter), ("\t", .tab), ("\u{7F}", .backspace), ("\u{08}", .backspace),
    ("\u{03}", .interrupt), ("\u{15}", .control("u")), ("\u{01}", .control("a")),
  ])
  func decodesEachKey(bytes: String, key: Key) {
    #expect(keys(bytes) == [key])
  }

  @Test func anEscapeSequenceSplitAcrossReadsIsOneKey() {
    #expect(keys("\u{1B}", "[", "A") == [.up])
    #expect(keys("j\u{1B}[1", ";5", "Bk") == [.character("j"), .down, .character("k")])
    #expect(keys("\u{1B}", "O", "C") == [.right])
  }

  @Test func anUnfinishedSequenceWaitsForTheNextRead() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("a\u{1B}[".utf8)) == [.character("a")])
    #expect(decoder.isAwaitingMore)
    #expect(decoder.decode(Array("D".utf8)) == [.left])
    #expect(!decoder.isAwaitingMore)
  }

  @Test func aLoneEscapeIsTheEscapeKeyWhenNoMoreInputComes() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.isAwaitingMore)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.isAwaitingMore)
    #expect(decoder.flush().isEmpty)
  }

  @Test func escapeFollowedByAnotherKeyIsTwoKeys() {
    #expect(keys("\u{1B}q") == [.escape, .character("q")])
    #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
    #expect(keys("\u{1B}", "b") == [.escape, .character("b")])
    #expect(keys("\u{1B}\r") == [.escape, .enter])
  }

  @Test func anUnfinishedSequenceFlushesAsEscapeAndItsCharacters() {
    #expect(keys("\u{1B}[1;") == [.escape, .character("["), .character("1"), .character(";")])
    #expect(keys("\u{1B}O") == [.escape, .character("O")])
  }

  @Test func utf8SplitAcrossReadsIsOneCharacter() {
    let bytes = Array("漢👍".utf8)
    #expect(
      keys([Array(bytes[0..<1]), Array(bytes[1..<5]), Array(bytes[5...])])
        == [.character("漢"), .character("👍")])
  }

  @Test func combiningMarksJoinTheirLetterWithinARead() {
    #expect(keys("e\u{301}x") == [.character("e\u{301}"), .character("x")])
  }

  @Test func invalidUTF8IsAReplacementCharacter() {
    #expect(keys([[0xFF, 0x61]]) == [.character("\u{FFFD}"), .character("a")])
    #expect(keys([[0xE6, 0x61]]) == [.character("\u{FFFD}"), .character("a")])
    // An unfinished character at the timeout.
    #expect(keys([[0xE6, 0xBC]]) == [.character("\u{FFFD}")])
  }

  @Test func carriageReturnLineFeedIsOneEnter() {
    #expect(keys("a\r\nb\n\n") == [.character("a"), .enter, .character("b"), .enter, .enter])
    #expect(keys("\r", "\n") == [.enter])
  }
}
