import Flipbook
import FlipbookTestSupport
import Testing

/// `TeeSink`: one render feeding two sinks gives each the bytes it makes alone.
@Suite struct TeeSinkTests {
  func recipe() -> SceneRecipe {
    SceneRecipe {
      try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/radar-pulses.json")
    }
  }

  var options: Export.Options {
    var options = Export.Options()
    options.to = 0.5
    options.scale = 0.25
    options.jobs = 2
    return options
  }

  @Test func bothSidesGetWhatTheyWouldAlone() throws {
    let gif = GIFSink(.memory, options: options.gif, loopCountIsSet: false)
    let sheet = ContactSheetSink(.memory, columns: 4)
    let report = try Export.render(recipe(), into: TeeSink(gif, sheet), options: options)
    #expect(gif.bytes == (try Export.gifData(recipe(), options: options)))
    let alone = ContactSheetSink(.memory, columns: 4)
    _ = try Export.render(recipe(), into: alone, options: options)
    #expect(sheet.bytes == alone.bytes && !sheet.bytes.isEmpty)
    #expect(report.byteCount == gif.bytes.count)  // the primary's summary
  }

  @Test func theSecondarySeesOnlyTheFramesItTakes() throws {
    /// A sink that takes the first two frames and records which it got.
    final class FirstTwo: FrameSink {
      var seen: [Int] = []
      var planned = 0
      var frameLimit: Int? { 2 }
      func begin(_ plan: FramePlan) throws { planned = plan.frameCount }
      func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Int { { _, i in i.index } }
      func add(_ frame: Int, _ info: FrameInfo) throws { seen.append(frame) }
      func finish() throws -> OutputSummary { OutputSummary(storedFrameCount: 2, byteCount: 0) }
    }
    let side = FirstTwo()
    let gif = GIFSink(.memory, options: options.gif, loopCountIsSet: false)
    let report = try Export.render(recipe(), into: TeeSink(gif, side), options: options)
    #expect(report.frameCount > 2)
    #expect(side.planned == 2 && side.seen == [0, 1])
  }
}
