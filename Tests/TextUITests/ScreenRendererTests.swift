import Testing
import TextUI

@Suite("Screen renderer")
struct ScreenRendererTests {
  private let size = TerminalSize(width: 12, height: 4)

  /// Renders frames in order and returns each output, with the escape
  /// character shown as `⎋` and the synchronized-update brackets as `{`
  /// and `}`.
  private func outputs(_ frames: [Frame], sizes: [TerminalSize]? = nil) -> [String] {
    var renderer = ScreenRenderer()
    return frames.enumerated().map { index, frame in
      Self.readable(renderer.update(to: frame, size: sizes?[index] ?? size))
    }
  }

  private static func readable(_ output: String) -> String {
    output
      .replacing("\u{1B}[?2026h", with: "{")
      .replacing("\u{1B}[?2026l", with: "}")
      .replacing("\u{1B}", with: "⎋")
  }

  private func frame(_ lines: String..., cursor: Position? = nil) -> Frame {
    Frame(lines: lines.map { Frame.Line($0) }, cursor: cursor)
  }

  @Test func theFirstFrameClearsTheScreenAndDrawsEveryLine() {
    #expect(
      outputs([frame("Items", "  1. a")]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1HItems⎋[K⎋[2;1H  1. a⎋[K}"
      ])
  }

  @Test func laterFramesWriteOnlyTheChangedLines() {
    #expect(
      outputs([
        frame("Items", "  1. a", "  2. b"),
        frame("Items", "  1. a", "  2. c"),
        frame("Items", "  1. a", "  2. c"),
        frame("Items (1)", "  1. a"),
      ]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1HItems⎋[K⎋[2;1H  1. a⎋[K⎋[3;1H  2. b⎋[K}",
        "{⎋[3;1H  2. c⎋[K}",
        "",
        "{⎋[1;1HItems (1)⎋[K⎋[3;1H⎋[K}",
      ])
  }

  @Test func aNewSizeOrAnInvalidatedScreenIsDrawnAgainWhole() {
    let wide = TerminalSize(width: 20, height: 2)
    #expect(
      outputs([frame("a"), frame("a"), frame("a")], sizes: [size, wide, wide]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Ha⎋[K}",
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Ha⎋[K}",
        "",
      ])
    var renderer = ScreenRenderer()
    _ = renderer.update(to: frame("a"), size: size)
    renderer.invalidate()
    #expect(
      Self.readable(renderer.update(to: frame("a"), size: size))
        == "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Ha⎋[K}")
  }

  @Test func linesAreCutToTheWidthByDisplayWidth() {
    #expect(
      outputs([frame("hello wonderful world", "漢字漢字漢字漢字", "👍👍👍👍👍👍👍", "exactly 12!!")]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Hhello wonde…⎋[2;1H漢字漢字漢…⎋[K⎋[3;1H👍👍👍👍👍…⎋[K"
          + "⎋[4;1Hexactly 12!!}"
      ])
  }

  @Test func controlCharactersAreDrawnAsVisibleEscapes() {
    let wide = TerminalSize(width: 30, height: 2)
    #expect(
      outputs([frame("a\tb\u{1B}[2Jc\u{7}", "\r\n\u{0}\u{9B}")], sizes: [wide]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Ha\\u{09}b\\u{1B}[2Jc\\u{07}⎋[K"
          + "⎋[2;1H\\u{0D}\\u{0A}\\u{00}\\u{9B}⎋[K}"
      ], "the only escape characters are the renderer's own")
  }

  @Test func anEscapeIsCutWholeAtTheWidth() {
    #expect(
      outputs([frame("a\u{1B}bc", "abc\u{1B}[31m", "abcdefg\u{1B}", "\u{1B}\u{1B}x")]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Ha\\u{1B}bc⎋[K⎋[2;1Habc\\u{1B}[3…⎋[3;1Habcdefg…⎋[K"
          + "⎋[4;1H\\u{1B}…⎋[K}"
      ], "an escape that does not fit is left out whole, for the ellipsis")
  }

  @Test func theCursorAfterAnEscapeIsWhereTheEscapeEnds() {
    var editor = LineEditor(text: "a\u{1B}b")
    editor.handle(.left)
    let field = editor.visible(inWidth: 12)
    #expect(field.cursorColumn == 7, "after a and the six columns of \\u{1B}")
    #expect(
      outputs([Frame(lines: [Frame.Line(field.text)], cursor: Position(row: 0, column: 7))]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1Ha\\u{1B}b⎋[K⎋[1;8H⎋[?25h}"
      ])
  }

  @Test func stylesWrapTheirLineAndReverseSpansTheWidth() {
    let styled = Frame(lines: [
      Frame.Line("Title", style: .bold), Frame.Line("> 1. a", style: [.reverse, .accent]),
      Frame.Line("help", style: .dim),
    ])
    #expect(
      outputs([styled]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1H⎋[1mTitle⎋[0m⎋[K⎋[2;1H⎋[7;36m> 1. a      ⎋[0m"
          + "⎋[3;1H⎋[2mhelp⎋[0m⎋[K}"
      ])
  }

  @Test func theCursorShowsWhereTheFrameWantsIt() {
    #expect(
      outputs([
        frame("Text: ab"),
        frame("Text: ab", cursor: Position(row: 0, column: 8)),
        frame("Text: abc", cursor: Position(row: 0, column: 9)),
        frame("Text: abc", cursor: Position(row: 0, column: 9)),
        frame("Text: abc"),
        frame("x", cursor: Position(row: 9, column: 99)),
      ]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1HText: ab⎋[K}",
        "{⎋[1;9H⎋[?25h}",
        "{⎋[?25l⎋[1;1HText: abc⎋[K⎋[1;10H⎋[?25h}",
        "",
        "{⎋[?25l}",
        "{⎋[1;1Hx⎋[K⎋[4;12H⎋[?25h}",
      ])
  }

  @Test func linesBelowTheScreenAreNotDrawn() {
    #expect(
      outputs([frame("1", "2", "3", "4", "5", "6")]) == [
        "{⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1H1⎋[K⎋[2;1H2⎋[K⎋[3;1H3⎋[K⎋[4;1H4⎋[K}"
      ])
  }

  @Test func aLongTextCostsTheWidthNotItsLength() {
    let long = String(repeating: "漢字 text ", count: 2_000)
    var renderer = ScreenRenderer()
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for index in 0..<200 {
        _ = renderer.update(
          to: Frame(lines: [Frame.Line("\(index)" + long)]), size: TerminalSize.standard)
      }
    }
    #expect(elapsed < .seconds(2), "200 frames with a 16,000-character line took \(elapsed)")
  }
}
