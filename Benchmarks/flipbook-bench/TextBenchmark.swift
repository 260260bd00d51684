import Flipbook

/// `Benchmarks/scenes/labels-50.json` (50 static two-line labels, 640 x 480 at 1x) rendered
/// frame after frame once laid out: what a frame costs when labels only sit there (the text
/// engine's cache means no shaping per frame). The floor is `Benchmarks/pango-labels.c`, the
/// same labels drawn by PangoCairo directly.
func textBenchmark() {
  let path =
    CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "Benchmarks/scenes/labels-50.json"
  do {
    let scene = try SceneFormat.load(contentsOf: path)
    let clock = ContinuousClock()
    let first = clock.measure { _ = try? scene.makeFrame(at: 0) }
    let firstMs =
      Double(first.components.attoseconds) * 1e-15 + Double(first.components.seconds) * 1e3
    let ms = median(iterations: 50) { _ in
      for i in 0..<10 { _ = try? scene.makeFrame(at: Double(i) / 30) }
    }
    print(
      "text-50-labels            \(format(ms / 10)) ms per frame  (50 static labels, 640x480 "
        + "at 1x, laid out; first frame with layout \(format(firstMs)) ms)"
    )
  } catch {
    print("text failed: \(error)")
  }
}
