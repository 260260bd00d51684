import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, twelfth pass: a code out of a Lottie enumeration (a stroke's cap `lc` of 9, a fill
/// rule `r` of 0, a gradient type `t` of 3) was drawn as some other code without a word. Each
/// is now drawn as lottie-web draws it, with a warning naming its place and the codes known
/// (`Fixtures/invalid-lottie/enumeration-codes.json` holds one of each).
@Suite struct EnumerationCodeTests {
  static func value(_ k: String) -> String { #"{"a": 0, "k": \#(k)}"# }

  /// A shape layer named "Shape" of `shapes`, read: its scene and its warnings' features.
  static func read(
    _ shapes: String, extra: String = ""
  ) throws -> (
    scene: Scene, warnings: [String]
  ) {
    let layer = LottieTest.shapeLayer(
      "Shape", ks: #"{"p": {"a": 0, "k": [50, 50]}}"#, shapes: shapes, extra: extra)
    let read = try LottieTest.read(LottieTest.document(layers: "[\(layer)]"))
    return (read.scene, read.warnings.map(\.feature))
  }

  /// The shape layers of the scene, in drawing order.
  static func shapes(_ scene: Scene) throws -> [ShapeLayer] {
    func all(_ layer: Layer) -> [ShapeLayer] {
      (layer as? ShapeLayer).map { [$0] } ?? [] + layer.sublayers.flatMap(all)
    }
    return all(try scene.presentationTree(at: 0))
  }

  static let line =
    #"{"ty": "sh", "ks": {"a": 0, "k": {"c": false, "v": [[-30, 0], [30, 0]], "#
    + #""i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]]}}}"#

  static func stroke(_ codes: String) -> String {
    #"{"ty": "st", \#(codes), "c": \#(value("[1, 0, 0]")), "o": \#(value("100")), "#
      + #""w": \#(value("20")), "ml": 10}"#
  }

  @Test func strokeCapsAndJoinsOutOfRangeAreDrawnAsLottieWebDrawsThem() throws {
    // 9 names no SVG cap or join: SVG draws its initial butt and miter (limit 4).
    let unknown = try Self.read("[\(Self.line), \(Self.stroke(#""lc": 9, "lj": 9"#))]")
    let drawn = try #require(try Self.shapes(unknown.scene).first)
    #expect(drawn.lineCap == .butt && drawn.lineJoin == .miter && drawn.miterLimit == 4)
    #expect(
      unknown.warnings == [
        "stroke cap 9 (layers[0].shapes[1].lc: 1 to 3): drawn butt, as lottie-web's SVG draws it",
        "stroke join 9 (layers[0].shapes[1].lj: 1 to 3): drawn mitred (limit 4), as "
          + "lottie-web's SVG draws it",
      ])
    // The butt end: nothing past the line's end at x = 80; a round cap reaches it.
    let butt = try unknown.scene.makeFrame(at: 0).makeBitmap()
    #expect(butt[85, 50].a == 0 && butt[75, 50].a == 255)
    let round = try Self.read("[\(Self.line), \(Self.stroke(#""lc": 2, "lj": 2"#))]")
    #expect(try round.scene.makeFrame(at: 0).makeBitmap()[85, 50].a == 255)
    #expect(round.warnings.isEmpty)
    // 0 is lottie-web's `lc || 2`: round, as when absent.
    let zero = try Self.read("[\(Self.line), \(Self.stroke(#""lc": 0, "lj": -1"#))]")
    let zeroDrawn = try #require(try Self.shapes(zero.scene).first)
    #expect(zeroDrawn.lineCap == .round && zeroDrawn.lineJoin == .miter)
    #expect(
      zero.warnings.first
        == "stroke cap 0 (layers[0].shapes[1].lc: 1 to 3): drawn round, as lottie-web draws 0 "
        + "(as if absent)")
    // A fraction is no code either.
    #expect(
      try Self.read("[\(Self.line), \(Self.stroke(#""lc": 2.5"#))]").warnings
        == [
          "stroke cap 2.5 (layers[0].shapes[1].lc: 1 to 3): drawn butt, as lottie-web's SVG draws it"
        ])
  }

  @Test func aDashEntryOfAnotherKindIsALength() throws {
    let dashes =
      #""d": [{"n": "d", "v": \#(Self.value("10"))}, {"n": "zz", "v": \#(Self.value("5"))}, "#
      + #"{"n": "o", "v": \#(Self.value("2"))}]"#
    let read = try Self.read("[\(Self.line), \(Self.stroke(#""lc": 1, "lj": 1, \#(dashes)"#))]")
    let drawn = try #require(try Self.shapes(read.scene).first)
    #expect(drawn.lineDashPattern == [10, 5] && drawn.lineDashPhase == 2)
    #expect(
      read.warnings == [
        #"dash entry kind "zz" (layers[0].shapes[1].d[1].n: d, g or o): drawn as a length"#
      ])
  }

  static let square =
    #"{"ty": "rc", "d": D, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 40]}, "#
    + #""r": {"a": 0, "k": 0}}"#

  @Test func fillRulesGradientTypesAndPolystarTypesOutOfRange() throws {
    let fill =
      #"{"ty": "fl", "r": 9, "c": \#(Self.value("[1, 0, 0]")), "o": \#(Self.value("100"))}"#
    let rule = try Self.read("[\(Self.square.replacingOccurrences(of: "D", with: "1")), \(fill)]")
    #expect(try Self.shapes(rule.scene).first?.fillRule == .nonZero)
    #expect(
      rule.warnings == [
        "fill rule 9 (layers[0].shapes[1].r: 1 or 2): drawn non-zero, as lottie-web draws it"
      ])
    func gradient(_ t: Int) throws -> (GradientLayer?, [String]) {
      let g =
        #"{"ty": "gf", "t": \#(t), "s": \#(Self.value("[0, 0]")), "e": \#(Self.value("[20, 0]")), "#
        + #""o": \#(Self.value("100")), "g": {"p": 2, "k": \#(Self.value("[0, 1, 0, 0, 1, 0, 0, 1]"))}}"#
      let read = try Self.read("[\(Self.square.replacingOccurrences(of: "D", with: "1")), \(g)]")
      func find(_ layer: Layer) -> GradientLayer? {
        (layer as? GradientLayer) ?? layer.sublayers.lazy.compactMap(find).first
      }
      return (find(try read.scene.presentationTree(at: 0)), read.warnings)
    }
    let (three, warned) = try gradient(3)
    #expect(three?.type == .radial)
    #expect(
      warned == [
        "gradient type 3 (layers[0].shapes[1].t: 1 or 2): drawn radial, as lottie-web draws it"
      ])
    #expect(try gradient(1).0?.type == .axial)
    // A polystar of type 7 is lottie-web's polygon: the same path as type 2.
    func polystar(_ sy: Int) throws -> (Path?, [String]) {
      let star =
        #"{"ty": "sr", "sy": \#(sy), "p": \#(Self.value("[0, 0]")), "r": \#(Self.value("0")), "#
        + #""pt": \#(Self.value("5")), "or": \#(Self.value("20")), "ir": \#(Self.value("10")), "#
        + #""os": \#(Self.value("0")), "is": \#(Self.value("0"))}"#
      let read = try Self.read("[\(star), \(fill.replacingOccurrences(of: "9", with: "1"))]")
      return (try Self.shapes(read.scene).first?.path, read.warnings)
    }
    #expect(try polystar(7).0 == polystar(2).0)
    #expect(try polystar(7).0 != polystar(1).0)
  }

  @Test func shapeDirectionsTrimAndRepeaterModesOutOfRange() throws {
    let stroke = Self.stroke(#""lc": 1, "lj": 1"#)
    func path(_ d: String) throws -> Path? {
      try Self.shapes(
        Self.read("[\(Self.square.replacingOccurrences(of: "D", with: d)), \(stroke)]").scene
      ).first?.path
    }
    // lottie-web draws a rectangle of another code as 3 (reversed), and 2 as 1.
    #expect(try path("9") == path("3"))
    #expect(try path("2") == path("1"))
    #expect(try path("9") != path("1"))
    let ellipse =
      #"{"ty": "el", "d": D, "p": \#(Self.value("[0, 0]")), "s": \#(Self.value("[20, 20]"))}"#
    func ellipsePath(_ d: String) throws -> (Path?, [String]) {
      let read = try Self.read("[\(ellipse.replacingOccurrences(of: "D", with: d)), \(stroke)]")
      return (try Self.shapes(read.scene).first?.path, read.warnings)
    }
    let (nine, warned) = try ellipsePath("9")
    #expect(try nine == ellipsePath("1").0)
    #expect(
      warned == [
        "shape direction 9 (layers[0].shapes[0].d: 1 to 3): drawn as 1 (normal), as lottie-web "
          + "draws it"
      ])
    // A trim of mode 9 cuts each path on its own (1); a repeater of mode 9 stacks as 2.
    let two = Self.square.replacingOccurrences(of: "D", with: "1")
    let moved = two.replacingOccurrences(of: "[0, 0]", with: "[30, 0]")
    func trimmed(_ m: Int) throws -> [Path?] {
      let trim =
        #"{"ty": "tm", "m": \#(m), "s": \#(Self.value("0")), "e": \#(Self.value("50")), "o": \#(Self.value("0"))}"#
      return try Self.shapes(Self.read("[\(two), \(moved), \(trim), \(stroke)]").scene).map(\.path)
    }
    #expect(try trimmed(9) == trimmed(1))
    #expect(try trimmed(9) != trimmed(2))
    // Which copy is on top shows where the copies, of different opacities, overlap.
    func repeated(_ m: Int) throws -> Bitmap {
      let repeater =
        #"{"ty": "rp", "m": \#(m), "c": \#(Self.value("3")), "o": \#(Self.value("0")), "#
        + #""tr": {"p": \#(Self.value("[10, 0]")), "so": \#(Self.value("100")), "#
        + #""eo": \#(Self.value("20"))}}"#
      let fill = #"{"ty": "fl", "c": \#(Self.value("[1, 0, 0]")), "o": \#(Self.value("100"))}"#
      return try Self.read("[\(two), \(fill), \(repeater)]").scene.makeFrame(at: 0).makeBitmap()
    }
    #expect(try repeated(9) == repeated(2))
    #expect(try repeated(9) != repeated(1))
  }

  @Test func blendModesMaskModesAndBlurDimensionsOutOfRange() throws {
    let mask =
      #"{"mode": "zz", "o": \#(Self.value("100")), "pt": \#(Self.value(#"{"c": true, "v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]]}"#))}"#
    let blur =
      #"{"ty": 29, "ef": [{"v": \#(Self.value("10"))}, {"v": \#(Self.value("9"))}, {"v": \#(Self.value("0"))}]}"#
    let fill = #"{"ty": "fl", "c": \#(Self.value("[1, 0, 0]")), "o": \#(Self.value("100"))}"#
    let read = try Self.read(
      "[\(Self.square.replacingOccurrences(of: "D", with: "1")), \(fill)]",
      extra: #""bm": 2.5, "masksProperties": [\#(mask)], "ef": [\#(blur)]"#)
    #expect(
      read.warnings == [
        #"mask mode "zz" (layers[0].masksProperties[0].mode: a, s, i, l, d, f or n): drawn as add"#,
        "Gaussian blur dimensions 9 (layers[0].ef[0].ef[1].v: 1 to 3): drawn in both dimensions "
          + "(1), as lottie-web draws it",
        "blend mode 2.5 (layers[0].bm: 0 to 16): drawn normal",
      ])
    let tree = try read.scene.presentationTree(at: 0)
    func all(_ layer: Layer) -> [Layer] { [layer] + layer.sublayers.flatMap(all) }
    let layers = all(tree)
    // The mask drawn as add (white, normal), where "zz" left it out.
    let masked = try #require(layers.first { $0.mask != nil })
    #expect(masked.mask?.sublayers.map(\.compositingFilter) == [.normal])
    #expect(layers.flatMap(\.filters) == [.gaussianBlur(radius: 3)])
    #expect(layers.allSatisfy { $0.compositingFilter == .normal })
  }
}
