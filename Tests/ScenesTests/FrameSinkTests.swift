import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

/// The frame sinks: the same bytes in memory as in files, a failed render leaves nothing
/// behind, and new sinks plug in (`FailingSink` wraps any other).
@Suite struct FrameSinkTests {
  let folder = FixtureFiles.temporaryFolder()

  func radarRecipe() -> SceneRecipe {
    SceneRecipe {
      try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/radar-pulses.json")
    }
  }

  var options: Export.Options {
    var options = Export.Options()
    options.to = 1
    options.scale = 0.25
    options.jobs = 2
    return options
  }

  @Test func aGIFInMemoryIsTheGIFOnDisk() throws {
    _ = try Export.gif(radarRecipe(), to: folder + "/radar.gif", options: options)
    let memory = try Export.gifData(radarRecipe(), options: options)
    #expect(memory == (try AtomicFile.read(folder + "/radar.gif")))
    #expect(memory.starts(with: Array("GIF89a".utf8)))
  }

  @Test func pngsInMemoryAreThePNGsInTheFolder() throws {
    let sink = PNGSequenceSink(.memory)
    let report = try Export.render(radarRecipe(), into: sink, options: options)
    _ = try Export.pngFolder(radarRecipe(), to: folder + "/frames", options: options)
    #expect(sink.pngs.count == report.frameCount)
    for (i, png) in sink.pngs.enumerated() {
      #expect(png == (try AtomicFile.read(folder + "/frames/" + Export.frameName(i))))
    }
    let first = PNGSink(.memory)
    #expect(try Export.render(radarRecipe(), into: first, options: options).frameCount == 1)
    #expect(first.bytes == sink.pngs[0])
  }

  @Test func aFailedRenderLeavesNoFile() throws {
    // A sink that fails half-way through: the GIF's temporary file is removed, no GIF appears.
    // Also at the very first frame, before the encoder exists.
    for after in [3, 0] {
      let sink = FailingSink(after: after, inner: GIFSink(.file(folder + "/half.gif")))
      #expect(throws: FailingSink<GIFSink>.Failure.self) {
        try Export.render(radarRecipe(), into: sink, options: options)
      }
      #expect(access(folder + "/half.gif", F_OK) != 0)
    }
    #expect(!entries(of: folder).contains { $0.hasSuffix(".tmp") })
  }

  @Test func aContactSheetIsASink() throws {
    let sink = ContactSheetSink(.memory, columns: 2)
    _ = try Export.render(radarRecipe(), at: [0, 0.5, 1], scale: 0.25, into: sink)
    let sheet = try #require(sink.sheet)
    #expect(try Bitmap(pngData: sink.bytes) == sheet)
    #expect(
      sheet == (try ContactSheet.make(radarRecipe(), times: [0, 0.5, 1], columns: 2, scale: 0.25)))
  }
}

/// Passes frames on to `inner`, then fails at frame `after` of the output pass.
final class FailingSink<Inner: FrameSink>: FrameSink {
  struct Failure: Error {}
  let after: Int
  let inner: Inner
  init(after: Int, inner: Inner) { (self.after, self.inner) = (after, inner) }
  var firstPass: String? { inner.firstPass }
  func begin(_ plan: FramePlan) throws { try inner.begin(plan) }
  func surveyWork() -> @Sendable (Bitmap, FrameInfo) throws -> Inner.Survey { inner.surveyWork() }
  func absorb(_ survey: Inner.Survey, _ frame: FrameInfo) throws { try inner.absorb(survey, frame) }
  func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Inner.Prepared {
    try inner.frameWork()
  }
  func add(_ frame: Inner.Prepared, _ info: FrameInfo) throws {
    if info.index == after { throw Failure() }
    try inner.add(frame, info)
  }
  func finish() throws -> OutputSummary { try inner.finish() }
  func abort() { inner.abort() }
}

func entries(of folder: String) -> [String] {
  guard let dir = opendir(folder) else { return [] }
  defer { closedir(dir) }
  var names: [String] = []
  while let entry = readdir(dir) {
    names.append(
      withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      })
  }
  return names
}
