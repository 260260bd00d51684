import Animations
import Geometry
import LayerTree
import SceneFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Repeaters (`rp`), as lottie-web draws them: what is listed before the repeater, copied as
/// groups that each carry a transform and an opacity.
///
/// `ceil(c)` copies are drawn. The copies form a stack: with `m: 1` the copy whose transform is
/// the offset `o` alone is on top and each copy below it carries the repeater's transform once
/// more; otherwise (`m: 2`, or no `m`) that copy is at the bottom and each copy above carries it
/// once more. A copy carrying the transform `n` times (n = `o` + its place in that order) is
/// turned `n × r` degrees and scaled `s^n` about the anchor `a`, then moved by `n × p` (the
/// position is not turned by the copies before it); a fractional part of `o` takes that part of
/// the step (the scale `1 + (s − 1) × part`), as lottie-web's RepeaterModifier accumulates it,
/// including its handling of whole negative offsets (the copy reaching 0 takes no step, so the
/// next one is drawn at 0 again). The opacity goes from `so` on the top copy to `eo` on the
/// bottom one, evenly by place in the stack.
///
/// Every copy is a layer (its position and scale) holding a layer (its rotation, and minus the
/// anchor as its sublayer transform) holding the repeated items; animated repeaters animate
/// those values (sampled: they combine several properties), an animated count shows and hides
/// copies by a discrete `hidden` animation. Styles listed after the repeater draw the paths
/// before it once as they are and once in each shown copy, as lottie-web's do.
extension LottieReader {
  /// A repeater's properties, read.
  struct Repeater {
    /// Copies `c`, offset `o`.
    var copies: Animated<[Double]>
    var offset: Animated<[Double]>
    /// The transform: anchor `a`, position `p`, scale `s` (percent), rotation `r` (degrees),
    /// start and end opacity `so`, `eo` (percent).
    var anchor: Animated<[Double]>
    var position: Animated<[Double]>
    var scale: Animated<[Double]>
    var rotation: Animated<[Double]>
    var startOpacity: Animated<[Double]>
    var endOpacity: Animated<[Double]>
    /// `m: 1`: the copy with the offset alone on top (lottie-web's test is `m === 1`).
    var firstOnTop: Bool

    /// The most copies a repeater draws (more are drawn as this many, with a warning).
    static let maximumCopies = LottieFormat.maximumRepeaterCopies
    /// The largest offset taken (past it, copies are taken at it).
    static let maximumOffset = 1e6

    /// How far a copy is from the identity: its translation, its rotation (radians, clockwise
    /// on screen), its scale, and the anchor the rotation and scale are about.
    struct Placement: Equatable {
      var translation: Point
      var angle: Double
      var scale: Size
      var anchor: Point

      /// The placement as a matrix: about the anchor, turned, then scaled, then moved.
      var matrix: AffineTransform {
        AffineTransform.translation(x: -anchor.x, y: -anchor.y)
          .concatenating(.rotation(angle))
          .concatenating(.scale(x: scale.width, y: scale.height))
          .concatenating(
            .translation(x: anchor.x + translation.x, y: anchor.y + translation.y))
      }
    }

    var properties: [Animated<[Double]>] {
      [copies, offset, anchor, position, scale, rotation, startOpacity, endOpacity]
    }

    /// The frames over which anything changes (`nil`: static).
    var frames: ClosedRange<Double>? {
      let animated = properties.filter(\.isAnimated)
      guard !animated.isEmpty else { return nil }
      return animated.map(\.frameRange.lowerBound).min()!...animated.map(\.frameRange.upperBound)
        .max()!
    }

    /// Its keyframes' frames.
    var keyframeFrames: [Double] { properties.flatMap { $0.keyframes.map(\.frame) } }

    /// The copies drawn at `frame`: `ceil(c)`, within 0...`maximumCopies`.
    func count(at frame: Double) -> Int {
      let c = component(copies.value(at: frame), 0).rounded(.up)
      return Int(Swift.max(0, Swift.min(Double(Self.maximumCopies), c.isFinite ? c : 0)))
    }

    /// The most copies drawn at any frame: at the keyframes and between them.
    var maximumCount: Int {
      guard copies.isAnimated else { return count(at: 0) }
      var most = copies.keyframes.map { count(at: $0.frame) }.max() ?? 0
      let range = copies.frameRange
      for k in 0...64 {
        most = Swift.max(
          most,
          count(at: range.lowerBound + (range.upperBound - range.lowerBound) * Double(k) / 64))
      }
      return most
    }

    /// Copy `i`'s opacity (0 the top of the stack) at `frame`, when `count` are drawn.
    func opacity(copy i: Int, count: Int, at frame: Double) -> Double {
      let so = component(startOpacity.value(at: frame), 0) / 100
      let eo = component(endOpacity.value(at: frame), 0) / 100
      let o = count > 1 ? so + (eo - so) * Double(i) / Double(count - 1) : so
      return o.isFinite ? Swift.max(0, Swift.min(1, o)) : 0
    }

    /// Copy `i`'s placement (0 the top of the stack) at `frame`, when `count` are drawn.
    func placement(copy i: Int, count: Int, at frame: Double) -> Placement {
      let av = anchor.value(at: frame), pv = position.value(at: frame)
      let sv = scale.value(at: frame)
      let a = Point(x: component(av, 0), y: component(av, 1))
      let identity = Placement(
        translation: .zero, angle: 0, scale: Size(width: 1, height: 1), anchor: a)
      var o = component(offset.value(at: frame), 0)
      o = o.isFinite ? Swift.max(-Self.maximumOffset, Swift.min(Self.maximumOffset, o)) : 0
      // The order lottie-web visits the copies in: from the top for m 1, else from the bottom.
      let j = firstOnTop ? i : count - 1 - i
      // Its `iteration` after the offset, which decides the step it skips at 0.
      let whole = o > 0 ? o.rounded(.down) : o.rounded(.up)
      let part = o - whole
      let start = o < 0 ? whole - part : o
      if start + Double(j) == 0 { return identity }
      let skips = start < 0 && start == start.rounded() && Double(j) > -start ? 1 : 0
      let steps = Double(j - skips)
      let n = o + steps
      let r = radians([component(rotation.value(at: frame), 0)])
      func factor(_ s: Double) -> Double {
        // The offset's whole steps, its part step (inverted for negative offsets), the copies'.
        var f = pow(s, whole + steps)
        let partial = 1 + (s - 1) * abs(part)
        if part != 0 { f = part > 0 ? f * partial : f / partial }
        return f.isFinite ? f : 0
      }
      let angle = n * r
      let placement = Placement(
        translation: Point(x: n * component(pv, 0), y: n * component(pv, 1)),
        angle: angle.isFinite ? angle : 0,
        scale: Size(width: factor(component(sv, 0) / 100), height: factor(component(sv, 1) / 100)),
        anchor: a)
      let m = placement.matrix
      return [m.a, m.b, m.c, m.d, m.tx, m.ty].allSatisfy(\.isFinite)
        ? placement : Placement(translation: .zero, angle: 0, scale: .zero, anchor: a)
    }
  }

  /// Reads a repeater (`c`, `o`, `m` and its transform `tr`); `nil` when malformed (reported).
  func readRepeater(_ f: Fields, layer label: String) -> Repeater? {
    guard let c = vector(f, "c", default: [1], layer: label),
      let o = vector(f, "o", default: [0], layer: label)
    else { return nil }
    // Copies past the limit are drawn as the limit, said once with the place and the most asked.
    let asked =
      ([c.initial] + c.keyframes.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) })
      .map { component($0, 0).rounded(.up) }.max() ?? 0
    if asked > Double(Repeater.maximumCopies) {
      warn(
        label,
        "repeater copies over \(Repeater.maximumCopies) (\(f.place("c")) is "
          + "\(MessageText.number(asked))): \(Repeater.maximumCopies) are drawn",
        key: "repeater copies over the limit")
    }
    // Fewer than no copies draws nothing, as lottie-web draws it; said so.
    let least =
      ([c.initial] + c.keyframes.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) })
      .map { component($0, 0) }.min() ?? 0
    if least < 0 {
      warn(
        label,
        "negative repeater copies (\(f.place("c")) reaches \(MessageText.number(least))): "
          + "drawn as 0 (nothing)", key: "negative repeater copies")
    }
    var tr = Fields(entries: [], place: f.place("tr"))
    if let trj = f["tr"] {
      guard let t = object(trj, at: f.place("tr"), what: "a transform (an object)") else {
        return nil
      }
      tr = t
    }
    guard let a = vector(tr, "a", default: [0, 0], layer: label),
      let p = vector(tr, "p", default: [0, 0], layer: label),
      let s = vector(tr, "s", default: [100, 100], layer: label),
      let r = vector(tr, "r", default: [0], layer: label),
      let so = vector(tr, "so", default: [100], layer: label),
      let eo = vector(tr, "eo", default: [100], layer: label)
    else { return nil }
    return Repeater(
      copies: c, offset: o, anchor: a, position: p, scale: s, rotation: r, startOpacity: so,
      endOpacity: eo,
      // lottie-web puts the first copy on top for 1 only.
      firstOnTop: coded(
        f, "m", "repeater composite", known: [1: true, 2: false], absent: false, layer: label
      ) { _ in (false, "drawn as 2 (the first copy below), as lottie-web draws it") })
  }

  /// The copies of the layers `content` holds that a repeater draws, in a layer named `name`:
  /// the stack's bottom copy first. The top copy takes `content`'s layers, the others copies of
  /// them.
  func repeaterLayer(_ repeater: Repeater, name: String?, content: Layer) -> Layer {
    let stack = Layer()
    stack.name = name
    stack.anchorPoint = .zero
    let most = repeater.maximumCount
    let frames = repeater.frames
    let keyframeFrames = repeater.keyframeFrames
    let first = frames?.lowerBound ?? 0
    // What varies: every copy's placement when anything but the opacities moves (the count
    // moves the copies of a stack built from the bottom), its opacity with the count or the
    // opacities, whether it shows with the count.
    let movers = [
      repeater.offset, repeater.anchor, repeater.position, repeater.scale, repeater.rotation,
    ]
    let moves =
      movers.contains(where: \.isAnimated)
      || (repeater.copies.isAnimated && !repeater.firstOnTop)
    let fades = [repeater.copies, repeater.startOpacity, repeater.endOpacity].contains(
      where: \.isAnimated)
    for i in (0..<most).reversed() {
      let copy = Layer(), rotor = Layer()
      for l in [copy, rotor] { l.anchorPoint = .zero }
      copy.addSublayer(rotor)
      for part in content.sublayers { rotor.addSublayer(i == 0 ? part : part.copyTree()) }
      func place(_ frame: Double) -> Repeater.Placement {
        repeater.placement(copy: i, count: repeater.count(at: frame), at: frame)
      }
      let p0 = place(first)
      copy.position = Point(
        x: p0.anchor.x + p0.translation.x, y: p0.anchor.y + p0.translation.y)
      copy.transform = .scale(x: p0.scale.width, y: p0.scale.height)
      rotor.transform = .rotation(p0.angle)
      rotor.sublayerTransform = .translation(x: -p0.anchor.x, y: -p0.anchor.y)
      copy.opacity = repeater.opacity(copy: i, count: repeater.count(at: first), at: first)
      copy.isHidden = i >= repeater.count(at: first)
      if let frames, moves {
        bake(copy, "position", frames: frames, keyframeFrames: keyframeFrames) {
          let p = place($0)
          return .point(p.anchor.x + p.translation.x, p.anchor.y + p.translation.y)
        }
        bake(copy, "transform.scale.x", frames: frames, keyframeFrames: keyframeFrames) {
          .scalar(place($0).scale.width)
        }
        bake(copy, "transform.scale.y", frames: frames, keyframeFrames: keyframeFrames) {
          .scalar(place($0).scale.height)
        }
        bake(rotor, "transform.rotation.z", frames: frames, keyframeFrames: keyframeFrames) {
          .scalar(place($0).angle)
        }
        if repeater.anchor.isAnimated {
          bake(
            rotor, "sublayerTransform.translation.x", frames: frames,
            keyframeFrames: keyframeFrames
          ) { .scalar(-place($0).anchor.x) }
          bake(
            rotor, "sublayerTransform.translation.y", frames: frames,
            keyframeFrames: keyframeFrames
          ) { .scalar(-place($0).anchor.y) }
        }
      }
      if let frames, fades {
        bake(copy, "opacity", frames: frames, keyframeFrames: keyframeFrames) {
          .scalar(repeater.opacity(copy: i, count: repeater.count(at: $0), at: $0))
        }
      }
      if repeater.copies.isAnimated {
        bakeSteps(copy, "hidden", frames: repeater.copies.frameRange) {
          .bool(i >= repeater.count(at: $0))
        }
      }
      stack.addSublayer(copy)
    }
    return stack
  }

  /// The paths a repeater leaves to the styles listed after it: `sources` as they are, then as
  /// each copy shown at a frame places them (none for copies not shown).
  func repeatedSources(_ sources: [ShapeSource], _ repeater: Repeater) -> [ShapeSource] {
    var out = sources
    let most = repeater.maximumCount
    for i in 0..<most {
      for s in sources {
        let ranges = [s.frames, repeater.frames].compactMap { $0 }
        let frames =
          ranges.isEmpty
          ? nil : ranges.map(\.lowerBound).min()!...ranges.map(\.upperBound).max()!
        let path: (Double) -> Path = { frame in
          let count = repeater.count(at: frame)
          guard i < count else { return Path() }
          return s.path(frame).applying(
            repeater.placement(copy: i, count: count, at: frame).matrix)
        }
        if frames == nil {
          let fixed = path(0)
          out.append(ShapeSource(path: { _ in fixed }))
        } else {
          out.append(
            ShapeSource(
              path: path, frames: frames,
              keyframeFrames: s.keyframeFrames + repeater.keyframeFrames))
        }
      }
    }
    return out
  }

  /// Animates `keyPath` through a value that changes in steps (`value` sampled twice a frame
  /// and at its changes, each change found to a thousandth of a frame), discretely.
  func bakeSteps(
    _ layer: Layer, _ keyPath: String, frames range: ClosedRange<Double>,
    _ value: (Double) -> AnimationValue
  ) {
    guard range.upperBound > range.lowerBound else { return }
    let span = range.upperBound - range.lowerBound
    let step = Swift.max(1 / Self.samplesPerFrame, span / Double(Self.maximumSamples))
    var samples = Self.frames(in: range, step: step, limit: Self.maximumSamples + 1)
    samples.append(range.upperBound)
    guard spendSamplingWork(samples.count) else { return }
    var values = [value(samples[0])], frames = [samples[0]]
    for (a, b) in zip(samples, samples.dropFirst()) {
      let next = value(b)
      guard next != values[values.count - 1] else { continue }
      // The change lies in (a, b]: halve the interval down to a thousandth of a frame.
      var low = a, high = b
      for _ in 0..<20 where high - low > 1e-3 {
        let mid = (low + high) / 2
        if value(mid) == next { high = mid } else { low = mid }
      }
      values.append(next)
      frames.append(high)
    }
    guard values.count > 1 else { return }
    addDiscrete(layer, keyPath, values: values, frames: frames)
  }
}
