import ImageComparison
import Flipbook
import Glibc

/// Comparing two 1920 x 1080 frames (the budget: under 10 ms): identical frames, two
/// successive frames of an animation (edges moved: the anti-aliasing checks run), and two
/// unrelated pictures (every pixel over the threshold: the worst case).
func diffBenchmark() {
  let scene = Scene(size: Size(1920, 1080), duration: 4, fps: 60, backgroundColor: .white)
  for i in 0..<24 {
    let ring = Layer()
    ring.bounds = Rect(0, 0, 400, 400)
    ring.position = Point(Double(160 + (i % 8) * 230), Double(200 + (i / 8) * 340))
    ring.cornerRadius = 200
    ring.borderWidth = 3
    ring.borderColor = Color(red: 0.2, green: 0.4, blue: 0.8)
    ring.backgroundColor = Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.3)
    var scale = BasicAnimation(keyPath: "transform.scale")
    scale.fromValue = 0.2
    scale.toValue = 1
    scale.duration = 4
    ring.add(scale, forKey: "grow")
    scene.addLayer(ring)
  }
  guard let a = try? scene.makeFrame(at: 1).makeBitmap(),
    let b = try? scene.makeFrame(at: 1 + 1.0 / 60).makeBitmap()
  else { return }
  var black = Bitmap(width: 1920, height: 1080)
  for i in stride(from: 3, to: black.pixels.count, by: 4) { black.pixels[i] = 255 }
  var copy = a
  copy.pixels[0] = a.pixels[0]  // its own buffer, so "identical" compares memory, not a pointer
  for (name, x, y) in [("identical", a, copy), ("next-frame", a, b), ("all-differ", a, black)] {
    var summary = ""
    var cpu: [Double] = []
    let ms = median(iterations: 11) { _ in
      let before = processCPUMilliseconds()
      summary = (try? ImageDiff(expected: x, actual: y))?.summary ?? "size mismatch"
      cpu.append(processCPUMilliseconds() - before)
    }
    let cpuMedian = cpu.sorted()[cpu.count / 2]
    print(
      "diff-\(name.padded(21))\(format(ms)) ms per 1920x1080 comparison, \(format(cpuMedian)) ms of CPU"
        + "  (\(summary))")
  }
}

/// The CPU time the process has used, all its threads together, in milliseconds: unlike the wall
/// time, it does not grow when other processes take the cores (on a shared machine, a
/// comparison's wall time is this divided by the share of the cores it gets).
func processCPUMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) * 1e-6
}
