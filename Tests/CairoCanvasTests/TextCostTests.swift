import Geometry
import Testing

@testable import CairoCanvas

/// Issue 18, eleventh hostile pass: text whose layout costs more than its characters is counted
/// for that work before it is laid out. A line of 100,000 tabs took 89 s (Pango measured the
/// line so far for every tab), 100,000 characters alternating Latin and Arabic 6.5 s (Pango
/// appended every run to a list it walked to its end), and 10,000 labels each at its own font
/// size 11 s (Pango loaded the fonts again for every size, and compared every new size's
/// patterns with all those of the same whole points it had ever made).
@Suite struct TextCostTests {
  @Test func tabsCountTheCharactersBeforeThemWhenNotWrapped() {
    #expect(TextLayout.charactersBeforeTabPerCharacter == 50)
    let tabs = String(repeating: "\t", count: 20_000)
    // The k-th tab has k characters before it: 19,999 x 20,000 / 2 over 50.
    #expect(TextLayout.tabAndDirectionCost(of: tabs, style: TextStyle(fontSize: 12)) == 3_999_800)
    #expect(TextLayout.layoutCost(of: tabs, style: TextStyle(fontSize: 12)) == 4_019_800)
    // Each paragraph counts from its start.
    let paragraphs = Array(repeating: String(repeating: "\t", count: 1_000), count: 20)
      .joined(separator: "\n")
    #expect(
      TextLayout.tabAndDirectionCost(of: paragraphs, style: TextStyle(fontSize: 12))
        == 20 * (999 * 1_000 / 2) / 50)
    // Truncated text is laid out without a width to wrap in too; wrapped text is not.
    #expect(
      TextLayout.tabAndDirectionCost(
        of: tabs, style: TextStyle(fontSize: 12, width: 100, truncation: .end)) == 3_999_800)
    #expect(
      TextLayout.tabAndDirectionCost(
        of: tabs, style: TextStyle(fontSize: 12, width: 100, isWrapped: true)) == 0)
    #expect(TextLayout.tabAndDirectionCost(of: "a\tb\tc", style: TextStyle()) == (1 + 3) / 50)
  }

  @Test func linesOfBothDirectionsCountTheirCharactersSquared() {
    #expect(TextLayout.characterPairsPerCharacter == 1_000)
    let mixed = String(repeating: "aب", count: 50_000)
    #expect(
      TextLayout.tabAndDirectionCost(of: mixed, style: TextStyle(fontSize: 12)) == 10_000_000)
    // Wrapped 180 points wide at 12 points: 30 characters a line expected.
    #expect(
      TextLayout.tabAndDirectionCost(
        of: mixed, style: TextStyle(fontSize: 12, width: 180, isWrapped: true))
        == 100_000 * 30 / 1_000)
    // One direction only (Arabic digits stay at an even level in Latin text): nothing.
    let style = TextStyle(fontSize: 12)
    for single in ["ب", "1٢", "a文"] {
      let text = String(repeating: single, count: 1_000)
      #expect(TextLayout.tabAndDirectionCost(of: text, style: style) == 0)
    }
    // Each paragraph on its own: 100 of 1,000 characters.
    let lines = Array(repeating: String(repeating: "aب", count: 500), count: 100)
      .joined(separator: "\n")
    #expect(TextLayout.tabAndDirectionCost(of: lines, style: style) == 100 * 1_000 * 1_000 / 1_000)
  }

  @Test func eachFontSizeAndItsNewCharactersCountOnce() {
    #expect(TextLayout.charactersPerFontSize == 1_500)
    #expect(TextLayout.charactersPerGlyphAtSize == 20)
    var tally = TextLayout.Tally()
    let ten = TextStyle(fontSize: 10)
    #expect(tally.add("ab", style: ten) == 2 + 1_500 + 2 * 20)
    #expect(tally.add("ba", style: ten) == 2)
    #expect(tally.add("abc", style: ten) == 3 + 20)
    #expect(tally.add("文字文", style: ten) == 9 + 2 * 20)
    // Another size, or another font at that size, is new.
    #expect(tally.add("ab", style: TextStyle(fontSize: 10.001)) == 2 + 1_500 + 2 * 20)
    #expect(
      tally.add("ab", style: TextStyle(fontName: "DejaVu Sans", fontSize: 10))
        == 2 + 1_500 + 2 * 20)
    #expect(tally.characters == 1_542 + 2 + 23 + 49 + 1_542 + 1_542)
  }

  @Test func fontsForgottenPastTheSizeLimitLayTextOutTheSame() throws {
    #expect(TextEngine.fontSizeLimit == 50)
    let text = "Wave, fly: AVATAR ffi 文字 مرحبا\tend"
    let style = TextStyle(fontSize: 13.25)
    func draw() throws -> (TextLayout, [UInt8]) {
      let layout = try withTextEngine { engine throws(CanvasError) in
        try engine.layOut(text, style: style)
      }
      let canvas = try Canvas(size: Size(300, 40), scale: 2)
      canvas.draw(layout, at: Point(4, 4), color: .black)
      return (layout, canvas.makeBitmap().pixels)
    }
    let (before, pixels) = try draw()
    // 60 sizes new to the font map: it forgets its fonts at least once (counted by the engine:
    // tests running beside this one lay text out with it too, and the forgetting may fall in
    // theirs).
    let forgottenBefore = try withTextEngine { engine throws(CanvasError) in engine.timesForgotten }
    for i in 0..<60 {
      try withTextEngine { engine throws(CanvasError) in
        _ = try engine.layOut("ab", style: TextStyle(fontSize: 40 + Double(i) * 0.001 + 0.0007))
      }
    }
    let forgottenAfter = try withTextEngine { engine throws(CanvasError) in engine.timesForgotten }
    #expect(forgottenAfter > forgottenBefore)
    let (after, again) = try draw()
    #expect(after.glyphIndices == before.glyphIndices)
    #expect(after.lines == before.lines)
    #expect(after.runs.map { $0.glyphs.map(\.x) } == before.runs.map { $0.glyphs.map(\.x) })
    #expect(again == pixels)
    #expect(pixels.contains { $0 != 0 })
  }

  /// Twelfth pass: Pango goes over the text before each paragraph, so 40 layers of 10,000
  /// lines of 10 characters took 120 s for a frame within its 4,000,000 characters.
  @Test func eachParagraphCountsTheCharactersBeforeIt() {
    #expect(TextLayout.charactersBeforeParagraphPerCharacter == 150)
    #expect(TextLayout.paragraphCost(of: "no break") == 0)
    // Paragraphs begin at 150 (after `\n`), 301 (after `\r\n`, one break) and 454 (after
    // U+2029, 3 bytes).
    let a = String(repeating: "a", count: 149)
    let text = a + "\n" + a + "\r\n" + String(repeating: "b", count: 150) + "\u{2029}z"
    #expect(TextLayout.paragraphCost(of: text) == (150 + 301 + 454) / 150)
    let lines = String(repeating: "abcdefghi\n", count: 10_000)
    #expect(TextLayout.paragraphCost(of: lines) == 499_950_000 / 150)
    // One such layer fits the frame's 4,000,000; two do not.
    let style = TextStyle(fontSize: 10)
    #expect(TextLayout.layoutCost(of: lines, style: style) == 100_000 + 3_333_000)
  }

  /// Twelfth pass re-check: letters each in an isolate (RLI or LRI ... PDI) took 6 to 7.5 s a
  /// layer whatever their levels; each isolate counts three runs, as mixed directions count.
  @Test func isolatesCountAsRunsChangingDirection() {
    let style = TextStyle(fontSize: 10)
    let isolated = String(repeating: "\u{2066}a\u{2069}", count: 33_333)
    // min(99,999, 3 × 33,333)² / 1,000.
    #expect(TextLayout.tabAndDirectionCost(of: isolated, style: style) == 99_999 * 99_999 / 1_000)
    // One isolate in a long sentence counts next to nothing.
    let one = String(repeating: "word ", count: 10_000) + "\u{2067}name\u{2069}"
    #expect(TextLayout.tabAndDirectionCost(of: one, style: style) == 0)
  }

  /// Fourteenth pass: a paragraph of embeddings and overrides (LRE, RLE, PDF, LRO, RLO) took
  /// 17 s for 99,999 RLOs, in the square of their number, counted as 99,999 characters; they
  /// count as isolates do (and, with nothing else to show, as invisible text: refused).
  @Test func embeddingsAndOverridesCountAsIsolatesDo() {
    let style = TextStyle(fontSize: 20)
    // Each with a letter: min(66,666, 3 × 33,333) runs.
    let overrides = String(repeating: "\u{202E}a", count: 33_333)
    #expect(TextLayout.tabAndDirectionCost(of: overrides, style: style) == 66_666 * 66_666 / 1_000)
    let mixed = String(repeating: "\u{202E}\u{202D}\u{202A}\u{202B}a", count: 3_000)
    #expect(TextLayout.tabAndDirectionCost(of: mixed, style: style) == 15_000 * 15_000 / 1_000)
    // Wrapped, a line holds few of them: 100 points at 10 a character, 10 a line.
    let wrapped = TextStyle(fontSize: 20, width: 100, isWrapped: true)
    #expect(TextLayout.tabAndDirectionCost(of: overrides, style: wrapped) == 66_666 * 10 / 1_000)
    // Nothing but controls: a paragraph with nothing to show (below), twice.
    let only = String(repeating: "\u{202E}", count: 99_999)
    #expect(TextLayout.tabAndDirectionCost(of: only, style: style) == 2 * 99_999 * 99_999 / 1_000)
  }

  /// Fourteenth pass: a paragraph with nothing to show (99,999 zero-width joiners, soft
  /// hyphens, directional marks or byte-order marks) took 17 s to shape, one letter among them
  /// 0.08 s; such a paragraph counts as one whose every character changes direction, twice.
  @Test func aParagraphOfInvisibleCharactersOnlyCountsAsMixedDirections() {
    let style = TextStyle(fontSize: 20)
    for invisible in ["\u{200D}", "\u{00AD}", "\u{200E}", "\u{FEFF}", "\u{200B}", "\u{E0041}"] {
      let string = String(repeating: invisible, count: 30_000)
      #expect(
        TextLayout.tabAndDirectionCost(of: string, style: style) == 1_800_000, "\(invisible)")
    }
    // One visible character, or spaces, and nothing is counted.
    #expect(
      TextLayout.tabAndDirectionCost(
        of: String(repeating: "\u{200D}", count: 30_000) + "x", style: style) == 0)
    #expect(
      TextLayout.tabAndDirectionCost(of: String(repeating: " ", count: 30_000), style: style) == 0)
    // Per paragraph: a line of joiners after a line of words counts its own.
    let second = "words\n" + String(repeating: "\u{200D}", count: 10_000)
    #expect(TextLayout.tabAndDirectionCost(of: second, style: style) == 200_000)
  }
}

/// Seventeenth pass: large glyphs are counted as the outlines Cairo fills, and every glyph of
/// a layout was counted wherever it was: a credits roll of 1,800 lines at 300 pixels an em, six
/// on screen, was refused as path work though it draws in 0.1 s. Glyphs well off the canvas
/// count nothing.
@Suite struct OutlineCostTests {
  @Test func onlyGlyphsNearTheCanvasCountAsOutlines() throws {
    let canvas = try Canvas(size: Size(400, 300))
    let lines = Array(repeating: "Credit line", count: 100).joined(separator: "\n")
    let layout = try TextLayout.make(lines, style: TextStyle(fontSize: 300))
    let glyphs = layout.runs.reduce(0) { $0 + $1.glyphs.count }
    let all = canvas.outlinePixels(of: layout)
    #expect(all == Double(glyphs) * 300 * 300)  // an em box each, within the canvas's pixels
    // At the origin, the first line's glyphs and those of the lines within two ems below.
    let near = canvas.outlinePixels(of: layout, at: Point(0, 0))
    #expect(near > 0 && near <= all / 20)
    // Scrolled far above the canvas: nothing; a stroke reaching it counts again.
    #expect(canvas.outlinePixels(of: layout, stroked: true, at: Point(0, -1e6)) == 0)
    #expect(canvas.outlinePixels(of: layout, stroked: true, at: Point(0, -1e6), reach: 2e6) == all)
  }
}
