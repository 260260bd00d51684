import Flipbook
import FlipbookTestSupport
import Testing

/// Issue 18, sixth pass: inputs within the stated limits that still took minutes, now refused
/// where they are read, or before the work starts.
@Suite struct SlowSceneInputTests {
  func problems(_ text: String) -> [String] {
    do {
      _ = try SceneFormat.decode(Array(text.utf8), file: "slow.json")
      return []
    } catch {
      return String(describing: error).split(separator: "\n").map(String.init)
    }
  }

  @Test func aStringOverTheLimitIsRefusedByPlace() {
    #expect(TextLayer.maximumStringLength == 100_000)
    let long = String(repeating: "x", count: TextLayer.maximumStringLength + 1)
    #expect(
      problems(
        #"{"flipbook": 1, "size": [10, 10], "layers": [{"type": "text", "string": ""# + long
          + #""}]}"#)
        == [
          "slow.json: layers[0].string: a string of 100001 characters exceeds the limit of 100000"
        ])
    let animated =
      #"{"flipbook": 1, "size": [10, 10], "layers": [{"type": "text", "animations": ["#
      + #"{"type": "basic", "keyPath": "string", "toValue": ""# + long + #""}]}]}"#
    #expect(
      problems(animated) == [
        "slow.json: layers[0].animations[0].toValue: a string of 100001 characters exceeds the "
          + "limit of 100000"
      ])
    let at = String(repeating: "x", count: TextLayer.maximumStringLength)
    #expect(
      problems(
        #"{"flipbook": 1, "size": [10, 10], "layers": [{"type": "text", "string": ""# + at
          + #""}]}"#) == [])
  }

  /// Issue 18, seventh pass: 40,000 lines took 9 s to lay out (Pango counts the characters
  /// before each paragraph).
  @Test func aStringOfTooManyLinesIsRefusedByPlace() {
    #expect(TextLayer.maximumParagraphCount == 10_000)
    #expect(TextLayer.paragraphCount(of: "") == 1)
    #expect(TextLayer.paragraphCount(of: "a\r\nb\rc\nd\u{2029}e\u{2028}f") == 5)
    let lines = String(repeating: "x\\n", count: TextLayer.maximumParagraphCount)
    #expect(
      problems(
        #"{"flipbook": 1, "size": [10, 10], "layers": [{"type": "text", "string": ""# + lines
          + #""}]}"#)
        == [
          "slow.json: layers[0].string: a string of 10001 lines (line breaks) exceeds the limit of 10000"
        ])
    let at = String(repeating: "x\\n", count: TextLayer.maximumParagraphCount - 1)
    #expect(
      problems(
        #"{"flipbook": 1, "size": [10, 10], "layers": [{"type": "text", "string": ""# + at
          + #""}]}"#) == [])
  }

  @Test func aFiltersListOverTheLimitIsRefusedByPlace() {
    #expect(SceneFormat.maximumFilters == 16)
    let filters = Array(repeating: #"{"type": "gaussianBlur", "radius": 1}"#, count: 17)
    #expect(
      problems(
        #"{"flipbook": 1, "size": [10, 10], "layers": [{"filters": ["#
          + filters.joined(separator: ",") + "]}]}")
        == ["slow.json: layers[0].filters: a list of 17 filters exceeds the limit of 16"])
  }

  /// An error found while drawing names the layer by its JSON path as well as its name.
  @Test func aRefusalWhileDrawingNamesTheLayersPlace() throws {
    // 4096 x 4096 pixels a group, four filters: 67 million pixels, over the 64 million.
    let blur = #"{"type": "gaussianBlur", "radius": 0}"#
    let text =
      #"{"flipbook": 1, "size": [4096, 4096], "layers": [{"sublayers": [{"name": "blurred", "#
      + ##""bounds": [0, 0, 4096, 4096], "position": [2048, 2048], "backgroundColor": "#fff", "##
      + #""filters": ["#
      + Array(repeating: blur, count: 4).joined(
        separator: ", ") + "]}]}]}"
    let scene = try SceneFormat.decode(Array(text.utf8), file: "blur.json")
    let label = LayerLabel(name: "blurred", place: "layers[0].sublayers[0]")
    #expect(throws: RenderingError.tooMuchFilterWork(layer: label)) {
      _ = try scene.makeFrame(at: 0)
    }
    #expect(label.description == "layer 'blurred' (layers[0].sublayers[0])")
  }

  func boundaryScene(segments: Int) throws -> Scene {
    let d =
      "M 0 300 "
      + (1..<segments).map { "L \($0 % 320) \(300 + $0 % 2)" }.joined(
        separator: " ")
    let text =
      #"{"flipbook": 1, "size": [320, 320], "duration": 10, "layers": [{"name": "b1", "#
      + #""bounds": [0, 0, 20, 20], "position": [160, 20]}], "dynamics": {"behaviors": ["#
      + #"{"type": "gravity", "items": ["b1"]}, {"type": "collision", "items": ["b1"], "#
      + #""boundaries": [{"path": ""# + d + #""}]}]}}"#
    return try SceneFormat.decode(Array(text.utf8), file: "boundary.json")
  }

  /// 80,000 boundary segments stepped for most of a minute before the collision work limit
  /// refused the time; each step tests every segment, so the refusal comes before a step.
  @Test func aBoundaryTooLongForTheTimeIsRefusedBeforeStepping() throws {
    let scene = try boundaryScene(segments: 80_000)
    // 150,000,000 units / (1 item + 79,999 item-segment tests) a step = 1875 steps.
    #expect(throws: SceneError.simulationTooCostly(requested: 9, reached: 1875.0 / 240)) {
      _ = try scene.presentationTree(at: 9)
    }
    // One short line naming the cause, the limit and how far it got (it was 430 characters).
    #expect(
      SceneError.simulationTooCostly(requested: 9, reached: 1875.0 / 240).description
        == "the dynamics reach only 7.81 s of 9 s within 150 million units of collision work "
        + "(1 million a step): use fewer colliding items, boundary segments or attachments, or a "
        + "shorter time")
    // The same boundary at a time within the budget still simulates.
    let short = try boundaryScene(segments: 8_000)
    _ = try short.presentationTree(at: 0.05)
  }

  /// 21 million keyframe values in a 63 MB file took 4.8 GB (two in a batch aborted): a
  /// keyframe animation has at most 100,000 values, a scene 1,000,000 in all.
  @Test func keyframeValuesAreBoundedByAnimationAndScene() {
    func scene(_ counts: [Int]) -> String {
      let animations = counts.map { count in
        #"{"type": "keyframe", "keyPath": "opacity", "values": ["#
          + Array(repeating: "1", count: count).joined(separator: ",") + "]}"
      }
      return #"{"flipbook": 1, "size": [10, 10], "layers": [{"animations": ["#
        + animations.joined(separator: ", ") + "]}]}"
    }
    #expect(problems(scene([100_000])) == [])
    #expect(
      problems(scene([100_001]))
        == [
          "slow.json: layers[0].animations[0].values: 100001 values exceed the limit of 100000 a "
            + "keyframe animation"
        ])
    #expect(
      problems(scene(Array(repeating: 100_000, count: 12)))
        == [
          "slow.json: layers[0].animations[10].values: the scene's keyframe animations have "
            + "1100000 values up to here, over the limit of 1000000 in all"
        ])
  }

  /// 1.2 million boundary segments were built for 9 s and 400 MB before the time was refused:
  /// past the work one step tests (segments times items), the reader stops building them.
  @Test func boundariesPastOneStepsWorkAreRefusedWhenRead() throws {
    let items = (0..<100).map { #"{"name": "b\#($0)", "bounds": [0, 0, 2, 2]}"# }
    let names = (0..<100).map { #""b\#($0)""# }.joined(separator: ", ")
    let d = "M 0 300 " + (1...5_000).map { "L \($0 % 320) \(300 + $0 % 2)" }.joined(separator: " ")
    let text =
      #"{"flipbook": 1, "size": [320, 320], "layers": ["# + items.joined(separator: ", ")
      + #"], "dynamics": {"behaviors": [{"type": "collision", "items": ["# + names + "], "
      + #""boundaries": [{"path": ""# + d + #""}, {"from": [0, 0], "to": [1, 1]}, "#
      + #"{"path": ""# + d + #""}, {"path": "M 0 0 L 5 5"}]}]}}"#
    // 5,000 segments times 100 items, twice, and one more: 1,000,100 at boundaries[2].
    #expect(
      problems(text)
        == [
          "slow.json: dynamics.behaviors[0].boundaries[2]: the collision boundaries up to here "
            + "have 1000100 segments, each counted once for every item of its behavior (a curve "
            + "makes 16), past the 1 million a step of the simulation may test"
        ])
  }
}
