import Flipbook

/// The blur of a 300 x 300 shape with σ = 20 px (issue 12's figure: under 2 ms at 1x).
func blurBenchmark() {
  // A rounded square filling the 300 x 300 mask, drawn by Cairo as a shadow shape would be.
  guard let canvas = try? Canvas(pixelWidth: 300, pixelHeight: 300) else { return }
  canvas.fill(Path(roundedRect: Rect(0, 0, 300, 300), cornerRadius: 24), with: .black)
  let pixels = canvas.makeBitmap().pixels
  let alpha = (0..<(300 * 300)).map { pixels[$0 * 4 + 3] }
  let mask = AlphaMask(width: 300, height: 300, pixels: alpha)
  var sink = 0
  let ms = median(iterations: 60) { _ in sink += Int(mask.blurred(sigma: 20).pixels[200 * 460]) }
  print(
    "blur-300-sigma-20         \(format(ms)) ms per blur  (300 x 300 shape, σ 20 px, 460 x 460 out; checksum \(sink > 0))"
  )
}

/// Twenty moving cards on a 640 x 480 frame at 1x, with and without shadows (issue 12's figure:
/// with cached shadows, under twice the time without).
func shadowsBenchmark() {
  func scene(shadows: Bool, path: Bool) -> Scene {
    let scene = Scene(size: Size(640, 480), duration: 4, fps: 60, backgroundColor: .white)
    for i in 0..<20 {
      let card = Layer()
      card.bounds = Rect(0, 0, 110, 70)
      card.position = Point(80 + Double(i % 5) * 120, 70 + Double(i / 5) * 110)
      card.cornerRadius = 10
      card.backgroundColor = Color(white: 0.97)
      card.borderWidth = 1
      card.borderColor = Color(white: 0.85)
      if shadows {
        card.shadowOpacity = 0.3
        card.shadowRadius = 8
        card.shadowOffset = Size(0, 4)
        if path { card.shadowPath = Path(roundedRect: card.bounds, cornerRadius: 10) }
      }
      var move = BasicAnimation(keyPath: "position.x")
      move.byValue = 40
      move.duration = 4
      card.add(move, forKey: nil)
      var fade = BasicAnimation(keyPath: "opacity")
      (fade.fromValue, fade.toValue) = (1, 0.6)
      fade.duration = 4
      card.add(fade, forKey: nil)
      scene.addLayer(card)
    }
    return scene
  }
  let medians = alternatingMedians(
    [
      scene(shadows: false, path: false), scene(shadows: true, path: false),
      scene(shadows: true, path: true),
    ], warmUp: 3, frames: 120, fps: 60)
  let (plain, alpha, path) = (medians[0], medians[1], medians[2])
  print(
    "shadows-20-cards-none     \(format(plain)) ms per frame  (640 x 480, 20 moving, fading cards)")
  print(
    "shadows-20-cards-alpha    \(format(alpha)) ms per frame  (\(format(alpha / plain))x; shape from the drawn alpha, cached)"
  )
  print(
    "shadows-20-cards-path     \(format(path)) ms per frame  (\(format(path / plain))x; shadowPath, cached)"
  )
}

/// Colour-map filters against the blur, on 20 full-frame 1000 x 1000 layers of a few colours
/// (a disc over a background, anti-aliased at its edge), each filtered on its own: tint and
/// tritone map each distinct pixel once through a table (they mapped every pixel, three
/// blurs' time: 63 such layers took 6 to 8 s, now 0.7 s). The scenes take turns frame by frame.
func filtersBenchmark() {
  func scene(_ filter: LayerFilter?) -> Scene {
    let scene = Scene(size: Size(1000, 1000), duration: 1, fps: 10, backgroundColor: .white)
    for i in 0..<20 {
      let layer = Layer()
      layer.frame = Rect(0, 0, 1000, 1000)
      layer.backgroundColor = Color(red: 0.2, green: 0.3 + Double(i) / 100, blue: 0.6)
      let disc = Layer()
      disc.frame = Rect(200 + Double(i) * 10, 200, 500, 500)
      disc.cornerRadius = 250
      disc.backgroundColor = Color(red: 0.9, green: 0.5, blue: 0.1)
      layer.addSublayer(disc)
      if let filter { layer.filters = [filter] }
      scene.addLayer(layer)
    }
    return scene
  }
  let black = Color(red: 0.1, green: 0, blue: 0.2), white = Color(red: 1, green: 0.9, blue: 0.6)
  let cases: [(String, LayerFilter?)] = [
    ("none", nil), ("tint", .tint(black: black, white: white, amount: 0.8)),
    ("tritone", .tritone(bright: white, midtone: .gray, dark: black, amount: 1)),
    ("blur-10", .gaussianBlur(radius: 10)),
  ]
  let medians = alternatingMedians(cases.map { scene($0.1) }, warmUp: 1, frames: 9, fps: 10)
  for (k, (name, _)) in cases.enumerated() {
    let label = ("filters-20-layers-" + name).padding(toLength: 26, withPad: " ", startingAt: 0)
    print(
      "\(label)\(format(medians[k])) ms per frame  (1000 x 1000; \(format(medians[k] / medians[0]))x none)"
    )
  }
}

/// The median time of a frame of each scene, in milliseconds: frames 0 ..< `frames` at `fps`,
/// after `warmUp` frames at time 0, the scenes taking turns frame by frame so that a machine
/// loaded by other work slows them alike and the ratios stay meaningful.
func alternatingMedians(_ scenes: [Scene], warmUp: Int, frames: Int, fps: Double) -> [Double] {
  let clock = ContinuousClock()
  var samples = Array(repeating: [Double](), count: scenes.count)
  for frame in -warmUp..<frames {
    for (k, s) in scenes.enumerated() {
      let elapsed = clock.measure { _ = try? s.makeFrame(at: Double(Swift.max(0, frame)) / fps) }
      if frame >= 0 {
        samples[k].append(
          Double(elapsed.components.seconds) * 1e3
            + Double(elapsed.components.attoseconds) * 1e-15)
      }
    }
  }
  return samples.map { $0.sorted()[$0.count / 2] }
}
