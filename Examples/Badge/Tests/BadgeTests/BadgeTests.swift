// Swift Testing only: this file imports Testing and not XCTest.
import Badge
import Flipbook
import GoldenTesting
import Testing

@Suite struct BadgeTests {
  @Test func badgeFrames() {
    assertGolden(Badge.scene(), at: [0, 0.5], named: "badge")  // two PNG goldens
  }

  @Test func badgeAsAGIF() {
    assertGolden(everyFrameOf: SceneRecipe { Badge.scene() }, named: "badge")  // one GIF golden
  }

  @Test func aKeyPathTypoFailsThisTestOnly() {
    let scene = Badge.scene()
    scene.layers[0].add(BasicAnimation(keyPath: "opactiy", from: 1, to: 0), forKey: "fade")
    withKnownIssue {
      assertGolden(scene, at: [0], named: "typo")
    } matching: { issue in
      (issue.error as? GoldenImageFailure)?.description.contains(
        "unknown key path \"opactiy\" (did you mean \"opacity\"?") == true
    }
  }

  @Test func aValueOfTheWrongKindIsAnError() {
    let error = #expect(throws: AnimationKeyPathError.self) {
      try Layer().addChecked(BasicAnimation(keyPath: "opacity", to: Point(1, 2)), forKey: "fade")
    }
    #expect(
      error?.description.contains("takes scalar values (Double), but toValue is a point value")
        == true)
  }

  @Test func noOrphanedGoldens() {
    #expect(GoldenFile.orphans().isEmpty)
  }
}
