import Demos
import Flipbook
import FlipbookTestSupport
import Testing

/// The scene-file versions of the demos (`Fixtures/scenes/`) show what the Swift demos show.
@Suite struct SceneFileVersionTests {
  static func load(_ name: String) throws -> Scene {
    try SceneFormat.load(contentsOf: "\(FixtureFiles.root)/scenes/\(name).json")
  }

  /// The spinner's scene file plays PNGs of the article's eight drawings, made by
  /// `Spinner.frameImage` (re-recorded like goldens: `FLIPBOOK_RECORD`).
  @Test(arguments: 1...8)
  func spinnerImagesAreTheArticlesDrawings(_ frame: Int) throws {
    let image = try Spinner.frameImage(frame, scale: 3)
    let name = "spinner-\(frame)"
    if let failure = Golden.check(
      image.bitmap, against: "\(FixtureFiles.root)/scenes/spinner/\(name).png")
    {
      Issue.record(Comment(rawValue: failure))
    }
  }

  @Test(arguments: ["spinner", "cat", "shimmer", "activity", "lift"])
  func sceneFileDrawsWhatSwiftDraws(_ name: String) throws {
    let file = try Self.load(name), swift = try Demo.named(name)!.recipe.make()
    #expect(
      file.size == swift.size && file.scale == swift.scale && file.duration == swift.duration
        && file.fps == swift.fps)
    var t = 0.0
    while t < swift.duration {
      let a = try file.makeFrame(at: t).makeBitmap(), b = try swift.makeFrame(at: t).makeBitmap()
      let differing = zip(a.pixels, b.pixels).filter { abs(Int($0) - Int($1)) > 2 }.count
      #expect(differing == 0, "\(name) at \(t) s: \(differing) channel values differ")
      t += 0.1
    }
  }

  @Test func cradleSceneFileSwingsLikeTheDemo() throws {
    // The scene file has no ropes (a path updated per frame is not expressible in it); the balls
    // and anchors are the same layers and behaviors.
    let file = try Self.load("cradle"), swift = NewtonsCradle.makeScene()
    for t in [0.0, 0.5, 1.25, 2.5, 4] {
      let a = try file.presentationTree(at: t), b = try swift.presentationTree(at: t)
      for name in (0..<5).flatMap({ ["ball-\($0)", "anchor-\($0)"] }) {
        let la = a.sublayers.first { $0.name == name }!, lb = b.sublayers.first { $0.name == name }!
        #expect(
          abs(la.position.x - lb.position.x) < 1e-9 && abs(la.position.y - lb.position.y) < 1e-9,
          "\(name) at \(t) s")
        #expect(
          la.bounds == lb.bounds && la.backgroundColor == lb.backgroundColor
            && la.borderWidth == lb.borderWidth)
      }
    }
  }

  @Test func radarSceneFilePulsesLikeTheDemo() throws {
    // radar-pulses.json is the radar without its timer (items need the Swift API's `every`).
    let file = try Self.load("radar-pulses"), swift = Radar.makeScene()
    for t in [0.0, 0.4, 1.7, 4, 6.3] {
      let a = try file.presentationTree(at: t), b = try swift.presentationTree(at: t)
      let ringsA = a.sublayers[0].sublayers.filter { $0.name?.hasPrefix("pulse-") == true }
      let ringsB = b.sublayers[0].sublayers.filter { $0.name?.hasPrefix("pulse-") == true }
      #expect(ringsA.count == 6 && ringsB.count == 6)
      for (ra, rb) in zip(ringsA, ringsB) {
        #expect(
          abs(ra.opacity - rb.opacity) < 1e-9 && abs(ra.transform.m11 - rb.transform.m11) < 1e-9,
          "\(ra.name ?? "") at \(t) s")
        #expect(
          ra.bounds == rb.bounds && ra.cornerRadius == rb.cornerRadius
            && ra.borderWidth == rb.borderWidth)
      }
    }
  }
}
