import Animations
import CairoCanvas
import FileIO
import Geometry
import Glibc
import ImageEncoding
import LayerTree
import Scenes

/// Turns a parsed scene document into a `Scene`, collecting every problem instead of stopping
/// at the first.
package final class SceneReader {
  private(set) var problems: [SceneFormat.Problem] = []
  let baseDirectory: String
  /// The image files named so far, by their path resolved against `baseDirectory`, and what
  /// each gave.
  private var images: [String: Result<Image, FileOrImageError>] = [:]
  /// The same by the file's canonical path (symbolic links, `.` and `..` resolved), so one
  /// file named two ways is decoded once.
  private(set) var decodedFiles: [String: Result<Image, FileOrImageError>] = [:]
  /// The image files that could not be read, by resolved path: the problem that says so, its
  /// message, and how many more places named the file.
  private var unreadableImages: [String: (problem: Int, message: String, more: Int)] = [:]
  /// The pixels of the distinct images decoded so far (checked against `imagePixelLimit`).
  private var imagePixels = 0
  /// The most pixels the scene's distinct images may decode to together
  /// (`SceneFormat.maximumImagePixels`; smaller in tests).
  let imagePixelLimit: Int
  /// Layer names already used, with where.
  private var names: [String: String] = [:]
  /// How many copies of the layer being read its replicator ancestors make (the product of
  /// their instance counts), so nested replicators cannot multiply past the instance limit.
  private var replication = 1
  /// How many shadowed layers enclose the layer being read (the renderer's limit,
  /// `LayerRenderer.maximumNestedShadows`, checked here too so the error names the place).
  private var shadowNesting = 0
  /// The most shadowed layers that may enclose a shadowed layer: 32, as the renderer's
  /// `maximumNestedShadows`.
  static let maximumNestedShadows = 32
  /// Top-level layers by name (the only valid dynamics items).
  private(set) var topLevelLayers: [String: Layer] = [:]
  /// Layers read so far (checked against `SceneFormat.maximumLayerCount`).
  private var layerCount = 0
  /// Layers drawn a frame so far: each layer counted once per replicator instance around it
  /// (checked against `SceneFormat.maximumDrawnLayers`).
  private var drawnLayerCount = 0
  /// Dashes the scene's static strokes draw a frame so far, each replicator instance counted
  /// (checked against `StrokeStyle.maximumDashCountPerFrame`).
  private var dashesDrawn = 0.0
  /// The collision work every step does for the boundaries read so far: each boundary
  /// segment once for each item of its collision behavior (checked against
  /// `DynamicAnimator.maximumStepWork` as each boundary is read, before more are built).
  var boundaryStepWork = 0
  /// Keyframe values read so far (checked against `SceneFormat.maximumKeyframeValuesPerScene`).
  var keyframeValueCount = 0
  /// The colours of the gradient layer whose animations are being read, which animated
  /// `locations` must match one for one (`nil` elsewhere, or when it sets none).
  var gradientColorCount: Int?
  /// Likewise the static `locations` of that gradient layer, which animated `colors` must
  /// match one for one.
  var gradientLocationCount: Int?
  /// While a layer's animations are read: the values of its earlier animations that replace a
  /// `path`, `lineDashPattern`, gradient `colors`/`locations` or `filters` (by key path, with
  /// their places), which a later additive animation of that key path adds to.
  var replacingValues: [String: [(place: String, value: AnimationValue)]] = [:]
  /// Names of layers below the top level.
  private(set) var nestedNames: Set<String> = []

  /// A reader resolving image paths against `baseDirectory`, taking the images `decoded` by
  /// an earlier reading of the same document as they are (a scene's replicas share its
  /// pictures rather than holding a copy each).
  init(
    baseDirectory: String, imagePixelLimit: Int = SceneFormat.maximumImagePixels,
    decoded: [String: Result<Image, FileOrImageError>] = [:]
  ) {
    self.baseDirectory =
      baseDirectory.isEmpty || baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/"
    self.imagePixelLimit = imagePixelLimit
    self.decodedFiles = decoded
  }

  func report(_ place: String, _ message: String) {
    let place = SourcePlace.escapingHidden(place)
    problems.append(
      SceneFormat.Problem(
        place: SceneReader.shortenedPlace(place), message: SceneReader.shortenedQuotes(message))
    )
  }

  /// `text`, or its first `limit` characters and an ellipsis when it is longer.
  static func shortened(_ text: String, to limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    return String(text.prefix(limit)) + "…"
  }

  /// A JSON path cut in its middle when longer than 200 characters (`SourcePlace.shortened`).
  static func shortenedPlace(_ place: String) -> String { SourcePlace.shortened(place) }

  /// `message` with every quoted value from the file (keys, names, strings between `"`) longer
  /// than 40 characters cut to 40 and an ellipsis, so a line stays readable.
  static func shortenedQuotes(_ message: String) -> String {
    // Control characters from the file (a NUL, a newline in a key) would break the line.
    let message = SourcePlace.escapingHidden(message)
    guard message.utf8.count > 200 else { return message }
    let parts = message.split(separator: "\"", omittingEmptySubsequences: false)
    var out: [String] = []
    for (i, part) in parts.enumerated() {
      out.append(shortened(String(part), to: i % 2 == 1 ? 40 : 200))
    }
    return out.joined(separator: "\"")
  }

  /// A stroke of more dashes than `StrokeStyle.maximumDashCount` (its path's length over its
  /// dash pattern's), or that takes the scene's strokes past
  /// `StrokeStyle.maximumDashCountPerFrame`, is refused here, before anything is drawn; one that
  /// only an animation makes that long is refused by the renderer, naming the layer.
  func checkDashes(of shape: ShapeLayer, at place: String) {
    let style = shape.strokeStyle
    guard style.isDashed, let path = shape.path, (shape.strokeColor?.alpha ?? 0) > 0,
      shape.lineWidth > 0
    else { return }
    let dashes = style.dashCount(along: path.trimmed(from: shape.strokeStart, to: shape.strokeEnd))
    guard dashes <= Double(StrokeStyle.maximumDashCount) else {
      report(
        place,
        "the stroke would draw \(MessageText.estimate(dashes)) dashes (the "
          + "path's length over the pattern's), over the limit of "
          + "\(StrokeStyle.maximumDashCount)")
      return
    }
    // All the scene's strokes together, each replicator instance counted.
    let limit = Double(StrokeStyle.maximumDashCountPerFrame)
    let before = dashesDrawn
    dashesDrawn += dashes * Double(replication)
    if dashesDrawn > limit && before <= limit {
      report(
        place,
        "the scene's strokes would draw more than \(StrokeStyle.maximumDashCountPerFrame) dashes "
          + "a frame (each replicator instance counted), the limit")
    }
  }

  /// The most elements one path may have (`SceneFormat.maximumPathElements`): checked where a
  /// path is read, so drawing, lengths and dashes never meet more.
  func checkedComplexity(_ path: Path, at place: String) -> Path? {
    guard path.elements.count <= SceneFormat.maximumPathElements else {
      report(
        place,
        "a path of \(path.elements.count) elements exceeds the limit of "
          + "\(SceneFormat.maximumPathElements)")
      return nil
    }
    return path
  }

  static let sceneKeys = [
    "flipbook", "size", "scale", "duration", "fps", "background", "loop", "layers", "dynamics",
  ]

  func readScene(_ json: JSONValue) -> Scene? {
    guard let f = fields(json, at: "", allowed: SceneReader.sceneKeys, what: "a scene") else {
      return nil
    }
    if let v = f["flipbook"] {
      if let version = number(v, at: "flipbook") {
        if version != Double(SceneFormat.version) {
          report(
            "flipbook",
            "unsupported format version \(format(version)) (this Flipbook reads version \(SceneFormat.version))"
          )
        }
      }
    } else {
      report("flipbook", "missing required key (the format version, 1)")
    }
    layerCount = 0
    drawnLayerCount = 0
    var size = Size.zero
    if let v = f["size"] {
      size = self.size(v, at: "size") ?? .zero
    } else {
      report("size", "missing required key ([width, height] in points)")
    }
    let scale = f["scale"].flatMap { positive($0, at: "scale") } ?? 1
    if !Scene.scaleRange.contains(scale) {
      report(
        "scale",
        "\(format(scale)) is outside \(format(Scene.scaleRange.lowerBound))..."
          + "\(format(Scene.scaleRange.upperBound)) pixels a point")
    }
    let duration = f["duration"].flatMap { positive($0, at: "duration") } ?? 1
    var fps = f["fps"].flatMap { positive($0, at: "fps") } ?? 30
    if fps < Scene.minimumFPS {
      report(
        "fps", "\(format(fps)) is under the limit of \(format(Scene.minimumFPS)) frames per second")
      fps = 30
    }
    let background = f["background"].flatMap { color($0, at: "background") } ?? nil
    var loop = 0
    if let v = f["loop"], let n = integer(v, at: "loop") {
      if n < 0 || n > 65535 {
        report("loop", "must be a whole number from 0 to 65535, found \(n)")
      } else {
        loop = n
      }
    }
    checkLimits(size: size, scale: scale, duration: duration, fps: fps)

    let scene = Scene(
      size: size, scale: scale, duration: duration, fps: fps, backgroundColor: background,
      loopCount: loop)
    if let v = f["layers"], let list = array(v, at: "layers") {
      for (i, item) in list.enumerated() {
        if let layer = readLayer(item, at: "layers[\(i)]", topLevel: true) { scene.addLayer(layer) }
      }
    }
    if let v = f["dynamics"] { readDynamics(v, at: "dynamics", into: scene) }
    return scene
  }

  /// Reports a frame of `w` x `h` pixels (the scene's `size` at its scale) outside the canvas
  /// limits or under one pixel.
  private func checkFrameSize(w: Double, h: Double, size: Size) {
    let side = Double(Canvas.maximumSide)
    if w > side || h > side {
      report(
        "size",
        "a frame of \(format(w)) x \(format(h)) pixels (size x scale) exceeds the limit of \(Canvas.maximumSide) pixels a side"
      )
    } else if w * h > Double(Canvas.maximumPixelCount) {
      report(
        "size",
        "a frame of \(format(w)) x \(format(h)) pixels (size x scale) exceeds the limit of 64 megapixels"
      )
    } else if size.width > 0 && size.height > 0 && (w < 1 || h < 1) {
      report(
        "size",
        "a frame of \(format(w)) x \(format(h)) pixels (size x scale) is less than one pixel")
    }
  }

  private func checkLimits(size: Size, scale: Double, duration: Double, fps: Double) {
    let w = (size.width * scale).rounded(), h = (size.height * scale).rounded()
    // A scale out of its range is said on its own, not again as a frame size.
    if Scene.scaleRange.contains(scale) {
      checkFrameSize(w: w, h: h, size: size)
    }
    if duration > Scene.maximumDuration {
      report(
        "duration", "\(format(duration)) s exceeds the limit of \(format(Scene.maximumDuration)) s")
    }
    if fps > Scene.maximumFPS {
      report(
        "fps", "\(format(fps)) exceeds the limit of \(format(Scene.maximumFPS)) frames per second")
    } else if duration <= Scene.maximumDuration
      && (duration * fps).rounded(.up) > Double(Scene.maximumFrameCount)
    {
      report(
        "duration",
        "\(format(duration)) s at \(format(fps)) fps is \(format((duration * fps).rounded(.up))) frames, over the limit of \(Scene.maximumFrameCount)"
      )
    }
  }

  /// The keys of a layer object that are not properties: its type, animations and sublayers.
  static let structuralKeys = ["type", "animations", "sublayers", "mask"]

  /// The keys a layer of `type` may have: the structural ones and its properties' names.
  static func layerKeys(for type: LayerProperty.LayerType?) -> [String] {
    structuralKeys
      + LayerProperty.all.filter { type == nil || $0.layerType == .layer || $0.layerType == type }
      .map(\.name)
  }

  func readLayer(_ json: JSONValue, at place: String, topLevel: Bool) -> Layer? {
    layerCount += 1
    guard layerCount <= SceneFormat.maximumLayerCount else {
      if layerCount == SceneFormat.maximumLayerCount + 1 {
        report(place, "the scene has more than \(SceneFormat.maximumLayerCount) layers, the limit")
      }
      return nil
    }
    // Each layer is drawn once per instance of the replicators around it.
    drawnLayerCount += replication
    guard drawnLayerCount <= SceneFormat.maximumDrawnLayers else {
      if drawnLayerCount - replication <= SceneFormat.maximumDrawnLayers {
        report(
          place,
          "the scene draws more than \(SceneFormat.maximumDrawnLayers) layers a frame (each "
            + "layer once for every replicator instance that draws it), the limit")
      }
      return nil
    }
    var layerType: LayerProperty.LayerType? = .layer
    if case .object(let entries) = json, let t = entries.first(where: { $0.key == "type" })?.value {
      if let name = string(t, at: place + ".type") {
        if let known = LayerProperty.LayerType(rawValue: name) {
          layerType = known
        } else {
          layerType = nil
          let names = LayerProperty.LayerType.allCases.map { "\"\($0.rawValue)\"" }
          let expected = names.dropLast().joined(separator: ", ") + " or " + names.last!
          report(place + ".type", "unknown layer type \"\(name)\" (expected \(expected))")
        }
      } else {
        layerType = nil
      }
    }
    // A layer of unknown type is still checked for every key some layer type allows.
    // A key of another layer type is said as such (a layer that forgot its `"type"`).
    guard
      let f = fields(
        json, at: place, allowed: SceneReader.layerKeys(for: layerType), what: "a layer",
        elsewhere: { key in
          let owners = LayerProperty.LayerType.allCases.filter {
            SceneReader.layerKeys(for: $0).contains(key)
          }
          guard let first = owners.first else { return nil }
          let names = owners.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
          let this = (layerType ?? .layer).rawValue
          return "for a \"\(this)\" layer (a key of \(names) layers: set \"type\": "
            + "\"\(first.rawValue)\")"
        })
    else { return nil }
    let layer = (layerType ?? .layer).makeLayer()
    layer.sourcePlace = place

    for (key, value) in f.entries {
      guard let property = LayerProperty.named(key), property.layerType.includes(layer) else {
        continue
      }
      guard let decoded = propertyValue(value, at: f.place(key), of: property) else { continue }
      property.setValue(decoded, of: layer)
      if property.name == LayerProperty.layerName.name, let name = layer.name {
        if let first = names[name] {
          report(f.place(key), "duplicate layer name \"\(name)\" (first used at \(first))")
        } else {
          names[name] = f.place(key)
        }
        if topLevel {
          topLevelLayers[name] = topLevelLayers[name] ?? layer
        } else {
          nestedNames.insert(name)
        }
      }
    }
    if let text = layer as? TextLayer {
      checkFont(of: text, at: f["font"].map { _ in f.place("font") } ?? place)
    }
    if let shape = layer as? ShapeLayer {
      checkDashes(of: shape, at: f.place("lineDashPattern"))
    }
    if let gradient = layer as? GradientLayer, let colors = gradient.colors,
      let locations = gradient.locations, colors.count != locations.count
    {
      let message = "expected \(colors.count) locations (one per color), found \(locations.count)"
      report(f.place("locations"), message)
    }
    switch f["mask"] {
    case nil, .null?: break  // no mask
    case let v?: layer.mask = readLayer(v, at: f.place("mask"), topLevel: false)
    }
    if let v = f["animations"] { readAnimations(v, at: f.place("animations"), into: layer) }
    let outerReplication = replication
    defer { replication = outerReplication }
    // More instances than the renderer draws would be cut silently: refused, naming them.
    if layer is ReplicatorLayer, case .number(let n)? = f["instanceCount"],
      n > Double(ReplicatorLayer.maximumInstanceCount)
    {
      report(
        f.place("instanceCount"),
        "\(format(n)) instances are over the limit of \(ReplicatorLayer.maximumInstanceCount)")
      return nil
    }
    // A count of instances is whole (Core Animation's is an integer), as §1 asks of counts:
    // 0.999 drew no instance, the whole subtree gone without a word. An animation's values
    // between whole numbers round down as it runs (timing.md).
    if layer is ReplicatorLayer, case .number(let n)? = f["instanceCount"], n != n.rounded() {
      report(f.place("instanceCount"), "expected a whole number, found \(format(n))")
      return nil
    }
    if let replicator = layer as? ReplicatorLayer, replicator.instanceCount > 1 {
      let limit = ReplicatorLayer.maximumInstanceCount
      let count = Swift.min(replicator.instanceCount, limit)
      if replication > limit / count {
        report(
          place,
          "nested replicators make more than \(limit) copies of their sublayers, the limit "
            + "(the product of their instance counts)")
        return nil
      }
      replication *= count
    }
    let outerShadowNesting = shadowNesting
    defer { shadowNesting = outerShadowNesting }
    if layer.hasVisibleShadow {
      guard shadowNesting <= Self.maximumNestedShadows else {
        report(
          place,
          "a shadowed layer inside more than \(Self.maximumNestedShadows) shadowed layers, the "
            + "limit (each shadow draws its layer's subtree again)")
        return nil
      }
      shadowNesting += 1
    }
    if let v = f["sublayers"], let list = array(v, at: f.place("sublayers")) {
      for (i, item) in list.enumerated() {
        if let sublayer = readLayer(item, at: f.place("sublayers") + "[\(i)]", topLevel: false) {
          layer.addSublayer(sublayer)
        }
      }
    }
    return layer
  }

  /// A property's value in the scene file's syntax for its kind, checked against its range;
  /// `nil` when wrong (reported).
  func propertyValue(
    _ json: JSONValue, at place: String, of property: LayerProperty
  ) -> PropertyValue? {
    switch property.kind {
    case .value(.scalar):
      let x: Double?
      switch property.range {
      case .any: x = number(json, at: place)
      case .nonNegative: x = nonNegative(json, at: place)
      case .nonNegativeAtMost(let most): x = nonNegative(json, atMost: most, at: place)
      case .positive: x = positive(json, at: place)
      case .unit: x = unit(json, at: place)
      case .float: x = number(json, at: place).flatMap { float($0, at: place) }.map(Double.init)
      }
      return x.map { .value(.scalar($0)) }
    case .value(.rect):
      return rect(json, at: place).map { .value(.rect($0)) }
    case .value(.size):
      if property.range == .nonNegative { return size(json, at: place).map { .value(.size($0)) } }
      // Offsets (`shadowOffset`) may be negative.
      guard let n = numbers(json, at: place, count: 2, shape: "[width, height]") else { return nil }
      return .value(.size(Size(width: n[0], height: n[1])))
    case .value(.numbers):
      if json == .null { return .value(.numbers(nil)) }
      guard let items = array(json, at: place) else { return nil }
      if property.name == LayerProperty.lineDashPattern.name,
        items.count > StrokeStyle.maximumDashPatternCount
      {
        report(
          place,
          "a dash pattern of \(items.count) entries exceeds the limit of "
            + "\(StrokeStyle.maximumDashPatternCount)")
        return nil
      }
      var out: [Double] = []
      for (i, item) in items.enumerated() {
        let itemPlace = "\(place)[\(i)]"
        let x: Double?
        switch property.range {
        case .unit: x = unit(item, at: itemPlace)
        case .nonNegative: x = nonNegative(item, at: itemPlace)
        default: x = number(item, at: itemPlace)
        }
        guard let x else { return nil }
        out.append(x)
      }
      return .value(.numbers(out))
    case .value(let kind):
      return animationValue(json, at: place, kind: kind).map(PropertyValue.value)
    case .choice(let names):
      guard let s = string(json, at: place) else { return nil }
      guard names.contains(s) else {
        report(
          place,
          "unknown value \"\(s)\" (expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")))"
        )
        return nil
      }
      return .choice(s)
    case .text:
      if json == .null { return .text(nil) }
      return textString(json, at: place).map(PropertyValue.text)
    }
  }

  // MARK: Images

  /// The image files the document named, resolved against `baseDirectory`, sorted.
  var imageFiles: [String] { images.keys.sorted() }

  enum FileOrImageError: Error, Sendable {
    case file(String)
    case image(String)
    /// Not read, past the decoded-pixel budget another image was refused for (said once).
    case pastBudget
  }

  func image(_ json: JSONValue, at place: String) -> Image?? {
    if json == .null { return .some(nil) }
    guard let name = string(json, at: place) else { return nil }
    guard !name.isEmpty else {
      report(place, "an empty path names no image (null means no contents)")
      return nil
    }
    guard !name.utf8.contains(0) else {
      report(place, "an image path must not contain a NUL character (\\u0000)")
      return nil
    }
    let resolved = name.hasPrefix("/") ? name : baseDirectory + name
    let result: Result<Image, FileOrImageError>
    if let cached = images[resolved] {
      result = cached
    } else if let cached = decodedFiles[SceneReader.canonicalPath(resolved)] {
      result = cached
      images[resolved] = result
    } else {
      do {
        let bytes = try AtomicFile.read(resolved)
        // Counted from the header before anything is decoded: 40 distinct 64-megapixel
        // pictures held 7.8 GB and aborted.
        let size = PNG.statedSize(of: bytes)
        let pixels = size.map { $0.width * $0.height } ?? 0
        if imagePixels > imagePixelLimit {
          result = .failure(.pastBudget)
        } else if imagePixels + pixels > imagePixelLimit {
          // Said here, once: this image and every one after it are then not read.
          imagePixels = imagePixelLimit + 1
          report(
            place,
            "cannot read image \"\(name)\": the scene's images would decode to more than "
              + "\(imagePixelLimit) pixels in all, the limit (each image file counted once, "
              + "however many layers show it)")
          result = .failure(.pastBudget)
        } else {
          do {
            // An APNG shows its first frame, as in a browser and in a Lottie image asset.
            let bitmap = try Bitmap(stillOfPNGData: bytes)
            imagePixels += bitmap.width * bitmap.height
            result = .success(Image(bitmap, name: name))
          } catch {
            // A picture of another kind is said to be what it is (a JPEG was "not a readable
            // PNG image: not a PNG file").
            if let kind = SceneFormat.imageKind(bytes), kind != "PNG", kind != "APNG",
              let described = SceneFormat.describedImage(bytes)
            {
              result = .failure(.image("it is \(described); contents takes PNG files"))
            } else {
              result = .failure(.image("\(error)"))
            }
          }
        }
      } catch {
        result = .failure(.file(error.reason))
      }
      images[resolved] = result
      decodedFiles[SceneReader.canonicalPath(resolved)] = result
    }
    switch result {
    case .success(let image): return .some(image)
    case .failure(.file(let reason)), .failure(.image(let reason)):
      reportUnreadable(resolved, at: place, "cannot read image \"\(name)\": \(reason)")
    case .failure(.pastBudget): break
    }
    return nil
  }

  /// Says once that the image file at `path` cannot be read, at the first place that names it;
  /// the places after it are counted in that message (300 layers showing one missing picture
  /// said so 300 times).
  private func reportUnreadable(_ path: String, at place: String, _ message: String) {
    guard let first = unreadableImages[path] else {
      report(place, message)
      unreadableImages[path] = (problems.count - 1, message, 0)
      return
    }
    let more = first.more + 1
    unreadableImages[path] = (first.problem, first.message, more)
    problems[first.problem].message = SceneReader.shortenedQuotes(
      first.message + " (and \(more) more place\(more == 1 ? "" : "s") naming it)")
  }

  /// `path` with symbolic links, `.` and `..` resolved (`realpath`), or as it is when that
  /// fails (a missing file, said when it is read): the key one image file is decoded once by,
  /// however it is spelled (the Lottie reader shares image assets' files by it too).
  package static func canonicalPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
