import Animations
import Geometry
import LayerTree
import SceneFiles

/// Fills, strokes and gradients (`fl`, `st`, `gf`, `gs`) as shape layers.
extension LottieReader {
  /// Builds one style over `sources`, some of which may be groups combined by their own merge
  /// paths (`ShapeSource.merge`): a merged group alone is drawn as the group's own styles would
  /// draw it; merged groups among other paths are each one shape of the style (the other paths
  /// another), under the style's opacity together; merged groups that a merge listed with the
  /// style combines again become operands of that merge (with a warning).
  func readMergedStyle(
    _ f: Fields, kind: String, sources: [ShapeSource], trim: Trim?, operation: PathOperation,
    layer label: String, into container: Layer
  ) {
    guard sources.contains(where: { $0.merge != nil }) else {
      readStyle(
        f, kind: kind, sources: sources, trim: trim, operation: operation, layer: label,
        into: container)
      return
    }
    if operation == .none, sources.count == 1, let merge = sources[0].merge {
      readStyle(
        f, kind: kind, sources: merge.operands, trim: trim, operation: merge.operation,
        layer: label, into: container)
      return
    }
    guard operation == .none else {
      warn(
        label,
        "merge paths (mm) in a group that a merge outside it combines again: its paths are "
          + "operands of the outer merge")
      readStyle(
        f, kind: kind, sources: sources.flatMap { $0.merge?.operands ?? [$0] }, trim: trim,
        operation: operation, layer: label, into: container)
      return
    }
    let group = Layer()
    group.anchorPoint = .zero
    group.name = f.string("nm")
    group.sourcePlace = f.place
    var parts: [(sources: [ShapeSource], operation: PathOperation)] = []
    let plain = sources.filter { $0.merge == nil }
    if !plain.isEmpty { parts.append((plain, .none)) }
    for merge in sources.compactMap(\.merge) { parts.append((merge.operands, merge.operation)) }
    for (n, part) in parts.enumerated() {
      // The style's messages once.
      let (p, w) = (problems.count, warnings.count)
      readStyle(
        f, kind: kind, sources: part.sources, trim: trim, operation: part.operation,
        layer: label, into: group)
      if n > 0 { dropMessages(after: p, w) }
    }
    // One opacity over the parts, so that where they overlap the style is not drawn twice.
    for part in group.sublayers {
      part.opacity = 1
      part.removeAnimation(forKey: "lottie.opacity")
    }
    if let o = vector(f, "o", default: [100], layer: label) {
      group.opacity = unit(o.initial)
      animate(group, "opacity", o) { .scalar(fraction($0)) }
    }
    container.addSublayer(group)
  }

  /// Builds one style over `sources` into `container`.
  func readStyle(
    _ f: Fields, kind: String, sources: [ShapeSource], trim: Trim?,
    operation: PathOperation = .none, layer label: String, into container: Layer
  ) {
    let stroked = kind == "st" || kind == "gs"
    let shape = ShapeLayer()
    shape.name = f.string("nm")
    shape.sourcePlace = f.place
    shape.anchorPoint = .zero
    shape.pathOperation = operation
    // A trim cuts the path for fills; strokes take it as strokeStart and strokeEnd.
    setPath(of: shape, sources: sources, trim: stroked ? nil : trim)
    if let o = vector(f, "o", default: [100], layer: label) {
      shape.opacity = unit(o.initial)
      animate(shape, "opacity", o) { .scalar(fraction($0)) }
    }
    if stroked {
      shape.fillColor = nil
      readStrokeStyle(f, onto: shape, layer: label)
    } else {
      // lottie-web draws even-odd for 2 only.
      shape.fillRule = coded(
        f, "r", "fill rule", known: [1: .nonZero, 2: .evenOdd], absent: .nonZero, layer: label
      ) { _ in (.nonZero, "drawn non-zero, as lottie-web draws it") }
    }
    let drawn: Layer
    switch kind {
    case "fl", "st":
      guard let c = vector(f, "c", default: [0, 0, 0, 1], layer: label, colour: true) else {
        return
      }
      let key = stroked ? "strokeColor" : "fillColor"
      let color = Self.color(c.initial)
      if stroked { shape.strokeColor = color } else { shape.fillColor = color }
      animate(shape, key, c) { .color(Self.color($0, clamped: false)) }
      drawn = shape
    default:
      // The gradient shows through the shape (its opacity on the gradient layer).
      guard let gradient = readGradient(f, sources: sources, layer: label) else { return }
      gradient.opacity = shape.opacity
      for animation in shape.animationKeys where animation == "lottie.opacity" {
        if let a = shape.animation(forKey: animation) { gradient.add(a, forKey: animation) }
      }
      shape.opacity = 1
      shape.removeAnimation(forKey: "lottie.opacity")
      if stroked { shape.strokeColor = .black } else { shape.fillColor = .black }
      let origin = gradient.position
      shape.position = Point(x: -origin.x, y: -origin.y)
      gradient.mask = shape
      drawn = gradient
    }
    if stroked { checkDashes(of: shape, trim: trim, at: f.place("d")) }
    guard stroked, let trim else {
      container.addSublayer(drawn)
      return
    }
    // Simultaneous trims cut each path on its own: one stroke per subpath (static paths).
    if !trim.individually, drawn === shape, operation == .none,
      sources.allSatisfy({ $0.frames == nil }),
      let path = shape.path, case let parts = path.subpaths, parts.count > 1
    {
      for part in parts {
        guard let copy = shape.copyTree() as? ShapeLayer else { continue }
        copy.path = part
        applyTrim(trim, to: copy, drawn: copy, into: container)
      }
      return
    }
    applyTrim(trim, to: shape, drawn: drawn, into: container)
  }

  /// The path of `shape`: the sources' paths together, trimmed by `trim` (fills), animated as a
  /// path morph when it is one `sh`'s keyframes, else sampled.
  func setPath(of shape: ShapeLayer, sources: [ShapeSource], trim: Trim?) {
    func path(at frame: Double) -> Path {
      var out = Path()
      for s in sources { out.addPath(s.path(frame)) }
      guard let trim else { return out }
      return Self.trimmed(out, trim.range(at: frame))
    }
    shape.path = path(at: sources.compactMap(\.frames?.lowerBound).min() ?? 0)
    // Each shape holds its path, each precomposition instance its own: counted as keyframed
    // paths are (2,000 instances of a 20,000-element shape held 2 GB before a limit spoke).
    if let held = shape.path?.elements.count, held > 0, !spendSamplingWork(4 * held) {
      shape.path = nil
      return
    }
    var ranges = sources.compactMap(\.frames)
    if let trim, trim.isAnimated { ranges.append(trim.frames) }
    guard !ranges.isEmpty else { return }
    if sources.count == 1, let morph = sources[0].morph, trim == nil {
      shape.path = morph.initial.path(curvesOnly: true)
      animate(shape, "path", morph)
      return
    }
    let lower = ranges.map(\.lowerBound).min()!, upper = ranges.map(\.upperBound).max()!
    bake(shape, "path", frames: lower...upper, keyframeFrames: sources.flatMap(\.keyframeFrames)) {
      .path(path(at: $0))
    }
  }

  /// The part of `path` a trim range shows (wrapping past the end round to the start).
  static func trimmed(_ path: Path, _ range: (from: Double, to: Double)) -> Path {
    if range.from == 0 && range.to >= 1 { return path }
    if range.to <= range.from { return Path() }
    if range.to <= 1 { return path.trimmed(from: range.from, to: range.to) }
    var out = path.trimmed(from: range.from, to: 1)
    out.addPath(path.trimmed(from: 0, to: range.to - 1))
    return out
  }

  /// Refuses a stroke that would draw more dashes than `StrokeStyle.maximumDashCount` (its
  /// path's length, or the part its trim shows, over its dash pattern's) at the first frame;
  /// one that only grows that long later is refused by the renderer, naming the layer.
  func checkDashes(of shape: ShapeLayer, trim: Trim?, at place: String) {
    let style = shape.strokeStyle
    guard style.isDashed, shape.lineWidth > 0, let path = shape.path else { return }
    var dashes = style.dashCount(along: path)
    if let trim, dashes > Double(StrokeStyle.maximumDashCount) {
      let shown = trim.range(at: trim.isAnimated ? trim.frames.lowerBound : 0)
      dashes *= Swift.min(1, shown.to - shown.from)
    }
    guard dashes <= Double(StrokeStyle.maximumDashCount) else {
      report(
        place,
        "the stroke would draw \(MessageText.estimate(dashes)) dashes (the path's "
          + "length over the pattern's), over the limit of \(StrokeStyle.maximumDashCount)")
      return
    }
    // All the animation's strokes together, each repeater copy counted.
    let limit = Double(StrokeStyle.maximumDashCountPerFrame)
    let before = dashesDrawn
    dashesDrawn += dashes * Double(replication)
    if dashesDrawn > limit && before <= limit {
      report(
        place,
        "the animation's strokes would draw more than \(StrokeStyle.maximumDashCountPerFrame) "
          + "dashes a frame (each repeater copy counted), the limit")
    }
  }

  /// Whether a keyframe of `v` (its value or its segment's end value) has a first component
  /// below 0.
  static func goesNegative(_ v: Animated<[Double]>) -> Bool {
    v.keyframes.contains {
      component($0.start, 0) < 0 || $0.end.map { component($0, 0) < 0 } == true
    }
  }

  /// A stroke's width, caps, joins, miter limit and dashes.
  func readStrokeStyle(_ f: Fields, onto shape: ShapeLayer, layer label: String) {
    if let w = vector(f, "w", default: [1], layer: label) {
      // A negative width is an error in SVG, which then draws its initial width of 1, as
      // lottie-web's SVG renderer does (its canvas keeps the width it had).
      func width(_ v: [Double]) -> Double {
        let x = component(v, 0)
        return x < 0 ? 1 : x
      }
      if Self.goesNegative(w) {
        warn(
          label,
          "negative stroke widths (\(f.place("w"))): drawn 1 wide, as lottie-web's SVG "
            + "draws them", key: "negative stroke width")
      }
      shape.lineWidth = width(w.initial)
      animate(shape, "lineWidth", w) { .scalar(width($0)) }
    }
    // lottie-web reads `lc || 2` and `lj || 2` (0 is round, as absent) and sets SVG's
    // stroke-linecap and stroke-linejoin to the code's name: another code names none, and SVG
    // draws its initial butt caps and miter joins (miter limit 4: lottie-web sets `ml` for
    // `lj` 1 only).
    shape.lineCap = coded(
      f, "lc", "stroke cap", known: [1: .butt, 2: .round, 3: .square], absent: .round,
      layer: label
    ) {
      $0 == 0
        ? (.round, "drawn round, as lottie-web draws 0 (as if absent)")
        : (.butt, "drawn butt, as lottie-web's SVG draws it")
    }
    var knownJoin = true
    shape.lineJoin = coded(
      f, "lj", "stroke join", known: [1: .miter, 2: .round, 3: .bevel], absent: .round,
      layer: label
    ) {
      knownJoin = $0 == 0
      return $0 == 0
        ? (.round, "drawn round, as lottie-web draws 0 (as if absent)")
        : (.miter, "drawn mitred (limit 4), as lottie-web's SVG draws it")
    }
    shape.miterLimit = knownJoin ? Swift.max(1, number(f, "ml", default: 4)) : 4
    guard case .array(let dashes)? = f["d"] else { return }
    guard dashes.count <= StrokeStyle.maximumDashPatternCount else {
      report(
        f.place("d"),
        "a dash pattern of \(dashes.count) entries exceeds the limit of "
          + "\(StrokeStyle.maximumDashPatternCount)")
      return
    }
    // Dash (`n: "d"`) and gap (`"g"`) lengths in their order, and the offset (`"o"`), each
    // animatable: the offset as `lineDashPhase`, the lengths as `lineDashPattern` (animatable in
    // Flipbook), as lottie-web reads them every frame.
    var lengths: [Animated<[Double]>] = [], offset: Animated<[Double]>? = nil
    for (i, item) in dashes.enumerated() {
      let place = f.place("d") + "[\(i)]"
      guard let d = object(item, at: place, what: "a dash (an object with n and v)"),
        let v = vector(d, "v", default: [0], layer: label)
      else { return }
      // lottie-web takes any entry but an offset (`o`) as a length, said so.
      if let n = d["n"], n != .null, n != .string("d"), n != .string("g"), n != .string("o") {
        let shown: String
        if case .string(let letters) = n {
          shown = "\"\(letters)\""
        } else {
          shown = n.kindDescription
        }
        warn(
          label, "dash entry kind \(shown) (\(d.place("n")): d, g or o): drawn as a length",
          key: "dash entry kind")
      }
      if d.string("n") == "o" { offset = v } else { lengths.append(v) }
    }
    // A negative length makes the pattern an error in SVG, and lottie-web's SVG draws the
    // stroke solid: kept as it is, the stroke draws solid (`StrokeStyle.isDashed`).
    if lengths.contains(where: Self.goesNegative) {
      warn(
        label,
        "negative dash lengths (\(f.place("d"))): drawn solid, as lottie-web's SVG draws "
          + "them", key: "negative dash length")
    }
    func pattern(_ values: [Double]) -> [Double] {
      values.count % 2 == 1 ? values + values : values
    }
    func pattern(at frame: Double) -> [Double] {
      pattern(lengths.map { component($0.value(at: frame), 0) })
    }
    let animated = lengths.indices.filter { lengths[$0].isAnimated }
    let initial = pattern(at: animated.map { lengths[$0].frameRange.lowerBound }.min() ?? 0)
    // A pattern of zeros is a solid line; one that never dashes is left out.
    guard !initial.isEmpty, !animated.isEmpty || initial.contains(where: { $0 > 0 }) else {
      return
    }
    shape.lineDashPattern = initial
    if animated.count == 1, let i = animated.first {
      // One animated length: its keyframes and easing, the others as they are.
      let fixed = lengths.map { component($0.initial, 0) }
      animate(shape, "lineDashPattern", lengths[i]) { v in
        var values = fixed
        values[i] = component(v, 0)
        return .numbers(pattern(values))
      }
    } else if !animated.isEmpty {
      let ranges = animated.map { lengths[$0].frameRange }
      bake(
        shape, "lineDashPattern",
        frames: ranges.map(\.lowerBound).min()!...ranges.map(\.upperBound).max()!,
        keyframeFrames: animated.flatMap { lengths[$0].keyframes.map(\.frame) }
      ) { .numbers(pattern(at: $0)) }
    }
    if let offset {
      shape.lineDashPhase = component(offset.initial, 0)
      animate(shape, "lineDashPhase", offset) { .scalar(component($0, 0)) }
    }
  }

  /// Trims a stroke through `strokeStart`/`strokeEnd`; a range wrapping past the end adds a
  /// copy drawing the wrapped part.
  func applyTrim(_ trim: Trim, to shape: ShapeLayer, drawn: Layer, into container: Layer) {
    let r0 = trim.range(at: trim.isAnimated ? trim.frames.lowerBound : 0)
    shape.strokeStart = r0.from
    shape.strokeEnd = Swift.min(1, r0.to)
    let frames = trim.isAnimated ? trim.frames : 0...0
    var wraps = r0.to > 1
    if trim.isAnimated {
      bake(shape, "strokeStart", frames: frames) { .scalar(trim.range(at: $0).from) }
      bake(shape, "strokeEnd", frames: frames) { .scalar(Swift.min(1, trim.range(at: $0).to)) }
      let span = frames.upperBound - frames.lowerBound
      let step = Swift.max(0.5, span / Double(Self.maximumSamples))
      for f in Self.frames(in: frames, step: step, limit: Self.maximumSamples + 1)
        + [frames.upperBound]
      where trim.range(at: f).to > 1 {
        wraps = true
        break
      }
    }
    container.addSublayer(drawn)
    guard wraps else { return }
    // The wrapped part: the same stroke from the start to `to - 1`.
    let copy = drawn.copyTree()
    let copyShape = (copy.mask as? ShapeLayer) ?? (copy as? ShapeLayer)
    guard let copyShape else { return }
    copyShape.removeAnimation(forKey: "lottie.strokeStart")
    copyShape.removeAnimation(forKey: "lottie.strokeEnd")
    copyShape.strokeStart = 0
    copyShape.strokeEnd = Swift.max(0, r0.to - 1)
    if trim.isAnimated {
      bake(copyShape, "strokeEnd", frames: frames) {
        .scalar(Swift.max(0, trim.range(at: $0).to - 1))
      }
    }
    container.addSublayer(copy)
  }

  /// A Lottie colour (`[r, g, b]` or `[r, g, b, a]`, 0...1) as an opaque colour: a fourth
  /// component is ignored, as lottie-web (which paints `rgb(r, g, b)`) and rlottie do; opacity
  /// comes from the style's or effect's own opacity.
  ///
  /// Keyframed colours are interpolated as written (`clamped: false`) and clamped when drawn,
  /// as lottie-web's: from black to `[2, 0, 0]` is full red half way.
  static func color(_ v: [Double], clamped: Bool = true) -> Color {
    func c(_ i: Int) -> Double {
      let x = i < v.count ? v[i] : 0
      return clamped ? Swift.max(0, Swift.min(1, x)) : x
    }
    return Color(red: c(0), green: c(1), blue: c(2), alpha: 1)
  }
}
