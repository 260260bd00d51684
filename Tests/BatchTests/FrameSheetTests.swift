import Flipbook
import FlipbookTestSupport
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

  /// Twelfth hostile pass: 256 animations rendered at once held 256 sheets (6 GB) and
  /// aborted; a sheet counts what it holds in the encoders' shared memory.
  @Test func aSheetCountsItsFramesAndItsPictureAsEncoderMemory() {
    let plan = FramePlan(
      frameCount: 50, fps: 25, pixelWidth: 320, pixelHeight: 240, loopCount: 0, jobs: 1)
    let (_, kept, columns) = FrameSheetSink.layout(count: 50, width: 320, height: 240)
    #expect(kept == 50 && columns == 8)
    let sheet = ContactSheet.size(
      frameCount: 50, frameWidth: 320, frameHeight: 240, columns: 8)
    let bytes = FrameSheetSink(path: "/unused").encoderMemory(plan)
    #expect(bytes == 4 * 50 * 320 * 240 + 12 * sheet.width * sheet.height)
    #expect(bytes > 40_000_000)  // some 50 of them fit the 2 GiB at once
  }

  /// Thirteenth pass: eight 66 MB Lottie files of 2.7 million keyframes at `--jobs 8` held
  /// 7.6 GB and aborted; each animation read is counted by its file's size.
  @Test func animationsReadAreCountedByTheirFilesSize() {
    #expect(BatchRun.sceneMemory.limit == 2 << 30)
    #expect(BatchRun.sceneBytes(0) == 1 << 20)
    #expect(BatchRun.sceneBytes(66_000_000) == 2_640_000_000)  // more than the budget: alone
    #expect(BatchRun.sceneBytes(10_000_000) == 400_000_000)  // five of them side by side
  }

  /// Fourteenth pass: eight 670 KB scenes of 5,000 items simulated for 16 s held 7.1 GB at
  /// `--jobs 8` (a recording of 48 bytes a body a step each); a scene's recording is counted
  /// once it is read (`BatchRun.simulationMemory`).
  @Test func aSimulationIsCountedByTheStatesItRecords() throws {
    func scene(items: Int, duration: Double, dynamics: Bool = true) throws -> Scene {
      let names = (0..<items).map { "\"b\($0)\"" }.joined(separator: ",")
      let layers = (0..<items).map {
        #"{"name": "b\#($0)", "bounds": [0, 0, 2, 2], "position": [\#($0 % 100), 10]}"#
      }.joined(separator: ",")
      let behaviors =
        dynamics ? #", "dynamics": {"behaviors": [{"type": "gravity", "items": [\#(names)]}]}"# : ""
      let json =
        #"{"flipbook": 1, "size": [200, 200], "duration": \#(duration), "fps": 10, "#
        + #""layers": [\#(layers)]\#(behaviors)}"#
      return try SceneFormat.decode(Array(json.utf8), file: "s.json")
    }
    #expect(BatchRun.simulationMemory.limit == 2 << 30)
    #expect(try scene(items: 10, duration: 2).simulationMemory(through: 2) == 481 * 10 * 48)
    #expect(try scene(items: 10, duration: 2, dynamics: false).simulationMemory(through: 2) == 0)
    // 5,000 items for 16 s: 19.2 million body steps, about 0.9 GB, two at a time.
    let many = try scene(items: 5_000, duration: 16)
    #expect(many.simulationMemory(through: 16) == 3_841 * 5_000 * 48)
    // Past the body steps a simulation may take, it is refused: counted up to them.
    #expect(many.simulationMemory(through: 3_600) == 4_001 * 5_000 * 48)
  }

  /// A frame too large for a sheet of one (8000 x 8000 with its caption is 8016 x 8034, over
  /// 64 megapixels) makes no sheet, where it failed the whole output.
  @Test func aFrameTooLargeForASheetMakesNone() throws {
    let folder = FixtureFiles.temporaryFolder()
    func plan(_ side: Int) -> FramePlan {
      FramePlan(frameCount: 2, fps: 2, pixelWidth: side, pixelHeight: side, loopCount: 0, jobs: 1)
    }
    let big = FrameSheetSink(path: folder + "/big.frames.png")
    try big.begin(plan(8000))
    #expect(!big.isMade && big.kept == 0)
    #expect(
      try big.frameWork()(Bitmap(width: 1, height: 1), FrameInfo(index: 0, time: 0, duration: 0.5))
        == nil)
    #expect(try big.finish().byteCount == 0)
    #expect(AtomicFile.names(in: folder).isEmpty)
    let small = FrameSheetSink(path: folder + "/small.frames.png")
    try small.begin(plan(7900))
    #expect(small.isMade && small.kept == 1)
  }

  @Test func aWideFrameKeepsTheSheetUnderTheCanvasSide() {
    let layout = FrameSheetSink.layout(count: 4, width: 9000, height: 10)
    #expect(layout.columns == 1)
  }
}
