import Flipbook
import FlipbookTestSupport
import Testing

/// The README's Swift example draws exactly what its scene file draws.
@Suite struct ReadmeExampleTests {
  @Test func swiftAndSceneFileDrawTheSamePixels() throws {
    // The README's code, as printed there.
    let scene = Scene(size: Size(240, 140), scale: 2, backgroundColor: .white)

    let card = Layer()
    card.bounds = Rect(0, 0, 150, 90)
    card.position = Point(120, 70)
    card.transform = .rotation(0.12)
    card.backgroundColor = Color(hex: "#3366cc")
    card.cornerRadius = 18
    card.borderColor = Color(hex: "#ff9900")
    card.borderWidth = 5
    card.masksToBounds = true

    let wave = ShapeLayer()
    wave.path = try Path(svgPathData: "M 0 55 Q 37.5 15 75 55 T 150 55")
    wave.fillColor = nil
    wave.strokeColor = .white
    wave.lineWidth = 6
    wave.lineCap = .round
    wave.strokeEnd = 0.8
    card.addSublayer(wave)
    scene.addLayer(card)

    let fromSwift = try scene.makeFrame(at: 0).makeBitmap()
    let fromFile = try SceneFormat.load(
      contentsOf: FixtureFiles.root + "/scenes/readme-example.json"
    ).makeFrame(at: 0).makeBitmap()
    #expect(fromSwift == fromFile)
  }
}

@Suite struct ReadmeAnimationExampleTests {
  @Test func swiftAnimationsShowWhatTheSceneFileShows() throws {
    let pulse = Layer()
    pulse.name = "pulse"
    pulse.bounds = Rect(0, 0, 180, 180)
    pulse.position = Point(100, 100)
    pulse.cornerRadius = 90
    pulse.borderColor = Color(hex: "#808080")
    pulse.borderWidth = 2

    // The README's code, as printed there.
    var scale = BasicAnimation(keyPath: "transform.scale")
    scale.fromValue = 0
    scale.toValue = 1
    var opacity = KeyframeAnimation(keyPath: "opacity")
    opacity.values = [1, 0.7, 0]
    opacity.keyTimes = [0, 0.5, 1]
    var group = AnimationGroup([scale, opacity])
    group.duration = 2
    group.repeatCount = .infinity
    group.timingFunction = .default
    pulse.add(group, forKey: "pulse")

    let file = try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/readme-animated.json")
    for t in [0.0, 0.75, 1.5, 3.25] {
      let fromFile = try #require(try file.presentationTree(at: t).sublayers.first)
      let fromSwift = pulse.presentation(at: t)
      #expect(fromSwift.properties == fromFile.properties, "t = \(t)")
    }
  }
}
