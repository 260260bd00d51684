// XCTest only: this file imports XCTest and not Testing.
import Badge
import Flipbook
import GoldenTesting
import XCTest

final class BadgeXCTests: XCTestCase {
  func testBadgeHalfway() {
    assertGolden(Badge.scene(), at: [0.5], named: "halfway")
  }

  func testATypoIsAThrownError() {
    XCTAssertThrowsError(
      try Layer().addChecked(BasicAnimation(keyPath: "positon", to: Point(1, 2)), forKey: "move")
    ) {
      XCTAssertEqual(($0 as? AnimationKeyPathError)?.nearestKeyPath, "position")
    }
  }
}
