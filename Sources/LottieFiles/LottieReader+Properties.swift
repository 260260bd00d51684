import Animations
import Geometry
import SceneFiles

/// Reading animated properties (`{"a": 0|1, "k": ...}`): static values and keyframes.
extension LottieReader {
  /// A number or vector property at `key` of `f` (`default` when absent); `nil` when malformed
  /// (reported). `layer` names the layer in the warning an expression draws. A value with no
  /// numbers (`[]`) is refused, and so is a `colour` with fewer than three (r, g, b): lottie-web
  /// draws neither as any value (its missing components are NaN), so reading them as zeros
  /// would show what the file does not say. A point or size with fewer numbers than `default`
  /// (`[9.7]` for an anchor, which real files hold) has the missing ones read as 0, as
  /// lottie-ios reads them, with a warning.
  func vector(
    _ f: Fields, _ key: String, default fallback: [Double], layer: String, colour: Bool = false
  ) -> Animated<[Double]>? {
    guard let json = f[key] else { return Animated(fallback) }
    return animated(json, at: f.place(key), layer: layer) { json, place in
      if colour { return self.colour(json, at: place) }
      guard let n = self.numbers(json, at: place) else { return nil }
      if n.isEmpty {
        self.report(place, "expected a number or a list of numbers, found an empty list")
        return nil
      }
      // A point or a size has the default's count of numbers; files with one number in an
      // anchor exist (lottie-ios reads the missing ones as 0, lottie-web as NaN).
      if n.count < fallback.count {
        self.warn(
          layer,
          "point of \(n.count) number\(n.count == 1 ? "" : "s") (\(place)): the missing ones "
            + "read as 0, as lottie-ios reads them",
          key: "short point")
        return n + Array(repeating: 0, count: fallback.count - n.count)
      }
      // A one-number property given more (`"tm": [0.5, 9]`) uses the first, as lottie-ios
      // does (lottie-web makes it a list and draws nothing sensible): said, not silent.
      if fallback.count == 1 && n.count > 1 {
        self.warn(
          layer,
          "one-number property given \(n.count) numbers (\(place)): the first is used",
          key: "long number")
      }
      return n
    }
  }

  /// A colour's numbers (`[r, g, b]` or `[r, g, b, a]`), or `nil` (reported, fewer than three
  /// included).
  func colour(_ json: JSONValue, at place: String) -> [Double]? {
    switch json {
    case .array, .number: break
    default:
      // A text's `"fc": "#ff0000"` is no colour here (solids' `sc` is the one hex colour).
      report(place, "expected a colour (3 or 4 numbers: r, g, b, a), found \(json.kindDescription)")
      return nil
    }
    guard let n = numbers(json, at: place) else { return nil }
    guard n.count >= 3 && n.count <= 4 else {
      report(
        place,
        "expected a colour (3 or 4 numbers: r, g, b, a), found \(n.count) number"
          + (n.count == 1 ? "" : "s"))
      return nil
    }
    return n
  }

  /// A bezier shape property (`sh`'s `ks`, a mask's `pt`).
  func shape(_ json: JSONValue, at place: String, layer: String) -> Animated<BezierShape>? {
    animated(json, at: place, layer: layer) { json, place in
      // Keyframe values are lists holding one shape.
      if case .array(let items) = json {
        guard let first = items.first else {
          self.report(place, "expected a shape, found an empty list")
          return nil
        }
        return self.bezierShape(first, at: place + "[0]")
      }
      return self.bezierShape(json, at: place)
    }
  }

  /// A shape object `{"c", "v", "i", "o"}`.
  func bezierShape(_ json: JSONValue, at place: String) -> BezierShape? {
    guard let f = object(json, at: place, what: "a shape (an object with v, i, o, c)") else {
      return nil
    }
    func points(_ key: String) -> [Point]? {
      guard let v = f[key] else {
        report(
          f.place(key), "missing required key (the shape's \(key == "v" ? "vertices" : "tangents"))"
        )
        return nil
      }
      guard let list = array(v, at: f.place(key)) else { return nil }
      var out: [Point] = []
      out.reserveCapacity(list.count)
      let listPlace = f.place(key)
      for (i, item) in list.enumerated() {
        // The usual [x, y] without making its place (only a problem needs it).
        if case .array(let xy) = item, xy.count >= 2, case .number(let x) = xy[0],
          case .number(let y) = xy[1], x.isFinite, y.isFinite,
          xy.dropFirst(2).allSatisfy({ if case .number(let z) = $0 { z.isFinite } else { false } })
        {
          out.append(Point(x: x, y: y))
          continue
        }
        guard let n = numbers(item, at: listPlace + "[\(i)]") else { return nil }
        guard n.count >= 2 else {
          report(
            listPlace + "[\(i)]", "expected [x, y], found \(MessageText.counted(n.count, "number"))"
          )
          return nil
        }
        out.append(Point(x: n[0], y: n[1]))
      }
      return out
    }
    guard let v = points("v"), let i = points("i"), let o = points("o") else { return nil }
    guard i.count == v.count, o.count == v.count else {
      report(
        f.place("v"),
        "expected as many tangents as vertices, found \(v.count) vertices, \(i.count) in and "
          + "\(o.count) out tangents")
      return nil
    }
    guard v.count <= LottieFormat.maximumVertices else {
      report(
        f.place("v"), "\(v.count) vertices exceed the limit of \(LottieFormat.maximumVertices)")
      return nil
    }
    return BezierShape(vertices: v, inTangents: i, outTangents: o, closed: flag(f, "c"))
  }

  /// An animated property: `{"a": 1, "k": [keyframes]}` or `{"a": 0, "k": value}`, values read
  /// by `value`.
  func animated<Value: KeyframeValue>(
    _ json: JSONValue, at place: String, layer: String,
    value: (JSONValue, String) -> Value?
  ) -> Animated<Value>? {
    guard let f = object(json, at: place, what: "a property (an object with \"k\")") else {
      return nil
    }
    if f["x"] != nil { warn(layer, "expressions (x): the static value or keyframes are used") }
    guard let k = f["k"] else {
      report(f.place("k"), "missing required key (the property's value or keyframes)")
      return nil
    }
    // Keyframes are objects with `t` and `s`; a list of objects with either is keyframes, so
    // that one without its `t` is said to lack it (not read as a value, "expected a number").
    let isKeyframes: Bool
    if case .array(let items) = k, case .object(let entries)? = items.first,
      entries.contains(where: { $0.key == "t" || $0.key == "s" })
    {
      isKeyframes = true
    } else {
      isKeyframes = false
    }
    guard isKeyframes, case .array(let items) = k else {
      return value(k, f.place("k")).map { Animated($0) }
    }
    guard items.count <= LottieFormat.maximumKeyframes else {
      report(
        f.place("k"),
        "\(items.count) keyframes exceed the limit of \(LottieFormat.maximumKeyframes)")
      return nil
    }
    var keyframes: [Keyframe<Value>] = []
    var givenFrame: Double? = nil
    for (n, item) in items.enumerated() {
      let kplace = f.place("k") + "[\(n)]"
      guard let kf = object(item, at: kplace, what: "a keyframe (an object with t and s)") else {
        return nil
      }
      guard let tj = kf["t"] else {
        report(kf.place("t"), "missing required key (the keyframe's frame)")
        return nil
      }
      guard var frame = number(tj, at: kf.place("t")) else { return nil }
      // Frames go forward (several at one frame are allowed). lottie-web reads keyframes out of
      // order differently depending on the frames it showed before (it searches on from the
      // last segment it used), so there is no one reading to follow: refused.
      if let previous = givenFrame, frame < previous {
        report(
          kf.place("t"),
          "keyframe at frame \(MessageText.number(frame)) is before the previous keyframe's frame "
            + "\(MessageText.number(previous)) (keyframes must be in time order)")
        return nil
      }
      givenFrame = frame
      // Frames past 10^12 (a thousand years at 30 fps) are taken at 10^12, so that spans and
      // key times between keyframes stay finite (-1e308 to 1e308 made every value NaN); what
      // shows in any composition's frames is the same to 12 digits.
      frame = Swift.min(Self.maximumKeyframeFrame, Swift.max(-Self.maximumKeyframeFrame, frame))
      let start: Value
      if let s = kf["s"] {
        guard let v = value(s, kf.place("s")),
          withinMagnitude(v.largestComponent, at: kf.place("s"))
        else { return nil }
        start = v
      } else if n == items.count - 1, let previous = keyframes.last {
        // Files before 5.5 end with a keyframe holding only `t`: the previous segment's `e`.
        start = previous.end ?? previous.start
      } else {
        report(kf.place("s"), "missing required key (the keyframe's value)")
        return nil
      }
      var keyframe = Keyframe<Value>(frame: frame, start: start, end: nil)
      if let e = kf["e"] {
        guard let v = value(e, kf.place("e")),
          withinMagnitude(v.largestComponent, at: kf.place("e"))
        else { return nil }
        keyframe.end = v
      }
      keyframe.hold = flag(kf, "h")
      if let o = kf["o"], o != .null {
        guard let points = easing(o, at: kf.place("o")) else { return nil }
        keyframe.easeOut = points
      }
      if let i = kf["i"], i != .null {
        guard let points = easing(i, at: kf.place("i")) else { return nil }
        keyframe.easeIn = points
      }
      if let to = kf["to"], to != .null {
        guard let n = numbers(to, at: kf.place("to")),
          withinMagnitude(n.largestComponent, at: kf.place("to"))
        else { return nil }
        if n.count >= 2 { keyframe.spatialOut = Point(x: n[0], y: n[1]) }
      }
      if let ti = kf["ti"], ti != .null {
        guard let n = numbers(ti, at: kf.place("ti")),
          withinMagnitude(n.largestComponent, at: kf.place("ti"))
        else { return nil }
        if n.count >= 2 { keyframe.spatialIn = Point(x: n[0], y: n[1]) }
      }
      keyframes.append(keyframe)
    }
    return Animated(keyframes: keyframes)
  }

  /// Whether `largest`, the number of largest magnitude in a keyframe's value or spatial tangent, is
  /// within `AnimationValue.maximumMagnitude` (10^15); reported when not: the spans between
  /// keyframes past it overflow (-1e308 to 1e308 drew nothing, and tangents of 1e300 made a
  /// curve whose length is infinite, so the end showed from the first instant).
  func withinMagnitude(_ largest: Double, at place: String) -> Bool {
    guard !(abs(largest) <= AnimationValue.maximumMagnitude) else { return true }
    report(
      place,
      "\(MessageText.number(largest)) is past the limit of 10^15 in magnitude for keyframe "
        + "values and tangents (the span between keyframes overflows)")
    return false
  }

  /// The farthest frame a keyframe is taken at (either side of 0): 10^12.
  static let maximumKeyframeFrame = 1e12

  /// An easing control point `{"x": n | [n...], "y": n | [n...]}`, one point per dimension.
  func easing(_ json: JSONValue, at place: String) -> [Point]? {
    guard let f = object(json, at: place, what: "an easing point (an object with x and y)") else {
      return nil
    }
    guard let xj = f["x"], let yj = f["y"] else {
      report(place, "an easing point needs both x and y")
      return nil
    }
    guard let xs = numbers(xj, at: f.place("x")), let ys = numbers(yj, at: f.place("y")) else {
      return nil
    }
    guard !xs.isEmpty, !ys.isEmpty else {
      report(place, "an easing point needs at least one x and one y")
      return nil
    }
    // An x outside 0...1 makes a curve that is no function of time: Core Animation's timing
    // functions keep x in 0...1, and so does the reader, with a warning (lottie-web solves such
    // a curve as given, ambiguously where it turns back).
    if let far = xs.first(where: { !(0...1).contains($0) }) {
      warn(
        f.place("x"),
        "easing x of \(MessageText.number(far)) (0 to 1): drawn at \(far < 0 ? 0 : 1)",
        key: "easing x outside 0...1")
    }
    // A y past Float's range (timing functions store Float, as Core Animation's) is drawn at
    // its end, with a warning; lottie-web, in doubles, takes any.
    if let far = ys.first(where: { Float($0).isInfinite }) {
      warn(
        f.place("y"),
        "easing y of \(MessageText.number(far)) (past the 32-bit Float a timing function stores): "
          + "drawn as \(far < 0 ? "-" : "")\(Float.greatestFiniteMagnitude)",
        key: "easing y past Float")
    }
    let n = Swift.max(xs.count, ys.count)
    return (0..<n).map { d in
      Point(x: xs[Swift.min(d, xs.count - 1)], y: ys[Swift.min(d, ys.count - 1)])
    }
  }
}

/// A value keyframes interpolate, checked against `AnimationValue.maximumMagnitude` when read.
protocol KeyframeValue: Sendable {
  /// The value's number of largest magnitude, with its sign (the first that is not finite, if
  /// one is not).
  var largestComponent: Double { get }
}

extension Array: KeyframeValue where Element == Double {
  var largestComponent: Double {
    var largest = 0.0
    for x in self {
      if !x.isFinite { return x }
      if abs(x) > abs(largest) { largest = x }
    }
    return largest
  }
}

extension BezierShape: KeyframeValue {
  var largestComponent: Double {
    var largest = 0.0
    for list in [vertices, inTangents, outTangents] {
      for p in list {
        for x in [p.x, p.y] {
          if !x.isFinite { return x }
          if abs(x) > abs(largest) { largest = x }
        }
      }
    }
    return largest
  }
}
