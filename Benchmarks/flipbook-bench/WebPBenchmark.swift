import Flipbook

/// The frames of a fixture scene at 1x and its own rate, at most `limit` of them.
func sceneFrames(_ name: String, limit: Int = 60) -> (frames: [Bitmap], fps: Double) {
  guard let scene = try? SceneFormat.load(contentsOf: "Fixtures/scenes/\(name).json") else {
    return ([], 1)
  }
  let count = min(limit, Int((scene.duration * scene.fps).rounded(.up)))
  let frames = (0..<count).compactMap {
    try? scene.makeFrame(at: Double($0) / scene.fps).makeBitmap()
  }
  return (frames, scene.fps)
}

/// The grid of libwebp animation settings `WebP.Options`' defaults were chosen from: bytes and
/// encoding time of each, lossless and lossy, on the fixture scenes' frames.
func webpGridBenchmark() {
  var variants: [(String, WebP.Options)] = []
  for method in [4, 6] {
    for minimize in [false, true] {
      var o = WebP.Options()
      (o.method, o.minimizeSize) = (method, minimize)
      variants.append(("lossless m\(method)\(minimize ? " min" : "")", o))
    }
  }
  var spaced = WebP.Options()
  spaced.keyFrameSpacing = 1...1000
  variants.append(("lossless m4 no-keyframes", spaced))
  for mixed in [false, true] {
    var o = WebP.Options(quality: 90)
    o.allowMixed = mixed
    variants.append(("q90\(mixed ? " mixed" : "")", o))
  }
  for name in ["radar-pulses", "animation-kinds", "readme-animated", "cat"] {
    let (frames, fps) = sceneFrames(name)
    guard let first = frames.first else { continue }
    let stamps = WebP.timestamps(frameCount: frames.count, fps: fps)
    for (label, options) in variants {
      // One run each (libwebp is deterministic; the slow settings take seconds).
      var bytes = 0
      let elapsed = ContinuousClock().measure {
        guard
          let e = try? WebP.AnimationEncoder(
            width: first.width, height: first.height, options: options)
        else { return }
        for (i, f) in frames.enumerated() { try? e.add(f, timestamp: stamps[i]) }
        bytes = (try? e.assemble(endTimestamp: stamps.last!).count) ?? 0
      }
      let ms =
        Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
      print(
        "webp \(name.padded(16)) \(label.padded(26)) \(bytes) bytes  \(format(ms)) ms"
          + "  (\(frames.count) frames)"
      )
    }
  }
}
