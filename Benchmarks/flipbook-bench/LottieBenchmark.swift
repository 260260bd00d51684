import Flipbook
import Glibc

/// `lottie-frames FILE [ROUNDS]`: Flipbook's time to evaluate and draw each frame of a Lottie
/// file, as `Benchmarks/lottie_compare.py` compares it with rlottie's: every frame the file
/// shows (scene times i / fr for i = 0 ..< op - ip), at the file's `w` x `h` (scale 1), on one
/// thread, a new canvas a frame (rlottie renders each frame into a new buffer too).
/// Reading the file is timed apart. Prints `load MS frame MS cpu MS frames N`: the load time,
/// the fastest round's mean wall time per frame and the least CPU time (the process's, user and
/// system) per frame of a round, in milliseconds.
func lottieFramesBenchmark(_ args: [String]) {
  guard let path = args.first, args.count <= 2 else {
    print("usage: flipbook-bench lottie-frames FILE [ROUNDS]")
    return
  }
  let rounds = args.count == 2 ? Swift.max(1, Int(args[1]) ?? 1) : 1
  let clock = ContinuousClock()
  func ms(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
  }
  do {
    var loaded: SceneDocument.Loaded? = nil
    let load = try clock.measure { loaded = try SceneDocument.load(contentsOf: path) }
    guard let scene = loaded?.scene else { return }
    let count = Swift.max(1, Int((scene.duration * scene.fps).rounded()))
    var best = Double.infinity, bestCPU = Double.infinity
    for _ in 0..<rounds {
      let cpu = processCPUMilliseconds()
      let elapsed = try clock.measure {
        for i in 0..<count { _ = try scene.makeFrame(at: Double(i) / scene.fps, scale: 1) }
      }
      best = Swift.min(best, ms(elapsed) / Double(count))
      bestCPU = Swift.min(bestCPU, (processCPUMilliseconds() - cpu) / Double(count))
    }
    print(
      "load \(format4(ms(load))) frame \(format4(best)) cpu \(format4(bestCPU)) frames \(count)")
  } catch {
    print("lottie-frames failed: \(error)")
    exit(1)
  }
}
