import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import LottieFiles

/// Issue 18, sixth pass: Lottie files at the documented limits took minutes (a shape of
/// 100,000 vertices, a polystar of 10,000 points, 5,000 masks). The limits are now where a file
/// at them draws a frame in a few seconds: 10,000 vertices a shape, 1,000 polystar points, 100
/// masks a layer and 1,000 in all, and text documents of at most 100,000 characters.
@Suite struct SlowInputTests {
  /// Hostile pass 38: a repeater after the styles it copies counted no path elements (1,000
  /// copies of a group whose animated rounded corners make 50,000-element paths took 6 GB
  /// for a frame), and keyframed paths counted nothing against the sampling budget (2,000
  /// instances of a precomposition morphing between two 10,000-vertex shapes took 6 GB). Both
  /// are refused by their limits now.
  @Test func copiedAndKeyframedPathsCountAgainstTheLimits() throws {
    let shape = Self.ring(vertices: 3_000, wholePoints: true)
    let linear = Self.linear
    let group = #"""
      {"ty": "gr", "it": [
        {"ty": "sh", "ks": {"a": 0, "k": \#(shape)}},
        {"ty": "rd", "r": {"a": 1, "k": [{"t": 0, "s": [0], \#(linear)}, {"t": 10, "s": [5]}]}},
        {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}},
        {"ty": "tr"}]},
      {"ty": "rp", "c": {"a": 0, "k": 1000}, "o": {"a": 0, "k": 0}, "tr": {}}
      """#
    let repeated = LottieTest.document(
      layers: "[\(LottieTest.shapeLayer("R", shapes: "[\(group)]"))]")
    #expect(
      LottieTest.problems(repeated).contains {
        $0.contains("repeaters make more than 2000000 path elements in all")
      })
    let morph = #"""
      {"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(shape)], \#(linear)}, {"t": 10, "s": [\#(shape)]}]}},
      {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}
      """#
    let instances = (0..<700).map {
      #"{"ty": 0, "ind": \#($0 + 1), "refId": "p", "w": 100, "h": 100, "ks": {}, "ip": 0, "op": 10}"#
    }
    let precomposed = LottieTest.document(
      layers: "[" + instances.joined(separator: ",") + "]",
      assets: #"[{"id": "p", "layers": [\#(LottieTest.shapeLayer("M", shapes: "[\(morph)]"))]}]"#)
    #expect(
      LottieTest.problems(precomposed).contains {
        $0.contains("the animation needs more than 15000000 sampled values")
      })
  }

  /// Session of 2026-11-25 (sixth): a time remap sampled a morphing path 2,000 times, counting
  /// each sample as one value (three instances of a 10,000-vertex morph took 4 GB and 11 s),
  /// and a path rounded by a radius that starts at 0 was counted at its first sample's size,
  /// half of what the later samples hold. Each sampled path now counts its own elements, four
  /// units each, as it is made.
  @Test func sampledPathsCountTheirOwnElements() throws {
    let shape = Self.ring(vertices: 10_000, turns: 37)
    let linear = Self.linear
    let morph = #"""
      {"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [\#(shape)], \#(linear)}, {"t": 3000, "s": [\#(shape)]}]}},
      \#(Self.fill)
      """#
    let tm =
      #"{"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0.5], "y": [0.5]}, "i": {"x": [0.5], "y": [0.5]}}, "#
      + #"{"t": 3000, "s": [100]}]}"#
    let remapped = LottieTest.document(
      layers: #"[{"ty": 0, "ind": 1, "refId": "c", "ip": 0, "op": 3000, "w": 100, "h": 100, "#
        + #""ks": {}, "tm": \#(tm)}]"#,
      assets: #"[{"id": "c", "layers": [\#(LottieTest.shapeLayer("M", shapes: "[\(morph)]"))]}]"#,
      op: 3000)
    #expect(
      LottieTest.problems(remapped).contains {
        $0.contains("the animation needs more than 15000000 sampled values")
      })
    // 60 frames at two samples each, 121 paths of 10,001 elements at radius 0 and 20,001
    // after: 9.7 million units, where the first sample's size made it 4.8 million. Two such
    // layers are over the 15 million of a file.
    let round = #"""
      {"ty": "sh", "ks": {"a": 0, "k": \#(shape)}},
      {"ty": "rd", "r": {"a": 1, "k": [{"t": 0, "s": [0], \#(linear)}, {"t": 60, "s": [5]}]}},
      \#(Self.fill)
      """#
    func rounded(_ count: Int) -> String {
      LottieTest.document(
        layers: "["
          + (0..<count).map {
            LottieTest.shapeLayer("R\($0)", ind: $0 + 1, shapes: "[\(round)]")
          }.joined(separator: ",") + "]", op: 60)
    }
    #expect(LottieTest.problems(rounded(1)) == [])
    #expect(
      LottieTest.problems(rounded(2)).contains {
        $0.contains("the animation needs more than 15000000 sampled values")
      })
  }

  /// Hostile pass 40: keyframed gradients and sampled dash patterns counted one value a
  /// keyframe or a sample whatever their size: 1,000 instances of a precomposition whose
  /// gradient of 1,000 colour and 1,000 opacity stops had 100 keyframes took 8.3 GB and 97 s,
  /// and 20 of a dash pattern of 1,000 animated lengths sampled 20,001 times 6.3 GB. Each
  /// value now counts its size (`LottieReader.sampledSize(of:)`), and once the budget is spent
  /// no more is built: such files are refused within about a second.
  @Test func gradientsAndDashPatternsCountTheirSize() throws {
    #expect(LottieReader.sampledSize(of: .colors(Array(repeating: .red, count: 10))) == 20)
    #expect(LottieReader.sampledSize(of: .numbers([1, 2, 3])) == 3)
    #expect(LottieReader.sampledSize(of: .scalar(1)) == 0)
    let stops = 500
    func gradient(_ shift: Double) -> String {
      let colours = (0..<stops).flatMap { i -> [Double] in
        [Double(i) / Double(stops - 1), shift, 0.5, 1]
      }
      let opacities = (0..<stops).flatMap { i -> [Double] in [Double(i) / Double(stops - 1), 1] }
      return "[" + (colours + opacities).map { "\($0)" }.joined(separator: ",") + "]"
    }
    let linear = Self.linear
    let keyframes = (0..<100).map {
      #"{"t": \#($0), "s": \#(gradient(Double($0 % 2))), \#(linear)}"#
    }.joined(separator: ",")
    let fill = #"""
      {"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}},
      {"ty": "gf", "o": {"a": 0, "k": 100}, "r": 1, "t": 1, "s": {"a": 0, "k": [0, 0]},
       "e": {"a": 0, "k": [100, 0]}, "g": {"p": \#(stops), "k": {"a": 1, "k": [\#(keyframes)]}}}
      """#
    func instances(_ n: Int) -> String {
      let layers = (0..<n).map {
        #"{"ty": 0, "ind": \#($0 + 1), "refId": "p", "w": 100, "h": 100, "ks": {}, "ip": 0, "op": 100}"#
      }
      return LottieTest.document(
        layers: "[" + layers.joined(separator: ",") + "]",
        assets: #"[{"id": "p", "layers": [\#(LottieTest.shapeLayer("G", shapes: "[\(fill)]"))]}]"#,
        op: 100)
    }
    // 100 keyframes of 1,000 stops (500 colour and 500 opacity stops at the same places), two
    // units a colour and one a location: 300,000 units an instance, so 50 is the most that fit.
    #expect(LottieTest.problems(instances(40)) == [])
    #expect(
      LottieTest.problems(instances(60)).contains {
        $0.contains("the animation needs more than 15000000 sampled values")
      })
  }

  /// Hostile pass 40: masks' paths counted nothing against the sampling budget (10
  /// precomposition instances of 100 masks of 10,000 vertices held 1.2 GB). Each shape holding
  /// one counts it, four units an element, as a shape layer's path does.
  @Test func maskPathsCountAgainstTheSamplingBudget() throws {
    let n = 10_000
    let v = (0..<n).map { "[\($0 % 100), \($0 / 100)]" }.joined(separator: ",")
    let z = Array(repeating: "[0,0]", count: n).joined(separator: ",")
    let mask =
      #"{"mode": "a", "o": {"a": 0, "k": 100}, "pt": {"a": 0, "k": {"c": true, "v": [\#(v)], "#
      + #""i": [\#(z)], "o": [\#(z)]}}}"#
    let solid =
      ##"{"ty": 1, "ind": 1, "sc": "#ff0000", "sw": 100, "sh": 100, "ks": {}, "ip": 0, "op": 9, "##
      + #""hasMask": true, "masksProperties": [\#(Array(repeating: mask, count: 10).joined(separator: ","))]}"#
    func instances(_ count: Int) -> String {
      let layers = (0..<count).map {
        #"{"ty": 0, "ind": \#($0 + 1), "refId": "p", "w": 100, "h": 100, "ks": {}, "ip": 0, "op": 9}"#
      }
      return LottieTest.document(
        layers: "[" + layers.joined(separator: ",") + "]",
        assets: #"[{"id": "p", "layers": [\#(solid)]}]"#, op: 9)
    }
    // 10 masks of 10,001 elements (a move, lines and a close): about 400,000 units an
    // instance, so 37 fit and 38 do not.
    #expect(LottieTest.problems(instances(36)) == [])
    #expect(
      LottieTest.problems(instances(38)).contains {
        $0.contains("the animation needs more than 15000000 sampled values")
      })
  }

  /// A keyframe's linear easing.
  static let linear = #""o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}"#

  /// A closed Lottie shape of `n` vertices going `turns` times round a circle of radius 40
  /// about (50, 50), its points rounded to whole points when `wholePoints`.
  static func ring(vertices n: Int, turns: Double = 1, wholePoints: Bool = false) -> String {
    let vertices = (0..<n).map { k -> String in
      let a = Double(k) / Double(n) * 2 * Double.pi * turns
      let (x, y) = (50 + 40 * cos(a), 50 + 40 * sin(a))
      return wholePoints ? "[\(Int(x)), \(Int(y))]" : "[\(x), \(y)]"
    }.joined(separator: ",")
    let zeros = Array(repeating: "[0,0]", count: n).joined(separator: ",")
    return #"{"c": true, "v": [\#(vertices)], "i": [\#(zeros)], "o": [\#(zeros)]}"#
  }

  static let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#

  static func shape(vertices n: Int) -> String {
    let v = (0..<n).map { "[\($0 % 100), \($0 / 100)]" }.joined(separator: ",")
    let z = Array(repeating: "[0,0]", count: n).joined(separator: ",")
    return
      #"{"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [\#(v)], "i": [\#(z)], "o": [\#(z)]}}}"#
  }

  @Test func aShapeOverTheVertexLimitIsRefusedByPlace() {
    let n = LottieFormat.maximumVertices
    #expect(n == 10_000)
    let over = LottieTest.document(
      layers: "["
        + LottieTest.shapeLayer("S", shapes: "[\(Self.shape(vertices: n + 1)), \(Self.fill)]")
        + "]")
    #expect(
      LottieTest.problems(over) == [
        "test.json: layers[0].shapes[0].ks.k.v: 10001 vertices exceed the limit of 10000"
      ])
    let at = LottieTest.document(
      layers: "[" + LottieTest.shapeLayer("S", shapes: "[\(Self.shape(vertices: n)), \(Self.fill)]")
        + "]")
    #expect(LottieTest.problems(at) == [])
  }

  static func masks(_ n: Int) -> String {
    let mask =
      #"{"mode": "a", "o": {"a": 0, "k": 100}, "pt": {"a": 0, "k": {"c": true, "#
      + #""v": [[0, 0], [50, 0], [50, 50]], "i": [[0, 0], [0, 0], [0, 0]], "#
      + #""o": [[0, 0], [0, 0], [0, 0]]}}}"#
    return #""hasMask": true, "masksProperties": ["#
      + Array(repeating: mask, count: n).joined(separator: ",") + "]"
  }

  @Test func masksOverTheLimitOfALayerAreRefusedByPlace() throws {
    let n = LottieFormat.maximumMasksPerLayer
    #expect(n == 100)
    let rect =
      #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [80, 80]}, "r": {"a": 0, "k": 0}}"#
    func document(_ masks: Int, layers: Int = 1) -> String {
      LottieTest.document(
        layers: "["
          + (0..<layers).map {
            LottieTest.shapeLayer(
              "M\($0)", ind: $0 + 1, shapes: "[\(rect), \(Self.fill)]", extra: Self.masks(masks))
          }.joined(separator: ",") + "]")
    }
    #expect(
      LottieTest.problems(document(n + 1)) == [
        "test.json: layers[0].masksProperties: 101 masks on one layer exceed the limit of 100"
      ])
    let read = try LottieTest.read(document(n))
    #expect(try read.scene.makeFrame(at: 0).makeBitmap()[25, 10].a == 255)
    // 11 layers of 100: the eleventh passes the 1,000 of the whole animation.
    #expect(
      LottieTest.problems(document(n, layers: 11)) == [
        "test.json: layers[10].masksProperties: the layers' masks exceed the limit of 1000 in one "
          + "animation (a precomposition's counted for every layer that shows it)"
      ])
  }

  /// A time-remapped precomposition of `n` layers, each moving from (0, 0) to (90, 0) over
  /// `frames` frames, remapped to play at half speed.
  static func remapped(layers n: Int, frames: Int) -> String {
    let move =
      #"{"p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, "#
      + #"{"t": \#(frames), "s": [90, 0]}]}}"#
    let square = #"{"ty": "rc", "p": {"a": 0, "k": [5, 5]}, "s": {"a": 0, "k": [10, 10]}}"#
    let inner = (0..<n).map {
      LottieTest.shapeLayer("L\($0)", ind: $0 + 1, ks: move, shapes: "[\(square), \(Self.fill)]")
    }
    let tm =
      #"{"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, "#
      + #"{"t": \#(frames), "s": [\#(Double(frames) / 20)]}]}"#
    return LottieTest.document(
      layers: #"[{"ty": 0, "ind": 1, "nm": "P", "refId": "c", "ip": 0, "op": \#(frames), "#
        + #""st": 0, "w": 100, "h": 100, "ks": {}, "tm": \#(tm)}]"#,
      assets: #"[{"id": "c", "layers": [\#(inner.joined(separator: ","))]}]"#, op: Double(frames))
  }

  /// A time-remapped precomposition is sampled through its animated layers only (presenting
  /// its whole tree at every sample took 14 s for 1,000 layers over 9,000 frames); the work
  /// counted at each sample is every layer and, again, every value the animated ones give:
  /// 1,700 layers (5 each with their transform) over 9,000 frames (2,001 samples) make
  /// 2,001 x (8,500 + 1,700), over the 15 million sampled values of a file.
  @Test func aTimeRemappedPrecompositionIsSampledThroughItsAnimatedLayers() throws {
    #expect(
      LottieTest.problems(Self.remapped(layers: 1700, frames: 9000)) == [
        "test.json: layers: the animation needs more than 15000000 sampled values (keyframes far "
          + "apart, long time remapping, large paths, gradients or dash patterns sampled often), "
          + "the limit"
      ])
    // At half speed, frame 40 (4 s at 10 fps) shows the precomposition's frame 20 (2 s): each
    // layer 20 / 80 of the way.
    let scene = try LottieTest.read(Self.remapped(layers: 3, frames: 80)).scene
    for name in ["L0", "L2"] {
      let (point, _) = try LottieTest.scenePoint(
        Point(x: 0, y: 0), in: name, of: scene, at: 4, content: true)
      #expect(abs(point.x - 22.5) < 1e-6 && abs(point.y) < 1e-6)
    }
  }

  /// The problems of a file whose one text layer's document is `string` (JSON-escaped).
  func textProblems(_ string: String) -> [String] {
    let text =
      #"{"ty": 5, "ind": 1, "nm": "T", "ip": 0, "op": 100, "st": 0, "ks": {}, "#
      + #""t": {"d": {"k": [{"t": 0, "s": {"t": "\#(string)", "s": 12, "f": "Helvetica"}}]}}}"#
    return LottieTest.problems(LottieTest.document(layers: "[\(text)]"))
  }

  @Test func aTextDocumentOverTheStringLimitIsRefusedByPlace() {
    let long = String(repeating: "x", count: TextLayer.maximumStringLength + 1)
    #expect(
      textProblems(long) == [
        "test.json: layers[0].t.d.k[0].s.t: a string of 100001 characters exceeds the limit of "
          + "100000"
      ])
  }

  /// Errors found while drawing a Lottie file name the place the layer was read from (they
  /// said "layer (unnamed)"): here the filter work of 300 blurs on one layer of a 500 x 500
  /// animation (75 million pixels).
  @Test func errorsFoundWhileDrawingNameTheLottiePlace() throws {
    let blur =
      #"{"ty": 29, "nm": "e", "ef": [{"ty": 0, "nm": "v0", "v": {"a": 0, "k": 30}}, "#
      + #"{"ty": 0, "nm": "v1", "v": {"a": 0, "k": 1}}, {"ty": 0, "nm": "v2", "v": {"a": 0, "k": 0}}]}"#
    let square =
      #"[{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 40]}, "#
      + #""r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "#
      + #""o": {"a": 0, "k": 100}}]"#
    let effects = Array(repeating: blur, count: 300).joined(separator: ", ")
    let layer = LottieTest.shapeLayer(
      "S", ks: #"{"p": {"a": 0, "k": [50, 50]}}"#, shapes: square, extra: #""ef": [\#(effects)]"#)
    let document = try LottieTest.read(
      LottieTest.document(layers: "[\(layer)]", w: 500, h: 500))
    #expect(
      throws: RenderingError.tooMuchFilterWork(layer: LayerLabel(name: nil, place: "layers[0]"))
    ) {
      try document.scene.makeFrame(at: 0)
    }
  }

  /// Every layer the reader makes for a mask or a track matte names its place, so errors found
  /// while drawing it do: the hole of an inverted mask, the cut of a negative expansion and the
  /// holder a matte masks said "layer (unnamed)" when the frame's offscreen work passed the limit.
  @Test func layersMadeForMasksAndMattesNameTheirPlace() throws {
    let square =
      #"{"a": 0, "k": {"c": true, "v": [[0, 0], [50, 0], [50, 50], [0, 50]], "#
      + #""i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}"#
    func solid(_ ind: Int, _ extra: String) -> String {
      ##"{"ty": 1, "ind": \##(ind), "ip": 0, "op": 100, "st": 0, "ks": {}, "sc": "#cc3344", "##
        + #""sw": 100, "sh": 100\#(extra)}"#
    }
    let layers = [
      solid(
        1,
        #", "masksProperties": [{"mode": "s", "pt": \#(square), "x": {"a": 0, "k": -5}}, "#
          + #"{"mode": "a", "inv": true, "pt": \#(square)}]"#),
      solid(2, #", "td": 1"#), solid(3, #", "tt": 3"#),
    ]
    let read = try LottieTest.read(
      LottieTest.document(layers: "[\(layers.joined(separator: ", "))]"))
    var places: [String] = []
    var unnamed = 0
    func visit(_ layer: Layer) {
      if let place = layer.sourcePlace { places.append(place) } else { unnamed += 1 }
      layer.sublayers.forEach(visit)
      if let mask = layer.mask { visit(mask) }
    }
    read.scene.layers[0].sublayers.forEach(visit)
    #expect(unnamed == 0)
    for place in [
      "layers[0].masksProperties", "layers[0].masksProperties[0]",
      "layers[0].masksProperties[0].x", "layers[0].masksProperties[1]",
      "layers[0].masksProperties[1].inv", "layers[2].tt",
    ] {
      #expect(places.contains(place), "\(place)")
    }
  }

  @Test func aTextDocumentOfTooManyLinesIsRefusedByPlace() {
    // Lottie breaks lines with a carriage return.
    let lines = String(repeating: "x\\r", count: TextLayer.maximumParagraphCount)
    #expect(
      textProblems(lines) == [
        "test.json: layers[0].t.d.k[0].s.t: a string of 10001 lines (line breaks) exceeds the "
          + "limit of 10000"
      ])
  }

  /// A precomposition's keyframes count once for every layer that shows it, from the JSON
  /// before anything is built: one of 100,000 keyframes shown by 100 layers took 9.5 s and
  /// 960 MB for a frame, and 5,000 such layers fit the layer limit.
  @Test func keyframesOverTheLimitOfAFileAreRefusedBeforeBuilding() {
    #expect(LottieFormat.maximumKeyframesPerFile == 1_000_000)
    let keyframes = (0..<10_000).map { #"{"t": \#($0), "s": [\#($0 % 90), 0]}"# }
    let dot = LottieTest.shapeLayer(
      "dot", ks: #"{"p": {"a": 1, "k": [\#(keyframes.joined(separator: ","))]}}"#,
      shapes: "[\(Self.fill)]")
    // The instances start after the composition's last frame: counted, never built.
    func document(instances: Int) -> String {
      let layers = (0..<instances).map {
        #"{"ty": 0, "ind": \#($0 + 1), "refId": "c", "ip": 1000, "op": 2000, "st": 0, "#
          + #""w": 100, "h": 100, "ks": {}}"#
      }
      return LottieTest.document(
        layers: "[\(layers.joined(separator: ","))]",
        assets: #"[{"id": "c", "layers": [\#(dot)]}]"#)
    }
    #expect(LottieTest.problems(document(instances: 100)) == [])
    #expect(
      LottieTest.problems(document(instances: 101)) == [
        "test.json: layers[100]: the animation builds more than 1000000 keyframes (each "
          + "precomposition's counted once for every layer that shows it), the limit"
      ])
  }
}
