import Flipbook

/// A frame with a 300 x 300 layer in perspective (the card-flip idiom, turned 0.6 rad about y)
/// against the same frame with the layer flat: the offscreen pass and the warp are the only
/// extra cost (issue 14's target: within 1.5x). The layer is a rounded gradient card with a
/// border and three sublayers, on a 480 x 400 frame at scale 2.
func perspectiveBenchmark() {
  func scene(perspective: Bool) -> Scene {
    let scene = Scene(
      size: Size(480, 400), scale: 2, duration: 4, fps: 60, backgroundColor: .white)
    let card = GradientLayer()
    card.bounds = Rect(0, 0, 300, 300)
    card.position = Point(240, 200)
    card.colors = [Color(hex: "#7986cb")!, Color(hex: "#3f51b5")!]
    card.cornerRadius = 20
    card.borderColor = .white
    card.borderWidth = 4
    for i in 0..<3 {
      let line = Layer()
      line.frame = Rect(30, 60 + Double(i) * 60, 240 - Double(i) * 40, 24)
      line.cornerRadius = 12
      line.backgroundColor = Color(white: 1, alpha: 0.8)
      card.addSublayer(line)
    }
    if perspective {
      card.transform = Transform3D.perspective(distance: 500).rotated(0.6, x: 0, y: 1, z: 0)
    }
    scene.addLayer(card)
    return scene
  }
  func time(_ s: Scene) -> Double {
    median(iterations: 100) { frame in _ = try? s.makeFrame(at: Double(frame) / 60) }
  }
  let flat = scene(perspective: false), tilted = scene(perspective: true)
  // Interleaved runs, so load from other processes falls on both alike.
  var flatTimes: [Double] = [], tiltedTimes: [Double] = []
  for _ in 0..<3 {
    flatTimes.append(time(flat))
    tiltedTimes.append(time(tilted))
  }
  let a = flatTimes.sorted()[1], b = tiltedTimes.sorted()[1]
  print("perspective-flat          \(format(a)) ms per frame  (480 x 400 at 2x, a 300 x 300 card)")
  print(
    "perspective-tilted        \(format(b)) ms per frame  (\(format(b / a))x; m34 -1/500, rotateY 0.6)"
  )
}
