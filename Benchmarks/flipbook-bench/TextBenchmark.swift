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

/// Wrapped text laid out from nothing: 30,000 characters of short words wrapped in a box 1
/// point wide (a line a word), replicated 5 times (630,000 characters counted an instance), and
/// a line of 5,000 tabs (255,000): near the most a frame draws, what the frame's text limit
/// (`TextLayout.maximumCharactersPerFrame`) is measured against. Once, with nothing cached.
func wrappedTextBenchmark() {
  let scene = Scene(size: Size(200, 100))
  let copies = ReplicatorLayer()
  copies.frame = Rect(0, 0, 100, 50)
  let narrow = TextLayer()
  narrow.string = String(repeating: "xy ", count: 10_000)
  narrow.fontSize = 10
  narrow.isWrapped = true
  narrow.frame = Rect(0, 0, 1, 50)
  copies.addSublayer(narrow)
  copies.instanceCount = 5
  scene.addLayer(copies)
  let tabs = TextLayer()
  tabs.string = String(repeating: "\t", count: 5_000)
  tabs.fontSize = 12
  tabs.frame = Rect(0, 50, 200, 50)
  scene.addLayer(tabs)
  let clock = ContinuousClock()
  var failure: (any Error)? = nil
  let time = clock.measure {
    do { _ = try scene.makeFrame(at: 0) } catch { failure = error }
  }
  if let failure {
    print("text-wrapped failed: \(failure)")
    return
  }
  let ms = Double(time.components.attoseconds) * 1e-15 + Double(time.components.seconds) * 1e3
  print(
    "text-wrapped              \(format(ms)) ms  (30,000 characters wrapped 1 point wide x 5, "
      + "5,000 tabs; laid out once)")
}
