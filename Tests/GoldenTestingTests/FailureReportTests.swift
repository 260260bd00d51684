import Flipbook
import FlipbookTestSupport
import GoldenTesting
import ImageComparison
import Pages
import Testing

/// The golden-failure page: every failing golden's pictures side by side, swipe and flicker,
/// animations opening on the frame that differs most; pictures of goldens that pass again go.
@Suite struct FailureReportTests {
  let folder = FixtureFiles.temporaryFolder()

  func disc(_ color: Color) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 30, pixelHeight: 30)
    canvas.clear(to: .white)
    canvas.fill(Path(ellipseIn: Rect(5, 5, 20, 20)), with: color)
    return canvas.makeBitmap()
  }

  func page() -> String {
    guard FixtureFiles.exists(folder + "/index.html") else { return "" }
    return FixtureFiles.text(folder + "/index.html")
  }

  @Test func aFailureIsOnThePageUntilItsGoldenMatchesAgain() throws {
    let a = GoldenFile(path: folder + "/goldens/a.png", artifactsFolder: folder + "/ATests")
    let b = GoldenFile(path: folder + "/goldens/b.png", artifactsFolder: folder + "/BTests")
    _ = a.verify(try disc(.blue), mode: .missing)
    _ = b.verify(try disc(.blue), mode: .missing)
    #expect(a.verify(try disc(.red), mode: .never).isFailure)
    #expect(b.verify(try disc(.green), mode: .never).isFailure)
    #expect(a.failureReportPath == folder + "/index.html")
    var html = page()
    #expect(html.contains("2 failing goldens"))
    #expect(html.contains("<h2>\(folder)/goldens/a.png</h2>"))
    #expect(html.contains("<h2>\(folder)/goldens/b.png</h2>"))
    #expect(html.contains("src=\"ATests/a.frames/expected-00000.png\""))
    #expect(html.contains("src=\"ATests/a.frames/difference-00000.png\""))
    #expect(html.contains("data-view=\"swipe\"") && html.contains("data-view=\"flicker\""))
    #expect(FixtureFiles.exists(folder + "/ATests/a.frames/actual-00000.png"))
    let shown = try Bitmap(contentsOfPNGFile: folder + "/ATests/a.frames/actual-00000.png")
    #expect(try shown == disc(.red))
    // a passes again: its pictures go, b stays.
    #expect(a.verify(try disc(.blue), mode: .never) == .matched)
    html = page()
    #expect(html.contains("1 failing golden "))
    #expect(!html.contains("goldens/a.png"))
    #expect(!FixtureFiles.exists(folder + "/ATests/a.actual.png"))
    #expect(!FixtureFiles.exists(folder + "/ATests/a.frames/actual-00000.png"))
    #expect(FixtureFiles.exists(folder + "/BTests/b.actual.png"))
    // b too: the page goes.
    #expect(b.verify(try disc(.blue), mode: .never) == .matched)
    #expect(!FixtureFiles.exists(folder + "/index.html"))
  }

  @Test func anAnimationOpensOnTheFrameThatDiffersMostWithItsTime() throws {
    func gif(_ widest: Double) throws -> [UInt8] {
      try Export.gifData(
        SceneRecipe {
          let scene = Scene(size: Size(40, 20), duration: 0.4, fps: 10, backgroundColor: .white)
          let bar = Layer()
          bar.bounds = Rect(0, 0, 6, 6)
          bar.position = Point(20, 10)
          bar.backgroundColor = .black
          bar.add(
            KeyframeAnimation(keyPath: "bounds.size.width", values: [6, widest, 6], duration: 0.4),
            forKey: "widen")
          scene.addLayer(bar)
          return scene
        })
    }
    let golden = GoldenFile(path: folder + "/goldens/bar.gif", artifactsFolder: folder + "/T")
    _ = golden.verifyGIF(try gif(30), mode: .missing)
    #expect(golden.verifyGIF(try gif(10), mode: .never).isFailure)
    let html = page()
    #expect(html.contains("data-worst=\"2\""))  // frame 2 of 4 differs most, not frame 1
    #expect(html.contains("\"t\":0.2"))
    #expect(html.contains("class=\"next\""))
    for k in 0..<4 { #expect(FixtureFiles.exists(folder + "/T/bar.frames/actual-0000\(k).png")) }
  }

  @Test func picturesKeptInOneGoldenFailuresFolderHaveThePageInIt() throws {
    let root = folder + "/golden-failures"
    let g = GoldenFile(path: folder + "/goldens/c.png", artifactsFolder: root)
    _ = g.verify(try disc(.blue), mode: .missing)
    #expect(g.verify(try disc(.red), mode: .never).isFailure)
    #expect(g.failureReportPath == root + "/index.html")
    let html = FixtureFiles.text(root + "/index.html")
    #expect(html.contains("src=\"c.frames/expected-00000.png\""))
    #expect(g.verify(try disc(.blue), mode: .never) == .matched)
    #expect(!FixtureFiles.exists(root + "/index.html"))
  }

  @Test func sectionsEscapeTextAndCarryEveryFrame() {
    let item = ComparisonPage.Item(
      title: "a <b>.png", message: "x & y",
      frames: [
        ComparisonPage.Frame(
          expected: "e0.png", actual: "a0.png", difference: "d0.png", time: 0, differingPixels: 0),
        ComparisonPage.Frame(
          expected: "e1.png", actual: "a1.png", difference: "d1.png", time: 0.5,
          differingPixels: 9),
      ], worst: 1, frameCount: 2)
    let html = ComparisonPage.section(item)
    #expect(html.contains("<h2>a &lt;b&gt;.png</h2>"))
    #expect(html.contains("<pre class=\"error\">x &amp; y</pre>"))
    #expect(html.contains("src=\"e1.png\""))  // the worst frame is shown first
    #expect(html.contains(#"{"e":"e0.png","a":"a0.png","d":"d0.png","t":0,"n":0}"#))
    #expect(html.contains("max=\"1\" value=\"1\""))
  }

  @Test func base64MatchesTheStandard() {
    #expect(HTML.base64(Array("".utf8)) == "")
    #expect(HTML.base64(Array("f".utf8)) == "Zg==")
    #expect(HTML.base64(Array("fo".utf8)) == "Zm8=")
    #expect(HTML.base64(Array("foobar".utf8)) == "Zm9vYmFy")
  }
}
