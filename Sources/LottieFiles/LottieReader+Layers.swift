import Animations
import Geometry
import FileIO
import ImageEncoding
import LayerTree
import SceneFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Lottie layers (`layers[n]`) as Flipbook layers, in Core Animation's drawing order.
extension LottieReader {
  /// One entry of a `layers` list, read enough to arrange the composition.
  struct LayerEntry {
    let fields: Fields
    let place: String
    let label: String
    /// `ind` (the layer's id for parenting and `tp`).
    let index: Double?
    /// `parent`: the `ind` of the layer whose transform this one's goes inside.
    let parent: Double?
    /// `st`, the start time in frames: where a precomposition's own time starts. Every layer's
    /// keyframes, `ip` and `op` are frames of the composition that holds it (lottie-web
    /// subtracts `st` from both a property's frame and its keyframes' times, so it cancels).
    let startTime: Double
  }

  /// Builds the layers of a composition (`layers` of the animation or of a precomposition) into
  /// `container`, bottom first (Lottie lists the top layer first).
  func readComposition(_ json: JSONValue, at place: String, into container: Layer) {
    guard let list = array(json, at: place) else { return }
    var entries: [LayerEntry?] = []
    for (i, item) in list.enumerated() {
      let p = "\(place)[\(i)]"
      guard let f = object(item, at: p, what: "a layer (an object)") else {
        entries.append(nil)
        continue
      }
      let label = Self.layerLabel(p, f)
      guard let ty = f["ty"] else {
        report(f.place("ty"), "missing required key (the layer type)")
        entries.append(nil)
        continue
      }
      guard number(ty, at: f.place("ty")) != nil else {
        entries.append(nil)
        continue
      }
      let index = f["ind"].flatMap { number($0, at: f.place("ind")) }
      // The schema's `nm` is a string: another kind is a misread name, refused.
      if let nm = f["nm"], nm != .null, f.string("nm") == nil {
        report(f.place("nm"), "expected a string (the layer's name), found \(nm.kindDescription)")
      }
      // `sr` (stretch): a number; one that stretches to nothing or backwards is warned.
      if let sr = f["sr"], let stretch = number(sr, at: f.place("sr")),
        Self.layerSpeed(stretch: stretch) == nil
      {
        warn(
          label,
          "layer stretch (\(f.place("sr")) is \(MessageText.number(stretch))): drawn unstretched",
          key: "layer stretch out of range")
      }
      let parent = f["parent"].flatMap { number($0, at: f.place("parent")) }
      entries.append(
        LayerEntry(
          fields: f, place: p, label: label, index: index, parent: parent,
          startTime: number(f, "st", default: 0)))
    }
    let byIndex = Dictionary(
      entries.compactMap { e in e?.index.map { ($0, e!) } }, uniquingKeysWith: { a, _ in a })
    // Two layers with one `ind`: parents and `tp` mattes find the first (lottie-web's search
    // takes the first too), said once with both places.
    var firstWithIndex: [Double: String] = [:]
    for case let entry? in entries {
      guard let id = entry.index else { continue }
      if let first = firstWithIndex[id] {
        warn(
          entry.label,
          "layers sharing an ind (\(entry.fields.place("ind")) is \(MessageText.number(id)), as "
            + "\(first).ind is): parents and track mattes use the first",
          key: "duplicate ind")
      } else {
        firstWithIndex[id] = entry.place
      }
    }
    // Built in document order (so messages come in that order), added bottom first; matte
    // sources (`td`) are drawn only as the next layer's matte.
    var built: [Layer] = []
    // The parent copies the layer built last sits in: the next layer, drawn just below it,
    // goes into those of its own parents it shares, so a chain of n parented layers builds n
    // copies, not n² / 2.
    var previousCopies: [ParentCopy] = []
    let mattes = Mattes(entries: entries, byIndex: byIndex)
    reportMatteLoops(in: mattes)
    for i in entries.indices {
      guard let entry = entries[i], !flag(entry.fields, "td"), !flag(entry.fields, "hd") else {
        continue
      }
      // 0 none, 1 alpha, 2 alpha inverted, 3 luma, 4 luma inverted; another is drawn without
      // its matte (lottie-web's SVG masks with an element it never makes).
      let matteType = coded(
        entry.fields, "tt", "track matte type", known: [0: 0, 1: 1, 2: 2, 3: 3, 4: 4], absent: 0,
        layer: entry.label
      ) { _ in (-1, "drawn without its matte") }
      guard matteType != 0 else {
        let result = buildWithParents(entry, byIndex: byIndex, sharing: previousCopies)
        if let layer = result.added { built.append(layer) }
        previousCopies = result.copies
        continue
      }
      previousCopies = []
      guard let layer = buildWithParents(entry, byIndex: byIndex, sharing: []).added else {
        continue
      }
      if let holder = matted(layer, at: i, type: matteType, in: mattes, chain: [i]) {
        built.append(holder)
      }
    }
    for layer in built.reversed() { container.addSublayer(layer) }
  }

  /// Reports each loop of track mattes in the composition once, whether or not a drawn layer
  /// goes through it (two matte layers whose `tp` name each other): at the `tt` of its first
  /// layer in the list, naming the loop from there (`layers[0] → layers[1] → layers[0]`). A
  /// layer's matte is the layer its `tp` names by `ind`, else the one listed just above, and a
  /// matte with a track matte type of 1 to 4 has a matte of its own.
  func reportMatteLoops(in mattes: Mattes) {
    func hasMatte(_ i: Int) -> Bool {
      guard case .number(let type)? = mattes.entries[i]?.fields["tt"] else { return false }
      return (1...4).contains(type)
    }
    func source(of i: Int) -> Int? {
      guard let entry = mattes.entries[i] else { return nil }
      if let tpValue = entry.fields["tp"] {
        guard case .number(let tp) = tpValue, let named = mattes.byIndex[tp],
          named.place != entry.place
        else { return nil }
        return mattes.positions[named.place]
      }
      return i > 0 && mattes.entries[i - 1] != nil ? i - 1 : nil
    }
    for start in mattes.entries.indices where hasMatte(start) {
      var chain = [start]
      while chain.count <= mattes.entries.count, let s = source(of: chain[chain.count - 1]),
        hasMatte(s)
      {
        if let first = chain.firstIndex(of: s) {
          // The loop from its first layer in the list, so each loop reads the same.
          var loop = Array(chain[first...])
          let lowest = loop.indices.min { loop[$0] < loop[$1] }!
          loop = Array(loop[lowest...] + loop[..<lowest])
          let places = (loop + [loop[0]]).compactMap { mattes.entries[$0]?.place }
          report(
            mattes.entries[loop[0]]!.fields.place("tt"),
            "the track mattes loop back to this layer (\(places.joined(separator: " → ")))")
          break
        }
        chain.append(s)
      }
    }
  }

  /// The deepest track mattes nest (a matte layer that has a track matte of its own, whose
  /// matte layer has one ...): 8 mattes over one layer. Each is drawn through the one below it
  /// (as After Effects composes them), and a layer naming a chain by `tp` builds it again.
  static let maximumMatteDepth = 8

  /// A composition's layers, for finding track mattes' layers.
  struct Mattes {
    let entries: [LayerEntry?]
    let byIndex: [Double: LayerEntry]
    /// Each entry's position in `entries`, by its place.
    let positions: [String: Int]

    init(entries: [LayerEntry?], byIndex: [Double: LayerEntry]) {
      self.entries = entries
      self.byIndex = byIndex
      positions = Dictionary(
        entries.enumerated().compactMap { i, e in e.map { ($0.place, i) } },
        uniquingKeysWith: { a, _ in a })
    }
  }

  /// `layer` (built from the composition's entry `i`) held by a layer whose mask is its track
  /// matte, in the mode `matteType` (`tt`) names (none when that is no known code): the layer
  /// `tp` names by `ind`, else the one listed just above. A matte layer with a track matte of its
  /// own is drawn through it, as After Effects draws it, `maximumMatteDepth` deep. `chain`: the
  /// positions of the layers whose mattes are being built (a loop among them is refused).
  /// `nil` when the matte is reported.
  func matted(
    _ layer: Layer, at i: Int, type matteType: Int, in mattes: Mattes, chain: [Int]
  ) -> Layer? {
    guard let entry = mattes.entries[i] else { return nil }
    // The matte: the layer `tp` names, else the one just above (Lottie lists it first).
    var sourceIndex: Int? = nil
    if let tpValue = entry.fields["tp"] {
      // `tp` names the matte layer by its `ind`: a problem with it is reported at `tp`.
      let place = entry.fields.place("tp")
      guard let tp = number(tpValue, at: place) else { return nil }
      guard let named = mattes.byIndex[tp] else {
        report(place, "no layer has ind \(MessageText.number(tp)) (the track matte's layer)")
        return nil
      }
      guard named.place != entry.place else {
        report(
          place, "the track matte's layer is this layer itself (ind \(MessageText.number(tp)))")
        return nil
      }
      sourceIndex = mattes.positions[named.place]
    } else if i > 0, mattes.entries[i - 1] != nil {
      sourceIndex = i - 1
    }
    guard let s = sourceIndex, let source = mattes.entries[s] else {
      report(entry.fields.place("tt"), "a track matte without a matte layer above it")
      return nil
    }
    let holder = Layer()
    // Errors found while compositing the matte name the layer's `tt`.
    holder.sourcePlace = entry.fields.place("tt")
    holder.anchorPoint = .zero
    holder.addSublayer(layer)
    // The matte as the holder's mask, in the mode `tt` names.
    let modes: [Int: MaskMode] = [
      1: .alpha, 2: .alphaInverted, 3: .luminance, 4: .luminanceInverted,
    ]
    guard let mode = modes[matteType] else { return holder }
    // A hidden matte layer (`hd`) mattes with nothing, as lottie-web draws it (it never draws a
    // hidden layer, so the mask it makes from it is empty): an alpha matte shows nothing of the
    // layer, an inverted one all of it. It was applied as if shown, without a word; After
    // Effects applies a matte whatever its visibility, so the choice is said.
    if flag(source.fields, "hd") {
      warn(
        source.label,
        "hidden track matte layers (\(source.place)): they matte with nothing, as lottie-web "
          + "draws them", key: "hidden track matte")
      holder.mask = Layer()
      holder.maskMode = mode
      return holder
    }
    // A matte layer's own track matte, found as a layer's is (a loop is refused).
    let ownType = coded(
      source.fields, "tt", "track matte type", known: [0: 0, 1: 1, 2: 2, 3: 3, 4: 4], absent: 0,
      layer: source.label
    ) { _ in (-1, "drawn without its matte") }
    // A loop was reported by `reportMatteLoops(in:)`, once.
    if ownType > 0, chain.contains(s) { return nil }
    guard let built = buildWithParents(source, byIndex: mattes.byIndex, sharing: []).added else {
      return holder
    }
    var matte = built
    if ownType > 0 {
      if chain.count >= Self.maximumMatteDepth {
        warn(
          source.label,
          "track mattes nested more than \(Self.maximumMatteDepth) deep (\(source.fields.place("tt"))"
            + "): the matte layer is drawn without its own matte", key: "track mattes nested")
      } else {
        guard let inner = matted(built, at: s, type: ownType, in: mattes, chain: chain + [s])
        else { return nil }
        matte = inner
      }
    }
    holder.mask = matte
    holder.maskMode = mode
    return holder
  }

  /// A copy of a parent's transform already built: the parent's `ind` and the layer its
  /// children go in.
  struct ParentCopy {
    let id: Double
    let content: Layer
  }

  /// The layer of `entry` inside copies of its parents' transforms (`parent`, outermost the
  /// root ancestor), all on the composition's time.
  ///
  /// `previous` are the copies the layer drawn just above sits in (innermost first): the
  /// outermost parents this layer shares with it are not copied again, the layer goes below it
  /// inside them (drawing order is the same: nothing is drawn between the two). Returns the
  /// layer to add to the composition (`nil` when it went into shared copies or was not built)
  /// and the copies it now sits in.
  func buildWithParents(
    _ entry: LayerEntry, byIndex: [Double: LayerEntry], sharing previous: [ParentCopy]
  ) -> (added: Layer?, copies: [ParentCopy]) {
    guard let layer = buildLayer(entry) else { return (nil, previous) }
    // The parents, innermost first, checked for loops and length before anything is built.
    var parents: [LayerEntry] = []
    var parentID = entry.parent
    var seen: Set<Double> = entry.index.map { [$0] } ?? []
    var chain: [Double] = entry.index.map { [$0] } ?? []
    while let id = parentID {
      guard let parent = byIndex[id] else {
        warn(entry.label, "parent ind \(MessageText.number(id)) (no such layer): drawn unparented")
        break
      }
      guard seen.insert(id).inserted else {
        // Once per loop, at the first layer whose chain runs into it.
        let loop = chain[chain.lastIndex(of: id)!...].sorted()
        if reportedParentLoops.insert(Array(loop)).inserted {
          report(
            entry.fields.place("parent"),
            "the parent chain loops back to ind \(MessageText.number(id))")
        }
        return (nil, [])
      }
      chain.append(id)
      guard seen.count <= 256 else {
        // Once: every layer further down the same chain would say it again.
        if !reportedLongParentChain {
          reportedLongParentChain = true
          report(
            entry.fields.place("parent"),
            "the parent chain is longer than 256, the limit (layers whose chains run through "
              + "it are not said again)")
        }
        return (nil, [])
      }
      parents.append(parent)
      parentID = parent.parent
    }
    // How many outermost parents the layer above already has copies of.
    var shared = 0
    while shared < Swift.min(parents.count, previous.count),
      parents[parents.count - 1 - shared].index == previous[previous.count - 1 - shared].id
    {
      shared += 1
    }
    var copies: [ParentCopy] = []
    var current = layer
    for parent in parents.prefix(parents.count - shared) {
      let outerLayerFrames = layerFrames
      layerFrames = nil  // the parent's time: not narrowed
      let t = transformLayers(
        parent.fields["ks"], at: parent.fields.place("ks"), layer: parent.label, name: nil,
        opacity: false, autoOrient: flag(parent.fields, "ao"))
      layerFrames = outerLayerFrames
      t.content.addSublayer(current)
      copies.append(ParentCopy(id: parent.index ?? .nan, content: t.content))
      current = t.outer
    }
    guard shared > 0 else { return (current, copies) }
    // Below what the layer above put in the innermost shared copy.
    let host = previous[previous.count - shared]
    host.content.insertSublayer(current, at: 0)
    return (nil, copies + previous.suffix(shared))
  }

  /// One Lottie layer: its transform, visibility between `ip` and `op`, content, masks and
  /// effects. The returned layer's timing is set by the caller.
  func buildLayer(_ entry: LayerEntry) -> Layer? {
    layerCount += 1
    guard layerCount <= LottieFormat.maximumLayerCount else {
      if layerCount == LottieFormat.maximumLayerCount + 1 {
        report(
          entry.place,
          "the animation has more than \(LottieFormat.maximumLayerCount) layers, the limit")
      }
      return nil
    }
    let f = entry.fields
    let type = code(f, "ty", default: -1)
    // The frames it can show: its in to out points within what its composition shows.
    let inPoint = number(f, "ip", default: -.infinity)
    let outPoint = number(f, "op", default: .infinity)
    let shownFrom = Swift.max(inPoint, visibleFrames.lowerBound)
    let shownTo = Swift.min(outPoint, visibleFrames.upperBound)
    guard shownFrom < shownTo else { return nil }  // never shown
    let outerLayerFrames = layerFrames
    layerFrames = shownFrom...shownTo
    defer { layerFrames = outerLayerFrames }
    if flag(f, "ddd") { warn(entry.label, "3D layers (ddd): drawn flat") }
    let t = transformLayers(
      f["ks"], at: f.place("ks"), layer: entry.label, name: f.string("nm"), opacity: true,
      autoOrient: flag(f, "ao"))
    // Shown from `ip` to `op` (composition frames).
    if inPoint.isFinite || outPoint.isFinite {
      t.outer.isHidden = true
      let from = inPoint.isFinite ? inPoint : -1e7
      let to = outPoint.isFinite ? outPoint : 1e7
      if to > from {
        var shown = KeyframeAnimation(keyPath: "hidden")
        shown.values = [.bool(false)]
        shown.keyTimes = [0, 1]
        shown.calculationMode = .discrete
        // A millionth of a frame early, so that rounding in the scene's time never hides the
        // layer at its first frame; the end stays at `op`.
        let slack = 1e-6
        shown.beginTime = (from - slack) / frameRate
        shown.duration = (to - from + slack) / frameRate
        t.outer.add(shown, forKey: "lottie.inOut")
      }
    }
    switch type {
    case 0: readPrecomposition(f, entry: entry, into: t.content)
    case 1: readSolid(f, entry: entry, into: t.content)
    case 2: readImageLayer(f, entry: entry, into: t.content)
    case 3: break  // null: a transform for its children only
    case 4:
      if let shapes = f["shapes"] {
        readShapes(shapes, at: f.place("shapes"), layer: entry.label, into: t.content)
      }
    case 5: readText(f, entry: entry, into: t.content)
    case 6: break  // audio: nothing to draw
    case 13: warn(entry.label, "cameras (ty 13): ignored")
    default:
      // The type as the file gives it (a code out of range reads as -1).
      warn(entry.label, "layer type \(given(f, "ty", fallback: type)): not drawn")
    }
    if let masks = f["masksProperties"] {
      // What a mask that starts from everything covers: the solid, the precomposition, else
      // everything the layer can draw (shape paths sit anywhere in its space, around its
      // anchor): the composition's size in every direction, a hundred times over.
      let reach = 100 * Swift.max(compositionSize.width, compositionSize.height, 1)
      var cover = Rect(x: -reach, y: -reach, width: 2 * reach, height: 2 * reach)
      if type == 1 {
        cover = Rect(
          x: 0, y: 0, width: size(f, "sw", default: 0, of: "solid width", layer: entry.label),
          height: size(f, "sh", default: 0, of: "solid height", layer: entry.label))
      }
      if type == 0 {
        let w = size(f, "w", default: 0, of: "precomposition clip width", layer: entry.label)
        let h = size(f, "h", default: 0, of: "precomposition clip height", layer: entry.label)
        if w > 0 { cover = Rect(x: 0, y: 0, width: w, height: h) }
      }
      readMasks(
        masks, at: f.place("masksProperties"), layer: entry.label, cover: cover, onto: t.content)
    }
    if let effects = f["ef"] {
      readEffects(effects, at: f.place("ef"), layer: entry.label, onto: t.content)
    }
    // Layer styles (`sy`: After Effects' drop shadows, strokes, glows) are not drawn, said (as
    // lottie-web's SVG renderer leaves them out).
    if case .array(let styles)? = f["sy"], !styles.isEmpty {
      warn(entry.label, "layer styles (\(f.place("sy"))): not drawn", key: "layer styles")
    }
    // The blend mode: the layer's compositing filter (scene-format.md 4.4).
    // Hard mix (17) has no Cairo operator; lottie-web draws it, and any code it has no name
    // for, normal.
    t.outer.compositingFilter = coded(
      f, "bm", "blend mode", known: Self.blendModes, absent: .normal, layer: entry.label
    ) { $0 == 17 ? (.normal, "drawn normal (hard mix)") : (.normal, "drawn normal") }
    return t.outer
  }

  /// Lottie's blend modes (`bm`) as compositing filters: 0...15 in the PDF blend modes' order,
  /// 16 add; 17 (hard mix) has no Cairo operator.
  static let blendModes: [Int: CompositingFilter] = [
    0: .normal, 1: .multiply, 2: .screen, 3: .overlay, 4: .darken, 5: .lighten, 6: .colorDodge,
    7: .colorBurn, 8: .hardLight, 9: .softLight, 10: .difference, 11: .exclusion, 12: .hue,
    13: .saturation, 14: .color, 15: .luminosity, 16: .addition,
  ]

  /// A solid layer: a rectangle of `sw` x `sh` in the colour `sc`.
  func readSolid(_ f: Fields, entry: LayerEntry, into content: Layer) {
    let solid = Layer()
    solid.anchorPoint = .zero
    solid.bounds = Rect(
      x: 0, y: 0, width: size(f, "sw", default: 0, of: "solid width", layer: entry.label),
      height: size(f, "sh", default: 0, of: "solid height", layer: entry.label))
    if let sc = f["sc"] {
      if case .string(let s) = sc, let color = Color(hex: s) {
        solid.backgroundColor = color
      } else if case .string(let s) = sc {
        report(
          f.place("sc"),
          "expected a colour as \"#rrggbb\", found \"\(MessageText.value(s))\"")
      } else {
        report(f.place("sc"), "expected a colour as \"#rrggbb\", found \(sc.kindDescription)")
      }
    }
    content.addSublayer(solid)
  }

  /// The most a solid's, a precomposition's or an image asset's width or height is drawn at:
  /// 100,000 points, as a text box's (a composition is at most 16,384 a side). A size of 1e308
  /// became a bound of 1e308.
  static let maximumLayerSize = 100_000.0

  /// The size at `key` of `f` (`fallback` when absent), drawn within 0...`maximumLayerSize`:
  /// one outside (lottie-web draws a negative solid or image as nothing) is taken at the
  /// nearest, with a warning naming `what` and its place.
  func size(
    _ f: Fields, _ key: String, default fallback: Double, of what: String, layer label: String
  ) -> Double {
    let given = number(f, key, default: fallback)
    let drawn = Swift.max(0, Swift.min(Self.maximumLayerSize, given))
    if drawn != given {
      warn(
        label,
        "\(what) \(MessageText.number(given)) (\(f.place(key)): 0 to 100,000): drawn as "
          + "\(MessageText.number(drawn))", key: "\(what) out of range")
    }
    return drawn
  }

  /// The speed a layer stretch (`sr`) gives its layer, 1 / `stretch`, or `nil` when that is
  /// not a nonzero, finite `Float` (as Core Animation stores a speed: 1.4e-45 to 3.4e38): a
  /// stretch of 0 or less, or one so small its speed overflows or so large it is 0, which would
  /// freeze or lose the layer's time; such layers are drawn unstretched, with a warning.
  static func layerSpeed(stretch: Double) -> Double? {
    let speed = 1 / stretch
    guard stretch > 0, Float(speed).isFinite, Float(speed) != 0 else { return nil }
    return speed
  }

  /// A precomposition layer: the asset's layers on their own time (`sr` stretches it; `tm` maps
  /// it), clipped to the layer's `w` x `h`.
  func readPrecomposition(_ f: Fields, entry: LayerEntry, into content: Layer) {
    guard let id = string(f, "refId") else {
      // Another kind (a number) was refused as such by `string`, not as missing.
      if (f["refId"] ?? .null) == .null {
        report(f.place("refId"), "missing required key (the precomposition's asset id)")
      }
      return
    }
    guard let asset = assets[id] else {
      warn(entry.label, "missing asset \"\(id)\" (refId): not drawn")
      return
    }
    guard case .object(let entries) = asset.json else { return }
    let a = Fields(entries: entries, place: asset.place)
    guard let layers = a["layers"] else {
      report(f.place("refId"), "asset \"\(id)\" is not a precomposition (it has no layers)")
      return
    }
    guard !assetsInProgress.contains(id) else {
      report(f.place("refId"), "precomposition \"\(id)\" contains itself")
      return
    }
    guard assetsInProgress.count < LottieFormat.maximumPrecompositionDepth else {
      report(
        f.place("refId"),
        "precompositions nested more than \(LottieFormat.maximumPrecompositionDepth) deep, "
          + "the limit")
      return
    }
    // Once the sampling budget is spent the file is refused: more instances are not built
    // (each converts its keyframes again).
    guard !samplingBudgetSpent else { return }
    assetsInProgress.insert(id)
    defer { assetsInProgress.remove(id) }
    let container = Layer()
    container.anchorPoint = .zero
    // The clip `w` x `h`, as lottie-web clips every precomposition to that rectangle: one of no
    // area shows nothing (it was taken as no clip, and a 0 x 0 clip showed everything where a
    // 0.01 x 0.01 one showed nothing). Without a size the layers are drawn unclipped.
    let w = size(f, "w", default: 0, of: "precomposition clip width", layer: entry.label)
    let h = size(f, "h", default: 0, of: "precomposition clip height", layer: entry.label)
    if f["w"] != nil && f["h"] != nil {
      container.bounds = Rect(x: 0, y: 0, width: w, height: h)
      container.masksToBounds = true
    }
    // Its own time: the composition's frame less `st`, divided by `sr` (`tm` replaces both).
    let stretch = number(f, "sr", default: 1)
    var speed = 1.0
    if let own = Self.layerSpeed(stretch: stretch) {
      let scale = Float(timeScale * own)
      if scale.isFinite && scale != 0 {
        speed = own
      } else {
        // Nested stretches multiply: past a speed's range the times inside are no longer
        // finite or no longer tell frames apart (25 stretches of 1e15 made a layer vanish).
        let bound = scale == 0 ? "over 7.1e44" : "under 2.9e-39"
        warn(
          entry.label,
          "layer stretch (\(f.place("sr")) is \(MessageText.number(stretch))) times those of the "
            + "precompositions around it is \(bound) (one stretch's range is 2.9e-39 to 7.1e44): "
            + "drawn unstretched",
          key: "nested layer stretch out of range")
      }
    } else {
      // A stretch of zero or less, or one so small or large that its speed is not a nonzero
      // Float, is not drawn.
      warn(
        entry.label,
        "layer stretch (\(f.place("sr")) is \(MessageText.number(stretch))): drawn unstretched",
        key: "layer stretch out of range")
    }
    container.timing = LayerTiming(beginTime: entry.startTime / frameRate, speed: Float(speed))
    // Read as every number property is: an empty value is refused (it was read as 0, the
    // precomposition frozen at its first frame).
    let remap = f["tm"] == nil ? nil : vector(f, "tm", default: [0], layer: entry.label)
    // The precomposition's frames that can show: the layer's, stretched or mapped.
    let local = layerFrames ?? visibleFrames
    var inner = local
    if remap == nil {
      let low = (local.lowerBound - entry.startTime) * speed
      let high = (local.upperBound - entry.startTime) * speed
      if !low.isNaN && !high.isNaN { inner = Swift.min(low, high)...Swift.max(low, high) }
    }
    if let remap {
      var low = Double.infinity, high = -Double.infinity
      let step = Swift.max(1, (local.upperBound - local.lowerBound) / 2000)
      for frame in Self.frames(in: local, step: step, limit: 2001) + [local.upperBound] {
        let x = component(remap.value(at: frame), 0) * frameRate
        low = Swift.min(low, x)
        high = Swift.max(high, x)
      }
      if low.isFinite && high.isFinite && high - low < 1e9 { inner = (low - 1)...(high + 1) }
    }
    let (outerVisible, outerLayerFrames, outerSize) = (visibleFrames, layerFrames, compositionSize)
    let outerScale = timeScale
    (visibleFrames, layerFrames) = (inner, nil)
    timeScale = remap == nil ? timeScale * speed : 1
    if w > 0 && h > 0 { compositionSize = Size(width: w, height: h) }
    readComposition(layers, at: a.place("layers"), into: container)
    (visibleFrames, layerFrames, compositionSize) = (outerVisible, outerLayerFrames, outerSize)
    timeScale = outerScale
    if let remap { remapTime(of: container, through: remap, frames: local) }
    content.addSublayer(container)
  }

  /// An image layer: the asset's picture at its `w` x `h`.
  func readImageLayer(_ f: Fields, entry: LayerEntry, into content: Layer) {
    guard let id = string(f, "refId") else {
      // Another kind (a number) was refused as such by `string`, not as missing.
      if (f["refId"] ?? .null) == .null {
        report(f.place("refId"), "missing required key (the image's asset id)")
      }
      return
    }
    guard let asset = assets[id], case .object(let entries) = asset.json else {
      warn(entry.label, "missing asset \"\(id)\" (refId): not drawn")
      return
    }
    let a = Fields(entries: entries, place: asset.place)
    // A precomposition's asset holds no picture (lottie-web shows an image of no source).
    guard a["layers"] == nil else {
      warn(
        entry.label,
        "image layers naming a precomposition (\(f.place("refId")): asset \"\(id)\" has "
          + "layers, not a picture): not drawn", key: "image layer naming a precomposition")
      return
    }
    if decodedImages[asset.place] == nil {
      // Named by this asset's id, the pixels shared with the other assets naming the picture.
      decodedImages[asset.place] = .some(
        readImage(a, layer: entry.label).map { Image($0.bitmap, name: a.string("id")) })
    }
    guard let image = decodedImages[asset.place] ?? nil else { return }
    let picture = Layer()
    picture.anchorPoint = .zero
    let w = size(a, "w", default: Double(image.width), of: "image width", layer: entry.label)
    let h = size(a, "h", default: Double(image.height), of: "image height", layer: entry.label)
    picture.bounds = Rect(x: 0, y: 0, width: w, height: h)
    picture.contents = image
    content.addSublayer(picture)
  }

  /// Whether `path` names a file inside the folder it is relative to: not absolute (`/...`)
  /// and with no `..` part (`images/../../x` climbs out).
  static func isInsideFolder(_ path: String) -> Bool {
    !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
  }

  /// Whether `path`, with its symbolic links followed, is inside `folder` (with theirs
  /// followed; "" the current folder); false when either cannot be resolved (a missing file
  /// is then said by its read).
  static func resolvesInside(_ path: String, folder: String) -> Bool? {
    func resolved(_ p: String) -> String? {
      guard let r = realpath(p, nil) else { return nil }
      defer { free(r) }
      return String(cString: r)
    }
    guard let file = resolved(path) else { return nil }
    guard let base = resolved(folder.isEmpty ? "." : folder) else { return false }
    // The folder itself (`p: "."`) is inside: reading it then says it is a folder.
    return file == base || file.hasPrefix(base == "/" ? "/" : base + "/")
  }

  /// The octets of a data URL's percent-encoded data (RFC 2397, RFC 3986): `%XX` is the byte
  /// XX, another character its UTF-8 bytes; `nil` when a `%` is not followed by two hex digits.
  static func percentDecoded(_ text: Substring) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var utf8 = text.utf8.makeIterator()
    func hex(_ c: UInt8?) -> UInt8? {
      switch c {
      case (0x30...0x39)?: return c! - 0x30
      case (0x41...0x46)?: return c! - 0x41 + 10
      case (0x61...0x66)?: return c! - 0x61 + 10
      default: return nil
      }
    }
    while let c = utf8.next() {
      guard c == 0x25 else {
        out.append(c)
        continue
      }
      guard let high = hex(utf8.next()), let low = hex(utf8.next()) else { return nil }
      out.append(high << 4 | low)
    }
    return out
  }

  /// An image asset's picture: embedded (`e: 1`, a `data:` URL), in a dotLottie archive, or
  /// (not in an archive) a file `u` + `p` inside the animation's folder. `nil` when it cannot
  /// be read (warned). Assets naming one picture share it, decoded and counted against
  /// `LottieFormat.maximumImagePixels` once: one file however its path is spelled (`imgs/`,
  /// `./imgs/`, `imgs//`: by its canonical path, as scene files' images are), one archive
  /// entry, or one `data:` URL.
  func readImage(_ a: Fields, layer: String) -> Image? {
    // Of another kind than a string, `p` and `u` are refused (a number was read as no name).
    let p = string(a, "p") ?? ""
    let u = string(a, "u") ?? ""
    var bytes: [UInt8]? = nil
    // What the picture is read from, which assets naming the same share.
    var source = ""
    var mediaType = ""  // a data URL's, to name what was embedded
    // URL schemes are case-insensitive (RFC 3986 §3.1): `DATA:IMAGE/PNG;BASE64,` as well.
    if p.utf8.count >= 5, p.prefix(5).lowercased() == "data:" {
      // A fragment (`#...`) is no part of the data: a browser's URL parser takes it off before
      // the data URL is read (it was said to be malformed base64).
      let p = String(p[..<(p.firstIndex(of: "#") ?? p.endIndex)])
      guard let comma = p.firstIndex(of: ",") else {
        warn(layer, "images with malformed data URLs (\(a.place).p): not drawn", key: "data URL")
        return nil
      }
      if let shared = decodedSources["data URL " + p] { return shared }
      let header = p[..<comma]
      // Percent-encoded octets (RFC 2397), then base64 when it says `;base64`, as a browser
      // reads a data URL (`data:image/svg+xml,%3Csvg…` was said to be malformed).
      let base64 = header.lowercased().hasSuffix(";base64")
      let payload = p[p.index(after: comma)...]
      guard let octets = Self.percentDecoded(payload),
        let decoded = base64 ? Base64.decode(octets) : octets
      else {
        warn(layer, "images with malformed data URLs (\(a.place).p): not drawn", key: "data URL")
        return nil
      }
      // Base64 text in a URL that does not say `;base64` is no picture to a browser either:
      // said as that, not as a picture of the media type's kind that cannot be decoded.
      if !base64, !Self.startsLikePicture(decoded), let text = Base64.decode(octets),
        Self.startsLikePicture(text)
      {
        warn(
          layer,
          "images in data URLs of base64 text without \";base64\" (\(a.place).p): not drawn",
          key: "data URL")
        return nil
      }
      source = "data URL " + p
      bytes = decoded
      mediaType = String(header.dropFirst(5).dropLast(base64 ? 7 : 0))
    } else if let archivedImages {
      // A dotLottie's images come from inside it: a name it does not hold is never looked
      // for on the disk (an archive naming "/proc/self/mem" read the process's memory).
      // Spelled as the archive's entries are: `./`, empty parts and `..` taken out lexically
      // (`images/./a.png` was said not to be held, where `images//a.png` was found).
      func plain(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
          if part == ".." {
            if !parts.isEmpty { parts.removeLast() }
          } else {
            parts.append(part)
          }
        }
        return parts.joined(separator: "/")
      }
      let inside = plain(u + p)
      let entry = archivedImages[inside] != nil ? inside : plain("images/" + p)
      guard let archived = archivedImages[entry] else {
        warn(
          layer, "images the archive does not hold (\(a.place): \"\(u + p)\"): not drawn",
          key: "images the archive does not hold")
        return nil
      }
      source = "archive entry " + entry
      if let shared = decodedSources[source] { return shared }
      bytes = archived
    } else {
      guard !p.isEmpty else {
        warn(layer, "image assets without a file name (\(a.place).p): not drawn", key: "no name")
        return nil
      }
      guard !p.utf8.contains(0), !u.utf8.contains(0) else {
        let key = p.utf8.contains(0) ? "p" : "u"
        warn(
          layer, "image file names holding a NUL character (\(a.place).\(key)): not drawn",
          key: "NUL in name")
        return nil
      }
      // A URL (`http://…`, `file:///…`) is not fetched: Flipbook reads files only (it looked
      // for a file named `http:/…` and said there was none).
      let name = (u + p).lowercased()
      if ["http:", "https:", "file:", "ftp:", "blob:"].contains(where: { name.hasPrefix($0) }) {
        warn(
          layer,
          "image assets named by a URL (\(a.place): \"\(MessageText.value(u + p))\"; URLs are not "
            + "fetched): not drawn", key: "image URLs")
        return nil
      }
      // Only files inside the Lottie file's folder: a path from the root or climbing out of
      // it with `..` is not read, as a browser showing the file from a web server would not
      // reach past the server's folder.
      guard Self.isInsideFolder(u + p) else {
        warn(
          layer,
          "image files outside the Lottie file's folder (\(a.place): \"\(u + p)\", an absolute "
            + "path or one through ..): not drawn", key: "image files outside the folder")
        return nil
      }
      let path = baseDirectory + u + p
      // A symbolic link in the folder that leads out of it is not followed there either.
      guard Self.resolvesInside(path, folder: baseDirectory) != false else {
        warn(
          layer,
          "image files outside the Lottie file's folder (\(a.place): \"\(u + p)\", a symbolic "
            + "link leading out of it): not drawn", key: "image files outside the folder")
        return nil
      }
      // A file the picture comes from (or would, once it is there): `batch` hashes it, so that
      // an image changed on disk renders the animation again.
      imageFiles.insert(path)
      source = "file " + SceneReader.canonicalPath(path)
      if let shared = decodedSources[source] { return shared }
      do {
        bytes = try AtomicFile.read(path, limit: LottieFormat.maximumFileSize)
      } catch {
        warn(
          layer, "image files that cannot be read (\"\(u + p)\": \(error.reason)): not drawn",
          key: "unreadable")
        decodedSources[source] = .some(nil)
        return nil
      }
    }
    guard let bytes else { return nil }
    var image = decodeImage(bytes, a, layer: layer, mediaType: mediaType)
    if let decoded = image {
      decodedImagePixels += decoded.width * decoded.height
      if decodedImagePixels > LottieFormat.maximumImagePixels {
        warn(
          layer,
          "images over \(LottieFormat.maximumImagePixels) decoded pixels in all (\(a.place)): "
            + "not drawn", key: "images over the decoded pixels of a file")
        image = nil
      }
    }
    decodedSources[source] = .some(image)
    return image
  }

  /// Whether `bytes` start as a PNG, a JPEG or a WebP does.
  static func startsLikePicture(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) || JPEG.isJPEG(bytes)
      || (bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8))
        && Array(bytes[8..<12]) == Array("WEBP".utf8))
  }

  /// The picture `bytes` hold (JPEG, WebP's first frame, or PNG), named by the asset `a`'s id;
  /// `nil` when it cannot be decoded (warned on `layer`, naming the data URL's `mediaType` when
  /// the bytes are of no kind known).
  func decodeImage(_ bytes: [UInt8], _ a: Fields, layer: String, mediaType: String) -> Image? {
    // Said with the decoder's reason (an image over the decoded-size limit says so), once.
    func undecodable(_ reason: Any) {
      warn(
        layer, "images that cannot be decoded (\(a.place): \(reason)): not drawn",
        key: "images that cannot be decoded")
    }
    // No bytes at all (`data:image/png;base64,`) are said as such, not as a kind of picture.
    guard !bytes.isEmpty else {
      undecodable("no bytes")
      return nil
    }
    if JPEG.isJPEG(bytes) {
      do {
        return Image(try JPEG.decode(bytes), name: a.string("id"))
      } catch {
        undecodable(error)
        return nil
      }
    }
    // WebP (RIFF....WEBP): its first frame.
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
      Array(bytes[8..<12]) == Array("WEBP".utf8)
    {
      do {
        // The first frame alone is decoded (every frame was, to keep the first).
        guard let frame = try WebP.FrameReader(bytes).next()?.image else {
          undecodable("the WebP has no frames")
          return nil
        }
        return Image(frame, name: a.string("id"))
      } catch {
        undecodable(error)
        return nil
      }
    }
    // Another kind of file is named for what it is (a JSON file or an SVG was "not a readable
    // PNG image"), from its bytes, and a data URL's by its media type too.
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
      let neither = "neither a PNG, a JPEG nor a WebP"
      undecodable(
        SceneFormat.describedImage(bytes).map { "\($0), \(neither)" }
          ?? (mediaType.isEmpty ? neither : "\(mediaType), \(neither)"))
      return nil
    }
    do {
      // An APNG shows its first frame, as a browser does before it plays: its default image
      // may be one no frame shows (an IDAT before the first fcTL), which was drawn.
      return Image(try Bitmap(stillOfPNGData: bytes), name: a.string("id"))
    } catch {
      undecodable(error)
      return nil
    }
  }
}
