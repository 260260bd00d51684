import Flipbook
import FlipbookTestSupport
import Testing

/// Blend modes, mask modes, track mattes and effects, mapped as scene-format.md 4.4 says.
@Suite struct CompositingTests {
  static func solid(_ name: String, ind: Int, extra: String) -> String {
    """
    {"ty": 1, "ind": \(ind), "nm": "\(name)", "ip": 0, "op": 100, "st": 0, "sc": "#ff0000",
     "sw": 40, "sh": 30, "ks": {}, \(extra)}
    """
  }

  /// The first layer at or under `layer` with a mask or filters.
  static func first(_ layer: Layer, where test: (Layer) -> Bool) -> Layer? {
    if test(layer) { return layer }
    for sublayer in layer.sublayers {
      if let found = first(sublayer, where: test) { return found }
    }
    return nil
  }

  static let square =
    #"{"a": 0, "k": {"c": true, "v": [[0, 0], [10, 0], [10, 10], [0, 10]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}"#

  @Test func blendModesAreCompositingFilters() throws {
    let layers =
      "[\(Self.solid("Multiply", ind: 1, extra: #""bm": 1"#)), \(Self.solid("Add", ind: 2, extra: #""bm": 16"#)), \(Self.solid("Mix", ind: 3, extra: #""bm": 17"#))]"
    let document = try LottieTest.read(LottieTest.document(layers: layers))
    #expect(
      try LottieTest.layer("Multiply", in: document.scene, at: 0).compositingFilter == .multiply)
    #expect(try LottieTest.layer("Add", in: document.scene, at: 0).compositingFilter == .addition)
    #expect(try LottieTest.layer("Mix", in: document.scene, at: 0).compositingFilter == .normal)
    #expect(
      document.warnings.map(\.description) == [
        #"test.json: layers[2] "Mix": unsupported blend mode 17 (layers[2].bm: 0 to 16): drawn "#
          + "normal (hard mix)"
      ])
  }

  @Test(arguments: [
    (1, MaskMode.alpha), (2, .alphaInverted), (3, .luminance), (4, .luminanceInverted),
  ])
  func trackMattesMaskInTheirMode(_ tt: Int, _ mode: MaskMode) throws {
    let layers =
      "[\(Self.solid("Matte", ind: 1, extra: #""td": 1"#)), \(Self.solid("Target", ind: 2, extra: "\"tt\": \(tt)"))]"
    let scene = try LottieTest.read(LottieTest.document(layers: layers)).scene
    let tree = try scene.presentationTree(at: 0)
    let target = try #require(tree.layer(named: "Target"))
    let holder = try #require(target.superlayer)
    #expect(holder.maskMode == mode)
    #expect(holder.mask?.layer(named: "Matte") != nil)
    #expect(tree.sublayers[0].sublayers.count == 1)  // the matte is drawn only as the matte
  }

  /// A shape layer named `name` drawing a filled `size` x `size` rectangle (or ellipse) in
  /// `color`, centred at (50, 50) of a 100 x 100 animation.
  static func centred(
    _ name: String, ind: Int, size: Int, ellipse: Bool = false, color: String = "[1, 1, 1, 1]",
    extra: String
  ) -> String {
    let shape =
      ellipse
      ? #"{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [\#(size), \#(size)]}}"#
      : #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [\#(size), \#(size)]}, "r": {"a": 0, "k": 0}}"#
    return """
      {"ty": 4, "ind": \(ind), "nm": "\(name)", "ip": 0, "op": 100, "st": 0,
       "ks": {"p": {"a": 0, "k": [50, 50]}}, \(extra)
       "shapes": [\(shape), {"ty": "fl", "c": {"a": 0, "k": \(color)}, "o": {"a": 0, "k": 100}}]}
      """
  }

  /// Eighteenth hostile pass: a matte layer (`td`) with a track matte of its own (`tt`) was
  /// built without it, so the target showed through the whole square. It is drawn through its
  /// own matte, as After Effects composes them: the target shows where both mattes are.
  @Test func aMatteLayersOwnMatteIsApplied() throws {
    let layers = [
      Self.centred("Ellipse", ind: 1, size: 60, ellipse: true, extra: #""td": 1,"#),
      Self.centred("Square", ind: 2, size: 70, extra: #""td": 1, "tt": 1,"#),
      Self.centred("Target", ind: 3, size: 80, color: "[1, 0, 0, 1]", extra: #""tt": 1,"#),
    ]
    let document = try LottieTest.read(
      LottieTest.document(layers: "[" + layers.joined(separator: ", ") + "]"))
    #expect(document.warnings.isEmpty)
    let tree = try document.scene.presentationTree(at: 0)
    let holder = try #require(tree.layer(named: "Target")?.superlayer)
    #expect(holder.maskMode == .alpha)
    let matte = try #require(holder.mask)
    #expect(matte.layer(named: "Square") != nil)
    #expect(matte.maskMode == .alpha && matte.mask?.layer(named: "Ellipse") != nil)
    // Drawn: red inside the 60-point disk, nothing in the square's corner outside it.
    let bitmap = try document.scene.makeFrame(at: 0).makeBitmap()
    #expect(bitmap[50, 50] == RGBA8(255, 0, 0, 255))
    #expect(bitmap[17, 17] == RGBA8(0, 0, 0, 0))
    #expect(bitmap[24, 24] == RGBA8(0, 0, 0, 0))
    // Named by `tp` too, and the chain may run as deep as 8 mattes over the target.
    func chain(_ depth: Int) -> String {
      var layers = [Self.centred("M0", ind: 1, size: 60, extra: #""td": 1,"#)]
      for n in 1..<depth {
        layers.append(Self.centred("M\(n)", ind: n + 1, size: 60, extra: #""td": 1, "tt": 1,"#))
      }
      layers.append(
        Self.centred("Target", ind: depth + 1, size: 60, extra: #""tt": 1, "tp": \#(depth),"#))
      return LottieTest.document(layers: "[" + layers.joined(separator: ", ") + "]")
    }
    func depth(_ json: String) throws -> Int {
      let tree = try LottieTest.read(json).scene.presentationTree(at: 0)
      var n = 0
      var layer = tree.layer(named: "Target")?.superlayer
      while let mask = layer?.mask {
        n += 1
        layer = mask
      }
      return n
    }
    #expect(try depth(chain(8)) == 8)
    #expect(try LottieTest.read(chain(8)).warnings.isEmpty)
    // Past it, the deepest matte layer drawn without its own matte, with a warning.
    #expect(try depth(chain(9)) == 8)
    #expect(
      try LottieTest.read(chain(9)).warnings.map(\.description) == [
        #"test.json: layers[1] "M1": unsupported track mattes nested more than 8 deep "#
          + "(layers[1].tt): the matte layer is drawn without its own matte"
      ])
  }

  /// A matte layer's own track matte of an unknown type is drawn without, with the warning any
  /// layer's gets (its matte layer is not looked for).
  @Test func aMatteLayersUnknownMatteTypeIsDrawnWithout() throws {
    let layers = [
      Self.centred("Matte", ind: 1, size: 60, extra: #""td": 1, "tt": 9,"#),
      Self.centred("Target", ind: 2, size: 80, extra: #""tt": 1,"#),
    ]
    let document = try LottieTest.read(
      LottieTest.document(layers: "[" + layers.joined(separator: ", ") + "]"))
    #expect(document.warnings.map(\.feature).count == 1)
    #expect(document.warnings.first?.layer == #"layers[0] "Matte""#)
    let tree = try document.scene.presentationTree(at: 0)
    let matte = try #require(tree.layer(named: "Target")?.superlayer?.mask)
    #expect(matte.name == "Matte" && matte.mask == nil)
  }

  /// Eighteenth hostile pass: mattes named by `tp` that name one another loop; refused, naming
  /// the loop (as a parent loop is).
  @Test func trackMattesThatLoopAreRefused() throws {
    let layers = [
      Self.centred("A", ind: 1, size: 60, extra: #""td": 1, "tt": 1, "tp": 2,"#),
      Self.centred("B", ind: 2, size: 60, extra: #""td": 1, "tt": 1, "tp": 1,"#),
      Self.centred("Target", ind: 3, size: 60, extra: #""tt": 1, "tp": 1,"#),
    ]
    #expect(
      LottieTest.problems(LottieTest.document(layers: "[" + layers.joined(separator: ", ") + "]"))
        == [
          "test.json: layers[0].tt: the track mattes loop back to this layer (layers[0] → "
            + "layers[1] → layers[0])"
        ])
    // Twentieth pass: a loop was said once for each of its layers a drawn layer reached, and
    // not at all when none did. Said once, from its first layer, whichever layers are drawn.
    let drawnPair = [
      Self.centred("A", ind: 1, size: 60, extra: #""tt": 1, "tp": 2,"#),
      Self.centred("B", ind: 2, size: 60, extra: #""tt": 1, "tp": 1,"#),
    ]
    let mattesOnly = [
      Self.centred("A", ind: 1, size: 60, extra: #""td": 1, "tt": 1, "tp": 3,"#),
      Self.centred("Plain", ind: 2, size: 60, extra: ""),
      Self.centred("C", ind: 3, size: 60, extra: #""td": 1, "tt": 1, "tp": 1,"#),
    ]
    #expect(
      LottieTest.problems(
        LottieTest.document(layers: "[" + drawnPair.joined(separator: ", ") + "]"))
        == [
          "test.json: layers[0].tt: the track mattes loop back to this layer (layers[0] → "
            + "layers[1] → layers[0])"
        ])
    #expect(
      LottieTest.problems(
        LottieTest.document(layers: "[" + mattesOnly.joined(separator: ", ") + "]"))
        == [
          "test.json: layers[0].tt: the track mattes loop back to this layer (layers[0] → "
            + "layers[2] → layers[0])"
        ])
  }

  @Test func maskModesCombineByCompositingFilters() throws {
    let masks = """
      "masksProperties": [
        {"mode": "s", "o": {"a": 0, "k": 50}, "pt": \(Self.square)},
        {"mode": "i", "inv": true, "pt": \(Self.square)},
        {"mode": "a", "x": {"a": 0, "k": 3}, "pt": \(Self.square)},
        {"mode": "n", "pt": \(Self.square)}]
      """
    let scene = try LottieTest.read(
      LottieTest.document(layers: "[\(Self.solid("Masked", ind: 1, extra: masks))]")
    ).scene
    let layer = try LottieTest.layer("Masked", in: scene, at: 0)
    let mask = try #require(Self.first(layer) { $0.mask != nil }?.mask)
    let parts = mask.sublayers.compactMap { $0 as? ShapeLayer }
    #expect(parts.count == 4)  // the cover the subtraction starts from, then three masks
    #expect(parts[0].path == Path(rect: Rect(x: 0, y: 0, width: 40, height: 30)))
    #expect(parts[0].compositingFilter == .normal && parts[0].fillColor == .white)
    #expect(parts[1].compositingFilter == .destinationOut && parts[1].opacity == 0.5)
    // Inverted: the cover less the path, intersected.
    #expect(parts[2].compositingFilter == .destinationIn)
    #expect(parts[2].path == Path(rect: Rect(x: 0, y: 0, width: 40, height: 30)))
    #expect((parts[2].sublayers.first as? ShapeLayer)?.compositingFilter == .destinationOut)
    // Expanded by 3: stroked 6 wide too.
    #expect(parts[3].compositingFilter == .normal)
    #expect(parts[3].strokeColor == .white && parts[3].lineWidth == 6)
  }

  @Test func effectsBecomeFiltersAndShadows() throws {
    func value(_ v: String) -> String { #"{"ty": 0, "v": {"a": 0, "k": \#(v)}}"# }
    let effects = """
      "ef": [
        {"ty": 29, "nm": "Blur", "ef": [\(value("10")), \(value("1")), \(value("0"))]},
        {"ty": 20, "nm": "Tint", "ef": [\(value("[0, 0, 0, 1]")), \(value("[1, 1, 1, 1]")), \(value("50"))]},
        {"ty": 23, "nm": "Tritone", "ef": [\(value("[1, 1, 1, 1]")), \(value("[0.5, 0.5, 0.5, 1]")), \(value("[0, 0, 0, 1]")), \(value("25"))]},
        {"ty": 21, "nm": "Fill", "ef": [\(value("0")), \(value("1")), \(value("[0, 0, 1, 1]")), \(value("0")), \(value("0")), \(value("0")), \(value("0.5"))]},
        {"ty": 25, "nm": "Shadow", "ef": [\(value("[0, 0, 0, 1]")), \(value("127.5")), \(value("90")), \(value("10")), \(value("8"))]},
        {"ty": 29, "nm": "Sideways", "ef": [\(value("20")), \(value("2")), \(value("0"))]}]
      """
    let scene = try LottieTest.read(
      LottieTest.document(layers: "[\(Self.solid("Effects", ind: 1, extra: effects))]")
    ).scene
    let layer = try LottieTest.layer("Effects", in: scene, at: 0)
    let content = try #require(Self.first(layer) { !$0.filters.isEmpty })
    #expect(
      content.filters == [
        .gaussianBlur(radius: 3),
        .tint(black: .black, white: .white, amount: 0.5),
        .tritone(bright: .white, midtone: Color(white: 0.5), dark: .black, amount: 0.75),
        .fill(color: .blue, opacity: 0.5),
        .directionalBlur(radius: 6, axis: .horizontal),
      ])
    #expect(content.shadowOpacity == 0.5 && content.shadowRadius == 2)
    #expect(
      abs(content.shadowOffset.width - 10) < 1e-12 && abs(content.shadowOffset.height) < 1e-12)
  }
}
