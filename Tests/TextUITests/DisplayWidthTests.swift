import Testing
import TextUI

@Suite("Display width and truncation")
struct DisplayWidthTests {
  @Test(
    arguments: [
      ("a", 1), (" ", 1), ("漢", 2), ("한", 2), ("あ", 2), ("Ａ", 2), ("ｱ", 1), ("、", 2),
      ("👍", 2), ("👍🏽", 2), ("🇯🇵", 2), ("👨‍👩‍👧", 2), ("☀", 1), ("☀️", 2), ("é", 1),
      ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("…", 1), ("Ω", 1),
      // Control characters are as wide as their visible escapes, "\u{1B}".
      ("\t", 6), ("\u{1B}", 6), ("\u{0}", 6), ("\u{7F}", 6), ("\u{9B}", 6), ("\r\n", 12),
    ] as [(Character, Int)])
  func measuresEachCharacter(character: Character, width: Int) {
    #expect(character.displayWidth == width)
  }

  @Test func measuresWholeTexts() {
    #expect("hello".displayWidth == 5)
    #expect("red\u{1B}[31m".displayWidth == "red\u{1B}[31m".withVisibleControlCharacters.count)
    #expect("漢字 ok".displayWidth == 7)
    #expect("nai\u{308}ve".displayWidth == 5)
    #expect("🎉 party 🎉".displayWidth == 11)
    #expect("".displayWidth == 0)
  }

  @Test(arguments: [
    ("hello world", 8, "hello w…"),
    ("short", 8, "short"),
    ("exactly8", 8, "exactly8"),
    ("exactly9!", 8, "exactly…"),
    ("漢字漢字", 8, "漢字漢字"),
    ("漢字漢字", 7, "漢字漢…"),
    ("漢字漢字", 6, "漢字…"),
    ("👍👍👍", 5, "👍👍…"),
    ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
    ("abc", 1, "…"),
    ("a", 1, "a"),
    ("abc", 0, ""),
    ("a\u{1B}bc", 8, "a\u{1B}…"),
    ("a\u{1B}b", 7, "a…"),
    ("", 3, ""),
  ])
  func truncatesToTheWidthWithAnEllipsis(text: String, width: Int, expected: String) {
    let result = text.truncated(toWidth: width)
    #expect(result == expected)
    #expect(result.displayWidth <= max(width, 0))
  }

  @Test func truncatesWithAnotherEllipsis() {
    #expect("hello world".truncated(toWidth: 6, ellipsis: ">") == "hello>")
  }

  @Test func aLongTextIsCutWithoutMeasuringItAll() {
    let text = String(repeating: "漢a", count: 5_000)
    let clock = ContinuousClock()
    var result = ""
    let elapsed = clock.measure {
      for _ in 0..<1_000 {
        result = text.truncated(toWidth: 80)
      }
    }
    // 26 pairs take 78 columns; the next "漢" would leave no room for "…".
    #expect(result == String(repeating: "漢a", count: 26) + "…")
    #expect(result.displayWidth == 79)
    #expect(elapsed < .seconds(2), "1,000 cuts of a 10,000-character text took \(elapsed)")
  }
}
