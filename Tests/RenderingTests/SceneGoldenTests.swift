import Flipbook
import FlipbookTestSupport
import Testing

/// Every scene in `Fixtures/scenes/` matches its goldens: `goldens/<name>.png` at time 0, and for
/// animated scenes `goldens/<name>@<time>.png` at each time listed in `times`.
@Suite struct SceneGoldenTests {
  static let scenes = FixtureFiles.names(in: FixtureFiles.root + "/scenes", suffix: ".json")

  /// The times each animated scene is checked at, besides 0 (seconds).
  static let times: [String: [Double]] = [
    "radar-pulses": [0.5, 1.7, 4, 10.25],
    "animation-kinds": [0.5, 1, 1.5, 2.5],
    "readme-animated": [0.75],
    "cradle": [0.2, 0.4, 0.75, 2],
    "cat": [0.5, 1.3],
    "spinner": [0.3],
    "text-layers": [0.5],
    "effects-shadows": [1, 2],
    "effects-gradients": [1],
    "effects-masks": [1],
    "effects-filters": [0.5],
    "effects-replicator": [0.25, 0.5],
    "effects-contents": [0.6],
    "shimmer": [0.75],
    "activity": [0.5],
    "lift": [0.5, 1],
  ]

  static var cases: [GoldenCase] {
    scenes.flatMap { name in
      [GoldenCase(scene: name, time: 0, golden: name)]
        + (times[name] ?? []).map { GoldenCase(scene: name, time: $0, golden: "\(name)@\($0)") }
    }
  }

  struct GoldenCase: Sendable, CustomTestStringConvertible {
    var scene: String
    var time: Double
    var golden: String
    var testDescription: String { golden }
  }

  @Test(arguments: cases)
  func sceneMatchesItsGolden(_ c: GoldenCase) throws {
    let scene = try SceneFormat.load(contentsOf: "\(FixtureFiles.root)/scenes/\(c.scene).json")
    let frame = try scene.makeFrame(at: c.time).makeBitmap()
    if let failure = Golden.check(frame, against: "\(FixtureFiles.root)/goldens/\(c.golden).png") {
      Issue.record(Comment(rawValue: failure))
    }
  }

  @Test func everyGoldenHasAScene() {
    let goldens = FixtureFiles.names(in: FixtureFiles.root + "/goldens", suffix: ".png")
    let expected = Set(Self.cases.map(\.golden))
    let orphans = goldens.filter { !expected.contains($0) }
    #expect(
      orphans.isEmpty,
      "goldens without a scene and time in SceneGoldenTests: \(orphans); delete them")
    #expect(!Self.scenes.isEmpty)
  }
}
