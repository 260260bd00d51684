import Demos
import Flipbook
import FlipbookTestSupport
import Testing

/// Every demo matches its goldens (`Fixtures/goldens/demos/<name>@<time>.png`) at its start, a
/// quarter, half, and its last frame.
@Suite struct DemoGoldenTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var demo: String
    var time: Double
    var testDescription: String { "\(demo)@\(time)" }
  }

  static var cases: [Case] {
    Demo.all.flatMap { demo -> [Case] in
      let scene = try! demo.recipe.make()
      let last = (scene.duration * scene.fps).rounded(.up) - 1
      let times = [0, scene.duration / 4, scene.duration / 2, last / scene.fps]
      return times.map { Case(demo: demo.name, time: ($0 * 1000).rounded() / 1000) }
    }
  }

  @Test(arguments: cases)
  func demoMatchesItsGolden(_ c: Case) throws {
    let scene = try Demo.named(c.demo)!.recipe.make()
    let frame = try scene.makeFrame(at: c.time).makeBitmap()
    let name = "\(c.demo)@\(c.time)"
    if let failure = Golden.check(frame, against: "\(FixtureFiles.root)/goldens/demos/\(name).png")
    {
      Issue.record(Comment(rawValue: failure))
    }
  }

  @Test func everyDemoGoldenHasACase() {
    let goldens = FixtureFiles.names(in: FixtureFiles.root + "/goldens/demos", suffix: ".png")
    let orphans = Set(goldens).subtracting(Self.cases.map(\.testDescription))
    #expect(orphans.isEmpty, "demo goldens no test uses: \(orphans.sorted()); delete them")
  }

  @Test func theListHasTheFiveArticlesInOrderThenTheTextEffectsAnd3DDemos() {
    #expect(
      Demo.all.map(\.name) == [
        "radar", "cradle", "waves", "spinner", "cat", "counter", "shimmer", "activity", "lift",
        "flip",
      ])
    #expect(Demo.named("cat") != nil && Demo.named("dog") == nil)
  }

  @Test func everyDemoPlaysRightInBrowsers() throws {
    for demo in Demo.all {
      let scene = try demo.recipe.make()
      // Browsers slow delays under 2 cs down to 10 cs.
      #expect(100 / scene.fps >= 2, "\(demo.name)")
      #expect(scene.duration * scene.fps <= 300, "\(demo.name): keep the gallery GIFs small")
    }
  }
}
