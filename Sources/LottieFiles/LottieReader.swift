import CairoCanvas
import Geometry
import SceneFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Turns a parsed Lottie document into a scene, collecting every structural problem (refused,
/// as scene-format.md's rules say) and every unsupported feature (warned once per feature).
final class LottieReader {
  /// Structural problems, in document order: the file is refused when there is any.
  private(set) var problems: [SceneFormat.Problem] = []
  /// The problems recorded, for recording each once.
  private var reported: Set<SceneFormat.Problem> = []
  /// Unsupported features, once per feature, in the order first met.
  private(set) var warnings: [LottieFormat.Warning] = []
  private var warnedFeatures: Set<String> = []
  /// The file named in warnings.
  let file: String
  /// The folder external images (`u` + `p`) resolve against, with a trailing slash or empty.
  let baseDirectory: String
  /// Images held by a dotLottie archive, by their path inside it (`images/img_0.png`); `nil`
  /// when the file is no archive. An archive's images come from inside it only.
  let archivedImages: [String: [UInt8]]?
  /// The composition's frame rate (`fr`), for seconds from frames.
  var frameRate: Double = 30
  /// Layers built so far (against `LottieFormat.maximumLayerCount`).
  var layerCount = 0
  /// The masks read so far (`LottieFormat.maximumMasks`).
  var maskCount = 0
  /// The pictures of the image assets read so far, by the asset's place (`nil`: not drawn):
  /// each is decoded once however many layers show it, and they share its pixels.
  var decodedImages: [String: Image?] = [:]
  /// The same by what the picture was read from (`readImage`): a file by its canonical path,
  /// an archive's entry, a `data:` URL; assets naming one share it, decoded and counted once.
  var decodedSources: [String: Image?] = [:]
  /// The image files read from disk (or tried), for `Scene.inputFiles`.
  var imageFiles: Set<String> = []
  /// The pixels of the distinct pictures decoded so far (`LottieFormat.maximumImagePixels`).
  var decodedImagePixels = 0
  /// Path elements repeaters' copies and glyph text's characters have made so far, in the
  /// whole file (`maximumRepeatedPathElements`).
  var repeatedPathElements = 0
  /// Each glyph's path (`nil`: it draws nothing), by the glyph's place in `chars`: read once
  /// however many characters show it (a 9,000-vertex glyph shown 5,000 times was read 5,000
  /// times, for over a minute).
  var glyphPaths: [String: Path?] = [:]
  /// The characters of the text documents read so far (`LottieFormat.maximumTextCharacters`).
  var textCharacters = 0
  /// The box text laid out so far (to size its box), for the work its layouts add to its
  /// characters: lines, tabs, mixed directions, font sizes (`TextLayout.Tally`).
  var boxText = TextLayout.Tally()
  /// The precomposition assets by id, and those being built (a cycle is refused).
  var assets: [String: (json: JSONValue, place: String)] = [:]
  var assetsInProgress: Set<String> = []
  /// How many copies the repeaters around what is being read make (the product of their
  /// counts), held to `ReplicatorLayer.maximumInstanceCount` as the scene reader holds nested
  /// replicators.
  var replication = 1
  /// How fast the composition being read runs against the root composition's time: the
  /// product of the speeds (1 / `sr`) of the precomposition layers around it (a time remap,
  /// which gives its time outright, starts it again at 1). Held within the range one layer's
  /// speed has, a `Float`'s (`LottieReader.layerSpeed(stretch:scale:)`): 25 nested stretches of
  /// 1e15 multiplied past a `Double`'s range and the innermost layer vanished.
  var timeScale = 1.0
  /// The frames of the composition being read that can show (its own frames, narrowed by the
  /// layers and time mappings that show it): layers outside them are not built, and sampling
  /// stays within them.
  var visibleFrames: ClosedRange<Double> = 0...0
  /// The local frames of the layer being built that can show (`nil`: not known, no narrowing).
  var layerFrames: ClosedRange<Double>? = nil
  /// The size of the composition being read (what masks that start from everything cover).
  var compositionSize = Size(width: 0, height: 0)
  /// Layers repeaters make drawn so far (against `SceneFormat.maximumDrawnLayers`).
  var drawnLayerCount = 0
  /// Sampled values so far (against `LottieFormat.maximumSamplingWork`).
  var samplingWork = 0
  /// Dashes the static strokes read so far draw a frame, each repeater copy counted (against
  /// `StrokeStyle.maximumDashCountPerFrame`).
  var dashesDrawn = 0.0
  /// Parent loops reported (the `ind`s in each, sorted) and whether a chain over the length
  /// limit was: each is said once, not again for every layer whose chain runs into it.
  var reportedParentLoops: Set<[Double]> = []
  var reportedLongParentChain = false
  /// Glyph outlines (`chars`) by character, family and style.
  var glyphs: [String: Glyph] = [:]
  /// Each font name's family and style (`fonts.list`), for finding its glyphs.
  var fontFamilies: [String: (family: String, style: String)] = [:]
  /// The font each document's font name (`f`) draws with, by that name, once matched.
  var fontNames: [String: String] = [:]
  /// Each font name's ascent (`fonts.list[n].ascent`, percent of the size), where given.
  var fontAscents: [String: Double] = [:]

  init(file: String, baseDirectory: String, archivedImages: [String: [UInt8]]? = nil) {
    self.file = file
    self.baseDirectory =
      baseDirectory.isEmpty || baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/"
    self.archivedImages = archivedImages
  }

  /// Records a structural problem at `place` (a JSON path such as `layers[2].ks.o.k`), once:
  /// a field read again (a parent's for each child, a precomposition's for each instance)
  /// does not repeat its message.
  func report(_ place: String, _ message: String) {
    let problem = SceneFormat.Problem(
      place: MessageText.place(place), message: MessageText.message(message))
    guard reported.insert(problem).inserted else { return }
    problems.append(problem)
  }

  /// Whether `key` of `f` holds a true flag: `true`, or a number other than 0 (`false` when
  /// absent or `null`). Anything else (`"yes"`, a list) is reported: Lottie's flags are
  /// booleans, or 0 and 1.
  func flag(_ f: Fields, _ key: String) -> Bool {
    switch f[key] {
    case nil, .null?: return false
    case .bool(let b)?: return b
    case .number(let x)?: return x != 0
    case let value?:
      report(
        f.place(key), "expected a flag (true, false, 0 or 1), found \(value.kindDescription)")
      return false
    }
  }

  /// Records an unsupported feature of the layer at `layer` (`layers[4] "Heart"`), once per
  /// feature and file.
  /// `key` says which warnings are the same feature (default: the feature's text).
  func warn(_ layer: String, _ feature: String, key: String? = nil) {
    guard warnedFeatures.insert(key ?? feature).inserted else { return }
    warnings.append(
      LottieFormat.Warning(
        file: file, layer: MessageText.message(layer), feature: MessageText.message(feature),
        key: key ?? feature))
  }

  /// How a layer is named in warnings: its place and its `nm`.
  static func layerLabel(_ place: String, _ fields: Fields?) -> String {
    guard let name = fields?.string("nm") else { return place }
    return "\(place) \"\(name)\""
  }

  // MARK: Reading JSON

  /// An object's entries with its place, for keyed access that reports wrong kinds.
  struct Fields {
    let entries: [(key: String, value: JSONValue)]
    let place: String

    subscript(_ key: String) -> JSONValue? {
      entries.first(where: { $0.key == key })?.value
    }

    /// The place of `key` inside the object.
    func place(_ key: String) -> String { place.isEmpty ? key : "\(place).\(key)" }

    /// The string at `key`, if it is one.
    func string(_ key: String) -> String? {
      if case .string(let s)? = self[key] { return s }
      return nil
    }

    /// Whether `key` holds a true flag (`1` or `true`).
    func flag(_ key: String) -> Bool {
      switch self[key] {
      case .bool(true)?: return true
      case .number(let x)?: return x != 0
      default: return false
      }
    }
  }

  /// `json` as an object, or `nil` (reported as expecting `what`).
  func object(_ json: JSONValue, at place: String, what: String = "an object") -> Fields? {
    guard case .object(let entries) = json else {
      report(place, "expected \(what), found \(json.kindDescription)")
      return nil
    }
    return Fields(entries: entries, place: place)
  }

  /// The string at `key` of `f`: `nil` when absent or null, and when of another kind
  /// (reported: `fonts.list[0].fStyle: expected a string, found a number`).
  func string(_ f: Fields, _ key: String) -> String? {
    guard let v = f[key], v != .null else { return nil }
    guard case .string(let s) = v else {
      report(f.place(key), "expected a string, found \(v.kindDescription)")
      return nil
    }
    return s
  }

  /// `json` as a list, or `nil` (reported).
  func array(_ json: JSONValue, at place: String) -> [JSONValue]? {
    guard case .array(let items) = json else {
      report(place, "expected a list, found \(json.kindDescription)")
      return nil
    }
    return items
  }

  /// `json` as a finite number, or `nil` (reported). `true` and `false` are refused as the scene
  /// reader refuses them (`"fr": true` is no frame rate); flags (`hd`, `td`, `ao`, `c`) are read
  /// with `Fields.flag`, which takes either.
  func number(_ json: JSONValue, at place: String) -> Double? {
    switch json {
    case .number(let x) where x.isFinite: return x
    default:
      report(place, "expected a number, found \(json.kindDescription)")
      return nil
    }
  }

  /// The number at `key`, `fallback` when absent, `nil` when wrong (reported).
  func number(_ f: Fields, _ key: String, default fallback: Double) -> Double {
    guard let v = f[key] else { return fallback }
    return number(v, at: f.place(key)) ?? fallback
  }

  /// A list of finite numbers (a bare number is a list of one, as Lottie writes scalars either
  /// way), or `nil` (reported).
  func numbers(_ json: JSONValue, at place: String) -> [Double]? {
    switch json {
    case .number: return number(json, at: place).map { [$0] }
    case .array(let items):
      var out: [Double] = []
      out.reserveCapacity(items.count)
      // The usual case without making a place per item (a 10,000-vertex shape in 30 keyframes
      // spent most of its reading time on those strings).
      for item in items {
        guard case .number(let x) = item, x.isFinite else { break }
        out.append(x)
      }
      if out.count == items.count { return out }
      out.removeAll(keepingCapacity: true)
      for (i, item) in items.enumerated() {
        guard let x = number(item, at: "\(place)[\(i)]") else { return nil }
        out.append(x)
      }
      return out
    default:
      report(place, "expected a number or a list of numbers, found \(json.kindDescription)")
      return nil
    }
  }
}

extension LottieReader {
  /// Forgets problems recorded after the first `count` (they may be recorded again).
  func dropProblems(after count: Int) {
    for p in problems[count...] { reported.remove(p) }
    problems.removeSubrange(count...)
  }

  /// Forgets warnings recorded after the first `count` (they may be given again).
  func dropWarnings(after count: Int) {
    for w in warnings[count...] { warnedFeatures.remove(w.key) }
    warnings.removeSubrange(count...)
  }
}

extension LottieReader {
  /// A whole-number code at `key` (a layer or effect type, which the reader dispatches on):
  /// the number, -1 (no code) when it is no whole number within -1,000,000...1,000,000 (a
  /// type of 4.5 is no shape layer), `fallback` when absent.
  func code(_ f: Fields, _ key: String, default fallback: Int) -> Int {
    guard f[key] != nil else { return fallback }
    let x = number(f, key, default: Double(fallback))
    return abs(x) <= 1_000_000 && x == x.rounded() ? Int(x) : -1
  }

  /// A coded field, one of the format's enumerations (a stroke's cap `lc`, a fill rule `r`, a
  /// blend mode `bm`): the value `known` gives its code, `absent` when the field is absent or
  /// `null` (what lottie-web draws then). Any other code (9, 0, -1, 2.5, 1e300) is drawn as
  /// `other` says (what lottie-web draws for it, and the words saying so, `"drawn butt, as
  /// lottie-web's SVG draws it"`), with a warning on `label`'s layer naming the place, the code
  /// and the codes known, once per file and `name`; `--strict` refuses it. A value that is no
  /// number is reported.
  func coded<Value>(
    _ f: Fields, _ key: String, _ name: String, known: [Int: Value], absent: Value,
    layer label: String, other: (Double) -> (value: Value, drawn: String)
  ) -> Value {
    guard let json = f[key], json != .null else { return absent }
    guard let x = number(json, at: f.place(key)) else { return absent }
    return coded(x, at: f.place(key), name, known: known, layer: label, other: other)
  }

  /// The coded value `x` read at `place` (an effect's value, which is no field of its own), as
  /// `coded(_:_:_:known:absent:layer:other:)` reads a field's.
  func coded<Value>(
    _ x: Double, at place: String, _ name: String, known: [Int: Value], layer label: String,
    other: (Double) -> (value: Value, drawn: String)
  ) -> Value {
    if abs(x) <= 1_000_000, x == x.rounded(), let value = known[Int(x)] { return value }
    let (value, drawn) = other(x)
    warn(
      label,
      "\(name) \(MessageText.number(x)) (\(place): \(Self.codesText(known.keys))): \(drawn)",
      key: name)
    return value
  }

  /// The codes of an enumeration as a warning names them: `1 to 3`, or `1, 2, 5` with gaps.
  static func codesText(_ codes: some Collection<Int>) -> String {
    let sorted = codes.sorted()
    guard let first = sorted.first, let last = sorted.last else { return "none" }
    if sorted.count > 2, last - first == sorted.count - 1 { return "\(first) to \(last)" }
    if sorted.count == 2 { return "\(first) or \(last)" }
    return sorted.map(String.init).joined(separator: ", ")
  }

  /// The code at `key` as the file writes it, for messages (`1e+308`, `2.5`: not the -1 or the
  /// whole number `code` makes of it); `fallback` when it is no number.
  func given(_ f: Fields, _ key: String, fallback: Int) -> String {
    if case .number(let x)? = f[key] { return MessageText.number(x) }
    return "\(fallback)"
  }
}
