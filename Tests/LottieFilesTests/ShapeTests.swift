import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

/// Each Lottie shape's geometry, modifiers and drawing order, read from what the reader builds.
@Suite struct ShapeTests {
  /// The scene of one shape layer with `items` in a group, filled by a style named "Style".
  static func scene(
    _ items: String,
    style: String = #"{"ty": "fl", "nm": "Style", "c": {"a": 0, "k": [1, 0, 0, 1]}}"#
  ) throws -> Scene {
    let shapes = """
      [{"ty": "gr", "nm": "Group", "it": [\(items), \(style), {"ty": "tr"}]}]
      """
    return try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("Shapes", shapes: shapes))]")
    ).scene
  }

  static func path(_ scene: Scene, at time: Double = 0, named name: String = "Style") throws -> Path
  {
    let layer = try LottieTest.layer(name, in: scene, at: time)
    return (layer as? ShapeLayer)?.path ?? Path()
  }

  /// The points a path passes through (moves, line and curve ends).
  static func points(_ path: Path) -> [Point] {
    path.elements.compactMap {
      switch $0 {
      case .move(let p), .line(let p): return p
      case .curve(let p, _, _): return p
      case .quadCurve(let p, _): return p
      case .closeSubpath: return nil
      }
    }
  }

  @Test func rectangleStartsTopRightClockwise() throws {
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 40]}, "s": {"a": 0, "k": [20, 10]}, "r": {"a": 0, "k": 0}}"#
    )
    let path = try Self.path(s)
    #expect(
      Self.points(path) == [
        Point(x: 60, y: 35), Point(x: 60, y: 45), Point(x: 40, y: 45), Point(x: 40, y: 35),
        Point(x: 60, y: 35),
      ])
    #expect(path.elements.last == .closeSubpath)
    // Reversed (d: 3): the same corner first, counter-clockwise.
    let r = try Self.scene(
      #"{"ty": "rc", "d": 3, "p": {"a": 0, "k": [50, 40]}, "s": {"a": 0, "k": [20, 10]}, "r": {"a": 0, "k": 0}}"#
    )
    #expect(
      Self.points(try Self.path(r)) == [
        Point(x: 60, y: 35), Point(x: 40, y: 35), Point(x: 40, y: 45), Point(x: 60, y: 45),
        Point(x: 60, y: 35),
      ])
  }

  @Test func roundnessIsClampedToHalfTheShorterSide() throws {
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 10]}, "r": {"a": 0, "k": 100}}"#
    )
    let points = Self.points(try Self.path(s))
    #expect(points.count == 9)  // eight corners' ends, and the curve back to the first
    #expect(points[0] == Point(x: 10, y: 0))  // radius 5: the right side's straight part is empty
    #expect(points[2] == Point(x: 5, y: 5))
  }

  @Test func ellipseStartsAtTheTopClockwise() throws {
    let s = try Self.scene(
      #"{"ty": "el", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 20]}}"#)
    let path = try Self.path(s)
    #expect(
      Self.points(path) == [
        Point(x: 50, y: 40), Point(x: 70, y: 50), Point(x: 50, y: 60), Point(x: 30, y: 50),
        Point(x: 50, y: 40),
      ])
    guard case .curve(_, let c1, _) = path.elements[1] else {
      Issue.record("expected a curve")
      return
    }
    #expect(abs(c1.x - (50 + 20 * 0.5519)) < 1e-9 && c1.y == 40)
  }

  @Test func starAlternatesOuterAndInnerRadii() throws {
    let s = try Self.scene(
      #"{"ty": "sr", "sy": 1, "pt": {"a": 0, "k": 5}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}, "or": {"a": 0, "k": 40}, "ir": {"a": 0, "k": 20}, "os": {"a": 0, "k": 0}, "is": {"a": 0, "k": 0}}"#
    )
    let points = Self.points(try Self.path(s))
    #expect(points.count == 11)  // ten points, and the edge back to the first
    #expect(abs(points[0].x) < 1e-9 && abs(points[0].y + 40) < 1e-9)
    // The second point: 36 degrees clockwise from up, on the inner radius.
    let angle = -Double.pi / 2 + Double.pi / 5
    #expect(abs(points[1].x - 20 * cos(angle)) < 1e-9 && abs(points[1].y - 20 * sin(angle)) < 1e-9)
  }

  @Test func polygonHasOnePointPerCorner() throws {
    let s = try Self.scene(
      #"{"ty": "sr", "sy": 2, "pt": {"a": 0, "k": 6}, "p": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 30}, "or": {"a": 0, "k": 10}, "os": {"a": 0, "k": 0}}"#
    )
    let points = Self.points(try Self.path(s))
    #expect(points.count == 7)
    // Turned 30 degrees clockwise from straight up.
    #expect(abs(points[0].x - (10 + 10 * cos(-Double.pi / 3))) < 1e-9)
    #expect(abs(points[0].y - (10 + 10 * sin(-Double.pi / 3))) < 1e-9)
  }

  static let square =
    #"{"c": true, "v": [[0, 0], [10, 0], [10, 10], [0, 10]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}"#
  static let bigSquare =
    #"{"c": true, "v": [[0, 0], [30, 0], [30, 30], [0, 30]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}"#

  @Test func pathVerticesAndTangents() throws {
    let s = try Self.scene(
      #"{"ty": "sh", "ks": {"a": 0, "k": {"c": false, "v": [[0, 0], [10, 0]], "i": [[0, 0], [-3, 4]], "o": [[2, 5], [0, 0]]}}}"#
    )
    let path = try Self.path(s)
    #expect(
      path.elements == [
        .move(to: Point(x: 0, y: 0)),
        .curve(to: Point(x: 10, y: 0), control1: Point(x: 2, y: 5), control2: Point(x: 7, y: 4)),
      ])
  }

  @Test func pathKeyframesMorph() throws {
    let s = try Self.scene(
      #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(Self.square)], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 10, "s": [\#(Self.bigSquare)]}]}}"#
    )
    #expect(Self.points(try Self.path(s, at: 0.5))[2] == Point(x: 20, y: 20))
    #expect(Self.points(try Self.path(s, at: 1))[2] == Point(x: 30, y: 30))
  }

  /// Sixteenth pass: keyframes of different vertex counts switched half way through the
  /// segment (a path animation's rule); the first shape is held until the next keyframe, as
  /// `BezierShape.interpolated(to:_:)` (and lottie-web) draw them.
  @Test func pathKeyframesOfDifferentVertexCountsHoldTheFirst() throws {
    let triangle =
      #"{"c": true, "v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]]}"#
    let s = try Self.scene(
      #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(triangle)], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 10, "s": [\#(Self.bigSquare)]}]}}"#
    )
    for time in [0.0, 0.5, 0.99] {
      #expect(Self.points(try Self.path(s, at: time)).count == 4, "\(time)")  // 3 and back
    }
    #expect(Self.points(try Self.path(s, at: 1))[2] == Point(x: 30, y: 30))
  }

  @Test func fillRuleColorAndOpacity() throws {
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}"#,
      style:
        #"{"ty": "fl", "nm": "Style", "r": 2, "c": {"a": 0, "k": [0, 0.5, 1, 1]}, "o": {"a": 0, "k": 40}}"#
    )
    let layer = try #require(try LottieTest.layer("Style", in: s, at: 0) as? ShapeLayer)
    #expect(layer.fillRule == .evenOdd)
    #expect(layer.fillColor == Color(red: 0, green: 0.5, blue: 1))
    #expect(abs(layer.opacity - 0.4) < 1e-12)
    #expect(layer.strokeColor == nil)
  }

  @Test func aColoursFourthComponentIsIgnored() throws {
    // Exporters write [r, g, b, 0] as often as [r, g, b, 1]; lottie-web paints rgb(r, g, b)
    // and takes opacity from `o` only.
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}"#,
      style: #"{"ty": "fl", "nm": "Style", "c": {"a": 0, "k": [0, 0.5, 1, 0]}}"#)
    let layer = try #require(try LottieTest.layer("Style", in: s, at: 0) as? ShapeLayer)
    #expect(layer.fillColor == Color(red: 0, green: 0.5, blue: 1, alpha: 1))
  }

  @Test func strokeWidthCapJoinMiterAndDashes() throws {
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}"#,
      style:
        #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 3}, "lc": 3, "lj": 3, "ml": 7, "d": [{"n": "d", "v": {"a": 0, "k": 4}}, {"n": "g", "v": {"a": 0, "k": 2}}, {"n": "o", "v": {"a": 0, "k": 1}}]}"#
    )
    let layer = try #require(try LottieTest.layer("Style", in: s, at: 0) as? ShapeLayer)
    #expect(layer.lineWidth == 3)
    #expect(layer.lineCap == .square && layer.lineJoin == .bevel && layer.miterLimit == 7)
    #expect(layer.lineDashPattern == [4, 2] && layer.lineDashPhase == 1)
    #expect(layer.fillColor == nil && layer.strokeColor == .black)
  }

  @Test func animatedDashesAnimateTheirLengthsAndOffset() throws {
    // The dash grows 4 -> 8 over frames 0...10 (1 s at 10 fps), the gap holds 2; the offset
    // runs 0 -> 20 over frames 10...20; a second stroke animates its dash and gap apart.
    let dash = #"{"n": "d", "v": {"a": 1, "k": [{"t": 0, "s": [4]}, {"t": 10, "s": [8]}]}}"#
    let gap = #"{"n": "g", "v": {"a": 0, "k": 2}}"#
    let offset = #"{"n": "o", "v": {"a": 1, "k": [{"t": 10, "s": [0]}, {"t": 20, "s": [20]}]}}"#
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}"#,
      style:
        #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}, "d": [\#(dash), \#(gap), \#(offset)]}"#
    )
    func stroke(_ t: Double) throws -> ShapeLayer {
      try #require(try LottieTest.layer("Style", in: s, at: t) as? ShapeLayer)
    }
    #expect(try stroke(0).lineDashPattern == [4, 2] && stroke(0).lineDashPhase == 0)
    #expect(try stroke(0.5).lineDashPattern == [6, 2] && stroke(0.5).lineDashPhase == 0)
    #expect(try stroke(1.5).lineDashPattern == [8, 2] && stroke(1.5).lineDashPhase == 10)
    #expect(try stroke(3).lineDashPhase == 20)

    let both = #"""
      [{"n": "d", "v": {"a": 1, "k": [{"t": 0, "s": [2]}, {"t": 10, "s": [6]}]}},
       {"n": "g", "v": {"a": 1, "k": [{"t": 10, "s": [6]}, {"t": 20, "s": [2]}]}}]
      """#
    let s2 = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}"#,
      style:
        #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}, "d": \#(both)}"#
    )
    func pattern(_ t: Double) throws -> [Double] {
      try #require((try LottieTest.layer("Style", in: s2, at: t) as? ShapeLayer)?.lineDashPattern)
    }
    #expect(try pattern(0) == [2, 6] && pattern(0.5) == [4, 6])
    #expect(try pattern(1.5) == [6, 4] && pattern(2.5) == [6, 2])
  }

  /// Twentieth hostile pass: negative dash lengths were made 0 (round caps drew dots) and a
  /// negative width drew nothing, silently. SVG takes either as an error and draws its
  /// initial value, as lottie-web's SVG renderer does: a solid stroke, 1 wide; each warned.
  @Test func negativeDashesDrawSolidAndANegativeWidthOneWide() throws {
    let rectangle =
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [60, 60]}, "r": {"a": 0, "k": 0}}"#
    let stroke =
      #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 1, "k": [{"t": 0, "s": [-5]}, {"t": 10, "s": [5]}]}, "lc": 2, "d": [{"n": "d", "v": {"a": 0, "k": -5}}, {"n": "g", "v": {"a": 0, "k": 5}}]}"#
    let document = try LottieTest.read(
      LottieTest.document(
        layers: "[\(LottieTest.shapeLayer("L", shapes: "[\(rectangle), \(stroke)]"))]"))
    #expect(
      document.warnings.map(\.description) == [
        #"test.json: layers[0] "L": unsupported negative stroke widths (layers[0].shapes[1].w): drawn 1 wide, as lottie-web's SVG draws them"#,
        #"test.json: layers[0] "L": unsupported negative dash lengths (layers[0].shapes[1].d): drawn solid, as lottie-web's SVG draws them"#,
      ])
    let layer = try #require(
      try LottieTest.layer("Style", in: document.scene, at: 0) as? ShapeLayer)
    #expect(layer.lineWidth == 1)
    #expect(
      try (LottieTest.layer("Style", in: document.scene, at: 1) as? ShapeLayer)?.lineWidth == 5)
    #expect(!layer.strokeStyle.isDashed)
    // Drawn: the whole top edge, no gaps.
    let frame = try document.scene.makeFrame(at: 1).makeBitmap()
    #expect((25...75).allSatisfy { frame[$0, 20].a > 200 })
  }

  @Test func trimBecomesStrokeStartAndEndWithOffset() throws {
    let items = #"""
      {"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}},
      {"ty": "tm", "s": {"a": 0, "k": 10}, "e": {"a": 1, "k": [{"t": 0, "s": [10]}, {"t": 10, "s": [60]}]}, "o": {"a": 0, "k": 36}, "m": 1}
      """#
    let s = try Self.scene(
      items,
      style:
        #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}}"#)
    let layer = try #require(try LottieTest.layer("Style", in: s, at: 0.5) as? ShapeLayer)
    // Frame 5: start 10%, end 35%, both moved on by 36 / 360.
    #expect(abs(layer.strokeStart - 0.2) < 1e-9)
    #expect(abs(layer.strokeEnd - 0.45) < 1e-9)
  }

  /// Fifteenth pass: an offset of 1e18 degrees lost the trim and 1e19 the stroke, added whole
  /// to the start and end; lottie-web takes `(o % 360) / 360`, as the reader now does.
  @Test func aHugeTrimOffsetTurnsByItsRemainder() throws {
    for offset in [1e19, -1e300, 1e300] {
      let items =
        #"{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}}, "#
        + #"{"ty": "tm", "s": {"a": 0, "k": 20}, "e": {"a": 0, "k": 80}, "#
        + #""o": {"a": 0, "k": \#(offset)}, "m": 1}"#
      let s = try Self.scene(
        items,
        style:
          #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}}"#)
      let layer = try #require(try LottieTest.layer("Style", in: s, at: 0) as? ShapeLayer)
      let turn = offset.truncatingRemainder(dividingBy: 360) / 360
      let start = (0.2 + turn) - (0.2 + turn).rounded(.down)
      #expect(abs(layer.strokeStart - start) < 1e-9, "\(offset)")
      // To the end, or (wrapping round) to 1 and a second stroke from 0.
      #expect(abs(layer.strokeEnd - Swift.min(1, start + 0.6)) < 1e-9, "\(offset)")
    }
  }

  /// Fifteenth pass: a star turned 1e18 degrees drew nothing (its points' steps lost to the
  /// angle's precision); it is turned by the remainder of one turn.
  @Test func aHugeStarRotationTurnsByItsRemainder() throws {
    func star(_ r: Double) throws -> [Point] {
      let s = try Self.scene(
        #"{"ty": "sr", "sy": 1, "pt": {"a": 0, "k": 5}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": \#(r)}, "or": {"a": 0, "k": 40}, "ir": {"a": 0, "k": 20}, "os": {"a": 0, "k": 0}, "is": {"a": 0, "k": 0}}"#
      )
      return Self.points(try Self.path(s))
    }
    for r in [1e18, 1e300] {
      let huge = try star(r), reduced = try star(r.truncatingRemainder(dividingBy: 360))
      #expect(huge.count == 11 && huge == reduced, "\(r)")
    }
  }

  @Test func trimPastTheEndWrapsRoundWithASecondStroke() throws {
    let items = #"""
      {"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}},
      {"ty": "tm", "s": {"a": 0, "k": 50}, "e": {"a": 0, "k": 100}, "o": {"a": 0, "k": 90}, "m": 2}
      """#
    let s = try Self.scene(
      items,
      style:
        #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}}"#)
    let tree = try s.presentationTree(at: 0)
    let group = try #require(tree.layer(named: "Group"))
    var strokes: [ShapeLayer] = []
    func collect(_ l: Layer) {
      if let shape = l as? ShapeLayer { strokes.append(shape) }
      l.sublayers.forEach(collect)
    }
    collect(group)
    #expect(strokes.count == 2)
    #expect(abs(strokes[0].strokeStart - 0.75) < 1e-9 && strokes[0].strokeEnd == 1)
    #expect(strokes[1].strokeStart == 0 && abs(strokes[1].strokeEnd - 0.25) < 1e-9)
  }

  @Test func simultaneousTrimCutsEachPathOnItsOwn() throws {
    let items = #"""
      {"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
      {"ty": "rc", "p": {"a": 0, "k": [50, 0]}, "s": {"a": 0, "k": [30, 30]}, "r": {"a": 0, "k": 0}},
      {"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}, "m": 1}
      """#
    let s = try Self.scene(
      items,
      style:
        #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}}"#)
    let tree = try s.presentationTree(at: 0)
    let group = try #require(tree.layer(named: "Group"))
    let strokes = group.sublayers.flatMap(\.sublayers).flatMap(\.sublayers).compactMap {
      $0 as? ShapeLayer
    }
    #expect(strokes.count == 2)
    #expect(strokes.allSatisfy { $0.strokeStart == 0 && $0.strokeEnd == 0.5 })
    #expect(Set(strokes.map { Self.points($0.path ?? Path()).count }) == [5])
  }

  @Test func roundedCornersCutEachCornerByTheRadius() throws {
    let items = #"""
      {"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 10]}, "r": {"a": 0, "k": 0}},
      {"ty": "rd", "r": {"a": 0, "k": 2}}
      """#
    let path = try Self.path(try Self.scene(items))
    // Each corner cut back 2 along both edges, joined by a cubic with handles 0.5519 of the way.
    #expect(path.elements.first == .move(to: Point(x: 8, y: -5)))
    #expect(
      path.elements[1]
        == .curve(
          to: Point(x: 10, y: -3), control1: Point(x: 8 + 2 * 0.5519, y: -5),
          control2: Point(x: 10, y: -3 - 2 * 0.5519)))
    #expect(path.elements[2] == .line(to: Point(x: 10, y: 3)))
    #expect(path.elements.count == 9 && path.elements.last == .closeSubpath)
  }

  @Test func roundedCornersRoundEveryVertexWithoutTangentsAsLottieWebDoes() throws {
    // A closed path: (0, 0) and (10, 20) have no tangents of their own and are rounded, though
    // the segment into (20, 0) curves; (20, 0) has an in tangent and stays. The cut is toward
    // the neighbouring vertex, at most half the way.
    let items = #"""
      {"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [[0, 0], [20, 0], [10, 20]],
        "i": [[0, 0], [-5, -5], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]]}}},
      {"ty": "rd", "r": {"a": 0, "k": 2}}
      """#
    let path = try Self.path(try Self.scene(items))
    let d = (500.0).squareRoot()  // from (0, 0) to (10, 20)
    let a = Point(x: 10 * 2 / d, y: 20 * 2 / d), b = Point(x: 2, y: 0)
    let k = 0.5519
    #expect(path.elements.first == .move(to: a))
    #expect(
      path.elements[1]
        == .curve(
          to: b, control1: Point(x: a.x * (1 - k), y: a.y * (1 - k)),
          control2: Point(x: 2 * (1 - k), y: 0)))
    // From the cut to (20, 0): the vertex keeps its in tangent.
    #expect(
      path.elements[2] == .curve(to: Point(x: 20, y: 0), control1: b, control2: Point(x: 15, y: -5))
    )
    #expect(Self.points(path).count == 5)  // two cuts at each rounded corner, and (20, 0)

    // Radius 10 on an 8 x 8 square: each cut is half the side.
    let small = #"""
      {"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [8, 8]}, "r": {"a": 0, "k": 0}},
      {"ty": "rd", "r": {"a": 0, "k": 10}}
      """#
    let square = try Self.path(try Self.scene(small))
    #expect(square.elements.first == .move(to: Point(x: 0, y: -4)))
    #expect(Self.points(square).contains(Point(x: 4, y: 0)))
  }

  /// Hostile pass 40: a negative rounded-corner radius drew the shape unrounded without a
  /// word (lottie-web moves the cut points out past the corners). It is said.
  @Test func aNegativeRoundedCornerRadiusIsSaid() throws {
    let rectangle =
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [60, 60]}, "r": {"a": 0, "k": 0}}"#
    let round = #"{"ty": "rd", "r": {"a": 0, "k": -20}}"#
    let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}}"#
    let document = try LottieTest.read(
      LottieTest.document(
        layers: "[\(LottieTest.shapeLayer("L", shapes: "[\(rectangle), \(round), \(fill)]"))]"))
    #expect(
      document.warnings.map(\.description) == [
        #"test.json: layers[0] "L": unsupported negative rounded-corner radii (layers[0].shapes[1].r): drawn unrounded"#
      ])
  }

  /// Hostile pass 46: a second drop shadow replaced the first, and a mask's feather, layer
  /// styles (`sy`) and a fill's own blend mode were left out, all without a word. Each is said
  /// (and `--strict` refuses such files).
  @Test func featuresLeftOutAreSaid() throws {
    let shadow = #"""
      {"ty": 25, "ef": [{"v": {"a": 0, "k": [0, 0, 1, 1]}}, {"v": {"a": 0, "k": 255}},
       {"v": {"a": 0, "k": 90}}, {"v": {"a": 0, "k": 10}}, {"v": {"a": 0, "k": 0}}]}
      """#
    let mask = #"""
      {"mode": "a", "f": {"a": 0, "k": [30, 30]}, "pt": {"a": 0, "k": {"c": true,
       "v": [[0, 0], [50, 0], [50, 50]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]]}}}
      """#
    let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "bm": 3}"#
    let rect =
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [60, 60]}, "r": {"a": 0, "k": 0}}"#
    let layer = LottieTest.shapeLayer(
      "L", shapes: "[\(rect), \(fill)]",
      extra: #""ef": [\#(shadow), \#(shadow)], "hasMask": true, "masksProperties": [\#(mask)], "#
        + #""sy": [{"ty": 1}]"#)
    let document = try LottieTest.read(LottieTest.document(layers: "[\(layer)]"))
    let said = document.warnings.map(\.description).joined(separator: "\n")
    for feature in [
      "several drop shadows", "mask feather", "layer styles", "blend modes on fills and strokes",
    ] {
      #expect(said.contains(feature), "\(feature)")
    }
  }

  @Test func roundedCornersActOnThePathsListedBeforeThemAndReachOuterStyles() throws {
    let rect =
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 10]}, "r": {"a": 0, "k": 0}}"#
    let round = #"{"ty": "rd", "r": {"a": 0, "k": 2}}"#
    // Listed before the rectangle, the modifier does not act on it.
    let before = try Self.path(try Self.scene(round + ", " + rect))
    #expect(before.elements.first == .move(to: Point(x: 10, y: -5)))
    // In a group, it rounds the paths a style outside the group draws.
    let shapes = """
      [{"ty": "gr", "nm": "Inner", "it": [\(rect), \(round), {"ty": "tr"}]},
       {"ty": "fl", "nm": "Outer Fill", "c": {"a": 0, "k": [0, 0, 1, 1]}}]
      """
    let s = try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("L", shapes: shapes))]")
    ).scene
    let outer = try Self.path(s, named: "Outer Fill")
    #expect(outer.elements.first == .move(to: Point(x: 8, y: -5)))
  }

  @Test func trimCutsFillsToo() throws {
    let items = #"""
      {"ty": "sh", "ks": {"a": 0, "k": {"c": false, "v": [[0, 0], [100, 0]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]]}}},
      {"ty": "tm", "s": {"a": 0, "k": 25}, "e": {"a": 0, "k": 75}, "o": {"a": 0, "k": 0}, "m": 1}
      """#
    let path = try Self.path(try Self.scene(items))
    #expect(Self.points(path) == [Point(x: 25, y: 0), Point(x: 75, y: 0)])
  }

  @Test func stylesApplyToNestedGroupsThroughTheirTransforms() throws {
    let shapes = #"""
      [{"ty": "gr", "nm": "Inner", "it": [
          {"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
          {"ty": "tr", "p": {"a": 0, "k": [100, 0]}, "s": {"a": 0, "k": [200, 200]}}]},
       {"ty": "fl", "nm": "Outer Fill", "c": {"a": 0, "k": [0, 0, 1, 1]}}]
      """#
    let s = try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("L", shapes: shapes))]")
    ).scene
    let points = Self.points(try Self.path(s, named: "Outer Fill"))
    #expect(
      points == [
        Point(x: 110, y: -10), Point(x: 110, y: 10), Point(x: 90, y: 10), Point(x: 90, y: -10),
        Point(x: 110, y: -10),
      ])
  }

  /// A horizontal line from `(x0, y)` to `(x1, y)`, as an `sh` item.
  static func line(_ x0: Double, _ x1: Double, y: Double = 0) -> String {
    """
    {"ty": "sh", "ks": {"a": 0, "k": {"c": false, "v": [[\(x0), \(y)], [\(x1), \(y)]],
      "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]]}}}
    """
  }

  /// A trim path item from `s` to `e` percent, mode `m`.
  static func trim(_ s: Double, _ e: Double, m: Int = 1) -> String {
    #"{"ty": "tm", "s": {"a": 0, "k": \#(s)}, "e": {"a": 0, "k": \#(e)}, "o": {"a": 0, "k": 0}, "m": \#(m)}"#
  }

  @Test func aTrimInAnInnerGroupCutsThePathsTheOuterStylesDraw() throws {
    // [group [line, trim 25...75], fill]: the fill outside the group draws the cut line, as
    // lottie-web's trim modifies the path every style after it takes.
    let inner =
      #"{"ty": "gr", "nm": "Inner", "it": [\#(Self.line(0, 100)), \#(Self.trim(25, 75)), {"ty": "tr"}]}"#
    #expect(
      Self.points(try Self.path(try Self.scene(inner))) == [Point(x: 25, y: 0), Point(x: 75, y: 0)])
    // A stroke outside takes the cut path too.
    let stroke =
      #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}}"#
    let stroked = try #require(
      try LottieTest.layer("Style", in: try Self.scene(inner, style: stroke), at: 0) as? ShapeLayer)
    #expect(Self.points(stroked.path ?? Path()) == [Point(x: 25, y: 0), Point(x: 75, y: 0)])
    #expect(stroked.strokeStart == 0 && stroked.strokeEnd == 1)
  }

  @Test func trimsAtTwoLevelsCutOneAfterTheOther() throws {
    // The inner trim keeps the first half, the outer one the first half of that.
    let inner = #"{"ty": "gr", "it": [\#(Self.line(0, 100)), \#(Self.trim(0, 50)), {"ty": "tr"}]}"#
    let fill = try Self.scene(inner + ", " + Self.trim(0, 50))
    #expect(Self.points(try Self.path(fill)) == [Point(x: 0, y: 0), Point(x: 25, y: 0)])
    // A stroke takes the outer trim as its start and end, over the inner trim's path.
    let stroke =
      #"{"ty": "st", "nm": "Style", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}}"#
    let s = try Self.scene(inner + ", " + Self.trim(0, 50), style: stroke)
    let layer = try #require(try LottieTest.layer("Style", in: s, at: 0) as? ShapeLayer)
    #expect(Self.points(layer.path ?? Path()) == [Point(x: 0, y: 0), Point(x: 50, y: 0)])
    #expect(layer.strokeEnd == 0.5)
  }

  @Test func anOuterTrimCutsThePathsOfTheGroupsBeforeIt() throws {
    // [group [line 0...100], group [line at y 10, 0...100], trim 25...75 m 2, fill]: the two
    // lines are cut as one path 200 long, in the order listed.
    let a = #"{"ty": "gr", "it": [\#(Self.line(0, 100)), {"ty": "tr"}]}"#
    let b = #"{"ty": "gr", "it": [\#(Self.line(0, 100, y: 10)), {"ty": "tr"}]}"#
    let s = try Self.scene([a, b, Self.trim(25, 75, m: 2)].joined(separator: ", "))
    #expect(
      Self.points(try Self.path(s)) == [
        Point(x: 50, y: 0), Point(x: 100, y: 0), Point(x: 0, y: 10), Point(x: 50, y: 10),
      ])
    // Simultaneously (m 1): each line on its own.
    let each = try Self.scene([a, b, Self.trim(25, 75)].joined(separator: ", "))
    #expect(
      Self.points(try Self.path(each)) == [
        Point(x: 25, y: 0), Point(x: 75, y: 0), Point(x: 25, y: 10), Point(x: 75, y: 10),
      ])
    // A trim listed before a path does not cut it.
    let before = try Self.scene([Self.trim(25, 75), a].joined(separator: ", "))
    #expect(Self.points(try Self.path(before)) == [Point(x: 0, y: 0), Point(x: 100, y: 0)])
  }

  @Test func aTrimListedAfterAStyleStillCutsThePathsItDraws() throws {
    // [line, fill "Style", trim 25...75] in a group, and [group [line, fill "Style"], trim]:
    // lottie-web's trim modifies the paths before it, whichever style draws them.
    let fill = #"{"ty": "fl", "nm": "Style", "c": {"a": 0, "k": [1, 0, 0, 1]}}"#
    let shapes = """
      [{"ty": "gr", "it": [\(Self.line(0, 100)), \(fill), \(Self.trim(25, 75)), {"ty": "tr"}]},
       {"ty": "gr", "it": [{"ty": "gr", "it": [\(Self.line(0, 100, y: 10)),
          \(fill.replacingOccurrences(of: "Style", with: "Inner")), {"ty": "tr"}]},
        \(Self.trim(0, 50)), {"ty": "tr"}]}]
      """
    let s = try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("L", shapes: shapes))]")
    ).scene
    #expect(Self.points(try Self.path(s)) == [Point(x: 25, y: 0), Point(x: 75, y: 0)])
    #expect(
      Self.points(try Self.path(s, named: "Inner")) == [Point(x: 0, y: 10), Point(x: 50, y: 10)])
  }

  @Test func firstItemsDrawOnTop() throws {
    // [stroke, fill]: the stroke is listed first, so it is drawn above the fill.
    let shapes = #"""
      [{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
       {"ty": "st", "nm": "Stroke", "c": {"a": 0, "k": [0, 0, 0, 1]}, "w": {"a": 0, "k": 2}},
       {"ty": "fl", "nm": "Fill", "c": {"a": 0, "k": [1, 1, 1, 1]}}]
      """#
    let s = try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("L", shapes: shapes))]")
    ).scene
    let tree = try s.presentationTree(at: 0)
    let stroke = try #require(tree.layer(named: "Stroke")),
      fill = try #require(tree.layer(named: "Fill"))
    let siblings = try #require(stroke.superlayer).sublayers
    #expect(siblings.firstIndex { $0 === fill }! < siblings.firstIndex { $0 === stroke }!)
  }

  @Test(arguments: [
    (1, PathOperation.none), (2, .union), (3, .subtract), (4, .intersect), (5, .exclude),
  ])
  func mergePathsCombineThePathsBeforeThem(mode: Int, operation: PathOperation) throws {
    // Two rectangles and a merge, then the style: one path of two subpaths (one per shape),
    // combined by the merge's mode; a style listed before the merge is not combined.
    let rects = #"""
      {"ty": "rc", "p": {"a": 0, "k": [20, 20]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
      {"ty": "rc", "p": {"a": 0, "k": [30, 20]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
      {"ty": "st", "nm": "Before", "c": {"a": 0, "k": [0, 0, 1, 1]}, "w": {"a": 0, "k": 2}}
      """#
    let items = rects + #", {"ty": "mm", "nm": "Merge", "mm": \#(mode)}"#
    let fill = #"{"ty": "fl", "nm": "Style", "c": {"a": 0, "k": [1, 0, 0, 1]}}"#
    let group = #"[{"ty": "gr", "nm": "Group", "it": [\#(items), \#(fill), {"ty": "tr"}]}]"#
    let document = try LottieTest.read(
      LottieTest.document(layers: "[\(LottieTest.shapeLayer("Shapes", shapes: group))]"))
    let style = try #require(
      try LottieTest.layer("Style", in: document.scene, at: 0) as? ShapeLayer)
    #expect(style.pathOperation == operation)
    #expect(style.path?.subpaths.count == 2)
    let before = try #require(
      try LottieTest.layer("Before", in: document.scene, at: 0) as? ShapeLayer)
    #expect(before.pathOperation == .none)
    #expect(document.warnings.isEmpty)
  }

  @Test func aGroupsMergeReachesTheStylesOutsideIt() throws {
    // The inner group's two rectangles less the second: a style outside the group draws the
    // group as merged, alone as the group's own style would; with another path, the merged
    // group is one shape of the style and the path another, under the style's opacity.
    let inner = #"""
      {"ty": "gr", "nm": "Cut", "it": [
        {"ty": "rc", "p": {"a": 0, "k": [30, 50]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}},
        {"ty": "rc", "p": {"a": 0, "k": [30, 50]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
        {"ty": "mm", "mm": 3}, {"ty": "tr"}]}
      """#
    let fill =
      #"{"ty": "fl", "nm": "Outer Fill", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 50}}"#
    let alone = try LottieTest.read(
      LottieTest.document(
        layers: "[\(LottieTest.shapeLayer("L", shapes: "[\(inner), \(fill)]"))]")
    ).scene
    let style = try #require(try LottieTest.layer("Outer Fill", in: alone, at: 0) as? ShapeLayer)
    #expect(style.pathOperation == .subtract && style.path?.subpaths.count == 2)

    let dot = #"{"ty": "el", "p": {"a": 0, "k": [75, 50]}, "s": {"a": 0, "k": [20, 20]}}"#
    let mixed = try LottieTest.read(
      LottieTest.document(
        layers: "[\(LottieTest.shapeLayer("L", shapes: "[\(inner), \(dot), \(fill)]"))]")
    ).scene
    let group = try LottieTest.layer("Outer Fill", in: mixed, at: 0)
    #expect(group.opacity == 0.5)
    let parts = group.sublayers.compactMap { $0 as? ShapeLayer }
    #expect(parts.map(\.pathOperation).sorted { $0.rawValue < $1.rawValue } == [.none, .subtract])
    #expect(parts.allSatisfy { $0.opacity == 1 })
    let b = try mixed.makeFrame(at: 0).makeBitmap()
    // The ring (half opaque), its hole empty, the dot (half opaque).
    #expect(
      (127...128).contains(b[15, 50].a) && b[30, 50].a == 0 && (127...128).contains(b[75, 50].a))
  }

  @Test func radialHighlightMovesTheFocus() throws {
    // h 50 percent of the radius (50, from s to e), a 90 degrees from the direction of e: the
    // focus 25 below the centre; the gradient layer spans the rectangle's box widened by a
    // point each side (102 x 102).
    let style = #"""
      {"ty": "gf", "nm": "Style", "t": 2, "o": {"a": 0, "k": 100},
       "g": {"p": 2, "k": {"a": 0, "k": [0, 0, 0, 0, 1, 1, 1, 1]}},
       "s": {"a": 0, "k": [50, 50]}, "e": {"a": 0, "k": [100, 50]},
       "h": {"a": 0, "k": 50}, "a": {"a": 0, "k": 90}}
      """#
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}}"#,
      style: style)
    func gradient(in layer: Layer) -> GradientLayer? {
      if let g = layer as? GradientLayer { return g }
      return layer.sublayers.lazy.compactMap { gradient(in: $0) }.first
    }
    let g = try #require(gradient(in: try s.presentationTree(at: 0)))
    #expect(g.type == .radial)
    #expect(abs(g.focalOffset.x) < 1e-9)
    #expect(abs(g.focalOffset.y - 25.0 / 102) < 1e-9)
  }

  /// Twentieth hostile pass: stops at one offset (a hard edge, stripes) were merged into one,
  /// so `0 red, .5 red, .5 blue, 1 blue` drew a ramp and `.5 red, .5 blue` all red. Offsets are
  /// taken as SVG takes them (clamped to 0...1, then to at least the one before), and every
  /// colour and opacity stop is a stop: an edge in either list stays an edge.
  @Test func stopsAtOneOffsetMakeAHardEdge() throws {
    func gradient(in layer: Layer) -> GradientLayer? {
      if let g = layer as? GradientLayer { return g }
      return layer.sublayers.lazy.compactMap { gradient(in: $0) }.first
    }
    /// The gradient layer's stops for Lottie's `g.k` list `k` of `p` colour stops.
    func stops(_ k: [Double], p: Int) throws -> (colors: [Color], locations: [Double]) {
      let list = k.map { "\($0)" }.joined(separator: ", ")
      let style = """
        {"ty": "gf", "nm": "Style", "t": 1, "o": {"a": 0, "k": 100},
         "g": {"p": \(p), "k": {"a": 0, "k": [\(list)]}},
         "s": {"a": 0, "k": [10, 0]}, "e": {"a": 0, "k": [90, 0]}}
        """
      let s = try Self.scene(
        #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [80, 80]}, "r": {"a": 0, "k": 0}}"#,
        style: style)
      let g = try #require(gradient(in: try s.presentationTree(at: 0)))
      return (g.colors ?? [], g.locations ?? [])
    }
    let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
    let hard = try stops([0, 1, 0, 0, 0.5, 1, 0, 0, 0.5, 0, 0, 1, 1, 0, 0, 1], p: 4)
    #expect(hard.locations == [0, 0.5, 0.5, 1])
    #expect(hard.colors == [red, red, blue, blue])
    let same = try stops([0.5, 1, 0, 0, 0.5, 0, 0, 1], p: 2)
    #expect(same.locations == [0.5, 0.5] && same.colors == [red, blue])
    // An opacity cut at the middle of a red-to-blue ramp: the colour there, opaque, then clear.
    let cut = try stops([0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0.5, 1, 0.5, 0, 1, 0], p: 2)
    #expect(cut.locations == [0, 0, 0.5, 0.5, 1, 1])
    let purple = Color(red: 0.5, green: 0, blue: 0.5)
    let clear = [purple, blue].map { $0.multiplyingAlpha(by: 0) }
    #expect(cut.colors == [red, red, purple, clear[0], clear[1], clear[1]])
    // Out of order (1 red, then 0 blue) the second meets the first: red, then blue from 1 on;
    // offsets past 0...1 clamped.
    let backwards = try stops([1, 1, 0, 0, 0, 0, 0, 1], p: 2)
    #expect(backwards.locations == [1, 1] && backwards.colors == [red, blue])
    let outside = try stops([-1, 1, 0, 0, 2, 0, 0, 1], p: 2)
    #expect(outside.locations == [0, 1] && outside.colors == [red, blue])
    // Drawn: pure red left of the middle, pure blue right of it.
    let style = #"""
      {"ty": "gf", "nm": "Style", "t": 1, "o": {"a": 0, "k": 100},
       "g": {"p": 4, "k": {"a": 0, "k": [0, 1, 0, 0, 0.5, 1, 0, 0, 0.5, 0, 0, 1, 1, 0, 0, 1]}},
       "s": {"a": 0, "k": [10, 0]}, "e": {"a": 0, "k": [90, 0]}}
      """#
    let s = try Self.scene(
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [80, 80]}, "r": {"a": 0, "k": 0}}"#,
      style: style)
    let frame = try s.makeFrame(at: 0).makeBitmap()
    for x in [15, 45] { #expect(frame[x, 50] == RGBA8(255, 0, 0, 255), "\(x)") }
    for x in [55, 85] { #expect(frame[x, 50] == RGBA8(0, 0, 255, 255), "\(x)") }
  }

  /// A gradient without colour stops (`g.p` 0) draws nothing, as lottie-web's (a gradient
  /// with no stops) does, with a warning naming the place
  /// (`Fixtures/invalid-lottie/gradient-without-stops.json`).
  @Test func gradientWithoutColourStopsDrawsNothing() throws {
    let style = #"""
      {"ty": "gf", "nm": "Style", "t": 1, "o": {"a": 0, "k": 100},
       "g": {"p": 0, "k": {"a": 0, "k": [0, 1, 1, 0]}},
       "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [100, 0]}}
      """#
    let rectangle =
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [60, 60]}, "r": {"a": 0, "k": 0}}"#
    let document = try LottieTest.read(
      LottieTest.document(
        layers: "[\(LottieTest.shapeLayer("L", shapes: "[\(rectangle), \(style)]"))]"))
    #expect(
      document.warnings.map(\.description) == [
        #"test.json: layers[0] "L": unsupported gradients without colour stops (layers[0].shapes[1].g.p is 0): not drawn"#
      ])
    let frame = try document.scene.makeFrame(at: 0).makeBitmap()
    #expect(frame[50, 50].a == 0)
  }
}
