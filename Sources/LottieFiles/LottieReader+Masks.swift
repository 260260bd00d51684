import Animations
import Geometry
import LayerTree
import SceneFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Masks (`masksProperties`) and effects (`ef`).
extension LottieReader {
  /// A layer's masks as its content's mask (scene-format.md 4.4, "Combining mask shapes"):
  /// one mask layer holding a white shape per mask in the file's order, its opacity the mask's,
  /// combined with what the earlier masks drew by the mode's compositing filter (add: normal,
  /// subtract: destination out, intersect: destination in, lighten, darken, difference: xor);
  /// `none` masks are left out. When the first is subtract or intersect, a white rectangle
  /// covering the layer (`cover`) comes first. Inverted masks are that rectangle less the path;
  /// expansion strokes the path (outward) or cuts a stroke out of it (inward).
  func readMasks(
    _ json: JSONValue, at place: String, layer label: String, cover: Rect, onto content: Layer
  ) {
    guard let list = array(json, at: place) else { return }
    let counted = list.count
    maskCount += counted
    guard counted <= LottieFormat.maximumMasksPerLayer else {
      report(
        place,
        "\(counted) masks on one layer exceed the limit of \(LottieFormat.maximumMasksPerLayer)")
      return
    }
    guard maskCount <= LottieFormat.maximumMasks else {
      if maskCount - counted <= LottieFormat.maximumMasks {
        report(
          place,
          "the layers' masks exceed the limit of \(LottieFormat.maximumMasks) in one animation "
            + "(a precomposition's counted for every layer that shows it)")
      }
      return
    }
    let maskLayer = Layer()
    maskLayer.anchorPoint = .zero
    maskLayer.sourcePlace = place
    let modes: [String: CompositingFilter] = [
      "a": .normal, "s": .destinationOut, "i": .destinationIn, "l": .lighten, "d": .darken,
      "f": .xor,
    ]
    // Every layer a mask makes names a place (errors found while drawing it say it).
    func whiteShape(_ path: Path?, place: String) -> ShapeLayer {
      let shape = ShapeLayer()
      shape.sourcePlace = place
      shape.anchorPoint = .zero
      shape.fillColor = .white
      shape.path = path
      return shape
    }
    for (i, item) in list.enumerated() {
      let p = "\(place)[\(i)]"
      guard let f = object(item, at: p, what: "a mask (an object)") else { continue }
      var mode = f.string("mode") ?? "a"
      // A mode lottie-web does not know (a number, null, another letter) it draws as add
      // (white, never the subtraction's black), said so.
      if let given = f["mode"], f.string("mode") == nil || (modes[mode] == nil && mode != "n") {
        let shown: String
        switch given {
        case .number(let x): shown = MessageText.number(x)
        case .null: shown = "null"
        case .string(let letters): shown = "\"\(letters)\""
        default: shown = given.kindDescription
        }
        warn(
          label, "mask mode \(shown) (\(f.place("mode")): a, s, i, l, d, f or n): drawn as add",
          key: "mask mode")
        mode = "a"
      }
      if mode == "n" { continue }
      guard let pt = f["pt"] else {
        report(f.place("pt"), "missing required key (the mask's path)")
        continue
      }
      guard let path = shape(pt, at: f.place("pt"), layer: label),
        let o = vector(f, "o", default: [100], layer: label),
        let x = vector(f, "x", default: [0], layer: label)
      else { continue }
      // A feathered edge (`f`) is drawn hard, said (lottie-web's SVG does not feather either).
      if let feather = f["f"], let fv = vector(f, "f", default: [0, 0], layer: label),
        feather != .null, fv.keyframes.contains(where: { $0.start.contains { $0 != 0 } })
      {
        warn(
          label, "mask feather (\(f.place("f"))): drawn with a hard edge", key: "mask feather")
      }
      guard let filter = modes[mode] else { continue }
      if maskLayer.sublayers.isEmpty && (mode == "s" || mode == "i") {
        maskLayer.addSublayer(whiteShape(Path(rect: cover), place: f.place))
      }
      // The mask's own path (animated: morphing), on `shape`.
      // Each shape holding it counts it, as a shape's held path counts (100 masks of 10,000
      // vertices in 10 precomposition instances held 1.2 GB, counted by nothing).
      func setPath(_ shape: ShapeLayer) {
        let held = path.initial.path(curvesOnly: path.isAnimated)
        guard held.isEmpty || spendSamplingWork(4 * held.elements.count) else { return }
        shape.path = held
        animate(shape, "path", path)
      }
      let piece: ShapeLayer
      var hole: ShapeLayer? = nil
      if flag(f, "inv") {
        piece = whiteShape(Path(rect: cover), place: f.place)
        piece.compositingFilter = filter == .normal ? .sourceOver : filter
        let cutOut = whiteShape(nil, place: f.place("inv"))
        setPath(cutOut)
        cutOut.compositingFilter = .destinationOut
        piece.addSublayer(cutOut)
        hole = cutOut
      } else {
        piece = whiteShape(nil, place: f.place)
        setPath(piece)
        piece.compositingFilter = filter
      }
      piece.name = f.string("nm")
      piece.opacity = unit(o.initial)
      animate(piece, "opacity", o) { .scalar(fraction($0)) }
      let expansion = component(x.initial, 0)
      if x.isAnimated { warn(label, "animated mask expansion (x): its first value is used") }
      // The path is expanded (or contracted) first, then inverted, as After Effects does: an
      // inverted mask's hole grows with a positive expansion (it was ignored) and shrinks with
      // a negative one (it grew). Growing strokes the shape (the hole) 2x wide; shrinking
      // draws a ring 2|x| wide along the path, back into the hole or cut out of the shape.
      func ring(_ compositing: CompositingFilter) -> ShapeLayer {
        let ring = whiteShape(nil, place: f.place("x"))
        setPath(ring)
        ring.fillColor = nil
        ring.strokeColor = .white
        ring.lineWidth = -2 * expansion
        ring.lineJoin = .round
        ring.compositingFilter = compositing
        return ring
      }
      if expansion > 0 {
        let grown = hole ?? piece
        grown.strokeColor = .white
        grown.lineWidth = 2 * expansion
        grown.lineJoin = .round
      } else if expansion < 0 {
        if hole != nil {
          piece.addSublayer(ring(.sourceOver))
        } else {
          if piece.compositingFilter == .normal { piece.compositingFilter = .sourceOver }
          piece.addSublayer(ring(.destinationOut))
        }
      }
      maskLayer.addSublayer(piece)
    }
    if !maskLayer.sublayers.isEmpty { content.mask = maskLayer }
  }

  /// Effects: a drop shadow (`ty: 25`) as the content's shadow; Gaussian blur (29), fill (21),
  /// tint (20) and tritone (23) as its filters, in the file's order (scene-format.md 4.4);
  /// others warned. Their first values are used.
  func readEffects(_ json: JSONValue, at place: String, layer label: String, onto content: Layer) {
    guard let list = array(json, at: place) else { return }
    var filters: [LayerFilter] = []
    var shadows = 0
    for (i, item) in list.enumerated() {
      guard let f = object(item, at: "\(place)[\(i)]", what: "an effect (an object)") else {
        continue
      }
      if f["en"] != nil && !flag(f, "en") { continue }  // switched off
      let type = code(f, "ty", default: -1)
      let counts = [25: 5, 29: 3, 21: 7, 20: 3, 23: 4]
      guard let needed = counts[type] else {
        let shown = given(f, "ty", fallback: type)
        let name = f.string("nm").map { "\"\($0)\"" } ?? "type \(shown)"
        warn(label, "effect \(name) (ty \(shown)): not drawn", key: "effect \(type)")
        continue
      }
      guard case .array(let values)? = f["ef"] else {
        report(f.place("ef"), "missing required key (the effect's values)")
        continue
      }
      // The values that are colours, by effect type (as the cases below read them).
      let colours: [Int: Set<Int>] = [25: [0], 21: [2], 20: [0, 1], 23: [0, 1, 2]]
      var v: [[Double]] = []
      for (j, value) in values.prefix(needed).enumerated() {
        let vp = f.place("ef") + "[\(j)]"
        guard let vf = object(value, at: vp, what: "an effect value (an object with v)"),
          let a = vector(
            vf, "v", default: [0], layer: label, colour: colours[type]?.contains(j) ?? false)
        else { return }
        if a.isAnimated { warn(label, "animated effects: their first values are used") }
        v.append(a.initial)
      }
      guard v.count == needed else {
        report(f.place("ef"), "this effect needs \(needed) values, found \(v.count)")
        continue
      }
      switch type {
      case 25:
        // Drop shadow: colour, opacity 0...255, direction (degrees clockwise from up),
        // distance and softness. A layer has one shadow: a later drop shadow replaces an
        // earlier one, said (lottie-web chains them, and draws both).
        shadows += 1
        if shadows == 2 {
          warn(
            label, "several drop shadows on one layer (\(f.place("ty"))): the last is drawn",
            key: "several drop shadows")
        }
        let direction = radians(v[2]), distance = component(v[3], 0)
        content.shadowColor = Self.color(v[0])
        content.shadowOpacity = Swift.max(0, Swift.min(1, component(v[1], 0) / 255))
        content.shadowOffset = Size(
          width: sin(direction) * distance, height: -cos(direction) * distance)
        content.shadowRadius = Swift.max(0, component(v[4], 0) / 4)
      case 29:
        // Gaussian blur: blurriness, dimensions (1 both, 2 horizontal, 3 vertical).
        let radius = Swift.max(0, Swift.min(1e4, 0.3 * component(v[0], 0)))
        // lottie-web's SVG keeps one axis for 2 and 3 only, blurs both for any other code.
        let axis: BlurAxis? = coded(
          component(v[1], 0), at: f.place("ef[1].v"), "Gaussian blur dimensions",
          known: [1: nil, 2: .horizontal, 3: .vertical], layer: label
        ) { _ in (nil, "drawn in both dimensions (1), as lottie-web draws it") }
        filters.append(
          axis.map { .directionalBlur(radius: radius, axis: $0) } ?? .gaussianBlur(radius: radius))
      case 21:
        // Fill: mask, all masks, colour, invert, feathers, opacity (0...1).
        filters.append(
          .fill(color: Self.color(v[2]), opacity: Swift.max(0, Swift.min(1, component(v[6], 0)))))
      case 20:
        // Tint: map black to, map white to, amount (percent).
        filters.append(
          .tint(
            black: Self.color(v[0]), white: Self.color(v[1]),
            amount: Swift.max(0, Swift.min(1, component(v[2], 0) / 100))))
      default:
        // Tritone: bright, midtones, dark, blend with original (percent).
        filters.append(
          .tritone(
            bright: Self.color(v[0]), midtone: Self.color(v[1]), dark: Self.color(v[2]),
            amount: Swift.max(0, Swift.min(1, 1 - component(v[3], 0) / 100))))
      }
    }
    if !filters.isEmpty { content.filters = filters }
  }

}
