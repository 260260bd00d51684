// Flipbook's benchmarks. Run them in a release build:
//
//   swift run -c release flipbook-bench [case ...]
//
// Each case prints one line: its name, the median time per iteration and what it measured.
// BENCHMARKS.md records the figures with the machine and the date.
import Flipbook
import Glibc

/// Times `body` `iterations` times after a warm-up and returns the median, in milliseconds.
func median(iterations: Int, _ body: (Int) -> Void) -> Double {
  for i in 0..<3 { body(i) }
  let clock = ContinuousClock()
  var samples: [Double] = []
  for i in 0..<iterations {
    let elapsed = clock.measure { body(i) }
    samples.append(
      Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
  }
  return samples.sorted()[samples.count / 2]
}

func format(_ x: Double) -> String {
  "\((x * 1000).rounded() / 1000)"
}

/// 1,000 layers, each with a group of three animations (a basic scale, a keyframe opacity and a
/// cubic keyframe position), evaluated to a presentation tree at successive frame times.
func presentationBenchmark() {
  let scene = Scene(size: Size(640, 640), duration: 4, fps: 60)
  for i in 0..<1000 {
    let layer = Layer()
    layer.bounds = Rect(0, 0, 10, 10)
    layer.position = Point(Double(i % 40) * 16, Double(i / 40) * 16)
    var scale = BasicAnimation(keyPath: "transform.scale")
    (scale.fromValue, scale.toValue) = (0, 1.5)
    var opacity = KeyframeAnimation(keyPath: "opacity")
    (opacity.values, opacity.keyTimes) = ([1, 0.7, 0], [0, 0.5, 1])
    var position = KeyframeAnimation(keyPath: "position")
    position.values = (0..<5).map { .point(Double($0 * 10), Double(i % 7)) }
    position.calculationMode = .cubic
    var group = AnimationGroup([scale, opacity, position])
    group.duration = 4
    group.beginTime = Double(i % 6) * 4 / 6
    group.repeatCount = .infinity
    group.fillMode = .backwards
    group.timingFunction = .default
    layer.add(group, forKey: "pulse")
    scene.addLayer(layer)
  }
  var sink = 0.0
  let ms = median(iterations: 240) { frame in
    guard let tree = try? scene.presentationTree(at: Double(frame) / 60) else { return }
    sink += tree.sublayers[frame % 1000].opacity
  }
  print(
    "presentation-1000-layers  \(format(ms)) ms per frame  (1,000 layers x group of 3 animations; checksum \(sink > 0))"
  )
}

/// One 10,000-keyframe linear animation, prepared as a layer prepares it, sampled at increasing
/// times: the lookup cost per sample (a binary search).
func keyframeLookupBenchmark() {
  var a = KeyframeAnimation(keyPath: "opacity")
  a.values = (0..<10_000).map { .scalar(Double($0 % 17)) }
  a.duration = 10
  let prepared = PreparedAnimation(a, target: { _ in 0 })
  let model = AnimationValue.scalar(0)
  var sink = 0.0
  var buffer: [AnimationSample] = []
  let ms = median(iterations: 50) { _ in
    for i in 0..<1000 {
      buffer.removeAll(keepingCapacity: true)
      prepared.appendSamples(at: Double(i) / 100, into: &buffer)
      if case .scalar(let x) = buffer[0].value(model: model, underlying: model) { sink += x }
    }
  }
  print(
    "keyframe-lookup-10k       \(format(ms * 1000)) ns per sample  (10,000 keyframes; checksum \(sink > 0))"
  )
}

let cases: [String: () -> Void] = [
  "presentation": presentationBenchmark,
  "keyframes": keyframeLookupBenchmark,
  "png": pngBenchmark,
  "dynamics": dynamicsBenchmark,
  "dynamics-cradle-plain": plainCradleBenchmark,
  "png-grid": pngGridBenchmark,
  "diff": diffBenchmark,
  "gif-encode": gifEncodeBenchmark,
  "image-draw": imageDrawBenchmark,
  "text": textBenchmark,
  "text-wrapped": wrappedTextBenchmark,
  "blur": blurBenchmark,
  "shadows": shadowsBenchmark,
  "filters": filtersBenchmark,
  "perspective": perspectiveBenchmark,
  "perspective-parts": perspectivePartsBenchmark,
  "perspective-tilted": perspectiveTiltedBenchmark,
  "webp-grid": webpGridBenchmark,
]
let asked = CommandLine.arguments.dropFirst()
// Cases with arguments, used by scripts/bench.
if let first = asked.first, first == "text" {
  textBenchmark()
  exit(0)
}
if let first = asked.first, first == "lottie-frames" {
  lottieFramesBenchmark(Array(asked.dropFirst()))
  exit(0)
}
if let first = asked.first, first == "record" || first == "render-only" {
  let rest = Array(asked.dropFirst())
  if first == "record" { recordBenchmark(rest) } else { renderOnlyBenchmark(rest) }
  exit(0)
}
for name
  in (asked.isEmpty
  ? [
    "presentation", "keyframes", "png", "dynamics", "diff", "gif-encode", "image-draw", "blur",
    "shadows", "perspective",
  ] : Array(asked))
{
  guard let run = cases[name] else {
    print("unknown benchmark \(name); cases: \(cases.keys.sorted().joined(separator: ", "))")
    continue
  }
  run()
}

extension String {
  /// The string padded with spaces to `width` characters, for aligned output.
  func padded(_ width: Int) -> String {
    self + String(repeating: " ", count: Swift.max(0, width - count))
  }
}
