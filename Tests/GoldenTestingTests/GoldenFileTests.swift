import ImageComparison
import Flipbook
import FlipbookTestSupport
import GoldenTesting
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The kit's core on a scratch folder: where goldens go, each record mode, failure pictures.
@Suite struct GoldenFileTests {
  let folder = FixtureFiles.temporaryFolder()

  func disc(dx: Double = 0, color: Color = .blue) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 40)
    canvas.clear(to: .white)
    canvas.fill(Path(ellipseIn: Rect(10 + dx, 10, 20, 20)), with: color)
    return canvas.makeBitmap()
  }

  var golden: GoldenFile { GoldenFile(path: folder + "/goldens/disc.png", artifactsFolder: folder + "/failures") }

  @Test func goldensLiveBesideTheTestFile() {
    let g = GoldenFile(testFile: "/repo/Tests/AppTests/PulseTests.swift", test: "pulseGrows()", name: "pulse@0.5")
    #expect(g.path == "/repo/Tests/AppTests/__Snapshots__/PulseTests/pulseGrows.pulse@0.5.png")
  }

  @Test func missingGoldensAreRecordedAndTheTestFails() throws {
    let outcome = golden.verify(try disc(), mode: .missing)
    guard case .recorded(let reason) = outcome else {
      Issue.record("expected a recording, got \(outcome)")
      return
    }
    #expect(outcome.isFailure && reason.contains("look at it, commit it"))
    #expect(try Bitmap(contentsOfPNGFile: golden.path) == disc())
    #expect(golden.verify(try disc(), mode: .missing) == .matched)
    #expect(golden.verify(try disc(dx: 0.3), mode: .never) == .matched)  // anti-aliasing forgiven
  }

  @Test func aChangeFailsWithPicturesAndWhatToRunNext() throws {
    _ = golden.verify(try disc(), mode: .missing)
    let outcome = golden.verify(try disc(color: .red), mode: .never)
    let message = try #require(outcome.message)
    #expect(message.contains("does not match"))
    #expect(message.contains("FLIPBOOK_RECORD=failed"))
    for suffix in ["expected", "actual", "diff", "strip"] {
      #expect(FixtureFiles.exists("\(folder)/failures/disc.\(suffix).png"), "\(suffix)")
    }
    // The golden is untouched unless the mode says to re-record.
    #expect(try Bitmap(contentsOfPNGFile: golden.path) == disc())
    #expect(golden.verify(try disc(color: .red), mode: .failed).isFailure)
    #expect(try Bitmap(contentsOfPNGFile: golden.path) == disc(color: .red))
  }

  @Test func neverRecordsAndAllAlwaysDoes() throws {
    #expect(golden.verify(try disc(), mode: .never).message?.contains("no golden") == true)
    #expect(!FixtureFiles.exists(golden.path))
    _ = golden.verify(try disc(), mode: .missing)
    guard case .recorded = golden.verify(try disc(), mode: .all) else {
      Issue.record("all must re-record")
      return
    }
  }

  @Test func aDifferentSizeIsNamed() throws {
    _ = golden.verify(try disc(), mode: .missing)
    let outcome = golden.verify(Bitmap(width: 20, height: 40), mode: .never)
    #expect(outcome.message?.contains("expected 40 x 40, actual 20 x 40") == true)
  }

  @Test func gifGoldensCompareFramesAndTiming() throws {
    let gif = GoldenFile(path: folder + "/spinner.gif", artifactsFolder: folder + "/failures")
    let spinner = SceneRecipe {
      let scene = Scene(size: Size(20, 20), duration: 0.4, fps: 10, backgroundColor: .white)
      let dot = Layer()
      dot.bounds = Rect(0, 0, 6, 6)
      dot.position = Point(5, 10)
      dot.backgroundColor = .black
      var move = BasicAnimation(keyPath: "position.x")
      move.toValue = 15
      move.duration = 0.4
      dot.add(move, forKey: "move")
      scene.addLayer(dot)
      return scene
    }
    let path = folder + "/render.gif"
    _ = try Export.gif(spinner, to: path)
    let bytes = try AtomicFile.read(path)
    #expect(gif.verifyGIF(bytes, mode: .missing).isFailure)  // recorded
    #expect(gif.verifyGIF(bytes, mode: .never) == .matched)
    var options = Export.Options()
    options.fps = 5
    _ = try Export.gif(spinner, to: path, options: options)
    let slower = gif.verifyGIF(try AtomicFile.read(path), mode: .never)
    #expect(slower.message?.contains("frame counts differ: expected 4, actual 2") == true)
  }

  @Test func orphansAreGoldensNoTestInTheFileNames() throws {
    let testFile = folder + "/PulseTests.swift"
    try AtomicFile.write(Array("""
      @Test func pulseGrows() { assertGolden(scene, at: [0, 1], named: "pulse") }
      """.utf8), to: testFile)
    try AtomicFile.makeFolder(folder + "/__Snapshots__")
    try AtomicFile.makeFolder(folder + "/__Snapshots__/PulseTests")
    for name in ["pulseGrows.pulse@0.png", "pulseGrows.pulse@1.png", "pulseGrows.ring@1.png", "pulseShrinks.pulse@0.png"] {
      try AtomicFile.write([0], to: folder + "/__Snapshots__/PulseTests/" + name)
    }
    let orphans = GoldenFile.orphans(testFile: testFile).map { String($0.split(separator: "/").last!) }
    #expect(orphans == ["pulseGrows.ring@1.png", "pulseShrinks.pulse@0.png"])
  }
}
