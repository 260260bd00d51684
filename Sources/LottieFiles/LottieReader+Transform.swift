import Animations
import Geometry
import LayerTree
import SceneFiles

#if canImport(Glibc)
  import Glibc
#endif

/// The layers a Lottie transform (a layer's `ks`, a group's `tr`) becomes, outermost first:
/// `outer` takes position and rotation (and opacity, for a layer's own transform), an optional
/// skew layer, the scale layer, then `content`, offset by minus the anchor, which holds what
/// the transform moves. Each takes one kind of motion, so Core Animation's `transform.*` key
/// paths each act on a transform holding only that kind (no decomposition ambiguity, negative
/// scales included).
struct TransformLayers {
  /// Position, rotation and opacity: the layer to place in the parent.
  let outer: Layer
  /// The anchor's offset: the layer to put the content in.
  let content: Layer
}

extension LottieReader {
  /// Builds the transform layers for `json` (absent: the identity). `opacity`: whether this
  /// transform's opacity applies (not for the copies that carry a parent's transform).
  func transformLayers(
    _ json: JSONValue?, at place: String, layer label: String, name: String?, opacity: Bool,
    autoOrient: Bool = false
  ) -> TransformLayers {
    let outer = Layer(), scaleLayer = Layer(), content = Layer()
    for l in [outer, scaleLayer, content] { l.anchorPoint = .zero }
    outer.name = name
    // Errors found while drawing name the Lottie layer (or shape group) by its place, whichever
    // of its layers carries what passes a limit (its effects, its masks).
    let source = place.hasSuffix(".ks") ? String(place.dropLast(3)) : place
    for l in [outer, scaleLayer, content] { l.sourcePlace = source }
    scaleLayer.addSublayer(content)
    let fields = json.flatMap { object($0, at: place, what: "a transform (an object)") }
    guard let f = fields else {
      outer.addSublayer(scaleLayer)
      return TransformLayers(outer: outer, content: content)
    }
    // Anchor: the content moves by minus it.
    if let a = vector(f, "a", default: [0, 0], layer: label) {
      let a0 = a.initial
      content.position = Point(x: -(a0.first ?? 0), y: -(a0.count > 1 ? a0[1] : 0))
      animatePoint(content, "position", a, negated: true)
    }
    // Position: one property, or split into x and y (`s` true, or a nonzero number, as
    // lottie-web takes any truthy `s`). Where it moves, for auto-orient: the frames it moves
    // over and its place at a frame.
    var path: (frames: ClosedRange<Double>, at: (Double) -> [Double])? = nil
    if case .object(let pe)? = f["p"],
      let split = pe.first(where: { $0.key == "s" })?.value, Self.isTruthy(split)
    {
      let p = Fields(entries: pe, place: f.place("p"))
      // A missing axis is 0, said (lottie-web cannot play such a file).
      let missing = ["x", "y"].filter { p[$0] == nil }.map { p.place($0) }
      if !missing.isEmpty {
        warn(
          label,
          "split positions missing an axis (\(missing.joined(separator: ", "))): taken as 0",
          key: "split position missing an axis")
      }
      if let x = vector(p, "x", default: [0], layer: label),
        let y = vector(p, "y", default: [0], layer: label)
      {
        outer.position = Point(x: x.initial.first ?? 0, y: y.initial.first ?? 0)
        animate(outer, "position.x", x) { .scalar($0.first ?? 0) }
        animate(outer, "position.y", y) { .scalar($0.first ?? 0) }
        let moving = [x, y].filter(\.isAnimated).map(\.frameRange)
        if let first = moving.first {
          let frames = moving.dropFirst().reduce(first) {
            Swift.min($0.lowerBound, $1.lowerBound)...Swift.max($0.upperBound, $1.upperBound)
          }
          path = (frames, { [x.value(at: $0).first ?? 0, y.value(at: $0).first ?? 0] })
        }
      }
    } else if let p = vector(f, "p", default: [0, 0], layer: label) {
      if p.isAnimated { path = (p.frameRange, p.value(at:)) }
      let p0 = p.initial
      outer.position = Point(x: p0.first ?? 0, y: p0.count > 1 ? p0[1] : 0)
      animatePoint(outer, "position", p, negated: false)
    }
    // Rotation, degrees clockwise (`r`, or `rz` in 3D layers).
    let rotationKey = f["r"] == nil && f["rz"] != nil ? "rz" : "r"
    if let r = vector(f, rotationKey, default: [0], layer: label) {
      if autoOrient, let path {
        // Each sample's direction taken the short way from the one before (samples are made
        // in order), so that the linear steps between them never turn the layer the long way
        // round where the direction crosses ±180° (a layer moving left drew flipped between
        // samples).
        var previous: Double? = nil
        bake(outer, "transform.rotation.z", frames: path.frames) { frame in
          let a = path.at(frame - 0.01), b = path.at(frame + 0.01)
          var angle =
            a.count >= 2 && b.count >= 2 && (a[0] != b[0] || a[1] != b[1])
            ? atan2(b[1] - a[1], b[0] - a[0]) : 0
          if let previous, previous.isFinite {
            angle += 2 * .pi * ((previous - angle) / (2 * .pi)).rounded()
          }
          previous = angle
          return .scalar(angle + radians(r.value(at: frame)))
        }
      } else if r.isAnimated {
        animate(outer, "transform.rotation.z", r) { .scalar(radians($0)) }
      } else {
        outer.transform = .rotation(radians(r.initial))
      }
    }
    if opacity, let o = vector(f, "o", default: [100], layer: label) {
      outer.opacity = unit(o.initial)
      animate(outer, "opacity", o) { .scalar(fraction($0)) }
    }
    // Skew (`sk`, degrees) along the axis `sa` (degrees), between rotation and scale.
    var inner: Layer = outer
    if let sk = vector(f, "sk", default: [0], layer: label),
      let sa = vector(f, "sa", default: [0], layer: label),
      sk.isAnimated || sa.isAnimated || (sk.initial.first ?? 0) != 0
    {
      let skewLayer = Layer()
      skewLayer.anchorPoint = .zero
      skewLayer.transform = Transform3D(skew(sk.initial, sa.initial))
      if sk.isAnimated || sa.isAnimated {
        let lower = Swift.min(sk.frameRange.lowerBound, sa.frameRange.lowerBound)
        let upper = Swift.max(sk.frameRange.upperBound, sa.frameRange.upperBound)
        bake(skewLayer, "transform", frames: lower...upper) {
          .transform(Transform3D(skew(sk.value(at: $0), sa.value(at: $0))))
        }
      }
      outer.addSublayer(skewLayer)
      inner = skewLayer
    }
    inner.addSublayer(scaleLayer)
    // Scale, percent.
    if let s = vector(f, "s", default: [100, 100], layer: label) {
      if s.isAnimated {
        animate(scaleLayer, "transform.scale.x", s, dimension: 0) {
          .scalar(component($0, 0) / 100)
        }
        animate(scaleLayer, "transform.scale.y", s, dimension: 1) {
          .scalar(component($0, 1) / 100)
        }
      } else {
        let s0 = s.initial
        scaleLayer.transform = .scale(x: component(s0, 0) / 100, y: component(s0, 1) / 100)
      }
    }
    return TransformLayers(outer: outer, content: content)
  }

  /// Animates a point property (`position`), as one animation or, where the easing differs
  /// between x and y, one per coordinate (`position.x`, `position.y`).
  func animatePoint(_ layer: Layer, _ keyPath: String, _ p: Animated<[Double]>, negated: Bool) {
    guard p.isAnimated else { return }
    let sign: Double = negated ? -1 : 1
    let perDimension =
      !p.keyframes.dropLast().contains(where: \.isSpatial)
      && p.keyframes.dropLast().contains(where: \.easingDiffersByDimension)
    if perDimension {
      animate(layer, keyPath + ".x", p, dimension: 0) { .scalar(sign * component($0, 0)) }
      animate(layer, keyPath + ".y", p, dimension: 1) { .scalar(sign * component($0, 1)) }
    } else {
      animate(layer, keyPath, p) { .point(sign * component($0, 0), sign * component($0, 1)) }
    }
  }
}

/// Degrees (the first number) as radians; an angle too large to convert (past 5 x 10^306
/// degrees) is taken modulo a turn, which is what it shows.
func radians(_ v: [Double]) -> Double {
  let degrees = v.first ?? 0
  let r = degrees * Double.pi / 180
  return r.isFinite ? r : fmod(degrees, 360) * Double.pi / 180
}

/// A percentage (the first number) as a fraction clamped to 0...1.
func unit(_ v: [Double]) -> Double { Swift.min(1, Swift.max(0, fraction(v))) }

/// A percentage (the first number) as a fraction, not clamped: keyframed opacities are
/// interpolated as written and clamped when drawn, as lottie-web's (0 to 200 shows half at a
/// quarter of the way), and a layer's opacity past 0...1 draws as its nearest end.
func fraction(_ v: [Double]) -> Double { (v.first ?? 100) / 100 }

/// Dimension `d` of a value (the first for a scalar written as one number, 0 when empty).
func component(_ v: [Double], _ d: Int) -> Double {
  v.isEmpty ? 0 : v[Swift.min(d, v.count - 1)]
}

/// Lottie's skew: `sk` degrees along the axis at `sa` degrees (lottie-web's `skewFromAxis`).
func skew(_ sk: [Double], _ sa: [Double]) -> AffineTransform {
  let angle = radians(sa)
  let shear = tan(-radians(sk))
  let t = shear.isFinite ? Swift.max(-1e6, Swift.min(1e6, shear)) : 0
  return AffineTransform.rotation(angle)
    .concatenating(AffineTransform(a: 1, b: 0, c: t, d: 1, tx: 0, ty: 0))
    .concatenating(.rotation(-angle))
}

extension LottieReader {
  /// Whether lottie-web, in JavaScript, takes `value` as true: anything but `false`, `null`, 0
  /// and the empty string (a position's `s` of 1 splits it as `true` does).
  static func isTruthy(_ value: JSONValue) -> Bool {
    switch value {
    case .null: return false
    case .bool(let b): return b
    case .number(let n): return n != 0 && !n.isNaN
    case .string(let s): return !s.isEmpty
    case .array, .object: return true
    }
  }
}
