import Animations
import CairoCanvas
import FileIO
import Geometry
import ImageEncoding
import LayerTree
import Scenes

/// Turns a parsed scene document into a `Scene`, collecting every problem instead of stopping
/// at the first.
final class SceneReader {
  private(set) var problems: [SceneFormat.Problem] = []
  let baseDirectory: String
  private var images: [String: Result<Image, FileOrImageError>] = [:]
  /// Layer names already used, with where.
  private var names: [String: String] = [:]
  /// Top-level layers by name (the only valid dynamics items).
  private(set) var topLevelLayers: [String: Layer] = [:]
  /// Names of layers below the top level.
  private(set) var nestedNames: Set<String> = []

  init(baseDirectory: String) {
    self.baseDirectory = baseDirectory.isEmpty || baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/"
  }

  func report(_ place: String, _ message: String) {
    problems.append(SceneFormat.Problem(place: place, message: message))
  }

  static let sceneKeys = ["flipbook", "size", "scale", "duration", "fps", "background", "loop", "layers", "dynamics"]

  func readScene(_ json: JSONValue) -> Scene? {
    guard let f = fields(json, at: "", allowed: SceneReader.sceneKeys, what: "a scene") else { return nil }
    if let v = f["flipbook"] {
      if let version = number(v, at: "flipbook") {
        if version != Double(SceneFormat.version) {
          report("flipbook", "unsupported format version \(format(version)) (this Flipbook reads version \(SceneFormat.version))")
        }
      }
    } else {
      report("flipbook", "missing required key (the format version, 1)")
    }
    var size = Size.zero
    if let v = f["size"] {
      size = self.size(v, at: "size") ?? .zero
    } else {
      report("size", "missing required key ([width, height] in points)")
    }
    let scale = f["scale"].flatMap { positive($0, at: "scale") } ?? 1
    let duration = f["duration"].flatMap { positive($0, at: "duration") } ?? 1
    let fps = f["fps"].flatMap { positive($0, at: "fps") } ?? 30
    let background = f["background"].flatMap { color($0, at: "background") } ?? nil
    var loop = 0
    if let v = f["loop"], let n = integer(v, at: "loop") {
      if n < 0 || n > 65535 { report("loop", "must be a whole number from 0 to 65535, found \(n)") } else { loop = n }
    }
    checkLimits(size: size, scale: scale, duration: duration, fps: fps)

    let scene = Scene(size: size, scale: scale, duration: duration, fps: fps, backgroundColor: background, loopCount: loop)
    if let v = f["layers"], let list = array(v, at: "layers") {
      for (i, item) in list.enumerated() {
        if let layer = readLayer(item, at: "layers[\(i)]", topLevel: true) { scene.addLayer(layer) }
      }
    }
    if let v = f["dynamics"] { readDynamics(v, at: "dynamics", into: scene) }
    return scene
  }

  private func checkLimits(size: Size, scale: Double, duration: Double, fps: Double) {
    let w = (size.width * scale).rounded(), h = (size.height * scale).rounded()
    let side = Double(Canvas.maximumSide)
    if w > side || h > side {
      report("size", "a frame of \(format(w)) x \(format(h)) pixels (size x scale) exceeds the limit of \(Canvas.maximumSide) pixels a side")
    } else if w * h > Double(Canvas.maximumPixelCount) {
      report("size", "a frame of \(format(w)) x \(format(h)) pixels (size x scale) exceeds the limit of 64 megapixels")
    } else if size.width > 0 && size.height > 0 && (w < 1 || h < 1) {
      report("size", "a frame of \(format(w)) x \(format(h)) pixels (size x scale) is less than one pixel")
    }
    if duration > Scene.maximumDuration {
      report("duration", "\(format(duration)) s exceeds the limit of \(format(Scene.maximumDuration)) s")
    }
    if fps > Scene.maximumFPS {
      report("fps", "\(format(fps)) exceeds the limit of \(format(Scene.maximumFPS)) frames per second")
    } else if duration <= Scene.maximumDuration && (duration * fps).rounded(.up) > Double(Scene.maximumFrameCount) {
      report("duration", "\(format(duration)) s at \(format(fps)) fps is \(format((duration * fps).rounded(.up))) frames, over the limit of \(Scene.maximumFrameCount)")
    }
  }

  static let layerKeys = [
    "type", "name", "bounds", "position", "anchorPoint", "transform", "sublayerTransform", "opacity", "hidden",
    "zPosition", "backgroundColor", "borderColor", "borderWidth", "cornerRadius", "masksToBounds", "contents",
    "contentsGravity", "contentsScale", "beginTime", "speed", "timeOffset", "animations", "sublayers",
    "collisionBoundsType",
  ]
  static let shapeKeys = [
    "path", "fillColor", "strokeColor", "lineWidth", "lineCap", "lineJoin", "miterLimit", "lineDashPattern",
    "lineDashPhase", "strokeStart", "strokeEnd", "fillRule",
  ]

  func readLayer(_ json: JSONValue, at place: String, topLevel: Bool) -> Layer? {
    var isShape = false
    var typeKnown = true
    if case .object(let entries) = json, let t = entries.first(where: { $0.key == "type" })?.value {
      if let name = string(t, at: place + ".type") {
        switch name {
        case "layer": break
        case "shape": isShape = true
        default:
          typeKnown = false
          report(place + ".type", "unknown layer type \"\(name)\" (expected \"layer\" or \"shape\")")
        }
      } else {
        typeKnown = false
      }
    }
    let allowed = isShape || !typeKnown ? SceneReader.layerKeys + SceneReader.shapeKeys : SceneReader.layerKeys
    guard let f = fields(json, at: place, allowed: allowed, what: "a layer") else { return nil }
    let shape = isShape ? ShapeLayer() : nil
    let layer: Layer = shape ?? Layer()

    if let v = f["name"], let name = string(v, at: f.place("name")) {
      if let first = names[name] {
        report(f.place("name"), "duplicate layer name \"\(name)\" (first used at \(first))")
      } else {
        names[name] = f.place("name")
      }
      if topLevel { topLevelLayers[name] = topLevelLayers[name] ?? layer } else { nestedNames.insert(name) }
      layer.name = name
    }
    if let v = f["bounds"], let r = rect(v, at: f.place("bounds")) { layer.bounds = r }
    if let v = f["position"], let p = point(v, at: f.place("position")) { layer.position = p }
    if let v = f["anchorPoint"], let p = point(v, at: f.place("anchorPoint")) { layer.anchorPoint = p }
    if let v = f["transform"], let t = transform(v, at: f.place("transform")) { layer.transform = t }
    if let v = f["sublayerTransform"], let t = transform(v, at: f.place("sublayerTransform")) { layer.sublayerTransform = t }
    if let v = f["opacity"], let x = number(v, at: f.place("opacity")) { layer.opacity = x }
    if let v = f["hidden"], let b = bool(v, at: f.place("hidden")) { layer.isHidden = b }
    if let v = f["zPosition"], let x = number(v, at: f.place("zPosition")) { layer.zPosition = x }
    if let v = f["backgroundColor"], let c = color(v, at: f.place("backgroundColor")) { layer.backgroundColor = c }
    if let v = f["borderColor"], let c = color(v, at: f.place("borderColor")) { layer.borderColor = c }
    if let v = f["borderWidth"], let x = nonNegative(v, at: f.place("borderWidth")) { layer.borderWidth = x }
    if let v = f["cornerRadius"], let x = nonNegative(v, at: f.place("cornerRadius")) { layer.cornerRadius = x }
    if let v = f["masksToBounds"], let b = bool(v, at: f.place("masksToBounds")) { layer.masksToBounds = b }
    if let v = f["contents"], let image = image(v, at: f.place("contents")) { layer.contents = image }
    if let v = f["contentsGravity"], let g = choice(v, at: f.place("contentsGravity"), ContentsGravity.self) { layer.contentsGravity = g }
    if let v = f["contentsScale"], let x = positive(v, at: f.place("contentsScale")) { layer.contentsScale = x }
    if let v = f["beginTime"], let x = number(v, at: f.place("beginTime")) { layer.timing.beginTime = x }
    if let v = f["speed"], let x = number(v, at: f.place("speed")) { layer.timing.speed = Float(x) }
    if let v = f["timeOffset"], let x = number(v, at: f.place("timeOffset")) { layer.timing.timeOffset = x }
    if let v = f["collisionBoundsType"], let kind = choice(v, at: f.place("collisionBoundsType"), CollisionBoundsType.self) {
      layer.collisionBoundsType = kind
    }
    if let shape {
      if let v = f["path"] { shape.path = path(v, at: f.place("path")) }
      if let v = f["fillColor"], let c = color(v, at: f.place("fillColor")) { shape.fillColor = c }
      if let v = f["strokeColor"], let c = color(v, at: f.place("strokeColor")) { shape.strokeColor = c }
      if let v = f["lineWidth"], let x = nonNegative(v, at: f.place("lineWidth")) { shape.lineWidth = x }
      if let v = f["lineCap"], let x = choice(v, at: f.place("lineCap"), LineCap.self) { shape.lineCap = x }
      if let v = f["lineJoin"], let x = choice(v, at: f.place("lineJoin"), LineJoin.self) { shape.lineJoin = x }
      if let v = f["miterLimit"], let x = nonNegative(v, at: f.place("miterLimit")) { shape.miterLimit = x }
      if let v = f["lineDashPattern"], let d = dashPattern(v, at: f.place("lineDashPattern")) { shape.lineDashPattern = d }
      if let v = f["lineDashPhase"], let x = number(v, at: f.place("lineDashPhase")) { shape.lineDashPhase = x }
      if let v = f["strokeStart"], let x = number(v, at: f.place("strokeStart")) { shape.strokeStart = x }
      if let v = f["strokeEnd"], let x = number(v, at: f.place("strokeEnd")) { shape.strokeEnd = x }
      if let v = f["fillRule"], let x = choice(v, at: f.place("fillRule"), FillRule.self) { shape.fillRule = x }
    }
    if let v = f["animations"] { readAnimations(v, at: f.place("animations"), into: layer) }
    if let v = f["sublayers"], let list = array(v, at: f.place("sublayers")) {
      for (i, item) in list.enumerated() {
        if let sublayer = readLayer(item, at: f.place("sublayers") + "[\(i)]", topLevel: false) {
          layer.addSublayer(sublayer)
        }
      }
    }
    return layer
  }

  // MARK: Images

  enum FileOrImageError: Error {
    case file(String)
    case image(String)
  }

  func image(_ json: JSONValue, at place: String) -> Image?? {
    if json == .null { return .some(nil) }
    guard let name = string(json, at: place) else { return nil }
    let resolved = name.hasPrefix("/") ? name : baseDirectory + name
    let result: Result<Image, FileOrImageError>
    if let cached = images[resolved] {
      result = cached
    } else {
      do {
        let bytes = try AtomicFile.read(resolved)
        do {
          result = .success(Image(try Bitmap(pngData: bytes), name: name))
        } catch {
          result = .failure(.image(error.description))
        }
      } catch {
        result = .failure(.file(error.reason))
      }
      images[resolved] = result
    }
    switch result {
    case .success(let image): return .some(image)
    case .failure(.file(let reason)): report(place, "cannot read image \"\(name)\": \(reason)")
    case .failure(.image(let reason)): report(place, "cannot read image \"\(name)\": \(reason)")
    }
    return nil
  }
}
