import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

/// Planes in perspective drawn straight through their map (fills, gradients, text projected and
/// filled by Cairo) against what the map says and against the offscreen pass and warp.
@Suite struct PlaneProjectionTests {
  /// The card-flip idiom: m34 = −1/500, turned 0.6 rad about y.
  let tilt = Transform3D.perspective(distance: 500).rotated(0.6, x: 0, y: 1, z: 0)

  /// A 200 x 120 card at (150, 100) of a 300 x 200 canvas, drawn by `renderer` at `scale`.
  func draw(
    _ card: Layer, straight: Bool, scale: Double = 2
  ) throws -> Bitmap {
    let canvas = try Canvas(size: Size(300, 200), scale: scale)
    canvas.clear(to: .white)
    var renderer = LayerRenderer()
    renderer.drawsPlanesStraight = straight
    try renderer.draw(card, in: canvas)
    return canvas.makeBitmap()
  }

  func gradientCard() -> GradientLayer {
    let card = GradientLayer()
    card.bounds = Rect(0, 0, 200, 120)
    card.position = Point(150, 100)
    card.colors = [.black, .white]
    card.startPoint = Point(0, 0.5)
    card.endPoint = Point(1, 0.5)
    card.transform = tilt
    return card
  }

  /// The device pixel (at scale `s`) of the card's point (x, y), by hand: the card's centre is
  /// at its anchor, so dx = x − 100 and w = 1 + dx sin θ / 500.
  func projected(_ x: Double, _ y: Double, scale s: Double = 2) -> Point {
    let dx = x - 100, dy = y - 60
    let w = 1 + dx * sin(0.6) / 500
    return Point(x: (150 + dx * cos(0.6) / w) * s, y: (100 + dy / w) * s)
  }

  /// The pre-image on the card of device pixel centre (px, py), by hand (the inverse of
  /// `projected`): x = dx cos θ / w, so dx = x / (cos θ − x sin θ / 500).
  func preimage(_ px: Int, _ py: Int, scale s: Double = 2) -> Point {
    let x = (Double(px) + 0.5) / s - 150, y = (Double(py) + 0.5) / s - 100
    let dx = x / (cos(0.6) - x * sin(0.6) / 500)
    let w = 1 + dx * sin(0.6) / 500
    return Point(x: dx + 100, y: y * w + 60)
  }

  /// A horizontal black-to-white gradient foreshortens with the plane: each pixel shows the
  /// level of its own pre-image's x (255 x / 200), within a level, at the near and far sides.
  @Test func gradientsFollowThePlanesMap() throws {
    let b = try draw(gradientCard(), straight: true)
    var checked = 0
    for py in stride(from: 160, through: 240, by: 20) {
      for px in stride(from: 100, through: 500, by: 25) {
        let u = preimage(px, py)
        // Only pixels well inside the card.
        guard u.x > 3, u.x < 197, u.y > 3, u.y < 117 else { continue }
        let expected = 255 * u.x / 200
        let level = Double(b[px, py].r)
        #expect(abs(level - expected) <= 1, "pixel (\(px), \(py)) at x \(u.x)")
        checked += 1
      }
    }
    #expect(checked > 40)
    // Foreshortening, not a flat ramp: the card's middle (x = 100) is right of the middle of
    // its projected width, as the near (left, w < 1) half is stretched, and shows mid-gray.
    let left = projected(0, 60).x, right = projected(200, 60).x, middle = projected(100, 60).x
    #expect(middle > (left + right) / 2 + 10)
    #expect(abs(Double(b[Int(middle), 120].r) - 127.5) <= 1.5)
  }

  /// Corners of a solid card land where the homography puts them: 2 px inside each is the
  /// card's color, 2 px outside the background's.
  @Test func outlinesLandOnTheHomography() throws {
    let card = Layer()
    card.bounds = Rect(0, 0, 200, 120)
    card.position = Point(150, 100)
    card.backgroundColor = .red
    card.transform = tilt
    let b = try draw(card, straight: true)
    let centre = projected(100, 60)
    for (x, y) in [(0.0, 0.0), (200, 0), (200, 120), (0, 120)] {
      let c = projected(x, y)
      let (ux, uy) = (centre.x - c.x, centre.y - c.y)
      let n = (ux * ux + uy * uy).squareRoot()
      let inside = b[Int(c.x + 2 * ux / n), Int(c.y + 2 * uy / n)]
      let outside = b[Int(c.x - 2 * ux / n), Int(c.y - 2 * uy / n)]
      #expect(inside == RGBA8(255, 0, 0, 255), "corner (\(x), \(y))")
      #expect(outside == RGBA8(255, 255, 255, 255), "corner (\(x), \(y))")
    }
  }

  /// The straight drawing and the offscreen pass and warp show the same card: a gradient with a
  /// border, rounded corners, a rounded sublayer, a masked sublayer and text. Away from edges
  /// (where the warp's resampling softens them) they agree within a few levels.
  @Test func straightDrawingMatchesTheOffscreenWarp() throws {
    let card = gradientCard()
    card.colors = [Color(hex: "#3f51b5")!, Color(hex: "#ffb74d")!]
    card.cornerRadius = 16
    card.borderColor = .white
    card.borderWidth = 4
    let pill = Layer()
    pill.frame = Rect(20, 20, 120, 24)
    pill.cornerRadius = 12
    pill.backgroundColor = Color(white: 1, alpha: 0.7)
    let dot = Layer()
    dot.frame = Rect(150, 20, 30, 30)
    dot.backgroundColor = .black
    let round = ShapeLayer()
    round.path = Path(ellipseIn: Rect(0, 0, 30, 30))
    round.fillColor = .white
    dot.mask = round
    let label = TextLayer()
    label.frame = Rect(0, 60, 200, 40)
    label.string = "Flip"
    label.fontSize = 28
    label.alignmentMode = .center
    label.foregroundColor = .white
    for sublayer in [pill, dot, label] { card.addSublayer(sublayer) }
    #expect(LayerRenderer().canDrawStraight(card))

    let straight = try draw(card, straight: true)
    let warped = try draw(card, straight: false)
    var differences: [Int] = []
    for y in 0..<straight.height {
      for x in 0..<straight.width {
        let a = straight[x, y], b = warped[x, y]
        differences.append(
          max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))))
      }
    }
    let sorted = differences.sorted()
    let mean = Double(differences.reduce(0, +)) / Double(differences.count)
    // Edges differ (the warp resamples them); the rest agrees.
    #expect(mean < 1.5, "mean difference \(mean)")
    #expect(
      sorted[sorted.count * 97 / 100] <= 3, "97th percentile \(sorted[sorted.count * 97 / 100])")
  }

  /// What needs the plane's pixels first goes offscreen; fills, gradients, text, masks of them
  /// and opacity go straight.
  @Test func onlyFillsAndTextGoStraight() throws {
    let renderer = LayerRenderer()
    func card(_ change: (Layer) -> Void) -> Layer {
      let l = Layer()
      l.bounds = Rect(0, 0, 100, 100)
      l.backgroundColor = .red
      l.borderWidth = 2
      l.borderColor = .blue
      l.transform = tilt
      change(l)
      return l
    }
    #expect(renderer.canDrawStraight(card { _ in }))
    #expect(renderer.canDrawStraight(card { $0.opacity = 0.5 }))
    #expect(renderer.canDrawStraight(card { $0.compositingFilter = .multiply }))
    #expect(!renderer.canDrawStraight(card { $0.shadowOpacity = 0.5 }))
    let stroked = ShapeLayer()
    stroked.path = Path(rect: Rect(0, 0, 10, 10))
    stroked.strokeColor = .black
    #expect(!renderer.canDrawStraight(card { $0.addSublayer(stroked) }))
    stroked.lineWidth = 0
    #expect(renderer.canDrawStraight(card { $0.addSublayer(stroked) }))
    let image = Layer()
    image.contents = Image(Bitmap(width: 2, height: 2))
    #expect(!renderer.canDrawStraight(card { $0.addSublayer(image) }))
    let turned = Layer()
    turned.transform = tilt
    #expect(!renderer.canDrawStraight(card { $0.addSublayer(turned) }))
    #expect(!renderer.canDrawStraight(card { $0.addSublayer(ReplicatorLayer()) }))
    let blurred = Layer()
    blurred.filters = [.gaussianBlur(radius: 2)]
    #expect(!renderer.canDrawStraight(card { $0.addSublayer(blurred) }))
    #expect(!renderer.canDrawStraight(card { $0.mask = turned }))
    var off = renderer
    off.drawsPlanesStraight = false
    #expect(!off.canDrawStraight(card { _ in }))
  }
}
