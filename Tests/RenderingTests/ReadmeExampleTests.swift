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
    let fromFile = try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/readme-example.json").makeFrame(at: 0).makeBitmap()
    #expect(fromSwift == fromFile)
  }
}
