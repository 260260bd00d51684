import Flipbook
import FlipbookTestSupport
import Testing

/// Repeaters (`rp`) as lottie-web's RepeaterModifier draws them: copies that start at the
/// offset, each carrying the transform once more, stacked by the composite mode, faded from the
/// start to the end opacity, animated where the repeater is.
@Suite struct RepeaterTests {
  /// A 100 x 100 scene of one shape layer: a red 10 x 10 square centred at `square`, filled,
  /// then a repeater named "Copies" with `repeater` keys (JSON, after `"ty": "rp"`), in a group.
  static func scene(
    square: (Double, Double) = (15, 50), _ repeater: String, afterRepeater: String = ""
  ) throws -> Scene {
    let items = """
      {"ty": "rc", "p": {"a": 0, "k": [\(square.0), \(square.1)]}, "s": {"a": 0, "k": [10, 10]},
       "r": {"a": 0, "k": 0}},
      \(afterRepeater.isEmpty ? #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}},"# : "")
      {"ty": "rp", "nm": "Copies", \(repeater)}
      \(afterRepeater.isEmpty ? "" : ", " + afterRepeater)
      """
    let shapes = #"[{"ty": "gr", "it": [\#(items), {"ty": "tr"}]}]"#
    return try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("L", shapes: shapes))]")
    ).scene
  }

  /// The transform `tr` of a repeater (JSON keys), static values.
  static func transform(
    p: (Double, Double) = (0, 0), a: (Double, Double) = (0, 0), s: Double = 100, r: Double = 0,
    so: Double = 100, eo: Double = 100
  ) -> String {
    """
    "tr": {"ty": "tr", "p": {"a": 0, "k": [\(p.0), \(p.1)]}, "a": {"a": 0, "k": [\(a.0), \(a.1)]},
     "s": {"a": 0, "k": [\(s), \(s)]}, "r": {"a": 0, "k": \(r)}, "so": {"a": 0, "k": \(so)},
     "eo": {"a": 0, "k": \(eo)}}
    """
  }

  /// The alpha (0...255) at each point of the frame at `time`.
  static func alpha(_ scene: Scene, at time: Double = 0, _ points: [(Int, Int)]) throws -> [UInt8] {
    let b = try scene.makeFrame(at: time).makeBitmap()
    return points.map { b[$0.0, $0.1].a }
  }

  @Test func copiesStartAtTheOffset() throws {
    // Offset 1: the copies carry the transform 1, 2 and 3 times; the original place is empty.
    let s = try Self.scene(
      #""c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 1}, "m": 1, "# + Self.transform(p: (30, 0)))
    #expect(try Self.alpha(s, [(15, 50), (45, 50), (75, 50), (95, 50)]) == [0, 255, 255, 0])
    // Offset 0.5: half a step first, then whole steps.
    let half = try Self.scene(
      #""c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 0.5}, "m": 1, "# + Self.transform(p: (30, 0)))
    #expect(try Self.alpha(half, [(15, 50), (30, 50), (60, 50), (90, 50)]) == [0, 255, 255, 255])
    // Offset -1.5: the steps run backwards first (copies at -1.5, -0.5, 0.5 steps).
    let back = try Self.scene(
      square: (65, 50),
      #""c": {"a": 0, "k": 3}, "o": {"a": 0, "k": -1.5}, "m": 1, "# + Self.transform(p: (20, 0)))
    #expect(
      try Self.alpha(back, [(35, 50), (55, 50), (75, 50), (65, 50), (85, 50)])
        == [255, 255, 255, 0, 0])
  }

  @Test func aWholeNegativeOffsetDrawsTheCopyAtZeroTwice() throws {
    // lottie-web's RepeaterModifier takes no step at the copy that reaches 0: offset -1 and
    // three copies draw at -1, 0 and 0 steps.
    let s = try Self.scene(
      square: (45, 50),
      #""c": {"a": 0, "k": 3}, "o": {"a": 0, "k": -1}, "m": 1, "# + Self.transform(p: (30, 0)))
    #expect(try Self.alpha(s, [(15, 50), (45, 50), (75, 50)]) == [255, 255, 0])
  }

  @Test func thePositionIsNotTurnedByTheCopiesBefore() throws {
    // Each copy turns 90 degrees about (50, 50) and moves 10 to the right per step: the square
    // above the centre lands right of it, then below it, then left of it, each moved on by
    // 10 x its steps (30 for the last: back to the centre). A replicator's instanceTransform
    // would turn the moves too.
    let s = try Self.scene(
      square: (50, 20),
      #""c": {"a": 0, "k": 4}, "o": {"a": 0, "k": 0}, "m": 1, "#
        + Self.transform(p: (10, 0), a: (50, 50), r: 90))
    #expect(
      try Self.alpha(s, [(50, 20), (90, 50), (70, 80), (50, 50), (50, 80), (20, 50), (60, 80)])
        == [255, 255, 255, 255, 0, 0, 0])
  }

  @Test func scaleGrowsByItsPowerAboutTheAnchor() throws {
    // 200% per copy about the square's own centre: 10, 20, then 40 points wide.
    let s = try Self.scene(
      square: (50, 50),
      #""c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 0}, "m": 1, "#
        + Self.transform(a: (50, 50), s: 200))
    #expect(try Self.alpha(s, [(50, 50), (68, 50), (72, 50)]) == [255, 255, 0])
  }

  @Test(arguments: [1, 2])
  func opacityRunsDownTheStackAndTheModeSaysWhichCopyIsOnTop(mode: Int) throws {
    // Two copies 10 apart, 100% on the top of the stack and 50% at the bottom. With m 1 the
    // copy at the offset is on top; with m 2 (or no m) the other one is.
    let s = try Self.scene(
      #""c": {"a": 0, "k": 2}, "o": {"a": 0, "k": 0}, "m": \#(mode), "#
        + Self.transform(p: (10, 0), so: 100, eo: 50))
    let first = try #require(Self.alpha(s, [(12, 50)]).first)
    let second = try #require(Self.alpha(s, [(27, 50)]).first)
    if mode == 1 {
      #expect(first == 255 && (127...128).contains(second))
    } else {
      #expect((127...128).contains(first) && second == 255)
    }
    // The stack lists its bottom copy first.
    let stack = try LottieTest.layer("Copies", in: s, at: 0)
    let x = stack.sublayers.map(\.position.x)
    #expect(x == (mode == 1 ? [10, 0] : [0, 10]))
  }

  @Test func theCountRoundsUpAndAnimates() throws {
    // c runs 1 -> 3 over frames 0...10 (1 s): ceil(c) copies, shown and hidden as it goes.
    let s = try Self.scene(
      #""c": {"a": 1, "k": [{"t": 0, "s": [1]}, {"t": 10, "s": [3]}]}, "o": {"a": 0, "k": 0}, "m": 1, "#
        + Self.transform(p: (30, 0)))
    let points = [(15, 50), (45, 50), (75, 50)]
    #expect(try Self.alpha(s, at: 0, points) == [255, 0, 0])
    #expect(try Self.alpha(s, at: 0.02, points) == [255, 255, 0])
    #expect(try Self.alpha(s, at: 0.5, points) == [255, 255, 0])
    #expect(try Self.alpha(s, at: 0.52, points) == [255, 255, 255])
    #expect(try Self.alpha(s, at: 2, points) == [255, 255, 255])
  }

  @Test func anAnimatedTransformMovesTheCopies() throws {
    // The step's position runs (0, 0) -> (40, 0) and its rotation 0 -> 90 over frames 0...10,
    // about the square's centre: half way, the second copy is 20 right of the first, turned
    // 45 degrees (a diamond reaching 7 points along the axes, 5 along the diagonals).
    let tr = #"""
      "tr": {"ty": "tr", "p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 10, "s": [40, 0]}]},
       "a": {"a": 0, "k": [15, 50]}, "s": {"a": 0, "k": [100, 100]},
       "r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 10, "s": [90]}]},
       "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}
      """#
    let s = try Self.scene(#""c": {"a": 0, "k": 2}, "o": {"a": 0, "k": 0}, "m": 1, "# + tr)
    // (40, 50) is inside the diamond and outside an upright square; (39, 45) the other way.
    #expect(try Self.alpha(s, at: 0.5, [(35, 50), (40, 50), (39, 45)]) == [255, 255, 0])
    #expect(try Self.alpha(s, at: 1, [(15, 50), (55, 50), (35, 50)]) == [255, 255, 0])
  }

  @Test func stylesAfterTheRepeaterDrawEveryCopysPaths() throws {
    // [square, repeater, fill]: the fill takes the square as it is and in each copy.
    let s = try Self.scene(
      #""c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 1}, "m": 1, "# + Self.transform(p: (30, 0)),
      afterRepeater:
        #"{"ty": "fl", "nm": "After", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": 100}}"#
    )
    #expect(try Self.alpha(s, [(15, 50), (45, 50), (75, 50), (30, 50)]) == [255, 255, 255, 0])
    let after = try #require(try LottieTest.layer("After", in: s, at: 0) as? ShapeLayer)
    #expect(after.path?.subpaths.count == 4)
    // Nothing before the repeater draws: no copies are built.
    #expect((try? LottieTest.layer("Copies", in: s, at: 0)) == nil)
  }

  @Test func aRepeaterInAnInnerGroupReachesTheStylesOutsideIt() throws {
    // [group [square, repeater of 3], fill]: the fill outside draws the square as it is and in
    // each copy, as the repeater's copies are paths of the group.
    let inner = """
      {"ty": "gr", "nm": "Inner", "it": [
        {"ty": "rc", "p": {"a": 0, "k": [15, 50]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
        {"ty": "rp", "c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 0}, "m": 1, \(Self.transform(p: (30, 0)))},
        {"ty": "tr"}]}
      """
    let shapes = """
      [{"ty": "gr", "it": [\(inner),
        {"ty": "fl", "nm": "Outer", "c": {"a": 0, "k": [0, 0, 1, 1]}}, {"ty": "tr"}]}]
      """
    let s = try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("L", shapes: shapes))]")
    ).scene
    #expect(try Self.alpha(s, [(15, 50), (45, 50), (75, 50), (30, 50)]) == [255, 255, 255, 0])
    let outer = try #require(try LottieTest.layer("Outer", in: s, at: 0) as? ShapeLayer)
    #expect(outer.path?.subpaths.count == 4)
  }
}
