import Animations
import CairoCanvas
import FileIO
import Geometry
import LayerTree
import SceneFiles
import Scenes

/// Reads Lottie (Bodymovin) animations onto Flipbook's layer tree and animation model, the way
/// lottie-ios's Core Animation engine maps Lottie onto `CALayer`s (`docs/lottie.md`).
///
/// Scene time `t` shows Lottie frame `ip + t × fr`, sub-frame; the scene lasts `(op − ip) / fr`
/// seconds at `fr` frames per second, `w × h` points, on a transparent background. A file whose
/// structure is wrong is refused with one line per problem naming the JSON path (as scene files
/// are); a feature Flipbook does not draw gives a warning naming the layer and the feature
/// (`warnings`), which `strict` turns into errors.
public enum LottieFormat {
  /// The most bytes a Lottie file or dotLottie archive may have: 64 MiB.
  public static let maximumFileSize: Int = 64 << 20
  /// The most Lottie layers one animation may build, precomposition instances included: 10,000.
  public static let maximumLayerCount = 10_000
  /// The most keyframes one property may have: 100,000.
  public static let maximumKeyframes = 100_000
  /// The most keyframes one file may build, all properties together and a precomposition's
  /// once for every layer that shows it: 1,000,000, as many as a scene file's keyframe values.
  /// Counted from the JSON with the layers, before anything is built: each keyframe costs
  /// about a microsecond and 100 bytes to build, and a precomposition of 100,000 keyframes
  /// shown by 100 layers took 9.5 s and 960 MB for a frame (5,000 such layers fit the layer
  /// limit).
  public static let maximumKeyframesPerFile = 1_000_000
  /// The most values (path elements counted one each) the reader may sample for one file, where
  /// keyframes cannot carry a property exactly (spatial curves, trims, time remapping): 15
  /// million. A time-remapped precomposition counts, at each sample, each of its layers and
  /// each value its animated layers give: 1,100 layers of four animated values remapped over
  /// 2,000 frames, within the 20 million this was, took 9 s and 1.4 GB for a frame.
  public static let maximumSamplingWork = 15_000_000
  /// The most vertices one bezier shape may have: 10,000. Cairo fills and strokes a shape
  /// whose edges cross one another in time that grows faster than its edges (a shape of 100,000
  /// vertices at random took 7 s to fill and 76 s to stroke; 10,000 take 0.3 s and 1.4 s).
  public static let maximumVertices = 10_000
  /// The most pixels of the distinct pictures a file's image assets decode to, all together
  /// (each decoded once, however many layers and assets show it: one file however its path is
  /// spelled, one archive entry, one `data:` URL): 256 million, a gigabyte of pixels.
  /// Pictures past it are not drawn, with a warning naming the asset.
  public static let maximumImagePixels = 256_000_000
  /// The most characters (Unicode scalars) all of a file's text documents may hold together:
  /// 500,000, each document counted as `charactersPerTextDocument` more, and the work of
  /// laying out box text drawn with a font (`TextLayout.Tally`: each line it is expected to
  /// wrap to counted as `TextLayout.charactersPerWrappedLine` more, its paragraphs, tabs, mixed
  /// directions and font sizes). Box text is laid out when read (to size its
  /// box), so the reading takes time in the text and its lines: 20,000 documents of 1,000
  /// characters took 222 s, and 5 of 100,000 in boxes 1e-300 wide (a line a character) 34 s.
  public static let maximumTextCharacters = 500_000
  /// What each text document counts toward `maximumTextCharacters` besides its characters:
  /// 20, for reading its fields and adding its values to its layer's animations (5 layers of
  /// 100,000 one-character documents took 155 s; they are now refused at the 23,810th).
  public static let charactersPerTextDocument = 20
  /// The most colour stops, and the most opacity stops, one gradient may have: 1,000 each.
  public static let maximumGradientStops = 1_000

  /// The most copies one repeater (`rp`) draws: 1,000. A file asking for more is drawn with
  /// 1,000, with a warning naming the place.
  public static let maximumRepeaterCopies = 1_000

  /// The most points a polystar (`sr`) has: 1,000. A file asking for more is drawn with 1,000,
  /// with a warning naming the place. (Each point is two curves; a rounded star of 10,000
  /// points turned inside out, its curves crossing, took 12 s to stroke.)
  public static let maximumPolystarPoints = 1_000
  /// The most masks (`masksProperties`) one layer may have: 100; and all the layers built
  /// together, a precomposition's masks once for every layer that shows it: 1,000. Each mask
  /// is composited over the frame on its own (5,000 masks on a 1000 x 1000 animation took 5 s).
  public static let maximumMasksPerLayer = 100
  /// See `maximumMasksPerLayer`.
  public static let maximumMasks = 1_000
  /// The deepest precompositions may nest (a precomposition layer inside an asset inside ...):
  /// 32, so that no file can build a tree deeper than the renderer's stack holds.
  public static let maximumPrecompositionDepth = 32

  /// A feature of a Lottie file that Flipbook does not draw as the format says.
  public struct Warning: Hashable, Sendable, CustomStringConvertible {
    /// The file, as it was named.
    public var file: String
    /// The layer that uses it: `layers[4] "Heart"` (its JSON path and name).
    public var layer: String
    /// The feature and what Flipbook does instead.
    public var feature: String

    /// Which warnings count as one feature (once per file).
    var key: String

    /// Creates a warning.
    public init(file: String, layer: String, feature: String) {
      self.init(file: file, layer: layer, feature: feature, key: feature)
    }

    init(file: String, layer: String, feature: String, key: String) {
      self.file = file
      self.layer = layer
      self.feature = feature
      self.key = key
    }

    /// `"<file>: <layer>: unsupported <feature>"`.
    public var description: String {
      "\(MessageText.path(file)): \(layer): unsupported \(feature)"
    }
  }

  /// A Lottie animation read into a scene, with what it uses that Flipbook does not draw.
  public struct Document {
    /// The scene: replicable (each replica reads the same document again).
    public var scene: Scene
    /// One warning per unsupported feature, in the order first met.
    public var warnings: [Warning]
  }

  /// The top-level keys an animation must have: `fr`, `ip`, `op`, `w`, `h` and `layers` (the
  /// Lottie specification's required ones; its version `v` is not, and lottie-web plays a file
  /// without it).
  static let requiredKeys = ["fr", "ip", "op", "w", "h", "layers"]

  /// Whether a parsed JSON document is a Lottie animation: an object with `fr`, `ip`, `op`, `w`,
  /// `h` and `layers`, and with `v` or without `flipbook` (a scene file's version).
  package static func isLottie(_ json: JSONValue) -> Bool {
    guard case .object(let entries) = json else { return false }
    let keys = Set(entries.map(\.key))
    return requiredKeys.allSatisfy(keys.contains)
      && (keys.contains("v") || !keys.contains("flipbook"))
  }

  /// Why a JSON document that is no Lottie animation (see `isLottie`) looks like one and is not
  /// read as a scene file: an object without `flipbook` holding at least four of `v`, `fr`,
  /// `ip`, `op`, `w`, `h` and `layers` (a scene file has none of them but `layers`). Said as
  /// the one problem (`looks like a Lottie animation (it has v, fr, ip, op, w and h) but has no
  /// "layers"`), where the scene reader's page of unknown keys never named it.
  package static func lookalikeProblem(_ json: JSONValue) -> String? {
    guard case .object(let entries) = json, !isLottie(json) else { return nil }
    let keys = Set(entries.map(\.key))
    let lottieKeys = ["v"] + requiredKeys
    let present = lottieKeys.filter(keys.contains)
    guard !keys.contains("flipbook"), present.count >= 4 else { return nil }
    func listed(_ names: [String], _ conjunction: String) -> String {
      names.count == 1
        ? names[0] : names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
    let missing = requiredKeys.filter { !keys.contains($0) }.map { "\"\($0)\"" }
    return "looks like a Lottie animation (it has \(listed(present, "and"))) but has no "
      + "\(listed(missing, "or")) (a Lottie animation needs \(listed(requiredKeys, "and")); a "
      + "scene file has \"flipbook\")"
  }

  /// Whether `bytes` hold a Lottie animation (recognised by its content, whatever the file's
  /// name) or a dotLottie archive.
  public static func isLottie(_ bytes: [UInt8]) -> Bool {
    if DotLottie.isArchive(bytes) { return true }
    guard let json = try? JSONParser.parse(bytes) else { return false }
    return isLottie(json)
  }

  /// Reads the Lottie file or dotLottie archive at `path`; external images resolve against its
  /// folder.
  ///
  /// - Parameter strict: refuse the file when it uses an unsupported feature (each warning
  ///   becomes a problem).
  /// - Throws: `SceneFormat.DecodingError` listing every problem found.
  public static func load(
    contentsOf path: String, strict: Bool = false
  ) throws(SceneFormat.DecodingError) -> Document {
    let bytes: [UInt8]
    do {
      bytes = try AtomicFile.read(path, limit: maximumFileSize)
    } catch {
      throw SceneFormat.DecodingError(
        file: path,
        problems: [
          SceneFormat.Problem(
            place: "", message: MessageText.message("cannot read the file: \(error.reason)"))
        ])
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    return try decode(bytes, file: path, baseDirectory: folder, strict: strict)
  }

  /// Reads a Lottie animation (JSON) or a dotLottie archive (its first animation and images)
  /// from its bytes.
  ///
  /// - Parameters:
  ///   - file: the name to put in messages.
  ///   - baseDirectory: the folder external images resolve against ("" for the current one).
  ///   - strict: refuse the file when it uses an unsupported feature.
  /// - Throws: `SceneFormat.DecodingError` listing every problem found.
  public static func decode(
    _ bytes: [UInt8], file: String, baseDirectory: String = "", strict: Bool = false
  ) throws(SceneFormat.DecodingError) -> Document {
    var json = bytes
    var images: [String: [UInt8]]? = nil
    var entry: String? = nil
    var archiveWarnings: [Warning] = []
    if DotLottie.isArchive(bytes) {
      do {
        let archive = try DotLottie.read(bytes)
        json = archive.animation
        images = archive.images
        entry = archive.animationName
        if let problem = archive.manifestProblem {
          archiveWarnings.append(
            Warning(
              file: file, layer: "manifest.json",
              feature: MessageText.message(
                "manifest (\(problem)): \(archive.animationName) drawn, the first by name")))
        }
        if !archive.playbackIgnored.isEmpty {
          archiveWarnings.append(
            Warning(
              file: file, layer: "manifest.json",
              feature: MessageText.message(
                "manifest choices (\(archive.playbackIgnored.joined(separator: "; "))): "
                  + "\(archive.animationName) drawn as its file is, on its own timeline")))
        }
      } catch {
        throw SceneFormat.DecodingError(
          file: file,
          problems: [SceneFormat.Problem(place: "", message: MessageText.message(error.message))])
      }
    }
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(json)
    } catch {
      let message = MessageText.message("invalid JSON: \(error.message)")
      // In an archive: the entry, then the line and column inside it.
      let problem =
        entry.map {
          SceneFormat.Problem(
            place: "",
            message: "\(MessageText.message($0)):\(error.line):\(error.column): \(message)")
        }
        ?? SceneFormat.Problem(place: "", line: error.line, column: error.column, message: message)
      throw SceneFormat.DecodingError(file: file, problems: [problem])
    }
    guard let entry else {
      return try read(
        parsed, file: file, baseDirectory: baseDirectory, images: images, strict: strict)
    }
    // In an archive: every problem names the entry first.
    func inEntry(_ problems: [SceneFormat.Problem]) -> SceneFormat.DecodingError {
      let named = MessageText.message(entry)
      return SceneFormat.DecodingError(
        file: file,
        problems: problems.map {
          SceneFormat.Problem(
            place: $0.place.isEmpty ? named : "\(named): \($0.place)", message: $0.message)
        })
    }
    if !isLottie(parsed), case .object(let keys) = parsed,
      keys.contains(where: { $0.key == "flipbook" })
    {
      throw inEntry([
        SceneFormat.Problem(
          place: "",
          message: "a Flipbook scene file, not a Lottie animation (a .lottie archive holds Lottie "
            + "JSON; render the scene file on its own)")
      ])
    }
    if strict, let warning = archiveWarnings.first {
      throw SceneFormat.DecodingError(
        file: file,
        problems: [
          SceneFormat.Problem(
            place: warning.layer, message: "unsupported \(warning.feature) (--strict)")
        ])
    }
    do {
      var document = try read(
        parsed, file: file, baseDirectory: baseDirectory, images: images, strict: strict)
      document.warnings = archiveWarnings + document.warnings
      return document
    } catch {
      throw inEntry(error.problems)
    }
  }

  /// Reads a parsed Lottie document; `images` are a dotLottie archive's (`nil`: not from an
  /// archive, so image files beside it may be read).
  package static func read(
    _ json: JSONValue, file: String, baseDirectory: String, images: [String: [UInt8]]? = nil,
    strict: Bool
  ) throws(SceneFormat.DecodingError) -> Document {
    let reader = LottieReader(file: file, baseDirectory: baseDirectory, archivedImages: images)
    let scene = reader.readAnimation(json)
    var problems = reader.problems
    if strict {
      problems += reader.warnings.map {
        SceneFormat.Problem(place: $0.layer, message: "unsupported \($0.feature) (--strict)")
      }
    }
    guard problems.isEmpty, let scene else {
      throw SceneFormat.DecodingError(file: file, problems: problems)
    }
    scene.inputFiles = reader.imageFiles.sorted()
    // The document reads the same every time, so its replicas are it read again.
    scene.rebuild {
      let replica = LottieReader(file: file, baseDirectory: baseDirectory, archivedImages: images)
      guard let scene = replica.readAnimation(json) else {
        throw SceneFormat.DecodingError(file: file, problems: replica.problems)
      }
      return scene
    }
    return Document(scene: scene, warnings: reader.warnings)
  }
}

extension LottieReader {
  /// The animation: its size, frame rate and time, assets, fonts and layers.
  func readAnimation(_ json: JSONValue) -> Scene? {
    guard let f = object(json, at: "", what: "a Lottie animation (an object)") else { return nil }
    for key in LottieFormat.requiredKeys where f[key] == nil {
      report(key, "missing required key")
    }
    let fr = number(f, "fr", default: 30)
    let ip = number(f, "ip", default: 0), op = number(f, "op", default: ip + 1)
    let problemsBeforeSize = problems.count
    let w = number(f, "w", default: 0), h = number(f, "h", default: 0)
    // A size that is missing or not a number is the one cause: not also "not drawable".
    let sizeIsRead = problems.count == problemsBeforeSize && f["w"] != nil && f["h"] != nil
    let frameRateIsValid = fr >= Scene.minimumFPS && fr <= Scene.maximumFPS
    if !frameRateIsValid {
      report(
        "fr",
        "expected a frame rate from \(MessageText.number(Scene.minimumFPS)) to \(MessageText.number(Scene.maximumFPS)), found \(MessageText.number(fr))"
      )
    }
    guard op > ip else {
      report(
        "op",
        "the out point (\(MessageText.number(op))) must be after the in point (\(MessageText.number(ip)))"
      )
      return nil
    }
    let duration = (op - ip) / fr
    // A bad frame rate is the one cause: no duration follows from it.
    if frameRateIsValid && !(duration <= Scene.maximumDuration) {
      report(
        "op",
        "the duration, (op − ip) / fr, of \(MessageText.number(duration)) s exceeds the limit of "
          + "\(MessageText.number(Scene.maximumDuration)) s"
      )
    }
    guard w >= 1, h >= 1, w <= Double(Canvas.maximumSide), h <= Double(Canvas.maximumSide),
      w * h <= Double(Canvas.maximumPixelCount)
    else {
      guard sizeIsRead else { return nil }
      // Named where the cause is: `h` when only the height is out of range.
      let wIsValid = w >= 1 && w <= Double(Canvas.maximumSide)
      let hIsValid = h >= 1 && h <= Double(Canvas.maximumSide)
      report(
        wIsValid && !hIsValid ? "h" : "w",
        "a size of \(MessageText.number(w)) x \(MessageText.number(h)) points is not drawable (1 to \(Canvas.maximumSide) a side, at most 64 megapixels)"
      )
      return nil
    }
    guard problems.isEmpty else { return nil }
    frameRate = fr
    visibleFrames = ip...op
    compositionSize = Size(width: w, height: h)
    if case .array(let list)? = f["assets"] {
      for (i, item) in list.enumerated() {
        guard let a = object(item, at: "assets[\(i)]", what: "an asset (an object)") else {
          continue
        }
        guard let id = a["id"] else {
          report(a.place("id"), "missing required key (the asset's id)")
          continue
        }
        let key: String
        switch id {
        case .string(let s): key = s
        case .number(let x): key = MessageText.number(x)
        default:
          report(a.place("id"), "expected a string, found \(id.kindDescription)")
          continue
        }
        // Two assets of one id: refIds find the first, as lottie-web's search does (a player
        // keeping them by id takes the last), said once with both places.
        if let first = assets[key] {
          warn(
            a.place,
            "assets sharing an id (\(a.place("id")) is \"\(MessageText.value(key))\", as "
              + "\(first.place).id is): refIds use the first",
            key: "duplicate asset id")
        } else {
          assets[key] = (item, a.place)
        }
      }
    } else if let assets = f["assets"] {
      _ = array(assets, at: "assets")
    }
    // The fonts' list and each font's names: of the wrong kind, refused naming them (a list
    // that was an object, or an fStyle of 5, was passed over without a word).
    if let fj = f["fonts"], fj != .null,
      let fonts = object(fj, at: "fonts", what: "the fonts (an object with list)"),
      let lj = fonts["list"], lj != .null, let list = array(lj, at: fonts.place("list"))
    {
      for (i, item) in list.enumerated() {
        guard let font = object(item, at: "fonts.list[\(i)]", what: "a font (an object)") else {
          continue
        }
        let family = string(font, "fFamily"), style = string(font, "fStyle")
        if let name = string(font, "fName") {
          fontFamilies[name] = (family ?? "", style ?? "")
          // The ascent places box text's first baseline: a number (else reported), taken
          // within ±1,000 percent of the size (the nearest, with a warning).
          if let given = font["ascent"], let a = number(given, at: font.place("ascent")) {
            let taken = Swift.max(-1000, Swift.min(1000, a))
            if taken != a {
              warn(
                "font \"\(name)\"",
                "font ascent \(MessageText.number(a)) (\(font.place("ascent")): "
                  + "-1,000 to 1,000): drawn at \(MessageText.number(taken))", key: "font ascent")
            }
            fontAscents[name] = taken
          }
        }
      }
    }
    if let chars = f["chars"] { readGlyphs(chars) }
    if let layers = f["layers"], !buildIsWithinLimits(layers, at: "layers") { return nil }
    let scene = Scene(size: Size(width: w, height: h), duration: duration, fps: fr)
    scene.durationSource =
      "the Lottie out point, op \(MessageText.number(op))"
      + (ip == 0 ? "" : " from ip \(MessageText.number(ip))") + " at fr \(MessageText.number(fr))"
    // The composition: its local time is the Lottie frame number over `fr`.
    let composition = Layer()
    composition.anchorPoint = .zero
    composition.name = f.string("nm")
    composition.timing = LayerTiming(beginTime: -ip / fr)
    if let layers = f["layers"] { readComposition(layers, at: "layers", into: composition) }
    Self.inheritPlaces(in: composition)
    scene.addLayer(composition)
    return scene
  }

  /// Gives every layer under `root` (masks too) that has no place of its own the place of the
  /// nearest layer above it that has one (a mask: the layer it masks), so that an error found
  /// while drawing any layer the reader made (a solid's rectangle, a repeater's copy, a mask's
  /// hole) names where in the file it comes from, never "layer (unnamed)".
  static func inheritPlaces(in root: Layer) {
    var pending: [(Layer, String?)] = [(root, root.sourcePlace)]
    while let (layer, inherited) = pending.popLast() {
      if layer.sourcePlace == nil { layer.sourcePlace = inherited }
      let place = layer.sourcePlace
      for sublayer in layer.sublayers { pending.append((sublayer, place)) }
      if let mask = layer.mask { pending.append((mask, place)) }
    }
  }
}
