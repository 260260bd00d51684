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
    func collect(_ l: Layer) {
      layers.append(l)
      if let mask = l.mask { collect(mask) }
      l.sublayers.forEach(collect)
    }
    collect(container)
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
    guard spendSamplingWork(sampleFrames.count * layers.count) else { return }
    // Every layer's hidden flag too, when something under it is shown and hidden in time.
    var values = layers.map { _ in [String: [AnimationValue]]() }
    for frame in sampleFrames {
      let time = component(tm.value(at: frame), 0)
      let shown = container.presentation(at: time)
      var presented: [Layer] = []
      func collectShown(_ l: Layer) {
        presented.append(l)
        if let mask = l.mask { collectShown(mask) }
        l.sublayers.forEach(collectShown)
      }
      collectShown(shown)
      guard presented.count == layers.count else { return }
      for (i, keys) in keyPaths.enumerated() {
        for key in keys {
          if let v = presented[i].value(forKeyPath: key) { values[i][key, default: []].append(v) }
        }
      }
    }
    for (i, layer) in layers.enumerated() {
      for key in layer.animationKeys { layer.removeAnimation(forKey: key) }
      if i > 0 { layer.timing = LayerTiming() }
      for key in keyPaths[i] {
        guard let list = values[i][key], list.count == sampleFrames.count else { continue }
        if list[0].kind.isDiscrete {
          addDiscrete(layer, key, values: list, frames: sampleFrames)
        } else {
          addKeyframes(
            layer, key, values: list, frames: sampleFrames,
            paces: Array(repeating: .linear, count: list.count - 1))
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
