import Animations
import Geometry
import LayerTree
import SceneFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Gradient fills and strokes (`gf`, `gs`) as gradient layers.
extension LottieReader {
  /// A gradient layer over the sources' bounding box (to be masked by the shape), its colour
  /// and opacity stops merged, linear (`t: 1`) or radial (`t: 2`).
  func readGradient(_ f: Fields, sources: [ShapeSource], layer label: String) -> GradientLayer? {
    guard let gj = f["g"], let g = object(gj, at: f.place("g")) else {
      report(f.place("g"), "missing required key (the gradient's stops)")
      return nil
    }
    let limit = LottieFormat.maximumGradientStops
    let p = number(g, "p", default: 0)
    guard p <= Double(limit) else {
      report(
        g.place("p"), "\(MessageText.number(p)) colour stops exceed the limit of \(limit)")
      return nil
    }
    // lottie-web makes arrays of `p` and of the values' count less `4 p`: a negative or
    // fractional count, or more stops than the values hold, fails to load there.
    guard p >= 0, p == p.rounded(.down) else {
      report(
        g.place("p"),
        "expected a number of colour stops (a whole number from 0 to \(limit)), found "
          + MessageText.number(p))
      return nil
    }
    let count = Int(p)
    guard let stops = vector(g, "k", default: [], layer: label),
      let s = vector(f, "s", default: [0, 0], layer: label),
      let e = vector(f, "e", default: [100, 0], layer: label)
    else { return nil }
    // Said where the values fall short: the static value, or the keyframe's `s` or `e`.
    var keyframed = false
    if case .object(let k)? = g["k"], case .array(let items)? = Fields(entries: k, place: "")["k"],
      case .object? = items.first
    {
      keyframed = true
    }
    let needed = 4 * count
    for (i, k) in stops.keyframes.enumerated() {
      for (key, values) in [("s", k.start), ("e", k.end ?? k.start)] where values.count < needed {
        report(
          g.place("k") + ".k" + (keyframed ? "[\(i)].\(key)" : ""),
          "expected \(needed) numbers for the \(count) colour stops of g.p (offset, r, g, b "
            + "each), found \(values.count)")
        return nil
      }
    }
    if count == 0 {
      // No colour stops: lottie-web's gradient has none, and draws nothing.
      warn(
        label,
        "gradients without colour stops (\(g.place("p")) is \(g["p"] == nil ? "absent" : "0")): "
          + "not drawn", key: "gradients without colour stops")
    }
    // What follows the colour stops is opacity stops, two numbers each: held to the limit too,
    // so that merging the two lists cannot take minutes.
    let longest = stops.keyframes.map { Swift.max($0.start.count, $0.end?.count ?? 0) }.max() ?? 0
    let opacityStops = Swift.max(0, longest - 4 * count) / 2
    // A last number with no pair is no opacity stop (lottie-web makes it NaN): left out, said.
    if stops.keyframes.contains(where: { ($0.start.count - needed) % 2 == 1 }) {
      warn(
        label,
        "gradient opacity stops of one number (\(g.place("k")): offset and opacity pairs after "
          + "the colour stops): the last left out", key: "odd opacity stops")
    }
    guard opacityStops <= limit else {
      report(g.place("k"), "\(opacityStops) opacity stops exceed the limit of \(limit)")
      return nil
    }
    // The box the gradient is drawn in: every sampled frame's paths, widened for strokes.
    var box: Rect? = nil
    let frames = sources.compactMap(\.frames)
    var samples: [Double] = [0]
    if let lower = frames.map(\.lowerBound).min(), let upper = frames.map(\.upperBound).max() {
      samples = (0...16).map { lower + (upper - lower) * Double($0) / 16 }
    }
    for frame in samples {
      for source in sources {
        let b = source.path(frame).boundingBox
        box = box.map { Self.union($0, b) } ?? b
      }
    }
    var pad = 1.0
    if let w = vector(f, "w", default: [0], layer: label) {
      pad += w.keyframes.map { abs(component($0.start, 0)) }.max() ?? 0
    }
    guard var rect = box, rect.width.isFinite, rect.height.isFinite else { return nil }
    rect = Rect(
      x: rect.origin.x - pad, y: rect.origin.y - pad, width: rect.width + 2 * pad,
      height: rect.height + 2 * pad)
    let gradient = GradientLayer()
    gradient.name = f.string("nm")
    gradient.sourcePlace = f.place
    gradient.anchorPoint = .zero
    gradient.bounds = Rect(x: 0, y: 0, width: rect.width, height: rect.height)
    gradient.position = rect.origin
    let (colors0, locations0) = Self.gradientStops(stops.initial, count: count)
    gradient.colors = colors0
    gradient.locations = locations0
    animate(gradient, "colors", stops) { .colors(Self.gradientStops($0, count: count).colors) }
    animate(gradient, "locations", stops) {
      .numbers(Self.gradientStops($0, count: count).locations)
    }
    func unitPoint(_ v: [Double]) -> Point {
      Point(
        x: (component(v, 0) - rect.origin.x) / rect.width,
        y: (component(v, 1) - rect.origin.y) / rect.height)
    }
    gradient.startPoint = unitPoint(s.initial)
    animate(gradient, "startPoint", s) { .point(unitPoint($0)) }
    // lottie-web draws linear for 1 only, radial for any other code.
    let radial = coded(
      f, "t", "gradient type", known: [1: false, 2: true], absent: false, layer: label
    ) { _ in (true, "drawn radial, as lottie-web draws it") }
    if radial {
      gradient.type = .radial
      if let h = vector(f, "h", default: [0], layer: label),
        let a = vector(f, "a", default: [0], layer: label),
        h.isAnimated || component(h.initial, 0) != 0
      {
        // The highlight: the focus `h` percent of the radius from the centre, `a` degrees
        // from the direction of `e` (lottie-web's fx, fy, with the percent kept within 99).
        func focalOffset(_ frame: Double) -> Point {
          let sv = s.value(at: frame), ev = e.value(at: frame)
          let dx = component(ev, 0) - component(sv, 0), dy = component(ev, 1) - component(sv, 1)
          let percent = Swift.max(-0.99, Swift.min(0.99, component(h.value(at: frame), 0) / 100))
          let distance = (dx * dx + dy * dy).squareRoot() * percent
          let angle = atan2(dy, dx) + component(a.value(at: frame), 0) * .pi / 180
          return Point(
            x: distance * cos(angle) / rect.width, y: distance * sin(angle) / rect.height)
        }
        gradient.focalOffset = focalOffset(0)
        let moving = [s, e, h, a].filter(\.isAnimated)
        if !moving.isEmpty {
          let lower = moving.map(\.frameRange.lowerBound).min()!
          let upper = moving.map(\.frameRange.upperBound).max()!
          gradient.focalOffset = focalOffset(lower)
          bake(gradient, "focalOffset", frames: lower...upper) { .point(focalOffset($0)) }
        }
      }
      func corner(_ frame: Double) -> Point {
        let a = s.value(at: frame), b = e.value(at: frame)
        let dx = component(b, 0) - component(a, 0), dy = component(b, 1) - component(a, 1)
        let r = (dx * dx + dy * dy).squareRoot()
        return unitPoint([component(a, 0) + r, component(a, 1) + r])
      }
      gradient.endPoint = corner(0)
      if s.isAnimated || e.isAnimated {
        let ranges = [s, e].filter(\.isAnimated).map(\.frameRange)
        let lower = ranges.map(\.lowerBound).min()!, upper = ranges.map(\.upperBound).max()!
        gradient.endPoint = corner(lower)
        bake(gradient, "endPoint", frames: lower...upper) { .point(corner($0)) }
      }
    } else {
      gradient.endPoint = unitPoint(e.initial)
      animate(gradient, "endPoint", e) { .point(unitPoint($0)) }
    }
    return gradient
  }

  /// The smallest rectangle holding both.
  static func union(_ a: Rect, _ b: Rect) -> Rect {
    let x0 = Swift.min(a.origin.x, b.origin.x), y0 = Swift.min(a.origin.y, b.origin.y)
    let x1 = Swift.max(a.origin.x + a.width, b.origin.x + b.width)
    let y1 = Swift.max(a.origin.y + a.height, b.origin.y + b.height)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// A gradient's stops from Lottie's flat list: `count` colour stops (offset, r, g, b), then
  /// opacity stops (offset, alpha), as lottie-web draws them: a colour gradient times an
  /// opacity gradient (its SVG renderer masks the one by the other).
  ///
  /// Each list's offsets are taken as SVG takes a gradient's: each clamped to 0...1, then to
  /// at least the one before it, so stops out of order meet at the later place and two stops
  /// at one offset make a hard edge (a stripe, a cut in the opacity). The two lists are merged
  /// stop by stop (at one offset, colour stops first), each merged stop the colour and the
  /// opacity there once the stops before it are passed: every stop of either list is one
  /// stop, so every keyframe of a gradient gives as many and they interpolate one by one.
  static func gradientStops(
    _ v: [Double], count: Int
  ) -> (colors: [Color], locations: [Double]) {
    var colorStops: [(Double, Color)] = []
    for i in 0..<count where i * 4 + 3 < v.count {
      colorStops.append((v[i * 4], color([v[i * 4 + 1], v[i * 4 + 2], v[i * 4 + 3]])))
    }
    guard !colorStops.isEmpty else { return ([.clear, .clear], [0, 1]) }
    var alphaStops: [(Double, Double)] = []
    var i = count * 4
    while i + 1 < v.count {
      alphaStops.append((v[i], Swift.max(0, Swift.min(1, v[i + 1]))))
      i += 2
    }
    colorStops = inOrder(colorStops)
    alphaStops = inOrder(alphaStops)
    func mixColors(_ a: Color, _ b: Color, _ t: Double) -> Color {
      Color(
        red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
        blue: a.blue + (b.blue - a.blue) * t)
    }
    var colors: [Color] = [], locations: [Double] = []
    var passedColor = -1, passedAlpha = -1
    while passedColor + 1 < colorStops.count || passedAlpha + 1 < alphaStops.count {
      let nextColor = passedColor + 1 < colorStops.count ? colorStops[passedColor + 1].0 : .infinity
      let nextAlpha = passedAlpha + 1 < alphaStops.count ? alphaStops[passedAlpha + 1].0 : .infinity
      let x: Double
      if nextColor <= nextAlpha {
        passedColor += 1
        x = nextColor
      } else {
        passedAlpha += 1
        x = nextAlpha
      }
      let color = value(colorStops, at: x, passed: passedColor, mixColors)
      let alpha =
        alphaStops.isEmpty
        ? 1 : value(alphaStops, at: x, passed: passedAlpha) { $0 + ($1 - $0) * $2 }
      colors.append(color.multiplyingAlpha(by: alpha))
      locations.append(x)
    }
    return (colors, locations)
  }

  /// `stops` with their offsets as SVG takes them: each clamped to 0...1, then to at least the
  /// offset before it (a NaN offset as 0).
  static func inOrder<T>(_ stops: [(Double, T)]) -> [(Double, T)] {
    var out: [(Double, T)] = []
    var floor = 0.0
    for (x, value) in stops {
      let clamped = x.isNaN ? 0 : Swift.max(0, Swift.min(1, x))
      floor = Swift.max(floor, clamped)
      out.append((floor, value))
    }
    return out
  }

  /// The value of ordered `stops` at `x` once the stops up to index `passed` (-1: none) are
  /// passed: the last one passed when it is at `x` (after a hard edge, the later value), else
  /// between it and the next (the first's value before it, the last's after it).
  static func value<T>(
    _ stops: [(Double, T)], at x: Double, passed: Int, _ mix: (T, T, Double) -> T
  ) -> T {
    guard passed >= 0 else { return stops[0].1 }
    if stops[passed].0 == x || passed + 1 >= stops.count { return stops[passed].1 }
    let (x0, a) = stops[passed], (x1, b) = stops[passed + 1]
    return x1 > x0 ? mix(a, b, Swift.max(0, Swift.min(1, (x - x0) / (x1 - x0)))) : b
  }
}
