import Flipbook
import FlipbookTestSupport
import Testing

/// Text layers: glyph outlines from `chars` when the file has them, else the font.
@Suite struct TextTests {
  static func document(text: String, chars: String) -> String {
    let layer = """
      {"ty": 5, "ind": 1, "nm": "Title", "ip": 0, "op": 100, "st": 0, "ks": {},
       "t": {"d": {"k": [{"t": 0, "s": {"t": "\(text)", "s": 20, "f": "Sans-Bold", "fc": [1, 0, 0],
                                        "j": 2, "tr": 50, "lh": 24}}]}}}
      """
    return """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [\(layer)],
       "fonts": {"list": [{"fName": "Sans-Bold", "fFamily": "Sans", "fStyle": "Bold"}]},
       "chars": \(chars)}
      """
  }

  static let glyphA = #"""
    {"ch": "A", "size": 100, "style": "Bold", "w": 60, "fFamily": "Sans",
     "data": {"shapes": [{"ty": "gr", "it": [{"ty": "sh", "ks": {"a": 0, "k": {"c": true,
       "v": [[0, 0], [50, 0], [50, -70], [0, -70]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]],
       "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}}, {"ty": "tr"}]}]}}
    """#

  @Test func glyphOutlinesDrawTheText() throws {
    let document = try LottieTest.read(Self.document(text: "AA\\rA", chars: "[\(Self.glyphA)]"))
    #expect(document.warnings.isEmpty)
    let title = try LottieTest.layer("Title", in: document.scene, at: 0)
    var glyphs: [ShapeLayer] = []
    func collect(_ l: Layer) {
      if let s = l as? ShapeLayer { glyphs.append(s) }
      l.sublayers.forEach(collect)
    }
    collect(title)
    #expect(glyphs.count == 3)
    // Size 20: glyphs scaled by 0.2, advanced by 60 x 0.2 + tracking 50 / 1000 x 20 = 13;
    // centred lines (26 wide, then 13), the second line 24 below.
    #expect(
      glyphs.map(\.position) == [Point(x: -13, y: 0), Point(x: 0, y: 0), Point(x: -6.5, y: 24)])
    #expect(glyphs.allSatisfy { $0.transform == .scale(x: 0.2, y: 0.2) })
    #expect(glyphs.allSatisfy { $0.fillColor == Color(red: 1, green: 0, blue: 0) })
  }

  @Test func aMissingGlyphFallsBackToTheFont() throws {
    let document = try LottieTest.read(Self.document(text: "AB", chars: "[\(Self.glyphA)]"))
    let title = try LottieTest.layer("Title", in: document.scene, at: 0)
    func text(_ l: Layer) -> TextLayer? {
      if let t = l as? TextLayer { return t }
      return l.sublayers.lazy.compactMap(text).first
    }
    #expect(text(title)?.string == "AB")
    #expect(
      document.warnings.map(\.feature).contains(
        "text without glyph outlines for every character: drawn with the font"))
  }
}
