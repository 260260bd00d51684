import Flipbook

/// The frames the render-only comparison uses: `count` frames of `scene` at its fps, at `scale`.
func frameTimes(_ scene: Scene, count: Int) -> [Double] {
  (0..<count).map { Double($0) / scene.fps }
}

/// `record SCENE SCALE FRAMES OUT`: writes the Cairo calls of each frame for cairo-replay.
func recordBenchmark(_ args: [String]) {
  guard args.count == 4, let scale = Double(args[1]), let count = Int(args[2]) else {
    print("usage: flipbook-bench record SCENE SCALE FRAMES OUT")
    return
  }
  do {
    let scene = try SceneFormat.load(contentsOf: args[0])
    var lines: [String] = []
    for t in frameTimes(scene, count: count) {
      let tree = try scene.presentationTree(at: t)
      let canvas = try Canvas(size: scene.size, scale: scale)
      lines.append("frame \(canvas.pixelWidth) \(canvas.pixelHeight) \(scale)")
      canvas.startRecording()
      try scene.render(tree, into: canvas)
      lines += canvas.stopRecording()
    }
    try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: args[3])
  } catch {
    print("record failed: \(error)")
  }
}

/// `render-only SCENE SCALE FRAMES`: the median over 9 rounds of Flipbook's time per frame to
/// evaluate and draw (a new canvas per frame, as cairo-replay makes), in milliseconds.
func renderOnlyBenchmark(_ args: [String]) {
  guard args.count == 3, let scale = Double(args[1]), let count = Int(args[2]) else {
    print("usage: flipbook-bench render-only SCENE SCALE FRAMES")
    return
  }
  do {
    let scene = try SceneFormat.load(contentsOf: args[0])
    let times = frameTimes(scene, count: count)
    let ms = median(iterations: 9) { _ in
      for t in times { _ = try? scene.makeFrame(at: t, scale: scale) }
    }
    print(String(format4(ms / Double(count))))
  } catch {
    print("render-only failed: \(error)")
  }
}

func format4(_ x: Double) -> String { "\((x * 10000).rounded() / 10000)" }
