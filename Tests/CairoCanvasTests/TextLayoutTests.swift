import CairoCanvas
import Geometry
import Testing

/// The text engine's layout semantics (visual-effects.md §5), measured on the layout.
@Suite struct TextLayoutTests {
  func layout(_ s: String, _ style: TextStyle) throws -> TextLayout {
    try TextLayout.make(s, style: style)
  }

  /// Fifteenth hostile pass: characters no installed face has (a family emoji, CJK Extension
  /// B) were drawn as nothing; each is drawn as its font's missing-glyph box.
  @Test func charactersNoFaceHasAreDrawnAsBoxes() throws {
    for string in ["\u{20000}", "\u{1F468}"] {
      let canvas = try Canvas(pixelWidth: 100, pixelHeight: 60)
      canvas.draw(
        try layout(string, TextStyle(fontSize: 40)), at: Point(x: 10, y: 5), color: .black)
      let inked = canvas.makeBitmap().pixels.enumerated().filter {
        $0.offset % 4 == 3 && $0.element > 128
      }
      #expect(inked.count > 40, "\(string.unicodeScalars.first!.value)")
    }
  }

  /// Nineteenth hostile pass: Pango reads text up to its first NUL, so `abc\0def` drew `abc`
  /// and `\0abc` nothing. Each NUL is shown as ␀ (here the font's box) and the rest follows.
  @Test func aNULIsShownAndTheTextAfterItToo() throws {
    let style = TextStyle(fontSize: 20)
    let plain = try layout("abcdef", style), nul = try layout("abc\0def", style)
    #expect(nul.glyphIndices.count == 7)
    #expect(nul.size.width > plain.size.width + 5)
    #expect(
      try layout("abc\0def", style).glyphIndices == layout("abc\u{2400}def", style).glyphIndices)
    #expect(try layout("\0abc", style).glyphIndices.count == 4)
  }

  @Test func fontNamesResolveAsTheContractSays() {
    #expect(TextLayout.resolvedFace(forFontNamed: "Helvetica") == "Liberation Sans Regular")
    #expect(TextLayout.resolvedFace(forFontNamed: "Helvetica-Bold") == "Liberation Sans Bold")
    #expect(TextLayout.resolvedFace(forFontNamed: "Arial") == "Liberation Sans Regular")
    #expect(TextLayout.resolvedFace(forFontNamed: "Arial-BoldMT") == "Liberation Sans Bold")
    #expect(TextLayout.resolvedFace(forFontNamed: "HelveticaNeue") == "Liberation Sans Regular")
    #expect(TextLayout.resolvedFace(forFontNamed: "Helvetica-Oblique") == "Liberation Sans Italic")
    #expect(TextLayout.resolvedFace(forFontNamed: "DejaVu Sans") == "DejaVu Sans Book")
    #expect(TextLayout.resolvedFace(forFontNamed: "DejaVuSans-Bold") == "DejaVu Sans Bold")
    #expect(
      TextLayout.resolvedFace(forFontNamed: "Liberation Serif-Italic") == "Liberation Serif Italic")
    #expect(
      TextLayout.resolvedFace(forFontNamed: "LiberationMono-BoldItalic")
        == "Liberation Mono Bold Italic")
    #expect(TextLayout.resolvedFace(forFontNamed: "WenQuanYi Micro Hei") != nil)
    #expect(TextLayout.resolvedFace(forFontNamed: "Comic Sans MS") == nil)
    #expect(TextLayout.resolvedFace(forFontNamed: "Helvetica-Wobbly") == nil)
  }

  @Test func anUnknownFontIsAnError() {
    #expect(throws: CanvasError.unknownFont("Comic Sans MS")) {
      try TextLayout.make("Hi", style: TextStyle(fontName: "Comic Sans MS"))
    }
  }

  @Test func helveticaHasArialsMetrics() throws {
    // Liberation Sans is metric-compatible with Arial/Helvetica: "Hello" at 100 pt advances
    // 2278 units of 1000 in Arial (H 722, e 556, l 222, l 222, o 556).
    let l = try layout("Hello", TextStyle(fontSize: 100))
    #expect(abs(l.lines[0].frame.width - 227.8) < 0.1)
  }

  @Test func theFirstLineIsAtTheTopAndLinesFollowAtTheLineHeight() throws {
    let l = try layout("one\ntwo\nthree", TextStyle(fontSize: 20))
    #expect(l.lines.count == 3)
    #expect(l.lines[0].frame.minY == 0)
    let h = l.lines[0].frame.height
    #expect(h > 20 && h < 26)
    #expect(abs(l.lines[1].frame.minY - h) < 1e-9 && abs(l.lines[2].frame.minY - 2 * h) < 1e-9)
    #expect(l.lines.map(\.text) == ["one", "two", "three"])
    #expect(abs(l.size.height - 3 * h) < 1e-9)
  }

  @Test(arguments: [false, true])
  func alignmentOffsetsWithinTheWidth(wrapped: Bool) throws {
    func x(_ a: TextAlignment) throws -> (Double, Double) {
      let line = try layout(
        "Hi", TextStyle(fontSize: 20, width: 200, alignment: a, isWrapped: wrapped)
      ).lines[0]
      return (line.frame.minX, line.frame.width)
    }
    let (left, w) = try x(.left)
    #expect(left == 0 && w > 10 && w < 40)
    #expect(try x(.natural).0 == 0)
    #expect(try x(.justified).0 == 0)
    #expect(abs(try x(.right).0 - (200 - w)) < 1e-6)
    #expect(abs(try x(.center).0 - (200 - w) / 2) < 1e-6)
  }

  @Test func rightToLeftTextIsNaturallyRightAligned() throws {
    let l = try layout("مرحبا بالعالم", TextStyle(fontSize: 20, width: 200))
    #expect(l.lines[0].isRightToLeft)
    #expect(abs(l.lines[0].frame.maxX - 200) < 1e-6)
    let left = try layout("مرحبا بالعالم", TextStyle(fontSize: 20, width: 200, alignment: .left))
    #expect(left.lines[0].frame.minX == 0)
  }

  @Test func arabicIsShapedIntoJoiningForms() throws {
    // Three behs: initial, medial and final forms are three different glyphs.
    let glyphs = try layout("ببب", TextStyle(fontName: "DejaVu Sans", fontSize: 20)).glyphIndices
    #expect(glyphs.count == 3)
    #expect(Set(glyphs).count == 3)
    // An isolated beh is a fourth.
    let isolated = try layout("ب", TextStyle(fontName: "DejaVu Sans", fontSize: 20)).glyphIndices
    #expect(isolated.count == 1 && !glyphs.contains(isolated[0]))
  }

  @Test func chineseFallsBackToTheCJKFace() throws {
    let l = try layout("你好，世界", TextStyle(fontSize: 20))
    #expect(l.glyphIndices.count == 5)
    #expect(l.glyphIndices.allSatisfy { $0 != 0 })  // no missing-glyph boxes
    // CJK ideographs are one em wide.
    #expect(abs(l.lines[0].frame.width - 100) < 0.5)
  }

  @Test func wrappingBreaksAtWordsToFitTheWidth() throws {
    let s = "The quick brown fox jumps over the lazy dog"
    let style = TextStyle(fontSize: 20, width: 120, isWrapped: true)
    let l = try layout(s, style)
    #expect(l.lines.count == 4)
    #expect(l.lines.allSatisfy { $0.frame.width <= 120 })
    #expect(l.lines.map { $0.text.trimmingSpaces }.joined(separator: " ") == s)
    // Unwrapped, the same text is one line; a newline always breaks.
    #expect(try layout(s, TextStyle(fontSize: 20, width: 120)).lines.count == 1)
    #expect(try layout("a\nb", TextStyle(fontSize: 20, width: 120)).lines.count == 2)
    // A word longer than the width breaks where it must.
    let long = try layout(
      "Supercalifragilistic", TextStyle(fontSize: 20, width: 60, isWrapped: true))
    #expect(long.lines.count > 1 && long.lines.allSatisfy { $0.frame.width <= 60 })
  }

  @Test func truncationPutsTheEllipsisWhereTheModeSays() throws {
    let s = "abcdefghijklmnopqrstuvwxyz0123456789"
    func line(_ t: TextTruncation) throws -> String {
      let l = try layout(s, TextStyle(fontSize: 20, width: 150, truncation: t))
      #expect(l.lines.count == 1 && (t == .none || l.lines[0].frame.width <= 150))
      return l.lines[0].text
    }
    let end = try line(.end), start = try line(.start), middle = try line(.middle)
    #expect(end.hasSuffix("…") && end.hasPrefix("abc"))
    #expect(start.hasPrefix("…") && start.hasSuffix("789"))
    #expect(middle.hasPrefix("abc") && middle.hasSuffix("789") && middle.contains("…"))
    #expect(try line(.none) == s)
    #expect(try !layout(s, TextStyle(fontSize: 20, width: 150)).isTruncated)
    #expect(try layout(s, TextStyle(fontSize: 20, width: 150, truncation: .end)).isTruncated)
  }

  @Test func wrappedTextIsTruncatedOnTheLastLineThatFits() throws {
    let s = "The quick brown fox jumps over the lazy dog"
    let lineHeight = try layout("x", TextStyle(fontSize: 20)).lines[0].frame.height
    let l = try layout(
      s,
      TextStyle(
        fontSize: 20, width: 120, height: lineHeight * 2.5, isWrapped: true, truncation: .end))
    #expect(l.lines.count == 2)
    #expect(l.lines[1].text.hasSuffix("…"))
    #expect(!l.lines[0].text.contains("…"))
    // Without truncation every line is laid out (the bounds clip them).
    let all = try layout(
      s, TextStyle(fontSize: 20, width: 120, height: lineHeight * 2.5, isWrapped: true))
    #expect(all.lines.count == 4)
  }

  @Test func layoutsAreMadeOncePerStringAndStyle() throws {
    let a = try layout("cached", TextStyle(fontSize: 13, width: 100))
    let b = try layout("cached", TextStyle(fontSize: 13, width: 100, height: 50))  // height unused
    #expect(a === b)
    let c = try layout("cached", TextStyle(fontSize: 14, width: 100))
    #expect(a !== c)
  }

  @Test func layoutsAndDrawingAreSafeOnSeveralThreads() async throws {
    // Eight tasks lay out and draw the same labels at once: every one gets the same glyphs
    // and the same pixels.
    let results = try await withThrowingTaskGroup(of: ([UInt], [UInt8]).self) { group in
      for _ in 0..<8 {
        group.addTask {
          var glyphs: [UInt] = []
          let canvas = try Canvas(size: Size(120, 40), scale: 2)
          for i in 0..<40 {
            let l = try TextLayout.make(
              "thread \(i % 10)", style: TextStyle(fontSize: 12 + Double(i % 3)))
            glyphs += l.glyphIndices
            canvas.draw(l, at: Point(Double(i % 4) * 30, Double(i % 3) * 12), color: .black)
          }
          return (glyphs, canvas.makeBitmap().pixels)
        }
      }
      var all: [([UInt], [UInt8])] = []
      for try await r in group { all.append(r) }
      return all
    }
    #expect(results.count == 8)
    #expect(results.allSatisfy { $0.0 == results[0].0 && $0.1 == results[0].1 })
  }

  @Test func drawnTextStaysInsideItsInkBounds() throws {
    let canvas = try Canvas(size: Size(200, 60), scale: 2)
    let l = try layout("Glyph", TextStyle(fontSize: 40))
    canvas.draw(l, at: Point(10, 5), color: .white)
    let b = canvas.makeBitmap()
    var inked = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
    for y in 0..<b.height {
      for x in 0..<b.width where b[x, y].a > 0 {
        inked = (min(inked.minX, x), min(inked.minY, y), max(inked.maxX, x), max(inked.maxY, y))
      }
    }
    let ink = l.inkBounds
    #expect(
      Double(inked.minX) >= (10 + ink.minX) * 2 - 1 && Double(inked.maxX) <= (10 + ink.maxX) * 2 + 1
    )
    #expect(
      Double(inked.minY) >= (5 + ink.minY) * 2 - 1 && Double(inked.maxY) <= (5 + ink.maxY) * 2 + 1)
    #expect(Double(inked.maxX - inked.minX) > ink.width * 2 - 3)
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

/// Justification and truncation of wrapped text in the less common modes.
@Suite struct TextLayoutModeTests {
  @Test func justifiedStretchesEveryLineButTheLast() throws {
    let s = "The quick brown fox jumps over the lazy dog and runs far away"
    let l = try TextLayout.make(
      s, style: TextStyle(fontSize: 16, width: 150, alignment: .justified, isWrapped: true))
    #expect(l.lines.count >= 3)
    for line in l.lines.dropLast() { #expect(abs(line.frame.width - 150) < 0.01, "\(line.text)") }
    #expect(l.lines.last!.frame.width < 150 - 1)
    #expect(l.lines.last!.frame.minX == 0)
  }

  @Test func aJustifiedParagraphsLastLineSitsAsTheLastLineAlignmentSays() throws {
    // Two paragraphs: each one's last line is placed by `lastLineAlignment`, the others
    // stretched.
    let s = "The quick brown fox jumps over the lazy dog\nand runs far away from here"
    func lines(_ last: TextAlignment) throws -> [TextLayout.Line] {
      try TextLayout.make(
        s,
        style: TextStyle(
          fontSize: 16, width: 150, alignment: .justified, isWrapped: true,
          lastLineAlignment: last)
      ).lines
    }
    let natural = try lines(.natural)
    let ends = natural.indices.filter { i in
      i == natural.count - 1 || natural[i].text.hasSuffix("dog")
    }
    #expect(ends.count == 2)
    for (mode, x) in [(TextAlignment.left, 0.0), (.right, 1.0), (.center, 0.5)] {
      let l = try lines(mode)
      for i in l.indices where !ends.contains(i) { #expect(abs(l[i].frame.width - 150) < 0.01) }
      for i in ends {
        #expect(l[i].frame.width < 149)
        #expect(abs(l[i].frame.minX - (150 - l[i].frame.width) * x) < 0.01, "\(mode)")
      }
    }
    // Stretched too: the last lines reach the width at their spaces, letters as they were.
    let full = try lines(.justified)
    for line in full {
      let spaced = line.text.split(separator: " ").count > 1
      #expect(spaced == (abs(line.frame.width - 150) < 0.01), "\(line.text)")
    }
    #expect(full.filter { $0.text.split(separator: " ").count > 1 }.count == full.count - 1)
    // A last line of one word has no spaces to stretch: it stays as it is.
    let word = try TextLayout.make(
      "Far",
      style: TextStyle(
        fontSize: 16, width: 150, alignment: .justified, isWrapped: true,
        lastLineAlignment: .justified))
    #expect(word.lines.count == 1 && word.lines[0].frame.width < 40)
  }

  @Test func aLineSpacingSetsTheBaselinesThatFarApart() throws {
    let s = "one\ntwo\nthree"
    let natural = try TextLayout.make(s, style: TextStyle(fontSize: 20))
    let spaced = try TextLayout.make(s, style: TextStyle(fontSize: 20, lineSpacing: 40))
    #expect(spaced.lines.map(\.baseline) == [0, 40, 80].map { natural.lines[0].baseline + $0 })
    #expect(
      spaced.lines[2].frame.minY - natural.lines[2].frame.minY
        == spaced.lines[2].baseline - natural.lines[2].baseline)
    #expect(spaced.size.height == spaced.lines[2].frame.maxY)
  }

  @Test func aFamilyAndStyleResolveToTheNearestFaceOfTheFamily() {
    #expect(TextLayout.fontName(family: "Helvetica Neue", style: "Bold") == "LiberationSans-Bold")
    #expect(TextLayout.fontName(family: "Arial", style: "Italic") == "LiberationSans-Italic")
    #expect(TextLayout.fontName(family: "Helvetica", style: "Oblique") == "LiberationSans-Italic")
    #expect(
      TextLayout.fontName(family: "Liberation Serif", style: "Bold Italic")
        == "LiberationSerif-BoldItalic")
    // Words the family has no face for go to the nearest: Black and Semibold to bold, Light to
    // regular, Condensed to the normal width.
    #expect(TextLayout.fontName(family: "Helvetica Neue", style: "Black") == "LiberationSans-Bold")
    #expect(TextLayout.fontName(family: "Arial", style: "SemiBold") == "LiberationSans-Bold")
    #expect(TextLayout.fontName(family: "Helvetica Neue", style: "Light") == "LiberationSans")
    #expect(
      TextLayout.fontName(family: "Helvetica Neue", style: "Condensed Bold")
        == "LiberationSans-Bold")
    #expect(TextLayout.fontName(family: "DejaVu Sans", style: "Regular") == "DejaVuSans")
    #expect(TextLayout.fontName(family: "Brand Sans", style: "Bold") == nil)
  }

  @Test(arguments: [TextTruncation.start, .middle, .end])
  func wrappedTruncationKeepsTheLinesThatFit(_ mode: TextTruncation) throws {
    let s = "The quick brown fox jumps over the lazy dog and runs far away"
    let h = try TextLayout.make("x", style: TextStyle(fontSize: 16)).lines[0].frame.height
    let l = try TextLayout.make(
      s,
      style: TextStyle(fontSize: 16, width: 150, height: h * 2.2, isWrapped: true, truncation: mode)
    )
    #expect(l.lines.count == 2, "\(l.lines.map(\.text))")
    #expect(l.isTruncated)
    #expect(l.size.height <= h * 2.2)
  }
}
