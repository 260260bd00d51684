// XCTest only: the same assertions compile in a file that does not import Testing.
import Flipbook
import GoldenTesting
import XCTest

/// The kit under XCTest: goldens in `__Snapshots__/XCTestAssertionTests/`.
final class XCTestAssertionTests: XCTestCase {
  func testPulseUnderXCTest() {
    assertGolden(AssertionTests.pulse(), at: [1], named: "pulse")
  }
}
