import FlipbookTestSupport
import Flipbook
import Testing

/// Issue 18: the scenes in `Fixtures/hostile/` once trapped (SVG arcs and `arc` paths with
/// extreme numbers); they are valid, so they must read and draw.
@Suite struct HostileSceneTests {
  static let folder = FixtureFiles.root + "/hostile"
  static let cases = FixtureFiles.names(in: folder, suffix: ".json")

  @Test(arguments: cases)
  func hostileSceneReadsAndDraws(_ name: String) throws {
    let scene = try SceneFormat.load(contentsOf: "\(Self.folder)/\(name).json")
    let bitmap = try scene.makeFrame(at: 0).makeBitmap()
    #expect(bitmap.width == 100 && bitmap.height == 100)
  }

  @Test func theCorpusIsThere() {
    #expect(Self.cases.count >= 5)
  }

  /// A scene file is read through `AtomicFile.read` with `SceneFormat.maximumFileSize`, and
  /// only regular files are read.
  @Test func aDeviceIsRefusedBeforeAByteIsRead() {
    #expect(
      throws: SceneFormat.DecodingError(
        file: "/dev/zero",
        problems: [
          .init(
            place: "",
            message: "cannot read the file: is not a regular file (a device, pipe or socket)")
        ])
    ) { try SceneFormat.load(contentsOf: "/dev/zero") }
  }

  @Test func moreLayersThanTheLimitAreRefusedOnce() {
    let layers = Array(repeating: "{}", count: SceneFormat.maximumLayerCount + 5).joined(
      separator: ",")
    let text = #"{"flipbook": 1, "size": [10, 10], "layers": ["# + layers + "]}"
    #expect(
      throws: SceneFormat.DecodingError(
        file: "many.json",
        problems: [
          .init(place: "layers[10000]", message: "the scene has more than 10000 layers, the limit")
        ])
    ) { try SceneFormat.decode(Array(text.utf8), file: "many.json") }
  }

  @Test func aPathOfTooManyElementsIsRefused() {
    let d = "M0 0" + String(repeating: "h1", count: SceneFormat.maximumPathElements)
    let text =
      #"{"flipbook": 1, "size": [10, 10], "layers": [{"type": "shape", "path": ""# + d + #""}]}"#
    #expect(
      throws: SceneFormat.DecodingError(
        file: "long.json",
        problems: [
          .init(
            place: "layers[0].path",
            message: "a path of 100001 elements exceeds the limit of 100000")
        ])
    ) { try SceneFormat.decode(Array(text.utf8), file: "long.json") }
  }

  /// Every step of every item is simulated and kept: many items reach the limit sooner.
  @Test func manyDynamicItemsLowerTheSimulatedTimeLimit() throws {
    let names = (0..<2000).map { "\"b\($0)\"" }
    let layers = names.map { #"{"name": "# + $0 + #", "bounds": [0, 0, 1, 1]}"# }.joined(
      separator: ", ")
    let text =
      #"{"flipbook": 1, "size": [10, 10], "layers": ["# + layers + #"], "dynamics": {"behaviors": "#
      + #"[{"type": "gravity", "items": ["# + names.joined(separator: ", ") + "]}]}}"
    let scene = try SceneFormat.decode(Array(text.utf8), file: "many.json")
    // 20,000,000 body steps / (240 steps a second x 2000 items) = 41 s.
    #expect(throws: SceneError.simulatedTimeTooLong(requested: 100, limit: 41)) {
      _ = try scene.presentationTree(at: 100)
    }
  }

  /// Issue 18, fifth pass: 5,000 items at one spot took 33 s and 2.8 GB (their first step made
  /// 12.5 million pairs) before the collision work limit refused the time. A step past
  /// `DynamicAnimator.maximumStepWork` is abandoned while its pairs are looked at.
  @Test func itemsPiledAtOneSpotAreRefusedInTheirFirstStep() throws {
    let names = (0..<2000).map { "\"b\($0)\"" }
    let layers = names.map {
      #"{"name": "# + $0 + #", "bounds": [0, 0, 4, 4], "position": [5, 5]}"#
    }
    .joined(separator: ", ")
    let text =
      #"{"flipbook": 1, "size": [10, 10], "layers": ["# + layers + #"], "dynamics": {"behaviors": "#
      + #"[{"type": "collision", "items": ["# + names.joined(separator: ", ") + "]}]}}"
    let scene = try SceneFormat.decode(Array(text.utf8), file: "pile.json")
    #expect(throws: SceneError.simulationTooCostly(requested: 0.1, reached: 0)) {
      _ = try scene.presentationTree(at: 0.1)
    }
  }

  /// A dynamics scene reaches a time by simulating every step before it: past one hour it is
  /// refused at once instead of running for hours.
  @Test func aDynamicsSceneRefusesATimePastTheLimit() throws {
    let scene = try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/cradle.json")
    #expect(
      throws: SceneError.simulatedTimeTooLong(requested: 1e7, limit: Scene.maximumSimulatedTime)
    ) {
      _ = try scene.presentationTree(at: 1e7)
    }
  }
}
