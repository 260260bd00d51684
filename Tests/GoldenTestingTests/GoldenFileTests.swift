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

  var golden: GoldenFile {
    GoldenFile(path: folder + "/goldens/disc.png", artifactsFolder: folder + "/failures")
  }

  @Test func goldensLiveBesideTheTestFile() {
    let g = GoldenFile(
      testFile: "/repo/Tests/AppTests/PulseTests.swift", test: "pulseGrows()", name: "pulse@0.5")
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

  /// A failing golden wider than a third of the frame limit wrote a strip no reader of
  /// Flipbook's could open (three 6,000-pixel frames side by side): the three pictures alone,
  /// and the message says why there is no strip.
  @Test func aStripPastTheFrameLimitsIsNotWritten() throws {
    let wide = GoldenFile(path: folder + "/goldens/wide.png", artifactsFolder: folder + "/failures")
    var picture = Bitmap(width: 6000, height: 4)
    _ = wide.verify(picture, mode: .missing)
    picture[10, 1] = RGBA8(255, 0, 0, 255)
    let message = try #require(wide.verify(picture, mode: .never).message)
    #expect(message.contains("no strip: side by side they would be 18008 x 4 pixels"), "\(message)")
    for suffix in ["expected", "actual", "diff"] {
      #expect(FixtureFiles.exists("\(folder)/failures/wide.\(suffix).png"), "\(suffix)")
    }
    #expect(!FixtureFiles.exists("\(folder)/failures/wide.strip.png"))
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
    try AtomicFile.write(
      Array(
        """
        @Test func pulseGrows() { assertGolden(scene, at: [0, 1], named: "pulse") }
        """.utf8), to: testFile)
    try AtomicFile.makeFolder(folder + "/__Snapshots__")
    try AtomicFile.makeFolder(folder + "/__Snapshots__/PulseTests")
    for name in [
      "pulseGrows.pulse@0.png", "pulseGrows.pulse@1.png", "pulseGrows.ring@1.png",
      "pulseShrinks.pulse@0.png",
    ] {
      try AtomicFile.write([0], to: folder + "/__Snapshots__/PulseTests/" + name)
    }
    let orphans = GoldenFile.orphans(testFile: testFile).map {
      String($0.split(separator: "/").last!)
    }
    #expect(orphans == ["pulseGrows.ring@1.png", "pulseShrinks.pulse@0.png"])
  }

  @Test func gifFailuresShowTheFrameThatDiffersMostWithItsIndexAndTime() throws {
    // A bar that widens to `widest` at 0.2 s and narrows again; the changed one widens less, so
    // frame 2 (0.2 s) differs most, frames 1 and 3 by half as much.
    func recipe(widest: Double) -> SceneRecipe {
      SceneRecipe {
        let scene = Scene(size: Size(40, 20), duration: 0.4, fps: 10, backgroundColor: .white)
        let dot = Layer()
        dot.bounds = Rect(0, 0, 6, 6)
        dot.position = Point(20, 10)
        dot.backgroundColor = .black
        dot.add(
          KeyframeAnimation(
            keyPath: "bounds.size.width", values: [6, widest, 6], duration: 0.4), forKey: "widen")
        scene.addLayer(dot)
        return scene
      }
    }
    var gif = GoldenFile(path: folder + "/dot.gif", artifactsFolder: folder + "/failures")
    gif.rerunFilter = "AppTests.DotTests/dotMoves"
    #expect(gif.verifyGIF(try Export.gifData(recipe(widest: 30)), mode: .missing).isFailure)
    let message = gif.verifyGIF(try Export.gifData(recipe(widest: 10)), mode: .never).message ?? ""
    #expect(
      message.contains("the pictures show GIF frame 2 of 4 (at 0.2 s), the one that differs most"))
    #expect(
      message.contains("FLIPBOOK_RECORD=failed swift test --filter 'AppTests.DotTests/dotMoves'"))
    let shown = try Bitmap(contentsOfPNGFile: folder + "/failures/dot.actual.png")
    let frames = try GIF.decode(try Export.gifData(recipe(widest: 10))).frames
    #expect(shown == frames[2])
  }

  @Test func goldensOfADeletedTestFileAreOrphans() throws {
    // A package with one test target: PulseTests.swift is there, OldTests.swift was deleted.
    let target = folder + "/pkg/Tests/AppTests"
    try AtomicFile.makeFolder(folder + "/pkg")
    try AtomicFile.write(
      Array("// swift-tools-version: 6.0".utf8), to: folder + "/pkg/Package.swift")
    for f in ["/pkg/Tests", "/pkg/Tests/AppTests", "/pkg/Tests/AppTests/__Snapshots__"] {
      try AtomicFile.makeFolder(folder + f)
    }
    for f in ["/__Snapshots__/PulseTests", "/__Snapshots__/OldTests"] {
      try AtomicFile.makeFolder(target + f)
    }
    try AtomicFile.write(
      Array(
        """
        @Test func pulseGrows() { assertGolden(scene, at: [0], named: "pulse") }
        """.utf8), to: target + "/PulseTests.swift")
    try AtomicFile.write([0], to: target + "/__Snapshots__/PulseTests/pulseGrows.pulse@0.png")
    try AtomicFile.write([0], to: target + "/__Snapshots__/OldTests/fades.fade.gif")
    try AtomicFile.write([0], to: target + "/__Snapshots__/.gitkeep")  // a placeholder is no orphan
    #expect(
      GoldenFile.orphans(testFile: target + "/PulseTests.swift") == [
        target + "/__Snapshots__/OldTests/fades.fade.gif"
      ])
  }
}
