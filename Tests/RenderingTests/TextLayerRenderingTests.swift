import Flipbook
import FlipbookTestSupport
import Testing

/// Text layers' drawing (visual-effects.md §5), measured from pixels.
@Suite struct TextLayerRenderingTests {
  /// The box of pixels with alpha or non-background color, in pixels (`nil` when none).
  func inked(
    _ b: Bitmap, where test: (RGBA8) -> Bool
  ) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)? = nil
    for y in 0..<b.height {
      for x in 0..<b.width where test(b[x, y]) {
        box =
          box.map { (min($0.minX, x), min($0.minY, y), max($0.maxX, x), max($0.maxY, y)) } ?? (
            x, y, x, y
          )
      }
    }
    return box
  }

  func render(_ label: Layer, size: Size = Size(200, 100)) throws -> Bitmap {
    let scene = Scene(size: size)
    scene.addLayer(label)
    return try scene.makeFrame(at: 0).makeBitmap()
  }

  func label(_ s: String, frame: Rect, fontSize: Double = 20) -> TextLayer {
    let l = TextLayer()
    l.string = s
    l.fontSize = fontSize
    l.frame = frame
    return l
  }

  @Test func defaultsAreCoreAnimations() {
    let l = TextLayer()
    #expect(l.string == nil && l.font == "Helvetica" && l.fontSize == 36)
    #expect(l.foregroundColor == .white && !l.isWrapped)
    #expect(l.truncationMode == .none && l.alignmentMode == .natural)
  }

  @Test func theFirstLineStartsAtTheTopOfTheBounds() throws {
    let b = try render(label("H", frame: Rect(20, 30, 100, 40), fontSize: 20))
    let box = try #require(inked(b) { $0.a > 0 })
    // A capital's top is the ascent minus the cap height below the line's top: Liberation Sans
    // has ascent 0.905 em and cap height 0.729 em, so 3.5 points at 20 points.
    #expect(abs(Double(box.minY) - (30 + 20 * (0.905 - 0.729))) <= 1)
    #expect(box.minX >= 20 && box.minX <= 23)
    // White, the default foreground color, where the stem is solid.
    #expect(b[box.minX + 1, box.minY + 5] == RGBA8(255, 255, 255, 255))
  }

  @Test func alignmentPlacesTheInkInTheBounds() throws {
    for (mode, expectedMid) in [
      (TextLayer.AlignmentMode.left, nil), (.center, 100.0), (.right, nil),
    ] {
      let l = label("Ink", frame: Rect(0, 0, 200, 40))
      l.alignmentMode = mode
      let box = try #require(inked(try render(l)) { $0.a > 0 })
      switch mode {
      case .left: #expect(box.minX <= 3)
      case .right: #expect(box.maxX >= 196 && box.maxX <= 199)
      default: #expect(abs(Double(box.minX + box.maxX + 1) / 2 - expectedMid!) <= 2)
      }
    }
  }

  @Test func textIsAboveTheBackgroundAndBelowSublayersAndBorder() throws {
    let l = label("█████", frame: Rect(0, 0, 200, 100), fontSize: 40)
    l.font = "DejaVu Sans"  // a full block: solid ink from the top-left
    l.backgroundColor = .black
    l.borderColor = Color(red: 0, green: 0, blue: 1)
    l.borderWidth = 4
    let cover = Layer()
    cover.frame = Rect(60, 0, 20, 100)
    cover.backgroundColor = Color(red: 1, green: 0, blue: 0)
    l.addSublayer(cover)
    let b = try render(l)
    #expect(b[30, 20] == RGBA8(255, 255, 255, 255))  // text over the background
    #expect(b[70, 20] == RGBA8(255, 0, 0, 255))  // the sublayer over the text
    #expect(b[1, 20] == RGBA8(0, 0, 255, 255))  // the border over the text
    #expect(b[190, 90] == RGBA8(0, 0, 0, 255))  // background where there is no text
  }

  @Test func textIsClippedToTheBounds() throws {
    let l = label("Clipped text that is far too long", frame: Rect(50, 40, 60, 12), fontSize: 20)
    let b = try render(l)
    let box = try #require(inked(b) { $0.a > 0 })
    #expect(box.minX >= 50 && box.maxX <= 109 && box.minY >= 40 && box.maxY <= 51)
  }

  @Test func wrappedLinesStackDownTheBounds() throws {
    let l = label("one two three", frame: Rect(0, 0, 45, 100), fontSize: 16)
    l.isWrapped = true
    let b = try render(l)
    // Three lines: three bands of ink separated by empty rows.
    var bands = 0, inBand = false
    for y in 0..<b.height {
      let any = (0..<b.width).contains { b[$0, y].a > 0 }
      if any && !inBand { bands += 1 }
      inBand = any
    }
    #expect(bands == 3)
  }

  @Test func fontSizeAndForegroundColorAnimate() throws {
    let l = label("Hi", frame: Rect(0, 0, 100, 50))
    var size = BasicAnimation(keyPath: "fontSize")
    size.fromValue = 10
    size.toValue = 30
    size.duration = 1
    size.timingFunction = .linear
    l.add(size, forKey: "size")
    var color = BasicAnimation(keyPath: "foregroundColor")
    color.toValue = .color(.black)
    color.duration = 1
    color.timingFunction = .linear
    l.add(color, forKey: "color")
    let shown = try #require(l.presentation(at: 0.5) as? TextLayer)
    #expect(abs(shown.fontSize - 20) < 1e-9)
    #expect(abs((shown.foregroundColor?.red ?? 0) - 0.5) < 1e-9)
    #expect(l.fontSize == 20)
  }

  @Test func anUnknownFontFailsTheFrameNamingLayerAndFont() {
    let l = label("Hi", frame: Rect(0, 0, 100, 50))
    l.name = "title"
    l.font = "Comic Sans MS"
    #expect(throws: RenderingError.unknownFont(layer: "title", font: "Comic Sans MS")) {
      try render(l)
    }
  }

  /// Issue 18: the limits a file's string is read within hold for one set from Swift, when it
  /// is drawn (40,000 lines took Pango 9 s).
  @Test func aStringPastTheLimitsFailsTheFrameNamingTheLayer() throws {
    let lines = label(String(repeating: "a\n", count: 10_000), frame: Rect(0, 0, 100, 50))
    lines.name = "log"
    #expect(throws: RenderingError.textTooLong(layer: "log", characters: 20_000, lines: 10_001)) {
      try render(lines)
    }
    #expect(
      RenderingError.textTooLong(layer: "log", characters: 20_000, lines: 10_001).description
        == "layer 'log' has a string of 20000 characters in 10001 lines, over the limit of "
        + "100000 characters and 10000 lines")
    let long = label(String(repeating: "é", count: 100_001), frame: Rect(0, 0, 100, 50))
    #expect(throws: RenderingError.textTooLong(layer: nil, characters: 100_001, lines: 1)) {
      try render(long)
    }
    // At the limits it draws.
    lines.string = String(repeating: "a\n", count: 9_999)
    _ = try render(lines)
  }

  /// Issue 18: a frame draws at most 4,000,000 characters of text, each replicator instance
  /// counted (10,000 wrapped labels of 750 characters took 5 s a frame, and were laid out again
  /// on every frame while the layout cache held 4,096).
  @Test func aFramesTextIsBoundedAndItsLayoutsStayCached() throws {
    #expect(TextLayout.maximumCharactersPerFrame == 4_000_000)
    let copies = ReplicatorLayer()
    copies.frame = Rect(0, 0, 100, 50)
    // 40 instances of 99,960 characters and 1,540 for their font size (1,500) and letters (2
    // of 20): 3,999,940.
    let line = label(String(repeating: "ab", count: 49_980), frame: Rect(0, 0, 100, 50))
    line.name = "line"
    copies.addSublayer(line)
    copies.instanceCount = 40
    _ = try render(copies)
    copies.instanceCount = 41
    #expect(throws: RenderingError.tooMuchTextInFrame(layer: "line")) { try render(copies) }
    #expect(
      RenderingError.tooMuchTextInFrame(layer: "line").description
        == "the frame's text layers would draw more than 4 million characters, the limit, at "
        + "layer 'line' (every text layer's string, for each replicator instance, and the "
        + "work of its wrapped lines, paragraphs, tabs, mixed directions and font sizes counted as "
        + "characters; stroked text 1 + 2 x its stroke width over its size times)")
    // 5,000 distinct labels are laid out once, then found again.
    let strings = (0..<5_000).map { "label \($0)" }
    let style = TextStyle(fontSize: 12, width: 100)
    let first = try strings.map { try TextLayout.make($0, style: style) }
    let again = try strings.map { try TextLayout.make($0, style: style) }
    #expect(zip(first, again).allSatisfy { $0 === $1 })
  }

  /// Issue 18, tenth hostile pass: wrapped text counts its expected lines toward the frame's
  /// text, 20 characters each, before it is laid out. 40 layers of 100,000 characters wrapped
  /// 1 point wide (a line a character, each shaped again) took 205 s and 758 MB for a frame.
  @Test func wrappedLinesCountTowardTheFramesText() throws {
    #expect(TextLayout.charactersPerWrappedLine == 20)
    let text = String(repeating: "xy ", count: 10_000)  // 30,000 characters
    func style(width: Double) -> TextStyle {
      TextStyle(fontSize: 10, width: width, isWrapped: true)
    }
    // A line a character at most; else a line for each width of characters half the size wide.
    #expect(TextLayout.expectedWrappedLines(of: text, style: style(width: 1)) == 30_000)
    #expect(TextLayout.expectedWrappedLines(of: text, style: style(width: 200)) == 750)
    #expect(TextLayout.layoutCost(of: text, style: style(width: 200)) == 30_000 + 15_000)
    #expect(TextLayout.expectedWrappedLines(of: text, style: TextStyle(fontSize: 10)) == 0)
    // 630,000 an instance 1 point wide: six draw, the seventh is refused before it is drawn.
    let copies = ReplicatorLayer()
    copies.frame = Rect(0, 0, 100, 50)
    let narrow = label(text, frame: Rect(0, 0, 1, 50), fontSize: 10)
    narrow.isWrapped = true
    narrow.name = "narrow"
    copies.addSublayer(narrow)
    // Laid out once (in pieces, not shaped as one run for every line: `flipbook-bench
    // text-wrapped` times it), and counted for every instance: its font and size once.
    #expect(TextLayout.layoutCost(of: text, style: style(width: 1)) == 630_000)
    var tally = TextLayout.Tally()
    for _ in 0..<6 { tally.add(text, style: style(width: 1)) }
    #expect(tally.characters == 6 * 630_000 + 1_500 + 3 * 20)
    copies.instanceCount = 6
    _ = try render(copies)
    copies.instanceCount = 7
    #expect(throws: RenderingError.tooMuchTextInFrame(layer: "narrow")) { try render(copies) }
    #expect(
      RenderingError.tooMuchTextInFrame(layer: "narrow").description
        == "the frame's text layers would draw more than 4 million characters, the limit, at "
        + "layer 'narrow' (every text layer's string, for each replicator instance, and the "
        + "work of its wrapped lines, paragraphs, tabs, mixed directions and font sizes counted as "
        + "characters; stroked text 1 + 2 x its stroke width over its size times)")
    // Ordinary wrapped text counts little more than its characters: 40 instances of 30,000
    // characters wrapped 200 points wide (1.8 million) draw.
    narrow.bounds = Rect(0, 0, 200, 50)
    copies.instanceCount = 40
    _ = try render(copies)
  }

  /// Issue 18, eleventh hostile pass: each font size a frame lays text out in counts 1,500
  /// characters toward its text, and each character new to a size 20 more (10,000 labels of
  /// two letters, each at its own size, took 11 s for a frame). Tabs and lines of both
  /// directions count their work too (100,000 tabs took 89 s).
  @Test func fontSizesTabsAndMixedDirectionsCountTowardTheFramesText() throws {
    // 39 instances of 100,000 characters, at one size: 3,900,000 and 1,520 for the size.
    let copies = ReplicatorLayer()
    copies.frame = Rect(0, 0, 100, 50)
    copies.addSublayer(label(String(repeating: "a", count: 100_000), frame: Rect(0, 0, 100, 20)))
    copies.instanceCount = 39
    let root = Layer()
    root.frame = Rect(0, 0, 200, 100)
    root.addSublayer(copies)
    // 70 labels of "ab" at one size more draw (140 characters, 1,540 for the size) ...
    let labels = (0..<70).map { i in
      let l = label("ab", frame: Rect(0, 50, 100, 20), fontSize: 10)
      l.name = "label \(i)"
      root.addSublayer(l)
      return l
    }
    _ = try render(root)
    // ... and at 70 sizes are refused at the 64th (3,901,520 + 64 x 1,542 = 4,000,208).
    for (i, l) in labels.enumerated() { l.fontSize = 10 + Double(i) * 0.001 }
    #expect(throws: RenderingError.tooMuchTextInFrame(layer: "label 63")) { try render(root) }
    // A line of 20,000 tabs counts 3,999,800 for its tabs (each the characters before it over
    // 50); wrapped, its line's width is kept as it goes, and it draws.
    let tabs = label(String(repeating: "\t", count: 20_000), frame: Rect(0, 0, 100, 20))
    tabs.name = "tabs"
    #expect(throws: RenderingError.tooMuchTextInFrame(layer: "tabs")) { try render(tabs) }
    tabs.isWrapped = true
    _ = try render(tabs)
    // A line of 100,000 characters alternating Latin and Arabic counts 10,000,000 for its
    // directions (its characters squared over 1,000); wrapped 180 points wide, 3,000.
    let mixed = label(String(repeating: "aب", count: 50_000), frame: Rect(0, 0, 180, 20))
    mixed.fontSize = 12
    mixed.name = "mixed"
    #expect(throws: RenderingError.tooMuchTextInFrame(layer: "mixed")) { try render(mixed) }
    mixed.isWrapped = true
    _ = try render(mixed)
  }

  @Test func sceneFilesReadEveryTextKey() throws {
    let scene = try SceneFormat.decode(
      Array(
        """
        {"flipbook": 1, "size": [100, 100], "layers": [{"type": "text", "name": "t", "string": "Hi",
         "font": "Arial-BoldMT", "fontSize": 12, "foregroundColor": "#ff0000", "isWrapped": true,
         "truncationMode": "middle", "alignmentMode": "justified"}]}
        """.utf8), file: "t.json")
    let t = try #require(scene.layers.first as? TextLayer)
    #expect(t.string == "Hi" && t.font == "Arial-BoldMT" && t.fontSize == 12)
    #expect(t.foregroundColor == Color(red: 1, green: 0, blue: 0) && t.isWrapped)
    #expect(t.truncationMode == .middle && t.alignmentMode == .justified)
  }
}

/// Issue 18, tenth hostile pass: glyphs larger than `Canvas.largestCachedGlyphSize` pixels are
/// filled as outlines (Cairo kept an image of each size and transform: 200 layers of one
/// character at 3,000 to 3,199 points held 3.9 GB). The outlines cover the glyph's ink as its
/// image does.
@Suite struct LargeGlyphTests {
  @Test(arguments: [200.0, 300.0])
  func aGlyphDrawnAsAnOutlineCoversItsInk(size: Double) throws {
    #expect(Canvas.largestCachedGlyphSize == 256)
    let canvas = try Canvas(pixelWidth: 400, pixelHeight: 400)
    let layout = try TextLayout.make("漢", style: TextStyle(fontSize: size))
    canvas.draw(layout, at: .zero, color: .black)
    let b = canvas.makeBitmap()
    var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
    var covered = 0
    for y in 0..<b.height {
      for x in 0..<b.width where b[x, y].a > 128 {
        (minX, minY) = (min(minX, x), min(minY, y))
        (maxX, maxY) = (max(maxX, x), max(maxY, y))
        covered += 1
      }
    }
    let ink = layout.inkBounds
    #expect(abs(Double(minX) - ink.minX) <= 2 && abs(Double(maxX + 1) - ink.maxX) <= 2)
    #expect(abs(Double(minY) - ink.minY) <= 2 && abs(Double(maxY + 1) - ink.maxY) <= 2)
    // The strokes cover about the same share of the ink box at either size.
    let share = Double(covered) / (ink.width * ink.height)
    #expect(share > 0.3 && share < 0.6, "\(share)")
  }
}
