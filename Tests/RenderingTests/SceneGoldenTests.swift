import Flipbook
import FlipbookTestSupport
import Testing

/// Every scene in `Fixtures/scenes/` rendered at time 0 matches `Fixtures/goldens/<name>.png`.
@Suite struct SceneGoldenTests {
  static let scenes = FixtureFiles.names(in: FixtureFiles.root + "/scenes", suffix: ".json")

  @Test(arguments: scenes)
  func sceneMatchesItsGolden(_ name: String) throws {
    let scene = try SceneFormat.load(contentsOf: "\(FixtureFiles.root)/scenes/\(name).json")
    let frame = try scene.makeFrame(at: 0).makeBitmap()
    if let failure = try Golden.check(frame, against: "\(FixtureFiles.root)/goldens/\(name).png", name: name) {
      Issue.record(Comment(rawValue: failure))
    }
  }

  @Test func everyGoldenHasAScene() {
    let goldens = FixtureFiles.names(in: FixtureFiles.root + "/goldens", suffix: ".png")
    let orphans = goldens.filter { !Self.scenes.contains($0) }
    #expect(orphans.isEmpty, "goldens without a scene in Fixtures/scenes: \(orphans); delete them")
    #expect(!Self.scenes.isEmpty)
  }
}
