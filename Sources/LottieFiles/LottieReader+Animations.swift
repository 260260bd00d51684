import Animations
import Geometry
import LayerTree

/// Lottie keyframes as Core Animation keyframe animations on the built layers.
///
/// A property's keyframes become one `KeyframeAnimation` over the layer's local time in
/// seconds (frame / `fr`): a key time per keyframe, each segment paced by its own bezier
/// (`o`, `i`), hold keyframes and the `e` convention as a repeated value and an instant jump,
/// filling both ways so the first and last values hold outside the keyframes. What a keyframe
/// animation cannot express exactly (positions along spatial curves, paths built from several
/// animated parts) is sampled twice a frame instead, linearly in between.
extension LottieReader {
  /// Samples per frame where a property is sampled (`bake`).
  static let samplesPerFrame = 2.0
  /// The most samples one sampled animation holds.
  static let maximumSamples = 20_000

  /// Animates `keyPath` of `layer` through `property`'s keyframes, paced by dimension
  /// `dimension`'s easing; `convert` makes each value. Nothing when the property is static.
  func animate(
    _ layer: Layer, _ keyPath: String, _ property: Animated<[Double]>, dimension: Int = 0,
    _ convert: ([Double]) -> AnimationValue
  ) {
    guard property.isAnimated else { return }
    if property.keyframes.dropLast().contains(where: \.isSpatial) {
      bake(
        layer, keyPath, frames: property.frameRange, keyframeFrames: property.keyframes.map(\.frame)
      ) {
        convert(property.value(at: $0))
      }
      return
    }
    add(
      layer, keyPath, keyframes: property.keyframes, end: property.segmentEnd, dimension: dimension,
      convert)
  }

  /// Animates a path property through a shape's keyframes (path morphing).
  func animate(_ layer: Layer, _ keyPath: String, _ shape: Animated<BezierShape>) {
    guard shape.isAnimated else { return }
    // Shapes of different vertex counts do not morph: the first is held until the next
    // keyframe (`BezierShape.interpolated(to:_:)`), where a path animation would switch half
    // way through the segment.
    var keyframes = shape.keyframes
    for i in 0..<keyframes.count - 1
    where keyframes[i].start.vertices.count != shape.segmentEnd(i).vertices.count {
      keyframes[i].hold = true
    }
    add(layer, keyPath, keyframes: keyframes, end: shape.segmentEnd, dimension: 0) {
      .path($0.path(curvesOnly: true))
    }
  }

  private func add<Value>(
    _ layer: Layer, _ keyPath: String, keyframes: [Keyframe<Value>], end: (Int) -> Value,
    dimension: Int, _ convert: (Value) -> AnimationValue
  ) {
    // Nothing more is built once the file is refused (1,000 instances of a precomposition of
    // large gradient keyframes went on converting them for 43 s after the budget spoke).
    guard !samplingBudgetSpent else { return }
    var values: [AnimationValue] = [], frames: [Double] = [], paces: [TimingFunction] = []
    for i in 0..<keyframes.count - 1 {
      let k = keyframes[i]
      let startValue = convert(k.start)
      values.append(startValue)
      frames.append(k.frame)
      let endValue = k.hold ? startValue : convert(end(i))
      paces.append(k.hold ? .linear : k.timingFunction(dimension: dimension))
      let next = convert(keyframes[i + 1].start)
      if endValue != next {
        // Ends on `e` (or holds), then jumps to the next keyframe's value at its frame: a
        // billionth of a frame before it, so that the frame itself, whose time in seconds
        // and fraction of the animation are rounded, shows the next value (a hold from frame
        // 9 at 30 fps showed from frame 10; 598 of 3,000 such frames were a frame late).
        let at = keyframes[i + 1].frame
        let hair = at - Swift.max(1, abs(at)) * 1e-9
        values.append(endValue)
        frames.append(hair > k.frame && hair < at ? hair : at)
        paces.append(.linear)
      }
    }
    values.append(convert(keyframes[keyframes.count - 1].start))
    frames.append(keyframes[keyframes.count - 1].frame)
    addKeyframes(layer, keyPath, values: values, frames: frames, paces: paces)
  }

  /// The frames `range.lowerBound`, `+ step`, `+ 2 step`, ... below `range.upperBound`, at most
  /// `limit` of them: counted, not accumulated, so that a step too small to move a huge frame
  /// number (past 2^53) cannot loop forever.
  static func frames(in range: ClosedRange<Double>, step: Double, limit: Int) -> [Double] {
    let span = range.upperBound - range.lowerBound
    guard span > 0, span.isFinite, step > 0, step.isFinite else { return [range.lowerBound] }
    let count = Int(Swift.min(Double(limit), (span / step).rounded(.up)))
    return (0..<count).map { range.lowerBound + Double($0) * step }
  }

  /// Animates `keyPath` through `value` sampled from `frames.lowerBound` to its upper bound,
  /// `samplesPerFrame` a frame and at every keyframe, linearly in between.
  func bake(
    _ layer: Layer, _ keyPath: String, frames range: ClosedRange<Double>,
    keyframeFrames: [Double] = [], _ value: (Double) -> AnimationValue
  ) {
    guard range.upperBound > range.lowerBound, !samplingBudgetSpent else { return }
    let span = range.upperBound - range.lowerBound
    let step = Swift.max(1 / Self.samplesPerFrame, span / Double(Self.maximumSamples))
    var frames = Self.frames(in: range, step: step, limit: Self.maximumSamples + 1)
    frames.append(range.upperBound)
    if keyframeFrames.count <= Self.maximumSamples {
      frames = Array(Set(frames + keyframeFrames.filter { range.contains($0) })).sorted()
    }
    // Each sample costs about as much as the value is big (`sampledSize(of:)`: 1,000
    // precomposition instances sampling a 20,000-element rounded path held 2.4 GB before the
    // budget spoke). Each is counted as it is made: a path rounded by a radius that starts at
    // 0 has half the elements at its first frame that it has after, and counting the first for
    // all held twice what the budget allows.
    guard spendSamplingWork(frames.count) else { return }
    var values: [AnimationValue] = []
    values.reserveCapacity(frames.count)
    for frame in frames {
      let sample = value(frame)
      let size = Self.sampledSize(of: sample)
      guard size == 0 || spendSamplingWork(size) else { return }
      values.append(sample)
    }
    addKeyframes(
      layer, keyPath, values: values, frames: frames,
      paces: Array(repeating: .linear, count: frames.count - 1), counted: true)
  }

  /// What a value of variable size costs the sampling budget beyond the one unit any sample
  /// counts, about a unit for every 16 bytes it holds: a path four an element (an element holds
  /// up to three points), a list of colours two a colour, of numbers one a number, of filters
  /// four a filter, text one for 16 bytes; 0 for values of fixed size (a number, a point, a
  /// colour, a transform). Keyframed values count it once each, sampled ones at every sample:
  /// 1,000 instances of a precomposition whose gradient of 2,000 stops had 100 keyframes took
  /// 8.3 GB counted by nothing, and a dash pattern of 1,000 animated lengths sampled 20,001
  /// times, 320 MB an instance, counted 20,001.
  static func sampledSize(of value: AnimationValue) -> Int {
    switch value {
    case .path(let p?): return 4 * p.elements.count
    case .colors(let c?): return 2 * c.count
    case .numbers(let n?): return n.count
    case .filters(let f): return 4 * f.count
    case .text(let t?): return t.utf8.count / 16
    default: return 0
    }
  }

  /// Whether the sampling budget is spent: the file is refused, and nothing more need be
  /// sampled or built.
  var samplingBudgetSpent: Bool { samplingWork > LottieFormat.maximumSamplingWork }

  /// Takes `work` from the file's sampling budget (`LottieFormat.maximumSamplingWork`); false,
  /// with the problem reported once, when it is spent: a file whose sampling would take
  /// minutes is refused instead.
  func spendSamplingWork(_ work: Int) -> Bool {
    guard samplingWork <= LottieFormat.maximumSamplingWork - work else {
      if samplingWork <= LottieFormat.maximumSamplingWork {
        report(
          "layers",
          "the animation needs more than \(LottieFormat.maximumSamplingWork) sampled values "
            + "(keyframes far apart, long time remapping, large paths, gradients or dash patterns "
            + "sampled often), the limit")
        samplingWork = LottieFormat.maximumSamplingWork + 1
      }
      return false
    }
    samplingWork += work
    return true
  }

  /// Adds the animation: values at frames (non-decreasing), segments paced by `paces`.
  ///
  /// Keyframes sharing the first frame show the first value before it and the last at it, as
  /// lottie-web shows them (Core Animation's fill would show the last before it too): the first
  /// value is held from a billionth of a frame earlier.
  ///
  /// Values of variable size count against the file's sampling budget (`sampledSize(of:)`;
  /// `counted`: already counted, as `bake` and time remapping count what they sample): each
  /// layer holds its own, and 2,000 instances of a precomposition morphing between two
  /// 10,000-vertex shapes took 6 GB, counted by nothing.
  func addKeyframes(
    _ layer: Layer, _ keyPath: String, values: [AnimationValue], frames: [Double],
    paces: [TimingFunction], counted: Bool = false
  ) {
    if !counted {
      let size = values.reduce(0) { $0 + Self.sampledSize(of: $1) }
      guard size == 0 || spendSamplingWork(size) else { return }
    }
    var (values, frames, paces) = (values, frames, paces)
    if frames.count > 1, frames[0] == frames[1] {
      let lead = frames[0] - Swift.max(1, abs(frames[0])) * 1e-9
      guard lead < frames[0] else { return }
      values.insert(values[0], at: 0)
      frames.insert(lead, at: 0)
      paces.insert(.linear, at: 0)
    }
    guard let first = frames.first, let last = frames.last, last > first else { return }
    var animation = KeyframeAnimation(keyPath: keyPath)
    animation.values = values
    animation.keyTimes = frames.map { ($0 - first) / (last - first) }
    animation.timingFunctions = paces
    animation.beginTime = first / frameRate
    animation.duration = (last - first) / frameRate
    animation.fillMode = .both
    animation.isRemovedOnCompletion = false
    layer.add(animation, forKey: "lottie.\(keyPath)")
  }
}
