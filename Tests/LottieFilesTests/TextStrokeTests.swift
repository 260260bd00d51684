import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, twelfth pass: a text document's stroke (`sc` colour, `sw` width, `of` over the
/// fill) and caps (`ca`) were passed over without a word: a white "Hello" with a red outline
/// drew white only, and "hello" in all caps drew lower case. The stroke is drawn along the
/// glyphs, font text and glyph text alike, over or under the fill as `of` says; caps upper-case
/// the text.
@Suite struct TextStrokeTests {
  /// A point text layer "Text" of one document whose fields are `fields` (JSON), at (20, 60),
  /// in DejaVu Sans, size 40, white.
  static func document(_ fields: String, text: String = "Hello", chars: String = "[]") -> String {
    let layer = """
      {"ty": 5, "ind": 1, "nm": "Text", "ip": 0, "op": 100, "st": 0,
       "ks": {"p": {"a": 0, "k": [20, 60]}},
       "t": {"d": {"k": [{"t": 0, "s": {"t": "\(text)", "s": 40, "f": "F0", "fc": [1, 1, 1],
                                       "j": 0\(fields.isEmpty ? "" : ", " + fields)}}]}}}
      """
    return """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 100, "layers": [\(layer)],
       "fonts": {"list": [{"fName": "F0", "fFamily": "DejaVu Sans", "fStyle": "Book"}]},
       "chars": \(chars)}
      """
  }

  static func frame(_ json: String) throws -> Bitmap {
    try LottieTest.read(json).scene.makeFrame(at: 0).makeBitmap()
  }

  /// How many pixels are red (the stroke), and how many white (the fill).
  static func reds(_ frame: Bitmap) -> (red: Int, white: Int) {
    var red = 0
    var white = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width {
        let p = frame[x, y]
        if p.a > 200 && p.r > 200 && p.g < 60 && p.b < 60 { red += 1 }
        if p.a > 200 && p.r > 200 && p.g > 200 && p.b > 200 { white += 1 }
      }
    }
    return (red, white)
  }

  @Test func aTextStrokeIsDrawnAlongTheGlyphs() throws {
    let plain = try Self.frame(Self.document(""))
    #expect(Self.reds(plain).red == 0)
    let read = try LottieTest.read(Self.document(#""sc": [1, 0, 0], "sw": 1.5, "of": true"#))
    #expect(read.warnings.isEmpty)
    let text = try #require(
      TextTests.text(in: try LottieTest.layer("Text", in: read.scene, at: 0)))
    #expect(text.strokeColor == Color(red: 1, green: 0, blue: 0) && text.strokeWidth == 1.5)
    #expect(text.strokesOverFill)
    let over = Self.reds(try read.scene.makeFrame(at: 0).makeBitmap())
    // Red all round the outline (a 1.5-point line along some 400 points of outline), the
    // white fill left inside it, less of it than without the stroke.
    let white = Self.reds(plain).white
    #expect(over.red > 400)
    #expect(over.white > 100 && over.white < white / 2)
    // Under the fill (of false), the fill covers the stroke's inner half: less red, more white.
    let under = Self.reds(
      try Self.frame(Self.document(#""sc": [1, 0, 0], "sw": 1.5, "of": false"#)))
    #expect(under.red < over.red * 3 / 4)
    #expect(under.white > over.white + 100)
    // No `sc`, no stroke (lottie-web strokes only then), whatever `sw` says.
    #expect(try Self.frame(Self.document(#""sw": 3"#)) == plain)
  }

  @Test func aStrokeWidthPastTheLimitIsDrawnAtTheNearest() throws {
    let read = try LottieTest.read(Self.document(#""sc": [1, 0, 0], "sw": -5"#))
    #expect(
      read.warnings.map(\.feature) == [
        "text stroke width -5 (layers[0].t.d.k[0].s.sw: 0 to 1,000): drawn at 0"
      ])
    #expect(Self.reds(try read.scene.makeFrame(at: 0).makeBitmap()).red == 0)
  }

  /// Cairo strokes glyph outlines in time that grows with the width against the size: 100,000
  /// characters at size 20 stroked 1,000 wide took 11 s a frame (0.1 s unstroked). Stroked text
  /// counts in the frame's text budget 1 + 2 x width / size times.
  @Test func wideTextStrokesCountInTheFrameTextBudget() throws {
    let words = String(repeating: "Wg@ ", count: 10_000)
    func box(_ width: Int) -> String {
      Self.document(
        #""s": 20, "sz": [400, 100000], "ps": [0, 0], "sc": [1, 0, 0], "sw": \#(width)"#,
        text: words
      ).replacingOccurrences(of: #""s": 40, "#, with: "")
    }
    #expect(
      Canvas.TextStroke(color: .red, width: 1000, overFill: true).costFactor(fontSize: 20) == 101)
    let wide = try LottieTest.read(box(1000))
    #expect(throws: RenderingError.self) { try wide.scene.makeFrame(at: 0) }
    do {
      _ = try wide.scene.makeFrame(at: 0)
    } catch {
      #expect(
        String(describing: error)
          == "the frame's text layers would draw more than 4 million characters, the limit, at "
          + "layer layers[0].t (every text layer's string, for each replicator instance, and the "
          + "work of its wrapped lines, paragraphs, tabs, mixed directions and font sizes counted "
          + "as characters; stroked text 1 + 2 x its stroke width over its size times)")
    }
    // 3 wide, the same text draws, with its stroke.
    let narrow = try LottieTest.read(box(3))
    #expect(Self.reds(try narrow.scene.makeFrame(at: 0).makeBitmap()).red > 1000)
  }

  @Test func glyphTextIsStrokedToo() throws {
    // A glyph of a 50 x 70 square at size 100: at size 40, 20 x 28 points, from (20, 32) to
    // (40, 60).
    let chars = TextTests.glyphA.replacingOccurrences(of: "\"Sans\"", with: "\"DejaVu Sans\"")
      .replacingOccurrences(of: "\"Bold\"", with: "\"Book\"")
    func glyphFrame(_ fields: String) throws -> Bitmap {
      try Self.frame(Self.document(fields, text: "A", chars: "[\(chars)]"))
    }
    let plain = try glyphFrame("")
    #expect(plain[30, 45].r == 255 && plain[30, 45].g == 255)
    #expect(plain[41, 45].a == 0)
    // A 4-point stroke: 2 points each side of the edge at x = 40, over the fill.
    let over = try glyphFrame(#""sc": [1, 0, 0], "sw": 4, "of": true"#)
    #expect(over[41, 45].r == 255 && over[41, 45].g == 0 && over[41, 45].a == 255)
    #expect(over[39, 45].r == 255 && over[39, 45].g == 0)
    #expect(over[30, 45].g == 255)
    // Under the fill: the inner half white again, the outer half red.
    let under = try glyphFrame(#""sc": [1, 0, 0], "sw": 4, "of": false"#)
    #expect(under[41, 45].r == 255 && under[41, 45].g == 0)
    #expect(under[39, 45].g == 255)
  }

  @Test func capsDrawTheTextInUpperCase() throws {
    let upper = try Self.frame(Self.document("", text: "HELLO"))
    let lower = try Self.frame(Self.document("", text: "hello"))
    #expect(upper != lower)
    let allCaps = try LottieTest.read(Self.document(#""ca": 1"#, text: "hello"))
    #expect(allCaps.warnings.isEmpty)
    #expect(try allCaps.scene.makeFrame(at: 0).makeBitmap() == upper)
    #expect(try Self.frame(Self.document(#""ca": 0"#, text: "hello")) == lower)
    // Small caps are drawn as all caps, said so; another code as typed.
    let small = try LottieTest.read(Self.document(#""ca": 2"#, text: "hello"))
    #expect(try small.scene.makeFrame(at: 0).makeBitmap() == upper)
    #expect(
      small.warnings.map(\.feature) == [
        "small caps (layers[0].t.d.k[0].s.ca is 2): drawn as all caps"
      ])
    let other = try LottieTest.read(Self.document(#""ca": 7"#, text: "hello"))
    #expect(try other.scene.makeFrame(at: 0).makeBitmap() == lower)
    #expect(
      other.warnings.map(\.feature) == [
        "text caps 7 (layers[0].t.d.k[0].s.ca: 0 to 2): drawn as 0 (as typed)"
      ])
  }
}
