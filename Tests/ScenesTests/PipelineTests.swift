import Dispatch
import Flipbook
import FlipbookTestSupport
import Glibc
import Synchronization
import Testing

/// The frame pipeline: which frames, in what order, and the same bytes whatever the jobs.
@Suite struct PipelineTests {
  @Test func framesAreFromPlusIOverFpsWhileBeforeTo() {
    #expect(FrameSequence(to: 1, fps: 30).count == 30)
    #expect(FrameSequence(to: 1, fps: 3).count == 3)
    #expect(FrameSequence(from: 0.5, to: 1, fps: 10).count == 5)
    #expect(FrameSequence(to: 0.1, fps: 30).count == 3)  // 0, 1/30, 2/30; 3/30 is not below 0.1
    let s = FrameSequence(from: 1, to: 2, fps: 10)
    #expect(s.time(at: 7) == 1 + 7.0 / 10)
    #expect(FrameSequence(to: 0, fps: 30).count == 0)
  }

  /// `render --jobs 16` of an 8000 x 8000 scene aborted allocating (16 workers of about three
  /// 256 MB frames each; 8 took 5.7 GB): the workers that run are those whose frames fit the
  /// 2 GiB frame memory budget, here 2, and at least 1.
  @Test func workersAreAsManyAsTheFrameMemoryBudgetHolds() {
    var renderer = FrameRenderer(recipe: radarRecipe(), jobs: 16)
    renderer.frameBytes = 8000 * 8000 * 4
    #expect(renderer.withWorkers(16) { $0 } == 2)
    renderer.frameBytes = 1 << 30  // one worker over the budget alone still runs
    #expect(renderer.withWorkers(16) { $0 } == 1)
    renderer.frameBytes = 100 * 100 * 4
    #expect(renderer.withWorkers(16) { $0 } == 16)
    #expect(FrameRenderer.frameMemory.limit == 2 << 30)
  }

  /// `batch --formats webp --jobs 6` of six 8000 x 8000 animations took 6.1 GB, one failing
  /// out of memory (found by an independent hostile pass): the frame budget did not count
  /// libwebp's encoders, about 2 GB each. Encoders' memory is a budget of its own, held from a
  /// sink's `begin` to its `finish`: two renders whose encoders hold 1.5 GiB each run one after
  /// the other.
  /// Twenty-first hostile pass: a frame rate that is no fraction over at most 1,000 was
  /// rounded to thousandths (1.0005 fps as 1001/1000), and ffmpeg dropped frames from the file
  /// or played them at another speed (0.0105 as 11/1000). ffmpeg is given the simplest fraction
  /// within a billionth.
  @Test func videoFrameRatesAreExactFractions() {
    let cases: [(Double, String)] = [
      (30, "30/1"), (29.97, "2997/100"), (24, "24/1"), (12.5, "25/2"), (240, "240/1"),
      (0.01, "1/100"), (1.0005, "2001/2000"), (0.0105, "21/2000"), (1.001, "1001/1000"),
      (60000.0 / 1001, "60000/1001"), (1.0 / 3, "1/3"),
    ]
    for (fps, fraction) in cases {
      #expect(VideoSink.rate(fps) == fraction, "\(fps)")
    }
    // Within a billionth whatever the rate.
    for fps in [0.0123456789, 7.654321, 239.99999, 0.0100001, 1.000123] {
      let parts = VideoSink.rate(fps).split(separator: "/").compactMap { Double($0) }
      #expect(parts.count == 2 && parts[1] <= 1_000_000)
      #expect(abs(parts[0] / parts[1] - fps) <= 1e-6 * fps, "\(fps): \(VideoSink.rate(fps))")
    }
  }

  @Test func encodersOfLargeFramesShareTheEncoderMemoryBudget() throws {
    /// How many renders are inside their sinks now, and the most at once.
    final class Inside: Sendable {
      let counts = Mutex<(now: Int, most: Int)>((0, 0))
    }
    /// A sink whose encoder says it holds `bytes`, counting the renders inside sinks at once.
    final class Holding: FrameSink {
      let bytes: Int
      let inside: Inside
      init(_ bytes: Int, _ inside: Inside) { (self.bytes, self.inside) = (bytes, inside) }
      func encoderMemory(_ plan: FramePlan) -> Int { bytes }
      func begin(_ plan: FramePlan) throws {
        #expect(Export.encoderMemory.bytesInUse >= bytes)
        inside.counts.withLock {
          $0.now += 1; $0.most = Swift.max($0.most, $0.now)
        }
      }
      func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Void { { _, _ in } }
      func add(_ frame: Void, _ info: FrameInfo) throws { usleep(40_000) }
      func finish() throws -> OutputSummary {
        inside.counts.withLock { $0.now -= 1 }
        return OutputSummary(storedFrameCount: 0, byteCount: 0)
      }
    }
    var options = Export.Options()
    (options.to, options.fps, options.jobs, options.scale) = (0.5, 10, 1, 0.25)
    let (recipe, settings) = (radarRecipe(), options)
    func most(_ bytes: Int) -> Int {
      let inside = Inside()
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        _ = try? Export.render(recipe, into: Holding(bytes, inside), options: settings)
      }
      return inside.counts.withLock { $0.most }
    }
    #expect(most(3 << 29) == 1)  // 1.5 GiB each: one at a time
    #expect(Export.encoderMemory.limit == 2 << 30)
    // libwebp's: 32 bytes a pixel, so one 8000 x 8000 WebP at a time (2,048,000,000 bytes).
    let plan = FramePlan(
      frameCount: 2, fps: 10, pixelWidth: 8000, pixelHeight: 8000, loopCount: 0, jobs: 1)
    #expect(WebPSink(.memory).encoderMemory(plan) == 2_048_000_000)
    #expect(VideoSink(path: "unused.mp4", format: .mp4).encoderMemory(plan) == 768_000_000)
    #expect(GIFSink(.memory).encoderMemory(plan) == 512_000_000)
    #expect(APNGSink(.memory).encoderMemory(plan) == 768_000_000)
  }

  /// Issue 18: a range too long to count saturates (and `Export` refuses it, before counting).
  @Test func aHugeRangeSaturatesInsteadOfTrapping() throws {
    #expect(FrameSequence(to: 1e300, fps: 30).count == 1 << 50)
    #expect(FrameSequence(from: -1e308, to: 1e308, fps: 240).count == 1 << 50)
    var options = Export.Options()
    options.to = 1e300
    #expect(throws: Export.LimitError.tooManyFrames(count: Int.max, limit: Scene.maximumFrameCount))
    {
      try Export.gifData(radarRecipe(), options: options)
    }
    options.to = nil
    options.fps = 1e-300
    #expect(throws: Export.LimitError.frameRate(1e-300)) {
      try Export.gifData(radarRecipe(), options: options)
    }
  }

  /// Issue 18: frames closer than times can be told apart at the range's far end are refused
  /// (near 2^53 s, 240 frames a second all fell on one time, "241 frames (1 stored)").
  @Test func framesTooCloseToTellApartAreRefused() throws {
    var options = Export.Options()
    (options.from, options.to, options.fps) = (9_007_199_254_740_992, 9_007_199_254_740_994, 240)
    let refusal = Export.LimitError.framesIndistinct(time: 9_007_199_254_740_994, fps: 240)
    #expect(throws: refusal) { try Export.gifData(radarRecipe(), options: options) }
    #expect(
      refusal.description
        == "frames 1/240 s apart cannot be told apart at 9.007199254740994e+15 s, where times "
        + "are 2 s apart at the least: render times nearer 0")
    // Before 0, the far end is said with its sign (it was said without).
    (options.from, options.to, options.fps) = (-1e15, -999_999_999_999_999.9, 24)
    let before = Export.LimitError.framesIndistinct(time: -1e15, fps: 24)
    #expect(throws: before) { try Export.gifData(radarRecipe(), options: options) }
    #expect(
      before.description
        == "frames 1/24 s apart cannot be told apart at -1e+15 s, where times are "
        + "0.125 s apart at the least: render times nearer 0")
    options.fps = 240
    // A million seconds in, frames a 240th of a second apart are still distinct.
    (options.from, options.to) = (1_000_000, 1_000_000.05)
    #expect(try Export.gifData(radarRecipe(), options: options).count > 0)
  }

  func radarRecipe() -> SceneRecipe {
    SceneRecipe {
      try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/radar-pulses.json")
    }
  }

  @Test func framesArriveInOrderAndMatchWhateverTheJobs() throws {
    let sequence = FrameSequence(to: 1, fps: 12)
    var single: [Bitmap] = []
    try FrameRenderer(recipe: radarRecipe(), scale: 0.5, jobs: 1).render(sequence, process: { $1 })
    { _, b in single.append(b) }
    var order: [Int] = []
    var parallel: [Bitmap] = []
    try FrameRenderer(recipe: radarRecipe(), scale: 0.5, jobs: 3).render(sequence, process: { $1 })
    { i, b in
      order.append(i)
      parallel.append(b)
    }
    #expect(order == Array(0..<12))
    #expect(single == parallel)
  }

  @Test func gifBytesAreIdenticalForOneAndTwoJobs() throws {
    let folder = FixtureFiles.temporaryFolder()
    var options = Export.Options()
    options.to = 1.5
    options.scale = 0.5
    options.jobs = 1
    _ = try Export.gif(radarRecipe(), to: folder + "/one.gif", options: options)
    options.jobs = 2
    _ = try Export.gif(radarRecipe(), to: folder + "/two.gif", options: options)
    #expect(try AtomicFile.read(folder + "/one.gif") == AtomicFile.read(folder + "/two.gif"))
  }

  @Test func gifBytesAreIdenticalWhetherTheFirstPassFramesAreKeptOrRenderedAgain() throws {
    var options = Export.Options()
    options.to = 1.5
    options.scale = 0.5
    let kept = try Export.gifData(radarRecipe(), options: options)
    options.firstPassFrameBudget = 0  // every frame rendered in both passes
    #expect(try Export.gifData(radarRecipe(), options: options) == kept)
  }

  /// A GIF render on two threads reads a scene file once (the planning scene goes to the first
  /// worker, the second gets a copy, and the scenes serve both passes), and not at all after a
  /// first instance; a scene with a timeline is made afresh for each worker of each pass that
  /// renders.
  @Test func aRenderMakesScenesOnlyWhereItMust() throws {
    let made = Atomic<Int>(0)
    let counted = SceneRecipe {
      made.add(1, ordering: .relaxed)
      return try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/radar-pulses.json")
    }
    var options = Export.Options()
    options.to = 0.5
    options.jobs = 2
    let once = try Export.gifData(counted, options: options)
    #expect(made.load(ordering: .relaxed) == 1)
    let first = try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/radar-pulses.json")
    let again = try Export.gifData(SceneRecipe(first: first, then: counted.make), options: options)
    #expect(made.load(ordering: .relaxed) == 1)
    #expect(again == once)
    let timeline = Atomic<Int>(0)
    let ticking = SceneRecipe {
      timeline.add(1, ordering: .relaxed)
      let scene = Scene(size: Size(20, 20), duration: 1, fps: 10)
      scene.every(0.5) { _ in }
      return scene
    }
    _ = try Export.gifData(ticking, options: options)
    // Planning, then 2 workers for the first pass; the second pass has its frames.
    #expect(timeline.load(ordering: .relaxed) == 3)
    options.firstPassFrameBudget = 0
    _ = try Export.gifData(ticking, options: options)
    #expect(timeline.load(ordering: .relaxed) == 3 + 5)  // and 2 workers for the second
  }

  @Test func timelineScenesRenderInParallelFromTheirRecipe() throws {
    let recipe = SceneRecipe {
      let scene = Scene(size: Size(40, 40), duration: 2, fps: 10, backgroundColor: .white)
      var count = 0
      scene.every(0.3) { _ in
        let dot = Layer()
        dot.frame = Rect(Double(count % 5) * 8, Double(count / 5) * 8, 6, 6)
        dot.backgroundColor = .black
        scene.addLayer(dot)
        count += 1
      }
      return scene
    }
    let folder = FixtureFiles.temporaryFolder()
    var options = Export.Options()
    options.jobs = 1
    _ = try Export.gif(recipe, to: folder + "/a.gif", options: options)
    options.jobs = 2
    _ = try Export.gif(recipe, to: folder + "/b.gif", options: options)
    let a = try AtomicFile.read(folder + "/a.gif")
    #expect(a == (try AtomicFile.read(folder + "/b.gif")))
    let decoded = try DecodedGIF(a)
    #expect(decoded.frames.count == 7)  // a new dot every 0.3 s: frames at 0, 0.3, ..., 1.8
    #expect(decoded.delays.reduce(0, +) == 200)
  }

  @Test func renderLimitsAreEnforcedBeforeRendering() {
    var options = Export.Options()
    options.fps = 240
    options.to = 1000
    #expect(throws: Export.LimitError.tooManyFrames(count: 240_000, limit: 100_000)) {
      try Export.gif(radarRecipe(), to: "/nonexistent/x.gif", options: options)
    }
  }

  @Test func pngFoldersNameFramesAndLeaveOtherFilesAlone() throws {
    let folder = FixtureFiles.temporaryFolder()
    try AtomicFile.write([1, 2, 3], to: folder + "/notes.txt")
    var options = Export.Options()
    options.to = 0.2
    options.scale = 0.25
    let report = try Export.pngFolder(radarRecipe(), to: folder, options: options)
    #expect(report.frameCount == 5)
    #expect(Export.frameName(4) == "frame-00004.png")
    #expect(try Bitmap(contentsOfPNGFile: folder + "/frame-00004.png").width == 80)
    #expect(try AtomicFile.read(folder + "/notes.txt") == [1, 2, 3])
  }
}
