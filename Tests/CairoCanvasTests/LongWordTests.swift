import CairoCanvas
import Geometry
import Testing

/// Issue 18, sixth pass: a wrapped word of n characters took time in n² (Pango measured the
/// rest of the word for every line it broke it on: 120,000 characters took 23 s). It is now
/// shaped in pieces of `TextEngine.wrappedWordPiece` characters; the layout still holds every
/// character once, in order, each line within the width.
@Suite struct LongWordTests {
  @Test func aLongWordIsWrappedWholeWithinTheWidth() throws {
    let word = String(repeating: "abcdefghij", count: 6_000)  // 60,000 characters, no break
    let style = TextStyle(fontSize: 12, width: 300, isWrapped: true)
    let layout = try TextLayout.make(word, style: style)
    #expect(layout.lines.count > 100)
    #expect(layout.lines.map(\.text).joined() == word)
    #expect(layout.lines.allSatisfy { $0.frame.width <= 300 + 1e-6 })
    // Every line but the last is full: the next character would not have fitted.
    let widths = layout.lines.dropLast().map(\.frame.width)
    #expect(widths.allSatisfy { $0 > 280 })
  }

  @Test func wordsOfOrdinaryLengthWrapAtTheirSpaces() throws {
    let text = Array(repeating: "lorem ipsum dolor", count: 400).joined(separator: " ")
    let style = TextStyle(fontSize: 12, width: 200, isWrapped: true)
    let layout = try TextLayout.make(text, style: style)
    #expect(layout.lines.map(\.text).joined() == text)
    // No line breaks inside a word.
    #expect(layout.lines.dropLast().allSatisfy { $0.text.hasSuffix(" ") })
  }
}
