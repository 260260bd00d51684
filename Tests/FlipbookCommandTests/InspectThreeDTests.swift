import Flipbook
import Testing

@testable import FlipbookCommand

/// `inspect` prints a transform with any 3D term as its sixteen entries (visual-effects.md §7).
@Suite struct InspectThreeDTests {
  @Test func threeDTransformsPrintSixteenNumbers() throws {
    #expect(
      Inspection.transform(.perspective(distance: 500))
        == "[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1]")
    #expect(
      Inspection.transform(.rotation(.pi / 2, x: 0, y: 1, z: 0)).split(separator: ",").count
        == 16)
    #expect(Inspection.transform(.translation(x: 3, y: 4)) == "[1, 0, 0, 1, 3, 4]")
  }

  @Test func theCardFlipShowsItsTurnedPerspectiveTransform() throws {
    let text = """
      {"flipbook": 1, "size": [100, 100], "layers": [{"name": "card", "bounds": [0, 0, 50, 50],
        "transform": [{"perspective": 500}],
        "animations": [{"type": "basic", "keyPath": "transform.rotation.y", "fromValue": 0,
          "toValue": 2, "duration": 1}]}]}
      """
    let scene = try SceneFormat.decode(Array(text.utf8), file: "card.json")
    let line = try Inspection.line(for: scene, at: 0.25)
    // rotateY(0.5) then the model's perspective: m13 = -sin 0.5, m34 = -1/500 (times cos 0.5).
    let expected = Inspection.transform(
      Transform3D.perspective(distance: 500).rotated(0.5, x: 0, y: 1, z: 0))
    #expect(expected.split(separator: ",").count == 16)
    #expect(line.contains("\"transform\": \(expected)"))
    #expect(line.contains("\"isDoubleSided\": true"))
  }
}
