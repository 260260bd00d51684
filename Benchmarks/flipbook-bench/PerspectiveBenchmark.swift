import Flipbook

/// What the perspective benchmark's card is made of.
enum PerspectiveCard: CaseIterable {
  /// The rounded gradient card with a border and three sublayers.
  case full
  /// The same with a solid color instead of the gradient.
  case solid
  /// The gradient card alone: no border, no sublayers.
  case gradient
  /// The gradient card with its border, no sublayers.
  case gradientAndBorder
  /// The rounded solid card alone.
  case bare

  var name: String {
    switch self {
    case .full: "gradient, border, sublayers"
    case .solid: "solid color, border, sublayers"
    case .gradient: "gradient alone"
    case .gradientAndBorder: "gradient and border"
    case .bare: "solid color alone"
    }
  }
}

/// A 480 x 400 frame at scale 2 with one 300 x 300 card, flat or in perspective (the card-flip
/// idiom, m34 = -1/500, turned 0.6 rad about y).
func perspectiveScene(tilted: Bool, card kind: PerspectiveCard = .full) -> Scene {
  let scene = Scene(
    size: Size(480, 400), scale: 2, duration: 4, fps: 60, backgroundColor: .white)
  let card = GradientLayer()
  card.bounds = Rect(0, 0, 300, 300)
  card.position = Point(240, 200)
  if kind == .solid || kind == .bare {
    card.backgroundColor = Color(hex: "#3f51b5")!
  } else {
    card.colors = [Color(hex: "#7986cb")!, Color(hex: "#3f51b5")!]
  }
  card.cornerRadius = 20
  if kind == .full || kind == .solid || kind == .gradientAndBorder {
    card.borderColor = .white
    card.borderWidth = 4
  }
  if kind == .full || kind == .solid {
    for i in 0..<3 {
      let line = Layer()
      line.frame = Rect(30, 60 + Double(i) * 60, 240 - Double(i) * 40, 24)
      line.cornerRadius = 12
      line.backgroundColor = Color(white: 1, alpha: 0.8)
      card.addSublayer(line)
    }
  }
  if tilted {
    card.transform = Transform3D.perspective(distance: 500).rotated(0.6, x: 0, y: 1, z: 0)
  }
  scene.addLayer(card)
  return scene
}

/// The median time of a frame of `scene`, in milliseconds, over 100 frames.
private func frameTime(_ scene: Scene) -> Double {
  median(iterations: 100) { frame in _ = try? scene.makeFrame(at: Double(frame) / 60) }
}

/// Flat and tilted frames of `card`, interleaved (so load from other processes falls on both
/// alike) for three rounds: the median round of each, in milliseconds.
private func flatAndTilted(_ card: PerspectiveCard) -> (flat: Double, tilted: Double) {
  let flat = perspectiveScene(tilted: false, card: card)
  let tilted = perspectiveScene(tilted: true, card: card)
  var flatTimes: [Double] = [], tiltedTimes: [Double] = []
  for _ in 0..<3 {
    flatTimes.append(frameTime(flat))
    tiltedTimes.append(frameTime(tilted))
  }
  return (flatTimes.sorted()[1], tiltedTimes.sorted()[1])
}

/// A frame with a 300 x 300 layer in perspective (the card-flip idiom, turned 0.6 rad about y)
/// against the same frame with the layer flat (issue 14's target: within 1.5x). The layer is a
/// rounded gradient card with a border and three sublayers, on a 480 x 400 frame at scale 2.
func perspectiveBenchmark() {
  let (a, b) = flatAndTilted(.full)
  print("perspective-flat          \(format(a)) ms per frame  (480 x 400 at 2x, a 300 x 300 card)")
  print(
    "perspective-tilted        \(format(b)) ms per frame  (\(format(b / a))x; m34 -1/500, rotateY 0.6)"
  )
}

/// The perspective benchmark's card taken apart: flat and tilted times of each part, and what
/// the tilt adds.
func perspectivePartsBenchmark() {
  for card in PerspectiveCard.allCases {
    let (a, b) = flatAndTilted(card)
    print(
      "perspective \(card.name.padded(31)) flat \(format(a)) ms, tilted \(format(b)) ms"
        + " (+\(format(b - a)) ms, \(format(b / a))x)")
  }
}

/// Only the tilted frame of the perspective benchmark, 500 of them: a steady load for
/// `perf record`.
func perspectiveTiltedBenchmark() {
  let tilted = perspectiveScene(tilted: true)
  var times: [Double] = []
  for _ in 0..<5 { times.append(frameTime(tilted)) }
  print("perspective-tilted        \(format(times.sorted()[2])) ms per frame (median of 5 x 100)")
}
