import Demos
import Glibc
import Flipbook
import FlipbookTestSupport
import Testing

/// What each demo must do, checked on values rather than pictures.
@Suite struct RadarTests {
  /// The items showing at `time` (including any fading out), with their frames.
  func items(
    _ scene: Scene, at time: Double
  ) throws -> [(name: String, frame: Rect, opacity: Double)] {
    let tree = try scene.presentationTree(at: time)
    let radar = tree.sublayers[0]
    return radar.sublayers.compactMap { layer in
      guard let name = layer.name, name.hasPrefix("item-") else { return nil }
      return (name, layer.frame, layer.opacity)
    }
  }

  @Test func anItemEveryHalfSecondUpToTenThenTheOldestGoes() throws {
    let scene = Radar.makeScene()
    #expect(try items(scene, at: 0.49).isEmpty)
    #expect(try items(scene, at: 0.5).map(\.name) == ["item-0"])
    #expect(try items(scene, at: 2.6).count == 5)
    #expect(try items(scene, at: 5.0).count == 10)
    // At 5.5 s the eleventh arrives and the first starts fading out; it leaves at 6.5 s.
    let at6 = try items(scene, at: 6.0)
    #expect(at6.count == 12)
    // Halfway through its fade (Core Animation's default curve, as UIView.animate): about 0.2.
    #expect(at6.first?.name == "item-0" && at6[0].opacity > 0.05 && at6[0].opacity < 0.5)
    let at7 = try items(scene, at: 7.0)
    #expect(at7.map(\.name).first == "item-2")
    #expect(at7.filter { $0.opacity > 0.99 }.count <= 10)
  }

  @Test func itemsFadeInOverASecond() throws {
    let scene = Radar.makeScene()
    let opacities = try [0.5, 1.0, 1.5].map {
      try items(scene, at: $0).first { $0.name == "item-0" }!.opacity
    }
    #expect(opacities[0] == 0)
    #expect(opacities[1] > 0.5 && opacities[1] < 0.95)  // the default curve: about 0.8 halfway
    #expect(opacities[2] == 1)
  }

  @Test func itemsLieInTheCircleAndNeverOverlap() throws {
    let scene = Radar.makeScene()
    var t = 0.5
    while t < 7.5 {
      let live = try items(scene, at: t).filter { $0.opacity > 0.99 }
      for (i, a) in live.enumerated() {
        let dx = a.frame.midX - Radar.side / 2, dy = a.frame.midY - Radar.side / 2
        #expect((dx * dx + dy * dy).squareRoot() < (Radar.side - Radar.itemSize.width) / 2)
        for b in live[(i + 1)...] {
          #expect(!a.frame.intersects(b.frame), "\(a.name) and \(b.name) at \(t) s")
        }
      }
      t += 0.5
    }
  }

  @Test func theSeedPicksThePlaces() throws {
    func places(_ seed: UInt64) throws -> [Rect] {
      try items(Radar.makeScene(seed: seed), at: 3).map(\.frame)
    }
    #expect(try places(7) == places(7))
    #expect(try places(7) != places(8))
  }

  @Test func pulsesAreStaggeredBySixthsOfTheirDuration() throws {
    let tree = try Radar.makeScene().presentationTree(at: 1)
    let rings = tree.sublayers[0].sublayers.filter { $0.name?.hasPrefix("pulse-") == true }
    #expect(rings.count == 6)
    // Ring 0 is a quarter through (default timing); ring 2 has not begun (fill backwards: scale 0).
    #expect(rings[0].transform.m11 > 0.1 && rings[0].transform.m11 < 1.5 * 0.5)
    #expect(rings[2].transform.m11 == 0 && rings[2].opacity == 1)
  }
}

@Suite struct CradleTests {
  func centers(_ scene: Scene, at time: Double) throws -> [Point] {
    let tree = try scene.presentationTree(at: time)
    return (0..<5).map { i in tree.sublayers.first { $0.name == "ball-\(i)" }!.position }
  }

  @Test func afterTheFirstCollisionOnlyTheFarBallMoves() throws {
    let scene = NewtonsCradle.makeScene()
    let rest = try centers(scene, at: 0)
    // The first ball swings out left, comes back and strikes: find when the far ball leaves.
    var t = 0.0, struck = -1.0
    while t < 2 {
      t += 1.0 / 240
      let now = try centers(scene, at: t)
      if now[4].x > rest[4].x + 0.5 { struck = t; break }
    }
    #expect(struck > 0, "the far ball never moved")
    // Shortly after the strike: the far ball swings out right; the three middle balls are still
    // (within a small fraction of a point), and the first ball has stopped at rest.
    let after = try centers(scene, at: struck + 0.15)
    #expect(after[4].x > rest[4].x + 5)
    for i in 1...3 { #expect(abs(after[i].x - rest[i].x) < 1, "ball \(i) moved to \(after[i].x)") }
    #expect(abs(after[0].x - rest[0].x) < 1.5)
  }

  @Test func ropesFollowTheBalls() throws {
    let scene = NewtonsCradle.makeScene()
    let tree = try scene.presentationTree(at: 0.3)
    guard let ropes = tree.sublayers.first(where: { $0.name == "ropes" }) as? ShapeLayer,
      let path = ropes.path
    else {
      Issue.record("no ropes")
      return
    }
    let ends = path.elements.compactMap { e -> Point? in
      if case .line(let p) = e { return p } else { return nil }
    }
    let balls = try centers(NewtonsCradle.makeScene(), at: 0.3)
    #expect(ends.count == 5)
    for (end, ball) in zip(ends, balls) {
      #expect(abs(end.x - ball.x) < 1e-9 && abs(end.y - ball.y) < 1e-9)
    }
  }
}

@Suite struct SpinnerTests {
  @Test func eightDistinctFramesATenthOfASecondApart() throws {
    let scene = Spinner.makeScene()
    let frames = try (0..<8).map { try scene.makeFrame(at: Double($0) / 10).makeBitmap() }
    #expect(Set(frames.map(\.pixels)).count == 8)
    // The animation repeats: 0.8 s shows the first image again.
    #expect(try scene.makeFrame(at: 0.8).makeBitmap() == frames[0])
    // Each frame is the article's image k, drawn at the scene's scale.
    for k in 0..<8 {
      let image = try Spinner.frameImage(k + 1, scale: scene.scale)
      let alone = try Canvas(size: scene.size, scale: scene.scale)
      alone.clear(to: .white)
      alone.draw(image.bitmap, in: Rect(0, 0, Spinner.side, Spinner.side))
      #expect(alone.makeBitmap() == frames[k], "frame \(k)")
    }
  }

  @Test func theDarkArcIsWhereTheArticleDrawsIt() throws {
    // Frame 1: arc 1 (3...42 degrees, below the right of the center in y-down space) has
    // shade 242, the farthest arc 8 shade 128.
    let bitmap = try Spinner.frameImage(1, scale: 1).bitmap
    func pixel(atDegrees d: Double) -> RGBA8 {
      let a = d * .pi / 180
      return bitmap[Int(20 + 10 * cos(a)), Int(20 + 10 * sin(a))]
    }
    #expect(abs(Int(pixel(atDegrees: 22.5).r) - 242) <= 2)
    #expect(abs(Int(pixel(atDegrees: 337.5).r) - 128) <= 2)
  }
}

@Suite struct PeriodicDemoTests {
  @Test(arguments: ["waves", "cat", "spinner"])
  func loopsWithoutAJump(_ name: String) throws {
    // The frame after the last (the duration) is the first again, so the GIF loops seamlessly.
    let scene = try Demo.named(name)!.recipe.make()
    let first = try scene.makeFrame(at: 0).makeBitmap()
    let wrapped = try scene.makeFrame(at: scene.duration).makeBitmap()
    let differing = zip(first.pixels, wrapped.pixels).filter { abs(Int($0) - Int($1)) > 2 }.count
    #expect(differing <= first.pixels.count / 1000, "\(differing) channel values differ")
  }

  @Test func wavesBreatheBetweenTheArticlesLimits() throws {
    let scene = Waves.makeScene()
    var heights: [Double] = []
    for tick in stride(from: 0, through: 120, by: 10) {
      let tree = try scene.presentationTree(at: Double(tick) / 60)
      let wave = tree.sublayers[0].sublayers[0] as! ShapeLayer
      let ys = wave.path!.elements.compactMap { e -> Double? in
        if case .line(let p) = e, p.y < Waves.pullHeight { return p.y } else { return nil }
      }
      heights.append((ys.max()! - ys.min()!) / 2)
    }
    // Amplitude = variable x times; variable runs 1.0 -> 1.6 -> 1.0 over 120 ticks.
    #expect(abs(heights[0] - 1.0 * Waves.times) < 0.1)
    #expect(abs(heights[6] - 1.6 * Waves.times) < 0.1)
    #expect(abs(heights[12] - 1.0 * Waves.times) < 0.1)
  }
}
