import Testing

@testable import Batch

/// The gallery's frame sheet: every frame while they fit 4 million pixels, else every k-th.
@Suite struct FrameSheetTests {
  @Test func smallAnimationsKeepEveryFrameInANearSquareGrid() {
    let layout = FrameSheetSink.layout(count: 24, width: 160, height: 160)
    #expect(layout.step == 1 && layout.kept == 24 && layout.columns == 5)
  }

  @Test func largeAnimationsKeepEveryKthFrameUnderTheBudget() {
    // 640 x 640 is 409,600 pixels: 9 frames fit 4 million; 120 frames need a step of 14.
    let layout = FrameSheetSink.layout(count: 120, width: 640, height: 640)
    #expect(layout.step == 14 && layout.kept == 9 && layout.columns == 3)
    #expect(layout.kept * 640 * 640 <= FrameSheetSink.pixelBudget)
  }

  @Test func aWideFrameKeepsTheSheetUnderTheCanvasSide() {
    let layout = FrameSheetSink.layout(count: 4, width: 9000, height: 10)
    #expect(layout.columns == 1)
  }
}
