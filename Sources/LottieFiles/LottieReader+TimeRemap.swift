import Animations
import Geometry
import LayerTree

/// Time remapping (`tm`) of a precomposition: the layer's frame `f` shows the precomposition at
/// `tm(f)` seconds. Core Animation's layer timing is linear, so, as lottie-ios does, the
/// precomposition's animations are sampled through the mapping: its tree is presented at the
/// remapped time twice a frame and each animated property becomes an animation through those
/// values, on the outer layer's time.
extension LottieReader {
  /// Resamples every animation under `container` (built on its own time) onto the time of its
  /// superlayer through `tm` (seconds of the precomposition at each frame of the layer), over
  /// the layer's frames `frames`.
  func remapTime(of container: Layer, through tm: Animated<[Double]>, frames: ClosedRange<Double>) {
    container.timing = LayerTiming()
    var layers: [Layer] = []
    // Each layer's timing and those of the layers above it, up to the container's (reset above).
    var timings: [[LayerTiming]] = []
    func collect(_ l: Layer, _ above: [LayerTiming]) {
      let chain = above + [l.timing]
      layers.append(l)
      timings.append(chain)
      if let mask = l.mask { collect(mask, chain) }
      for sublayer in l.sublayers { collect(sublayer, chain) }
    }
    collect(container, [])
    // The properties each layer animates (whole values: `transform` for `transform.rotation.z`).
    var keyPaths: [[String]] = layers.map { layer in
      var seen: [String] = []
      for key in layer.animationKeys {
        guard let path = (layer.animation(forKey: key) as? KeyframeAnimation)?.keyPath else {
          continue
        }
        let base = String(path.split(separator: ".").first ?? "")
        if !seen.contains(base) { seen.append(base) }
      }
      return seen
    }
    let span = frames.upperBound - frames.lowerBound
    guard span > 0, span.isFinite else { return }
    let step = Swift.max(1 / Self.samplesPerFrame, span / Double(Self.maximumSamples / 10))
    var sampleFrames = Self.frames(in: frames, step: step, limit: Self.maximumSamples / 10 + 1)
    sampleFrames.append(frames.upperBound)
    // Only the animated layers are evaluated at each sample, each at its own time through the
    // timings of the layers above it; none is copied (presenting the whole tree at each sample
    // took 14 s for 1,000 animated layers of 4,000 sampled 2,000 times, now 1.7 s). Counted
    // at each sample: every layer, and every value the animated ones give again (evaluating
    // them is most of the work), so that a precomposition whose every layer animates stays
    // within seconds too.
    let animated = keyPaths.indices.filter { !keyPaths[$0].isEmpty }
    let values = animated.reduce(0) { $0 + keyPaths[$1].count }
    guard spendSamplingWork(sampleFrames.count * (layers.count + values)) else { return }
    let parsed = keyPaths.map { $0.map { LayerKeyPath($0) } }
    // The values of each layer's key paths, in the order of `keyPaths[i]`.
    var samples = keyPaths.map { keys in keys.map { _ in [AnimationValue]() } }
    var scratch: [AnimationSample] = []
    for frame in sampleFrames {
      let time = component(tm.value(at: frame), 0)
      for i in animated {
        let local = timings[i].reduce(time) { $1.localTime($0) }
        let shown = layers[i].animatedStorage(atLocalTime: local, scratch: &scratch)
        for (k, path) in parsed[i].enumerated() {
          guard let v = path?.value(in: shown) else { continue }
          // A sampled value of variable size holds it again at every sample: counted by its
          // size (`sampledSize(of:)`; a 10,000-vertex morph remapped took 2,000 samples of
          // it, counted as 2,000 values, and 40 instances of a 1,000-stop gradient 6.7 GB).
          let size = Self.sampledSize(of: v)
          guard size == 0 || spendSamplingWork(size) else { return }
          samples[i][k].append(v)
        }
      }
    }
    for (i, layer) in layers.enumerated() {
      for key in layer.animationKeys { layer.removeAnimation(forKey: key) }
      if i > 0 { layer.timing = LayerTiming() }
      for (key, list) in zip(keyPaths[i], samples[i]) {
        guard list.count == sampleFrames.count else { continue }
        if list[0].kind.isDiscrete {
          addDiscrete(layer, key, values: list, frames: sampleFrames)
        } else {
          addKeyframes(
            layer, key, values: list, frames: sampleFrames,
            paces: Array(repeating: .linear, count: list.count - 1), counted: true)
        }
      }
    }
    keyPaths.removeAll()
  }

  /// A discrete animation: each value from its frame until the next.
  func addDiscrete(_ layer: Layer, _ keyPath: String, values: [AnimationValue], frames: [Double]) {
    guard let first = frames.first, let last = frames.last, last > first else { return }
    var animation = KeyframeAnimation(keyPath: keyPath)
    animation.values = values
    animation.calculationMode = .discrete
    animation.keyTimes = frames.map { ($0 - first) / (last - first) } + [1]
    animation.beginTime = first / frameRate
    animation.duration = (last - first) / frameRate
    animation.fillMode = .both
    animation.isRemovedOnCompletion = false
    layer.add(animation, forKey: "lottie.\(keyPath)")
  }
}
