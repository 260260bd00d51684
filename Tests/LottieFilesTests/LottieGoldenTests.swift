import Flipbook
import FlipbookTestSupport
import Testing

/// Every Lottie fixture in `Fixtures/lottie/` matches its goldens,
/// `Fixtures/goldens/lottie/<name>@<time>.png`, at the times listed here.
@Suite struct LottieGoldenTests {
  /// The times each fixture is checked at (seconds).
  static let times: [String: [Double]] = [
    "shapes": [0, 1],
    "trim": [0.5, 1.5],
    "parenting": [0, 0.8, 1.5],
    "precomp": [0.5, 1.25],
    "effects": [0, 1.5],
    "image": [0.5],
    "archive": [0.5],
    "archive-dot-slash-names": [0],
    "dashes": [0, 1.5],
    "repeater": [0, 1, 2.5],
    "text-documents": [0.5, 1.2, 2, 2.6],
    "groups": [0.5, 1.1],
    "text-paragraphs": [0],
  ]

  struct GoldenCase: Sendable, CustomTestStringConvertible {
    var file: String
    var time: Double
    var testDescription: String { "\(file)@\(time)" }
  }

  static var cases: [GoldenCase] {
    times.keys.sorted().flatMap { name in times[name]!.map { GoldenCase(file: name, time: $0) } }
  }

  static func path(of name: String) -> String {
    let folder = FixtureFiles.root + "/lottie/"
    return FixtureFiles.exists(folder + name + ".json")
      ? folder + name + ".json" : folder + name + ".lottie"
  }

  @Test(arguments: cases) func lottieMatchesItsGolden(_ c: GoldenCase) throws {
    let scene = try SceneDocument.load(contentsOf: Self.path(of: c.file)).scene
    let frame = try scene.makeFrame(at: c.time).makeBitmap()
    let golden = "\(FixtureFiles.root)/goldens/lottie/\(c.file)@\(c.time).png"
    if let failure = Golden.check(frame, against: golden) {
      Issue.record(Comment(rawValue: failure))
    }
  }

  @Test func everyFixtureHasGoldensAndEveryGoldenAFixture() {
    let fixtures =
      FixtureFiles.names(in: FixtureFiles.root + "/lottie", suffix: ".json")
      + FixtureFiles.names(in: FixtureFiles.root + "/lottie", suffix: ".lottie")
    #expect(Set(fixtures) == Set(Self.times.keys))
    let goldens = FixtureFiles.names(in: FixtureFiles.root + "/goldens/lottie", suffix: ".png")
    #expect(Set(goldens) == Set(Self.cases.map { "\($0.file)@\($0.time)" }))
  }
}
