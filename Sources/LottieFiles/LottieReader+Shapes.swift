import Animations
import Geometry
import LayerTree
import SceneFiles

/// A shape layer's `shapes` (and a group's `it`) as layers.
///
/// Lottie draws a list's items last to first, so the first item is on top. As in lottie-web, a
/// fill, stroke or gradient applies to every path listed before it in its group, nested groups'
/// paths included (through their transforms), and a modifier (trim paths, rounded corners, a
/// repeater's copies) changes every path listed before it in its group and in the groups inside
/// it, wherever the styles that draw the path are: the modifiers a path meets are those after it
/// in its own group, then those after its group in each enclosing one, in that order. Each style
/// becomes a shape layer (a gradient layer masked by one, for gradients) holding the paths it
/// applies to, each group a layer with the group's transform, each repeater a stack of copies.
extension LottieReader {
  /// A shape item, read.
  enum ShapeItem {
    case source(ShapeSource)
    case style(Fields, kind: String)
    case group(Fields)
    case trim(Trim)
    case roundCorners(Animated<[Double]>)
    case repeater(Fields)
    /// Merge paths (`mm`): how the styles after it combine the paths before it.
    case merge(PathOperation)
    case other
  }

  /// A path-making item (`sh`, `rc`, `el`, `sr`), or the paths of a group, in the group's
  /// coordinates.
  struct ShapeSource {
    /// The path at a frame.
    var path: (Double) -> Path
    /// The frames over which it changes (`nil`: static).
    var frames: ClosedRange<Double>?
    /// Its keyframe frames (where sampling must land).
    var keyframeFrames: [Double] = []
    /// A `sh` path whose keyframes can morph as a path animation.
    var morph: Animated<BezierShape>? = nil
    /// A group's paths combined by its merge paths (`mm`), as styles outside the group see
    /// them: `path` is the operands' paths together.
    var merge: Merge? = nil
  }

  /// Paths combined by a merge (`mm`): each operand one subpath of the style that draws them.
  struct Merge {
    var operation: PathOperation
    var operands: [ShapeSource]
  }

  /// A trim path (`tm`): start `s` and end `e` in percent, offset `o` in degrees, and whether
  /// each path is trimmed on its own (`m: 1`, simultaneously) or all as one (`m: 2`).
  struct Trim {
    var start: Animated<[Double]>
    var end: Animated<[Double]>
    var offset: Animated<[Double]>
    var individually: Bool

    var isAnimated: Bool { start.isAnimated || end.isAnimated || offset.isAnimated }

    var frames: ClosedRange<Double> {
      let all = [start, end, offset].filter(\.isAnimated).map(\.frameRange)
      return (all.map(\.lowerBound).min() ?? 0)...(all.map(\.upperBound).max() ?? 0)
    }

    /// The visible part at `frame` as fractions of the length: `from` in 0..<1, `to` in
    /// `from`...`from + 1` (past 1: it wraps round to the start), as lottie-web computes it.
    func range(at frame: Double) -> (from: Double, to: Double) {
      var s = component(start.value(at: frame), 0) / 100
      var e = component(end.value(at: frame), 0) / 100
      if s > e { swap(&s, &e) }
      s = Swift.max(0, Swift.min(1, s))
      e = Swift.max(0, Swift.min(1, e))
      if e - s >= 1 { return (0, 1) }
      // lottie-web's `(o % 360) / 360`: one turn taken first, so that an offset of 1e19
      // degrees keeps its trim (added whole, it lost s and e to its precision).
      let degrees = component(offset.value(at: frame), 0)
      let o = (degrees.isFinite ? degrees.truncatingRemainder(dividingBy: 360) : 0) / 360
      s += o
      e += o
      let shift = (s.isFinite ? s : 0).rounded(.down)
      return (s - shift, e - shift)
    }
  }

  /// Builds the items of `json` (a `shapes` or `it` list) into `container`.
  func readShapes(_ json: JSONValue, at place: String, layer label: String, into container: Layer) {
    guard let list = array(json, at: place) else { return }
    let items = list.enumerated().map { readShapeItem($1, at: "\(place)[\($0)]", layer: label) }
    buildItems(items[...], layer: label, inherited: [], into: container)
  }

  func readShapeItem(_ json: JSONValue, at place: String, layer label: String) -> ShapeItem {
    guard let f = object(json, at: place, what: "a shape item (an object)") else { return .other }
    guard let ty = f["ty"] else {
      report(f.place("ty"), "missing required key (the shape item's type)")
      return .other
    }
    guard case .string(let type) = ty else {
      report(f.place("ty"), "expected a string, found \(ty.kindDescription)")
      return .other
    }
    if flag(f, "hd") { return .other }
    switch type {
    case "sh", "rc", "el", "sr":
      return readSource(f, type: type, layer: label).map(ShapeItem.source) ?? .other
    case "fl", "st", "gf", "gs":
      // A style's own blend mode (`bm`, not normal) is not applied, said.
      if let bm = f["bm"], bm != .number(0), bm != .null {
        warn(
          label, "blend modes on fills and strokes (\(f.place("bm"))): drawn normal",
          key: "style blend mode")
      }
      return .style(f, kind: type)
    case "gr": return .group(f)
    case "tm":
      guard let s = vector(f, "s", default: [0], layer: label),
        let e = vector(f, "e", default: [100], layer: label),
        let o = vector(f, "o", default: [0], layer: label)
      else { return .other }
      // lottie-web trims individually for 2 only.
      let individually = coded(
        f, "m", "trim mode", known: [1: false, 2: true], absent: false, layer: label
      ) { _ in (false, "drawn simultaneous (1), as lottie-web draws it") }
      return .trim(Trim(start: s, end: e, offset: o, individually: individually))
    case "rp": return .repeater(f)
    case "tr": return .other  // read by its group
    case "rd":
      guard let r = vector(f, "r", default: [0], layer: label) else { return .other }
      // A negative radius rounds nothing here (lottie-web moves the cut points past the
      // corners, out of the shape): said, as negative widths and dashes are.
      if r.keyframes.contains(where: { $0.start.contains { $0 < 0 } }) {
        warn(
          label, "negative rounded-corner radii (\(f.place("r"))): drawn unrounded",
          key: "negative rounded-corner radius")
      }
      return .roundCorners(r)
    case "mm":
      // 1 merge (the paths as one shape, by the fill rule), 2 add, 3 subtract, 4 intersect,
      // 5 exclude intersections.
      let modes: [Int: PathOperation] = [
        1: .none, 2: .union, 3: .subtract, 4: .intersect, 5: .exclude,
      ]
      return .merge(
        coded(f, "mm", "merge mode", known: modes, absent: .none, layer: label) { _ in
          (.none, "drawn as mode 1 (merge)")
        })
    default:
      warn(label, "shape item \"\(type)\": ignored")
      return .other
    }
  }

  /// A geometry item as a source of paths.
  func readSource(_ f: Fields, type: String, layer label: String) -> ShapeSource? {
    // 1 and 2 (lottie-ios's user-set clockwise) are drawn as they are, 3 reversed. lottie-web
    // draws another code as 1, but a rectangle as 3 (it tests for 1 and 2 there, for 3
    // elsewhere); paths (`sh`) take no direction.
    let reversed =
      type == "sh"
      ? false
      : coded(
        f, "d", "shape direction", known: [1: false, 2: false, 3: true], absent: false,
        layer: label
      ) { _ in
        type == "rc"
          ? (true, "drawn reversed (3), as lottie-web draws a rectangle")
          : (false, "drawn as 1 (normal), as lottie-web draws it")
      }
    switch type {
    case "sh":
      guard let ks = f["ks"] else {
        report(f.place("ks"), "missing required key (the path)")
        return nil
      }
      guard let shape = shape(ks, at: f.place("ks"), layer: label) else { return nil }
      if !shape.isAnimated {
        let path = shape.initial.path()
        return ShapeSource(path: { _ in path })
      }
      return ShapeSource(
        path: { shape.value(at: $0).path(curvesOnly: true) }, frames: shape.frameRange,
        keyframeFrames: shape.keyframes.map(\.frame), morph: shape)
    case "rc":
      guard let p = vector(f, "p", default: [0, 0], layer: label),
        let s = vector(f, "s", default: [0, 0], layer: label),
        let r = vector(f, "r", default: [0], layer: label)
      else { return nil }
      return source([p, s, r]) { frame in
        let pv = p.value(at: frame), sv = s.value(at: frame)
        return ShapeGeometry.rectangle(
          center: Point(x: component(pv, 0), y: component(pv, 1)),
          size: Size(width: component(sv, 0), height: component(sv, 1)),
          roundness: component(r.value(at: frame), 0), reversed: reversed)
      }
    case "el":
      guard let p = vector(f, "p", default: [0, 0], layer: label),
        let s = vector(f, "s", default: [0, 0], layer: label)
      else { return nil }
      return source([p, s]) { frame in
        let pv = p.value(at: frame), sv = s.value(at: frame)
        return ShapeGeometry.ellipse(
          center: Point(x: component(pv, 0), y: component(pv, 1)),
          size: Size(width: component(sv, 0), height: component(sv, 1)), reversed: reversed)
      }
    default:  // "sr"
      let props = ["p", "r", "pt", "or", "ir", "os", "is"].map { key in
        vector(f, key, default: key == "p" ? [0, 0] : [0], layer: label)
      }
      guard props.allSatisfy({ $0 != nil }) else { return nil }
      let v = props.map { $0! }
      // lottie-web draws a star for 1 only, a polygon for any other code.
      let star = coded(
        f, "sy", "polystar type", known: [1: true, 2: false], absent: true, layer: label
      ) { _ in (false, "drawn as a polygon (type 2), as lottie-web draws it") }
      let points = v[2]
      let limit = Double(LottieFormat.maximumPolystarPoints)
      let most =
        ([points.initial] + points.keyframes.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) })
        .map { component($0, 0) }.max() ?? 0
      if most > limit {
        warn(
          label,
          "polystar points over \(LottieFormat.maximumPolystarPoints) (\(f.place("pt")) reaches "
            + "\(MessageText.number(most))): \(LottieFormat.maximumPolystarPoints) are drawn",
          key: "polystar points over the limit")
      }
      // Under one point (0, -5, 0.5: lottie-web rounds down) draws nothing, said so.
      let least =
        ([points.initial] + points.keyframes.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) })
        .map { component($0, 0) }.min() ?? 0
      if least < 1 {
        warn(
          label,
          "polystar points under 1 (\(f.place("pt")) reaches \(MessageText.number(least))): "
            + "nothing is drawn while under 1", key: "polystar points under 1")
      }
      return source(v) { frame in
        let pv = v[0].value(at: frame)
        return ShapeGeometry.polystar(
          star: star, points: component(v[2].value(at: frame), 0),
          center: Point(x: component(pv, 0), y: component(pv, 1)),
          rotation: component(v[1].value(at: frame), 0),
          outerRadius: component(v[3].value(at: frame), 0),
          innerRadius: component(v[4].value(at: frame), 0),
          outerRoundness: component(v[5].value(at: frame), 0),
          innerRoundness: component(v[6].value(at: frame), 0), reversed: reversed)
      }
    }
  }

  /// A source whose path `make` builds from `properties` at a frame.
  func source(_ properties: [Animated<[Double]>], _ make: @escaping (Double) -> Path) -> ShapeSource
  {
    let animated = properties.filter(\.isAnimated)
    guard !animated.isEmpty else {
      let path = make(0)
      return ShapeSource(path: { _ in path })
    }
    let lower = animated.map(\.frameRange.lowerBound).min()!
    let upper = animated.map(\.frameRange.upperBound).max()!
    return ShapeSource(
      path: make, frames: lower...upper,
      keyframeFrames: animated.flatMap { $0.keyframes.map(\.frame) })
  }

  /// A modifier as the paths listed before it meet it: trim paths (`tm`), rounded corners
  /// (`rd`), a repeater's copies (`rp`).
  enum Modifier {
    case trim(Trim)
    case round(Animated<[Double]>)
    case repeater(Repeater, place: String)
  }

  /// The modifiers of `items` listed after `index`, in the order they act (the list's).
  func modifiers(in items: ArraySlice<ShapeItem>, after i: Int, layer: String) -> [Modifier] {
    items.indices.filter { $0 > i }.compactMap { modifier(items[$0], layer: layer) }
  }

  /// `item` as a modifier (`nil`: it is none).
  func modifier(_ item: ShapeItem, layer label: String) -> Modifier? {
    switch item {
    case .trim(let t): return .trim(t)
    case .roundCorners(let r): return .round(r)
    case .repeater(let f):
      let (p, w) = (problems.count, warnings.count)
      defer { dropMessages(after: p, w) }
      return readRepeater(f, layer: label).map { .repeater($0, place: f.place("c")) }
    default: return nil
    }
  }

  /// Builds `items` into `container`, bottom (last item) first. `inherited`: the modifiers of
  /// the enclosing groups that act on everything here (listed after the group), innermost
  /// first.
  func buildItems(
    _ items: ArraySlice<ShapeItem>, layer label: String, inherited: [Modifier],
    into container: Layer
  ) {
    var first = items.startIndex
    // What a repeater copies (the items before it) goes into a stack of copies, drawn where the
    // repeater is listed; the styles after it take the paths before it as the repeater leaves
    // them (`collectSources`).
    var stack: (Layer, Int)? = nil
    if let r = items.lastIndex(where: {
      if case .repeater = $0 { return true } else { return false }
    }),
      case .repeater(let f) = items[r]
    {
      guard let repeater = readRepeater(f, layer: label) else { return }
      let limit = ReplicatorLayer.maximumInstanceCount
      let count = Swift.max(1, repeater.maximumCount)
      let outerReplication = replication
      defer { replication = outerReplication }
      if replication > limit / count {
        report(
          f.place("c"),
          "nested repeaters make more than \(limit) copies of what they repeat, the limit "
            + "(the product of their counts)")
        return
      }
      replication *= count
      let content = Layer()
      content.anchorPoint = .zero
      // The modifiers listed after the repeater act on the copies too.
      buildItems(
        items[items.startIndex..<r], layer: label,
        inherited: modifiers(in: items, after: r, layer: label) + inherited, into: content)
      // Copies of nothing (the items before the repeater draw no style of their own) are left
      // out: the styles after it draw the copies' paths.
      if Self.drawsStyles(content) {
        guard copiesFit(of: content, count: repeater.maximumCount, at: f.place("c")),
          copiedPathsFit(of: content, count: repeater.maximumCount, at: f.place("c"))
        else { return }
        let layer = repeaterLayer(repeater, name: f.string("nm"), content: content)
        // The outermost repeater adds the layers its copies draw (nested ones multiplied in).
        if outerReplication == 1 && !countDrawnLayers(layer, at: f.place("c")) { return }
        stack = (layer, r)
      }
      first = r
    }
    for i in items.indices.reversed() where i >= first {
      if let (layer, r) = stack, r == i { container.addSublayer(layer) }
      switch items[i] {
      case .style(let f, let kind):
        var (sources, trim) = styleSources(
          items, before: i, inherited: inherited, layer: label)
        guard !sources.isEmpty else { continue }
        // A merge listed before the style combines the paths (each source one subpath).
        let operation =
          items[items.startIndex..<i].lazy.compactMap {
            if case .merge(let o) = $0 { return o } else { return nil }
          }.last ?? .none
        // The style takes the last trim itself (strokes as their start and end) when it cuts
        // what the style draws as Flipbook's trim does: all the paths as one (`m: 2`), one
        // path, or static strokes (cut one subpath at a time); otherwise it cuts the paths.
        if let t = trim,
          !(t.individually || sources.count == 1
            || (kind == "st" && operation == .none && sources.allSatisfy { $0.frames == nil }))
        {
          sources = trimmed(sources, by: t)
          trim = nil
        }
        readMergedStyle(
          f, kind: kind, sources: sources, trim: trim, operation: operation, layer: label,
          into: container)
      case .group(let f):
        guard let it = f["it"] else {
          report(f.place("it"), "missing required key (the group's items)")
          continue
        }
        guard let list = array(it, at: f.place("it")) else { continue }
        let t = transformLayers(
          groupTransform(list), at: f.place("it") + "[\(list.count - 1)]", layer: label,
          name: f.string("nm"), opacity: true)
        let inner = list.enumerated().map {
          readShapeItem($1, at: f.place("it") + "[\($0)]", layer: label)
        }
        buildItems(
          inner[...], layer: label,
          inherited: modifiers(in: items, after: i, layer: label) + inherited, into: t.content)
        container.addSublayer(t.outer)
      default: break
      }
    }
  }

  /// The paths a style at `index` of `items` draws, every modifier that acts on them applied
  /// but the last when it is a trim that acts on all of them: that one is returned for the
  /// style to apply.
  func styleSources(
    _ items: ArraySlice<ShapeItem>, before index: Int, inherited: [Modifier], layer label: String
  ) -> (sources: [ShapeSource], trim: Trim?) {
    let drawn = items.indices.filter { j in
      guard j < index else { return false }
      switch items[j] {
      case .source, .group: return true
      default: return false
      }
    }
    guard let lastDrawn = drawn.last else { return ([], nil) }
    if case .trim(let t)? = inherited.last {
      let sources = collectSources(
        items, drawing: items.startIndex..<index, inherited: inherited.dropLast(), layer: label)
      return (sources, t)
    }
    if inherited.isEmpty,
      let k = items.indices.last(where: {
        switch items[$0] {
        case .trim, .roundCorners, .repeater: return true
        default: return false
        }
      }),
      k > lastDrawn, case .trim(let t) = items[k]
    {
      let sources = collectSources(
        items, drawing: items.startIndex..<index, skipping: k, layer: label)
      return (sources, t)
    }
    return (
      collectSources(
        items, drawing: items.startIndex..<index, inherited: inherited[...], layer: label),
      nil
    )
  }

  /// Whether `layer` holds a style's layer (a shape or gradient layer) anywhere below it.
  static func drawsStyles(_ layer: Layer) -> Bool {
    layer.sublayers.contains { $0 is ShapeLayer || $0 is GradientLayer || drawsStyles($0) }
  }

  /// A group's transform: its `tr` item (the last, by convention).
  func groupTransform(_ list: [JSONValue]) -> JSONValue? {
    list.last(where: { item in
      if case .object(let e) = item {
        return e.contains { $0.key == "ty" && $0.value == .string("tr") }
      }
      return false
    })
  }

  /// The paths the items of `items` at the indices in `drawing` make (all of them by default),
  /// nested groups' through their transforms, each as the modifiers listed after it in `items`
  /// leave it (in the order listed; nested groups' own modifiers first, the item at `skipping`
  /// not), then as `inherited` leave it. A group with merge paths gives the paths before its
  /// last merge as one merged source, as After Effects hands a merged group to the styles
  /// outside it.
  func collectSources(
    _ items: ArraySlice<ShapeItem>, drawing: Range<Int>? = nil, skipping: Int? = nil,
    inherited: ArraySlice<Modifier> = [], layer label: String
  ) -> [ShapeSource] {
    let drawing = drawing ?? items.startIndex..<items.endIndex
    var out: [ShapeSource] = []
    for j in items.indices where j != skipping {
      switch items[j] {
      case .source(let s) where drawing.contains(j): out.append(s)
      case .group(let f) where drawing.contains(j): out += groupSources(f, layer: label)
      default:
        if !out.isEmpty, let m = modifier(items[j], layer: label) { out = modified(out, by: m) }
      }
    }
    for m in inherited { out = modified(out, by: m) }
    return out
  }

  /// The paths of group `f` as the styles outside it take them: through its modifiers and its
  /// transform.
  func groupSources(_ f: Fields, layer label: String) -> [ShapeSource] {
    guard case .array(let json)? = f["it"] else { return [] }
    let inner = json.enumerated().map {
      readShapeItemQuietly($1, at: f.place("it") + "[\($0)]", layer: label)
    }[...]
    var sources: [ShapeSource]
    if let m = inner.lastIndex(where: {
      if case .merge(let o) = $0 { return o != .none } else { return false }
    }), case .merge(let operation) = inner[m] {
      let operands = collectSources(inner, drawing: inner.startIndex..<m, layer: label)
      let rest = collectSources(inner, drawing: (m + 1)..<inner.endIndex, layer: label)
      sources = operands.isEmpty ? rest : [Self.merged(operands, operation)] + rest
    } else {
      sources = collectSources(inner, layer: label)
    }
    guard !sources.isEmpty,
      let matrix = transformMatrix(groupTransform(json), layer: label)
    else { return sources }
    return sources.map { Self.transformed($0, by: matrix) }
  }

  /// The most paths one style takes from repeaters' copies (more are refused).
  static let maximumRepeatedPaths = 100_000

  /// The most path elements (moves, lines, curves, closes) repeaters' copies and glyph text's
  /// characters make in one file, all styles together (more are refused): each is filled or
  /// stroked every frame, and a 10,000-vertex shape repeated 10,000 times took 47 s and 5 GB
  /// for one frame.
  static let maximumRepeatedPathElements = 2_000_000

  /// `sources` as modifier `m` leaves them.
  func modified(_ sources: [ShapeSource], by m: Modifier) -> [ShapeSource] {
    guard !sources.isEmpty else { return sources }
    switch m {
    case .trim(let t): return trimmed(sources, by: t)
    case .round(let r): return sources.map { Self.rounded($0, by: r) }
    case .repeater(let r, let place):
      guard sources.count <= Self.maximumRepeatedPaths / (r.maximumCount + 1) else {
        report(
          place,
          "repeaters make more than \(Self.maximumRepeatedPaths) copies of the paths a style "
            + "draws, the limit")
        return sources
      }
      // The copies' elements, counted on each path where it starts, before any is made (once
      // over the limit, said once).
      guard repeatedPathElements <= Self.maximumRepeatedPathElements else { return sources }
      let elements = sources.reduce(0) { $0 + $1.path($1.frames?.lowerBound ?? 0).elements.count }
      repeatedPathElements += elements * r.maximumCount
      guard repeatedPathElements <= Self.maximumRepeatedPathElements else {
        report(
          place,
          "repeaters make more than \(Self.maximumRepeatedPathElements) path elements in all, "
            + "the limit (\(r.maximumCount) copies here of paths of \(elements) elements)")
        return sources
      }
      return repeatedSources(sources, r)
    }
  }

  /// `sources` cut by `trim` as lottie-web's trim paths cut the shapes before them: each on its
  /// own (`m: 1`), or all as one path in the order listed (`m: 2`), each keeping its part.
  func trimmed(_ sources: [ShapeSource], by trim: Trim) -> [ShapeSource] {
    func make(_ path: @escaping (Double) -> Path, _ of: [ShapeSource]) -> ShapeSource {
      var ranges = of.compactMap(\.frames)
      if trim.isAnimated { ranges.append(trim.frames) }
      guard !ranges.isEmpty else {
        let fixed = path(0)
        return ShapeSource(path: { _ in fixed })
      }
      let keyframes =
        of.flatMap(\.keyframeFrames)
        + [trim.start, trim.end, trim.offset].flatMap { $0.keyframes.map(\.frame) }
      return ShapeSource(
        path: path, frames: ranges.map(\.lowerBound).min()!...ranges.map(\.upperBound).max()!,
        keyframeFrames: keyframes)
    }
    guard trim.individually, sources.count > 1 else {
      return sources.map { s in make({ Self.trimmed(s.path($0), trim.range(at: $0)) }, [s]) }
    }
    // The paths and lengths at the frame last asked, shared: each source's part needs them all.
    let cache = TrimCache()
    func measure(_ frame: Double) -> (paths: [Path], starts: [Double], total: Double) {
      if let c = cache.value, c.frame == frame || c.frame.isNaN && frame.isNaN {
        return (c.paths, c.starts, c.total)
      }
      let paths = sources.map { $0.path(frame) }
      var starts: [Double] = [], total = 0.0
      for p in paths {
        starts.append(total)
        total += p.length
      }
      cache.value = (frame, paths, starts, total)
      return (paths, starts, total)
    }
    return sources.indices.map { i in
      make(
        { frame in
          let m = measure(frame)
          guard m.total > 0 else { return Path() }
          let length = (i + 1 < m.starts.count ? m.starts[i + 1] : m.total) - m.starts[i]
          return Self.part(
            of: m.paths[i], length: length, at: m.starts[i], total: m.total,
            trim.range(at: frame))
        }, sources)
    }
  }

  /// The paths an individual trim (`m: 2`) measured at one frame.
  final class TrimCache {
    var value: (frame: Double, paths: [Path], starts: [Double], total: Double)? = nil
  }

  /// The part of `path` (`length` long, starting `start` along paths `total` long together)
  /// that the trim range of the whole shows.
  static func part(
    of path: Path, length: Double, at start: Double, total: Double,
    _ range: (from: Double, to: Double)
  ) -> Path {
    guard length > 0 else { return Path() }
    var out = Path()
    let spans = range.to <= 1 ? [(range.from, range.to)] : [(range.from, 1.0), (0.0, range.to - 1)]
    for (a, b) in spans {
      let from = Swift.max(0, (a * total - start) / length)
      let to = Swift.min(1, (b * total - start) / length)
      guard to > from else { continue }
      out.addPath(trimmed(path, (from, to)))
    }
    return out
  }

  /// `operands` combined by `operation`, as one source.
  static func merged(_ operands: [ShapeSource], _ operation: PathOperation) -> ShapeSource {
    let ranges = operands.compactMap(\.frames)
    var out = ShapeSource(
      path: { frame in
        var path = Path()
        for operand in operands { path.addPath(operand.path(frame)) }
        return path
      },
      frames: ranges.isEmpty
        ? nil : ranges.map(\.lowerBound).min()!...ranges.map(\.upperBound).max()!,
      keyframeFrames: operands.flatMap(\.keyframeFrames))
    out.merge = Merge(operation: operation, operands: operands)
    return out
  }

  /// `source` through a group's transform (its merge's operands too).
  static func transformed(
    _ source: ShapeSource,
    by matrix: (value: (Double) -> AffineTransform, frames: ClosedRange<Double>?)
  ) -> ShapeSource {
    let frames = [source.frames, matrix.frames].compactMap { $0 }
    var out = ShapeSource(
      path: { source.path($0).applying(matrix.value($0)) },
      frames: frames.isEmpty
        ? nil : frames.map(\.lowerBound).min()!...frames.map(\.upperBound).max()!,
      keyframeFrames: source.keyframeFrames)
    if let merge = source.merge {
      out.merge = Merge(
        operation: merge.operation, operands: merge.operands.map { transformed($0, by: matrix) })
    }
    return out
  }

  /// Reads an item a second time (for a parent's style) without repeating its messages.
  func readShapeItemQuietly(_ json: JSONValue, at place: String, layer label: String) -> ShapeItem {
    let (p, w) = (problems.count, warnings.count)
    let item = readShapeItem(json, at: place, layer: label)
    dropMessages(after: p, w)
    return item
  }

  /// A group transform as a matrix at each frame (`nil`: the identity).
  func transformMatrix(
    _ json: JSONValue?, layer label: String
  ) -> (value: (Double) -> AffineTransform, frames: ClosedRange<Double>?)? {
    guard let json, case .object(let entries) = json else { return nil }
    let f = Fields(entries: entries, place: "")
    let (pc, wc) = (problems.count, warnings.count)
    defer { dropMessages(after: pc, wc) }
    guard let a = vector(f, "a", default: [0, 0], layer: label),
      let p = vector(f, "p", default: [0, 0], layer: label),
      let s = vector(f, "s", default: [100, 100], layer: label),
      let r = vector(f, "r", default: [0], layer: label),
      let sk = vector(f, "sk", default: [0], layer: label),
      let sa = vector(f, "sa", default: [0], layer: label)
    else { return nil }
    let all = [a, p, s, r, sk, sa]
    let animated = all.filter(\.isAnimated)
    let value: (Double) -> AffineTransform = { frame in
      let av = a.value(at: frame), pv = p.value(at: frame), sv = s.value(at: frame)
      return AffineTransform.translation(x: -component(av, 0), y: -component(av, 1))
        .concatenating(.scale(x: component(sv, 0) / 100, y: component(sv, 1) / 100))
        .concatenating(skew(sk.value(at: frame), sa.value(at: frame)))
        .concatenating(.rotation(radians(r.value(at: frame))))
        .concatenating(.translation(x: component(pv, 0), y: component(pv, 1)))
    }
    if animated.isEmpty {
      let m = value(0)
      return m.isIdentity ? nil : ({ _ in m }, nil)
    }
    return (
      value,
      animated.map(\.frameRange.lowerBound).min()!...animated.map(\.frameRange.upperBound).max()!
    )
  }

  /// Forgets messages recorded after the given counts.
  func dropMessages(after problemCount: Int, _ warningCount: Int) {
    dropProblems(after: problemCount)
    dropWarnings(after: warningCount)
  }
}

extension LottieReader {
  /// `source` with its corners rounded by `radius` (an `rd` modifier).
  static func rounded(_ source: ShapeSource, by radius: Animated<[Double]>) -> ShapeSource {
    guard radius.isAnimated || component(radius.initial, 0) > 0 else { return source }
    var out = source
    out.path = { frame in
      roundCorners(source.path(frame), radius: component(radius.value(at: frame), 0))
    }
    out.morph = nil
    if radius.isAnimated {
      let r = radius.frameRange
      out.frames =
        source.frames.map {
          Swift.min($0.lowerBound, r.lowerBound)...Swift.max($0.upperBound, r.upperBound)
        } ?? r
      out.keyframeFrames += radius.keyframes.map(\.frame)
    }
    return out
  }

  /// Rounds the corners of `path` as lottie-web's RoundCornersModifier does: every vertex whose
  /// own in and out tangents are both zero (whatever its neighbours' segments are), but the
  /// ends of an open subpath, becomes two vertices, cut back toward the previous and the next
  /// vertex by the radius (at most half the distance to that vertex), joined by a cubic whose
  /// handles reach 0.5519 of the way back to the corner; the segments to the neighbours keep
  /// their neighbours' handles. Vertices with a tangent stay as they are.
  static func roundCorners(_ path: Path, radius: Double) -> Path {
    guard radius > 0, radius.isFinite else { return path }
    var out = Path()
    for sub in path.subpaths {
      guard var vertices = Vertex.list(of: sub) else {
        out.addPath(sub)
        continue
      }
      let closed = sub.elements.last == .closeSubpath
      if closed, vertices.count > 1, vertices[0].point == vertices[vertices.count - 1].point {
        // The closing segment was written out: its end is the first vertex.
        vertices[0].inControl = vertices[vertices.count - 1].inControl
        vertices.removeLast()
      }
      let n = vertices.count
      let k = 0.5519
      func cut(_ v: Point, toward p: Point) -> Point {
        let dx = p.x - v.x, dy = p.y - v.y
        let d = (dx * dx + dy * dy).squareRoot()
        guard d > 0 else { return v }
        let t = Swift.min(d / 2, radius) / d
        return Point(x: v.x + dx * t, y: v.y + dy * t)
      }
      var rounded: [Vertex] = []
      for (i, v) in vertices.enumerated() {
        let sharp = v.inControl == v.point && v.outControl == v.point
        guard sharp, closed || (i != 0 && i != n - 1) else {
          rounded.append(v)
          continue
        }
        let a = cut(v.point, toward: vertices[(i + n - 1) % n].point)
        let b = cut(v.point, toward: vertices[(i + 1) % n].point)
        rounded.append(
          Vertex(
            point: a, inControl: a,
            outControl: Point(x: a.x + (v.point.x - a.x) * k, y: a.y + (v.point.y - a.y) * k)))
        rounded.append(
          Vertex(
            point: b,
            inControl: Point(x: b.x + (v.point.x - b.x) * k, y: b.y + (v.point.y - b.y) * k),
            outControl: b))
      }
      out.move(to: rounded[0].point)
      func segment(_ u: Vertex, _ w: Vertex) {
        if u.outControl == u.point && w.inControl == w.point {
          out.addLine(to: w.point)
        } else {
          out.addCurve(to: w.point, control1: u.outControl, control2: w.inControl)
        }
      }
      for (u, w) in zip(rounded, rounded.dropFirst()) { segment(u, w) }
      if closed {
        if let last = rounded.last, let first = rounded.first,
          last.outControl != last.point || first.inControl != first.point
        {
          segment(last, first)
        }
        out.closeSubpath()
      }
    }
    return out
  }

  /// A path vertex with its handles, as Lottie's shapes hold them (absolute points; a handle at
  /// the vertex is no tangent).
  struct Vertex: Equatable {
    var point: Point
    var inControl: Point
    var outControl: Point

    /// The vertices of one subpath (quadratic curves raised to cubics), or `nil` when it has
    /// none.
    static func list(of subpath: Path) -> [Vertex]? {
      var out: [Vertex] = []
      for element in subpath.elements {
        switch element {
        case .move(let p): out = [Vertex(point: p, inControl: p, outControl: p)]
        case .line(let p):
          guard !out.isEmpty else { return nil }
          out.append(Vertex(point: p, inControl: p, outControl: p))
        case .curve(let p, let c1, let c2):
          guard !out.isEmpty else { return nil }
          out[out.count - 1].outControl = c1
          out.append(Vertex(point: p, inControl: c2, outControl: p))
        case .quadCurve(let p, let c):
          guard let last = out.last?.point else { return nil }
          out[out.count - 1].outControl = Point(
            x: last.x + (c.x - last.x) * 2 / 3, y: last.y + (c.y - last.y) * 2 / 3)
          out.append(
            Vertex(
              point: p,
              inControl: Point(x: p.x + (c.x - p.x) * 2 / 3, y: p.y + (c.y - p.y) * 2 / 3),
              outControl: p))
        case .closeSubpath: break
        }
      }
      return out.isEmpty ? nil : out
    }
  }
}
