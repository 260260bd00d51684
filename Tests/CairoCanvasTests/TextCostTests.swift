import Geometry
import Testing

@testable import CairoCanvas

/// Issue 18, eleventh hostile pass: text at many font sizes. Pango's font map kept every font
/// pattern it made in a table that hashes a size by its whole points, so that each new size
/// was compared with all those before it (3,000 labels of Chinese characters, each at its own
/// size, took 57 s for a frame); it now forgets its fonts every `TextEngine.fontSizeLimit`
/// sizes, and lays text out the same after.
@Suite struct TextCostTests {
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
    // 60 sizes new to the font map: it forgets its fonts at least once.
    var forgotten = false
    for i in 0..<60 {
      let asked = try withTextEngine { engine throws(CanvasError) in
        _ = try engine.layOut("ab", style: TextStyle(fontSize: 40 + Double(i) * 0.001 + 0.0007))
        return engine.sizesAsked.count
      }
      if asked == 1 { forgotten = true }
    }
    #expect(forgotten)
    let (after, again) = try draw()
    #expect(after.glyphIndices == before.glyphIndices)
    #expect(after.lines == before.lines)
    #expect(after.runs.map { $0.glyphs.map(\.x) } == before.runs.map { $0.glyphs.map(\.x) })
    #expect(again == pixels)
    #expect(pixels.contains { $0 != 0 })
  }
}
