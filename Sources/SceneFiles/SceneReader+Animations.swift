import Animations
import Geometry
import LayerTree

// The `animations` of a layer: Core Animation's four kinds with their timing keys, values typed
// by the key path they animate.
extension SceneReader {
  static let timingKeys = [
    "type", "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
    "autoreverses",
    "fillMode", "removedOnCompletion", "timingFunction",
  ]
  static let propertyKeys = ["keyPath", "additive", "cumulative"]
  static let basicKeys = ["fromValue", "toValue", "byValue"]
  static let keyframeKeys = [
    "values", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues",
    "biasValues",
    "path", "rotationMode",
  ]
  static let springKeys = ["mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping"]

  /// Reads a layer's `animations` list and attaches each to `layer`, in order.
  func readAnimations(_ json: JSONValue, at place: String, into layer: Layer) {
    guard let list = array(json, at: place) else { return }
    gradientColorCount = (layer as? GradientLayer)?.colors?.count
    gradientLocationCount = (layer as? GradientLayer)?.locations?.count
    defer { (gradientColorCount, gradientLocationCount, replacingValues) = (nil, nil, [:]) }
    for (i, item) in list.enumerated() {
      if let animation = readAnimation(item, at: "\(place)[\(i)]", layer: layer) {
        layer.add(animation, forKey: nil)
      }
    }
  }

  func readAnimation(_ json: JSONValue, at place: String, layer: Layer) -> (any Animation)? {
    guard case .object(let entries) = json else {
      report(place, "expected an animation (an object), found \(json.kindDescription)")
      return nil
    }
    guard let typeValue = entries.first(where: { $0.key == "type" })?.value else {
      report(
        place + ".type", "missing required key (\"basic\", \"keyframe\", \"group\" or \"spring\")")
      return nil
    }
    guard let type = string(typeValue, at: place + ".type") else { return nil }
    let allowed: [String]
    switch type {
    case "basic":
      allowed = SceneReader.timingKeys + SceneReader.propertyKeys + SceneReader.basicKeys
    case "keyframe":
      allowed = SceneReader.timingKeys + SceneReader.propertyKeys + SceneReader.keyframeKeys
    case "group": allowed = SceneReader.timingKeys + ["animations"]
    case "spring":
      allowed =
        SceneReader.timingKeys + SceneReader.propertyKeys + SceneReader.basicKeys
        + SceneReader.springKeys
    default:
      report(
        place + ".type",
        "unknown animation type \"\(type)\" (expected \"basic\", \"keyframe\", \"group\" or \"spring\")"
      )
      return nil
    }
    // A key of another animation type is said as such (`keyPath` on a group, `values` on a
    // basic animation).
    let kinds: [(String, [String])] = [
      ("basic", SceneReader.propertyKeys + SceneReader.basicKeys),
      ("keyframe", SceneReader.propertyKeys + SceneReader.keyframeKeys),
      ("spring", SceneReader.propertyKeys + SceneReader.basicKeys + SceneReader.springKeys),
      ("group", ["animations"]),
    ]
    guard
      let f = fields(
        json, at: place, allowed: allowed, what: "an animation",
        elsewhere: { key in
          let owners = kinds.filter { $0.1.contains(key) }.map { "\"\($0.0)\"" }
          guard let last = owners.last else { return nil }
          let list =
            owners.count == 1 ? last : owners.dropLast().joined(separator: ", ") + " and " + last
          return "for a \"\(type)\" animation (a key of \(list) animations)"
        })
    else {
      return nil
    }
    let timing = readTiming(f)
    let timingFunction = f["timingFunction"].flatMap {
      self.timingFunction($0, at: f.place("timingFunction"))
    }

    if type == "group" {
      var group = AnimationGroup()
      group.timing = timing
      group.timingFunction = timingFunction
      if let v = f["animations"], let list = array(v, at: f.place("animations")) {
        for (i, item) in list.enumerated() {
          if let child = readAnimation(item, at: "\(f.place("animations"))[\(i)]", layer: layer) {
            group.animations.append(child)
          }
        }
      }
      return group
    }

    guard let keyPathValue = f["keyPath"] else {
      report(f.place("keyPath"), "missing required key")
      return nil
    }
    guard let keyPathName = string(keyPathValue, at: f.place("keyPath")) else { return nil }
    guard let keyPath = LayerKeyPath(keyPathName) else {
      report(
        f.place("keyPath"),
        "unknown key path \"\(keyPathName)\""
          + suggestion(for: keyPathName, among: LayerKeyPath.allNames))
      return nil
    }
    if !keyPath.property.layerType.includes(layer) {
      report(
        f.place("keyPath"),
        "key path \"\(keyPathName)\" applies to \(keyPath.property.layerType.rawValue) layers only")
      return nil
    }
    let additive = f["additive"].flatMap { bool($0, at: f.place("additive")) } ?? false
    let cumulative = f["cumulative"].flatMap { bool($0, at: f.place("cumulative")) } ?? false
    let kind = keyPath.valueKind

    switch type {
    case "keyframe":
      var a = KeyframeAnimation(keyPath: keyPathName)
      (a.timing, a.timingFunction, a.isAdditive, a.isCumulative) = (
        timing, timingFunction, additive, cumulative
      )
      readKeyframes(f, into: &a, keyPath: keyPath, additive: additive)
      checkAddsToModel(
        a.values.enumerated().map { ($1, "\(f.place("values"))[\($0)]") }, additive: additive,
        keyPath: keyPath, layer: layer)
      return a
    case "spring":
      if kind.isDiscrete || kind == .path {
        report(
          f.place("keyPath"),
          "a spring needs a numeric key path; \"\(keyPathName)\" takes \(kindName(kind))")
        return nil
      }
      var a = SpringAnimation(keyPath: keyPathName)
      (a.timing, a.isAdditive, a.isCumulative) = (timing, additive, cumulative)
      if timingFunction != nil {
        report(f.place("timingFunction"), "a spring paces itself and takes no timing function")
      }
      (a.fromValue, a.toValue, a.byValue) = readEndpoints(f, keyPath: keyPath, additive: additive)
      if let v = f["mass"], let x = positive(v, at: f.place("mass")) { a.mass = x }
      if let v = f["stiffness"], let x = positive(v, at: f.place("stiffness")) { a.stiffness = x }
      if let v = f["damping"], let x = nonNegative(v, at: f.place("damping")) { a.damping = x }
      if let v = f["initialVelocity"], let x = number(v, at: f.place("initialVelocity")) {
        a.initialVelocity = x
      }
      if let v = f["allowsOverdamping"], let b = bool(v, at: f.place("allowsOverdamping")) {
        a.allowsOverdamping = b
      }
      let spring = Spring(
        mass: a.mass, stiffness: a.stiffness, damping: a.damping,
        initialVelocity: a.initialVelocity, allowsOverdamping: a.allowsOverdamping)
      if let problem = spring.motionProblem {
        let parameters =
          "mass \(MessageText.number(a.mass)), stiffness \(MessageText.number(a.stiffness)), "
          + "damping \(MessageText.number(a.damping)) and initial velocity "
          + "\(MessageText.number(a.initialVelocity))"
        report(
          f.place,
          problem == .overshoots
            ? "\(parameters) make a motion that overflows (it must stay within 10^12 times its "
              + "distance)"
            : "\(parameters) are too extreme to compute in doubles (damping ratio "
              + "\(MessageText.number(spring.effectiveDampingRatio)), natural frequency "
              + "\(MessageText.number(spring.naturalFrequency)) rad/s)")
        return nil
      }
      return a
    default:
      var a = BasicAnimation(keyPath: keyPathName)
      (a.timing, a.timingFunction, a.isAdditive, a.isCumulative) = (
        timing, timingFunction, additive, cumulative
      )
      (a.fromValue, a.toValue, a.byValue) = readEndpoints(f, keyPath: keyPath, additive: additive)
      checkAddsToModel(
        [(a.fromValue, f.place("fromValue")), (a.toValue, f.place("toValue"))].compactMap {
          value, place in value.map { ($0, place) }
        }, additive: additive, keyPath: keyPath, layer: layer)
      return a
    }
  }

  /// Reports each value of an additive animation that cannot be added, component by component,
  /// to what it adds to: the layer's model value, or the value of an earlier animation of the
  /// layer that replaces it (a path of other commands, a list of another length, filters of
  /// other kinds: scene-format.md §7.3 asks one structure; Core Animation has no sum for them,
  /// and the offset was drawn as the value). The values of an animation that replaces are kept
  /// for the additive ones after it. Values of fixed shape (numbers, points, colours,
  /// transforms) always add.
  private func checkAddsToModel(
    _ values: [(AnimationValue, String)], additive: Bool, keyPath: LayerKeyPath, layer: Layer
  ) {
    let kind = keyPath.valueKind
    guard [.path, .numbers, .colors, .filters].contains(kind),
      let model = layer.value(forKeyPath: keyPath.name)
    else { return }
    guard additive else {
      replacingValues[keyPath.name, default: []] += values.map { (place: $0.1, value: $0.0) }
      return
    }
    let under = [(place: "", value: model)] + (replacingValues[keyPath.name] ?? [])
    for (value, place) in values {
      guard let (at, base) = under.first(where: { !value.isInterpolable(with: $0.value) })
      else { continue }
      guard at.isEmpty else {
        let other: String
        switch base {
        case .path(nil), .numbers(nil), .colors(nil): other = "no value"
        case .path: other = "a path of other commands (they must match one for one)"
        case .filters: other = "filters of other kinds or order"
        default: other = "a list of another length"
        }
        report(
          place, "an additive animation adds to what earlier animations show: \(at) is \(other)")
        continue
      }
      let what: String
      switch base {
      case .path(nil), .numbers(nil), .colors(nil):
        what = "the layer has no \(keyPath.name) to add to"
      case .path: what = "its commands must match the layer's \(keyPath.name) one for one"
      case .filters: what = "its filters must be the layer's, in the same order"
      default: what = "it must have as many entries as the layer's \(keyPath.name)"
      }
      report(place, "an additive animation adds to the model value: \(what)")
    }
  }

  private func readTiming(_ f: Fields) -> MediaTiming {
    var t = MediaTiming()
    if let v = f["beginTime"], let x = number(v, at: f.place("beginTime")) { t.beginTime = x }
    if let v = f["duration"], let x = nonNegative(v, at: f.place("duration")) { t.duration = x }
    if let v = f["speed"], let x = number(v, at: f.place("speed")) {
      if let s = float(x, at: f.place("speed")) { t.speed = s }
    }
    if let v = f["timeOffset"], let x = number(v, at: f.place("timeOffset")) { t.timeOffset = x }
    if let v = f["repeatCount"] {
      if v == .string("infinity") {
        t.repeatCount = .infinity
      } else if case .string(let s) = v {
        report(f.place("repeatCount"), "expected a number or \"infinity\", found \"\(s)\"")
      } else if let x = nonNegative(v, at: f.place("repeatCount")),
        let r = float(x, at: f.place("repeatCount"))
      {
        t.repeatCount = r
      }
    }
    if let v = f["repeatDuration"], let x = nonNegative(v, at: f.place("repeatDuration")) {
      t.repeatDuration = x
    }
    if let v = f["autoreverses"], let b = bool(v, at: f.place("autoreverses")) {
      t.autoreverses = b
    }
    if let v = f["fillMode"], let m = choice(v, at: f.place("fillMode"), FillMode.self) {
      t.fillMode = m
    }
    if let v = f["removedOnCompletion"], let b = bool(v, at: f.place("removedOnCompletion")) {
      t.isRemovedOnCompletion = b
    }
    return t
  }

  func timingFunction(_ json: JSONValue, at place: String) -> TimingFunction? {
    switch json {
    case .string(let name):
      switch name {
      case "linear": return .linear
      case "easeIn": return .easeIn
      case "easeOut": return .easeOut
      case "easeInEaseOut": return .easeInEaseOut
      case "default": return .default
      default:
        report(
          place,
          "unknown timing function \"\(name)\" (expected \"linear\", \"easeIn\", \"easeOut\", \"easeInEaseOut\", \"default\" or [c1x, c1y, c2x, c2y])"
        )
        return nil
      }
    default:
      guard
        let n = numbers(
          json, at: place, count: 4, shape: "a timing function name or [c1x, c1y, c2x, c2y]")
      else { return nil }
      if let bad = [n[0], n[2]].first(where: { !(0...1).contains($0) }) {
        report(
          place,
          "control point x = \(format(bad)) is outside 0...1 (the curve would not be a function of time)"
        )
        return nil
      }
      var points: [Float] = []
      for (i, x) in n.enumerated() {
        guard let f = float(x, at: "\(place)[\(i)]") else { return nil }
        points.append(f)
      }
      do {
        return try TimingFunction(controlPoints: points[0], points[1], points[2], points[3])
      } catch {
        report(place, error.description)
        return nil
      }
    }
  }

  private func readEndpoints(
    _ f: Fields, keyPath: LayerKeyPath, additive: Bool
  ) -> (AnimationValue?, AnimationValue?, AnimationValue?) {
    let kind = keyPath.valueKind
    let from = f["fromValue"].flatMap {
      animationValue($0, at: f.place("fromValue"), keyPath: keyPath, additive: additive)
    }.flatMap { withinMagnitude($0, at: f.place("fromValue")) }
    let to = f["toValue"].flatMap {
      animationValue($0, at: f.place("toValue"), keyPath: keyPath, additive: additive)
    }.flatMap { withinMagnitude($0, at: f.place("toValue")) }
    // A step from the model value, which may go down.
    let by = f["byValue"].flatMap { json in
      locationsMatchColors(json, at: f.place("byValue"), keyPath: keyPath)
        ? animationValue(json, at: f.place("byValue"), kind: kind, offsets: true) : nil
    }.flatMap { withinMagnitude($0, at: f.place("byValue")) }
    if f["fromValue"] != nil && f["toValue"] != nil && f["byValue"] != nil {
      report(f.place("byValue"), "set at most two of fromValue, toValue and byValue")
    }
    if by != nil, kind.isDiscrete || kind == .path {
      report(f.place("byValue"), "byValue needs a numeric key path")
    }
    if let from, let to, from.kind == .path, !from.isInterpolable(with: to) {
      report(f.place("toValue"), Self.pathMismatch(to, from, "fromValue"))
    }
    return (from, to, by)
  }

  /// Why `value` cannot be interpolated with `other` (named `name`): paths of different
  /// structures, or no path (`null`) against a path, which only a discrete animation switches.
  static func pathMismatch(
    _ value: AnimationValue, _ other: AnimationValue, _ name: String
  )
    -> String
  {
    if case .path(let a) = value, case .path(let b) = other, (a == nil) != (b == nil) {
      return (a == nil ? "null (no path)" : "a path") + " cannot be interpolated with "
        + (b == nil ? "null (no path)" : "a path") + " in \(name): use a keyframe animation with "
        + "\"calculationMode\": \"discrete\" to switch between them"
    }
    return "path has a different structure from \(name) (its commands must match one for one)"
  }

  private func readKeyframes(
    _ f: Fields, into a: inout KeyframeAnimation, keyPath: LayerKeyPath, additive: Bool
  ) {
    if let v = f["calculationMode"],
      let m = choice(v, at: f.place("calculationMode"), KeyframeAnimation.CalculationMode.self)
    {
      a.calculationMode = m
    }
    // The keyframes the file gives, whether or not each reads (a refused value says its own
    // problem, not a count's).
    var givenCount: Int? = nil
    if let v = f["values"], let list = array(v, at: f.place("values")) {
      givenCount = list.count
      keyframeValueCount += list.count
      guard list.count <= SceneFormat.maximumKeyframeValues else {
        report(
          f.place("values"),
          "\(list.count) values exceed the limit of \(SceneFormat.maximumKeyframeValues) a keyframe animation"
        )
        return
      }
      guard keyframeValueCount <= SceneFormat.maximumKeyframeValuesPerScene else {
        // Said once, where the count passes the limit (the file is refused either way).
        guard keyframeValueCount - list.count <= SceneFormat.maximumKeyframeValuesPerScene
        else { return }
        report(
          f.place("values"),
          "the scene's keyframe animations have \(keyframeValueCount) values up to here, over the "
            + "limit of \(SceneFormat.maximumKeyframeValuesPerScene) in all")
        return
      }
      var values: [AnimationValue] = []
      for (i, item) in list.enumerated() {
        let place = "\(f.place("values"))[\(i)]"
        if let value = animationValue(item, at: place, keyPath: keyPath, additive: additive)
          .flatMap({ withinMagnitude($0, at: place) })
        {
          values.append(value)
        }
      }
      if values.count == list.count {
        for i in values.indices.dropFirst()
        where values[i].kind == .path && !values[i].isInterpolable(with: values[0])
          && a.calculationMode != .discrete
        {
          report("\(f.place("values"))[\(i)]", Self.pathMismatch(values[i], values[0], "values[0]"))
        }
      }
      if list.isEmpty { report(f.place("values"), "a keyframe animation needs at least one value") }
      a.values = values
    }
    if let v = f["path"] {
      if keyPath != LayerKeyPath(.position) {
        report(f.place("path"), "a keyframe path animates \"\(LayerProperty.position.name)\" only")
      } else {
        a.path = path(v, at: f.place("path")).flatMap { path in
          withinMagnitude(.path(path), at: f.place("path")).map { _ in path }
        }
        // Each point that is not a move is a keyframe (timing.md §6.5): none, no animation.
        if let path = a.path, path.measuredSegments().isEmpty {
          report(
            f.place("path"),
            "a keyframe path needs a point that is not a move (a line, curve or close): it has "
              + "no keyframes")
        }
        if f["values"] != nil { report(f.place("values"), "give either values or path, not both") }
      }
    }
    if let v = f["rotationMode"], v != .null,
      let m = choice(v, at: f.place("rotationMode"), KeyframeAnimation.RotationMode.self)
    {
      a.rotationMode = m
      if f["path"] == nil { report(f.place("rotationMode"), "rotationMode needs a path") }
    }
    if f["values"] == nil && f["path"] == nil {
      report(f.place("values"), "missing required key (or a path, for position)")
    }
    let count = a.path.map { $0.measuredSegments().count + 1 } ?? givenCount ?? a.values.count
    if let v = f["keyTimes"], let list = array(v, at: f.place("keyTimes")) {
      var times: [Double] = []
      for (i, item) in list.enumerated() {
        guard let x = number(item, at: "\(f.place("keyTimes"))[\(i)]") else { return }
        times.append(x)
      }
      let place = f.place("keyTimes")
      let paced = a.calculationMode == .paced || a.calculationMode == .cubicPaced
      let discrete = a.calculationMode == .discrete
      if paced {
        // Ignored by the paced modes, as Core Animation ignores them.
      } else if discrete && times.count != count + 1 && times.count != count {
        report(
          place,
          "discrete keyframes need \(count + 1) key times (one more than values), found \(times.count)"
        )
      } else if !discrete && times.count != count {
        report(
          place,
          "\(a.calculationMode.rawValue) keyframes need \(count) key times (one per value), found \(times.count)"
        )
      } else if let bad = times.firstIndex(where: { !(0...1).contains($0) }) {
        report("\(place)[\(bad)]", "key times must lie in 0...1, found \(format(times[bad]))")
      } else if let bad = times.indices.dropFirst().first(where: { times[$0] < times[$0 - 1] }) {
        report(
          "\(place)[\(bad)]",
          "key times must not decrease, found \(format(times[bad])) after \(format(times[bad - 1]))"
        )
      } else if times.first != 0 || times.last != 1 {
        report(place, "key times must start at 0 and end at 1")
      }
      a.keyTimes = times
    }
    if let v = f["timingFunctions"], let list = array(v, at: f.place("timingFunctions")) {
      var functions: [TimingFunction] = []
      for (i, item) in list.enumerated() {
        if let t = timingFunction(item, at: "\(f.place("timingFunctions"))[\(i)]") {
          functions.append(t)
        }
      }
      if list.count != Swift.max(0, count - 1) {
        report(
          f.place("timingFunctions"),
          "need \(Swift.max(0, count - 1)) timing functions (one per segment), found \(list.count)")
      }
      a.timingFunctions = functions
    }
    for key in ["tensionValues", "continuityValues", "biasValues"] {
      guard let v = f[key], let list = array(v, at: f.place(key)) else { continue }
      var numbers: [Double] = []
      for (i, item) in list.enumerated() {
        guard let x = number(item, at: "\(f.place(key))[\(i)]") else { continue }
        if !(-1...1).contains(x) {
          report("\(f.place(key))[\(i)]", "must lie in -1...1, found \(format(x))")
        }
        numbers.append(x)
      }
      if !list.isEmpty && list.count != count {
        report(f.place(key), "need \(count) values (one per keyframe), found \(list.count)")
      }
      switch key {
      case "tensionValues": a.tensionValues = numbers
      case "continuityValues": a.continuityValues = numbers
      default: a.biasValues = numbers
      }
    }
  }

  /// An animation's value for `keyPath` (a `fromValue`, `toValue` or keyframe), checked as the
  /// property's own value is (its sign, a dash pattern's length: a `lineWidth` of -20 is
  /// refused in an animation as on the layer), unless `additive`, where it is an offset added
  /// to the model value and may go below it. A fraction's 0...1 (`locations`, `strokeEnd`,
  /// `shadowOpacity`) is not kept: animations pass it on purpose (a shimmer slides its
  /// locations from -1 to 2) and drawing clamps it. `bounds.size` and its width and height keep
  /// the bounds' range; other parts of a value (a transform's scale, an origin) take any number.
  /// Whether `json`, a value animating `keyPath`, has one location per colour of the gradient
  /// whose animations are read when it animates `locations` (reported when not: they were
  /// ignored without a word), and as many colours as its locations when it animates `colors`.
  func locationsMatchColors(_ json: JSONValue, at place: String, keyPath: LayerKeyPath) -> Bool {
    guard case .array(let items) = json else { return true }
    if keyPath == LayerKeyPath(.locations), let count = gradientColorCount, items.count != count {
      report(place, "expected \(count) locations (one per color), found \(items.count)")
      return false
    }
    if keyPath == LayerKeyPath(.colors), let count = gradientLocationCount, items.count != count {
      report(place, "expected \(count) colors (one per location), found \(items.count)")
      return false
    }
    return true
  }

  func animationValue(
    _ json: JSONValue, at place: String, keyPath: LayerKeyPath, additive: Bool
  ) -> AnimationValue? {
    guard locationsMatchColors(json, at: place, keyPath: keyPath) else { return nil }
    guard !additive, keyPath.property.range != .unit else {
      return animationValue(json, at: place, kind: keyPath.valueKind, offsets: additive)
    }
    guard let component = keyPath.component else {
      switch propertyValue(json, at: place, of: keyPath.property) {
      case .value(let value)?: return value
      case .text(let string)?: return .text(string)
      default: return nil
      }
    }
    if keyPath.property.range == .nonNegative {
      switch component {
      case .size: return size(json, at: place).map(AnimationValue.size)
      case .sizeWidth, .sizeHeight, .width, .height:
        return nonNegative(json, at: place).map(AnimationValue.scalar)
      default: break
      }
    }
    return animationValue(json, at: place, kind: keyPath.valueKind)
  }

  /// `value`, or `nil` (reported) when a component (a transform's by its decomposition, as it
  /// is interpolated) is past `AnimationValue.maximumMagnitude`: the spans, paced lengths,
  /// tangents and springs between values past it overflow (-1e308 to 1e308 drew nothing).
  func withinMagnitude(_ value: AnimationValue, at place: String) -> AnimationValue? {
    var what = ""
    if case .transform(let t) = value,
      let x = t.entries.max(by: { abs($0) < abs($1) }),
      !(abs(x) <= AnimationValue.maximumMagnitude)
    {
      what = "the transform's matrix holds \(format(x)), past"
    } else if let x = value.largestComponent, !(abs(x) <= AnimationValue.maximumMagnitude) {
      // A matrix whose entries are all below 10^15 / 2 (its columns' lengths, the scales,
      // within the limit) has a huge decomposition only when it is singular or nearly so
      // (every entry 1: 2^52 + 1): said, as no number written is large.
      var singular = false
      if case .transform(let t) = value,
        let largest = t.entries.map(abs).max(), largest <= AnimationValue.maximumMagnitude / 2
      {
        singular = true
      }
      what =
        value.kind == .transform
        ? "the transform's decomposition holds \(format(x))"
          + (singular ? " (its matrix is singular or nearly so)," : "") + " past"
        : "\(format(x)) is past"
    } else {
      return value
    }
    report(
      place,
      "\(what) the limit of 10^15 in magnitude for animated values (the span between values "
        + "overflows)")
    return nil
  }

  /// A value of the kind `kind`, in the scene file's syntax for it; `offsets`: an offset from
  /// the model value (`byValue`, an additive animation's), which a filter list's radii and
  /// amounts may be of any sign or size (§7.3).
  func animationValue(
    _ json: JSONValue, at place: String, kind: AnimationValueKind, offsets: Bool = false
  ) -> AnimationValue? {
    switch kind {
    case .scalar: return number(json, at: place).map(AnimationValue.scalar)
    case .point: return point(json, at: place).map(AnimationValue.point)
    case .size:
      return numbers(json, at: place, count: 2, shape: "[width, height]").map {
        .size(Size(width: $0[0], height: $0[1]))
      }
    case .rect:
      return numbers(json, at: place, count: 4, shape: "[x, y, width, height]").map {
        .rect(Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]))
      }
    case .color: return color(json, at: place).map(AnimationValue.color)
    case .transform: return transform(json, at: place).map(AnimationValue.transform)
    case .path:
      if json == .null { return .path(nil) }
      return path(json, at: place).map { .path($0) }
    case .image:
      return image(json, at: place).map(AnimationValue.image)
    case .bool: return bool(json, at: place).map(AnimationValue.bool)
    case .colors:
      // Cairo adds each gradient stop in time proportional to those before it: 100,000 colours
      // took 46 s a frame.
      if case .array(let items) = json, items.count > SceneFormat.maximumGradientColors {
        report(
          place,
          "\(items.count) colours exceed the limit of \(SceneFormat.maximumGradientColors)")
        return nil
      }
      return colorList(json, at: place).map(AnimationValue.colors)
    case .numbers:
      if json == .null { return .numbers(nil) }
      guard let items = array(json, at: place) else { return nil }
      var out: [Double] = []
      for (i, item) in items.enumerated() {
        guard let x = number(item, at: "\(place)[\(i)]") else { return nil }
        out.append(x)
      }
      return .numbers(out)
    case .filters: return filterList(json, at: place, offsets: offsets).map(AnimationValue.filters)
    case .text:
      if json == .null { return .text(nil) }
      return textString(json, at: place).map { .text($0) }
    }
  }

  func kindName(_ kind: AnimationValueKind) -> String {
    switch kind {
    case .image: return "images"
    case .bool: return "true or false"
    case .path: return "paths"
    case .colors: return "lists of colors"
    case .numbers: return "lists of numbers"
    case .filters: return "lists of filters"
    case .text: return "strings"
    default: return kind.rawValue + " values"
    }
  }

  func suggestion(for name: String, among names: [String]) -> String {
    guard let best = names.min(by: { editDistance($0, name) < editDistance($1, name) }),
      editDistance(best, name) <= 3
    else { return "" }
    return " (did you mean \"\(best)\"?)"
  }
}
