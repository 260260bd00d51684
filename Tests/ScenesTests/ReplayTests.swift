import Flipbook
import FlipbookTestSupport
import Synchronization
import Testing

/// Time is a pure function: any order of times shows what increasing order shows, byte for byte,
/// for timelines, display-link hooks and dynamics; replicas are made only when needed; dynamics
/// is stepped once per render whatever the jobs.
@Suite struct ReplayTests {
  final class Counter: Sendable {
    let count = Mutex(0)
  }

  /// Dots added by a repeating event at places from a seeded generator kept by the event (state
  /// outside the layer tree), fading in; `builds` counts the builder's runs.
  static func timelineScene(builds: Counter? = nil) -> Scene {
    Scene(size: Size(60, 60), duration: 2, fps: 10, backgroundColor: .white) { scene in
      builds?.count.withLock { $0 += 1 }
      var random = SeededGenerator(seed: 3)
      var count = 0
      scene.every(0.25) { [unowned scene] time in
        count += 1
        let dot = Layer()
        dot.bounds = Rect(0, 0, Double(4 + count % 3), 6)
        dot.position = Point(
          Double.random(in: 5..<55, using: &random), Double.random(in: 5..<55, using: &random))
        dot.backgroundColor = .black
        scene.addLayer(dot)
        scene.animate(withDuration: 0.5, at: time) { dot.opacity = 0.5 }
      }
    }
  }

  /// A bar whose width a display-link hook sets from its own counter (as the waves demo does).
  static func displayLinkScene() -> Scene {
    Scene(size: Size(60, 20), duration: 2, fps: 30, backgroundColor: .white) { scene in
      let bar = ShapeLayer()
      bar.frame = Rect(0, 0, 60, 20)
      bar.fillColor = .blue
      scene.addLayer(bar)
      var ticks = 0
      scene.onFrame { _ in
        ticks += 1
        bar.path = Path(rect: Rect(0, 0, Double(ticks % 60), 10 + Double(ticks % 7)))
      }
    }
  }

  /// Two falling boxes, the second given gravity only by an event at 0.5 s (which starts the
  /// simulation again with the new behaviour), and a hook that draws a line to the first one.
  static func dynamicsScene() -> Scene {
    Scene(size: Size(80, 120), duration: 1.5, fps: 20, backgroundColor: .white) { scene in
      let a = Layer(), b = Layer()
      a.frame = Rect(10, 10, 12, 12)
      b.frame = Rect(50, 10, 12, 12)
      a.backgroundColor = .red
      b.backgroundColor = .green
      let line = ShapeLayer()
      line.frame = Rect(0, 0, 80, 120)
      line.strokeColor = .black
      line.fillColor = nil
      scene.addLayer(line)
      scene.addLayer(a)
      scene.addLayer(b)
      let collision = CollisionBehavior(items: [a, b])
      collision.translatesReferenceBoundsIntoBoundary = true
      scene.dynamicAnimator.addBehavior(collision)
      scene.dynamicAnimator.addBehavior(GravityBehavior(items: [a]))
      scene.at(0.5) { [unowned scene] _ in
        scene.dynamicAnimator.addBehavior(GravityBehavior(items: [b]))
      }
      scene.onFrame { [unowned scene] _ in
        var path = Path()
        path.move(to: Point(40, 0))
        path.addLine(to: scene.dynamicState(of: a)?.center ?? a.position)
        line.path = path
      }
    }
  }

  func frames(_ scene: Scene, _ times: [Double]) throws -> [Double: Bitmap] {
    var out: [Double: Bitmap] = [:]
    for t in times { out[t] = try scene.makeFrame(at: t).makeBitmap() }
    return out
  }

  @Test func dynamicStateAfterARewindIsTheStateOfTheTimeShown() throws {
    let scene = Self.dynamicsScene(), fresh = Self.dynamicsScene()
    _ = try scene.presentationTree(at: 1.5)
    let late = try #require(scene.dynamicState(of: scene.layers[1]))
    _ = try scene.presentationTree(at: 0.2)
    _ = try fresh.presentationTree(at: 0.2)
    let early = try #require(fresh.dynamicState(of: fresh.layers[1]))
    #expect(scene.dynamicState(of: scene.layers[1]) == early)
    #expect(early != late)
    _ = try scene.presentationTree(at: 1.6)  // forward again: the scene's own instance
    #expect(scene.dynamicState(of: scene.layers[1]) != early)
  }

  @Test(arguments: ["timeline", "display link", "dynamics"])
  func framesInAnyOrderEqualFramesInIncreasingOrder(_ kind: String) throws {
    let make = [
      "timeline": { Self.timelineScene() }, "display link": Self.displayLinkScene,
      "dynamics": Self.dynamicsScene,
    ][kind]!
    let increasing = try frames(make(), [0.2, 1.0, 1.5])
    let scene = make()
    let shuffled = try frames(scene, [1.5, 0.2, 1.0, 0.2, 1.5])
    for t in [0.2, 1.0, 1.5] { #expect(shuffled[t] == increasing[t], "\(kind) at \(t)") }
    #expect(increasing[0.2] != increasing[1.5])
    #expect(scene.modelTime == 1.5)  // the scene's own model stays where it ran to
  }

  @Test func everyFrameBackwardsEqualsEveryFrameForwards() throws {
    let times = (0..<20).map { Double($0) / 10 }
    let forwards = try frames(Self.timelineScene(), times)
    let backwards = try frames(Self.timelineScene(), times.reversed())
    #expect(forwards == backwards)
  }

  @Test func rewindingUsesTheLatestKeptReplicaAtOrBeforeTheTime() throws {
    let builds = Counter()
    let scene = Self.timelineScene(builds: builds)
    _ = try scene.presentationTree(at: 1.5)
    #expect(builds.count.withLock { $0 } == 1)
    _ = try scene.presentationTree(at: 0.3)  // a new replica, run to 0.3
    _ = try scene.presentationTree(at: 1.2)  // the same replica, run on to 1.2
    _ = try scene.presentationTree(at: 1.7)  // the scene itself
    #expect(builds.count.withLock { $0 } == 2)
    _ = try scene.presentationTree(at: 1.0)  // before every instance: another replica
    #expect(builds.count.withLock { $0 } == 3)
  }

  @Test func aTimelineSceneWithoutABuilderCannotRewind() throws {
    let scene = Scene(size: Size(10, 10))
    scene.every(1) { [unowned scene] _ in scene.addLayer(Layer()) }
    #expect(try scene.presentationTree(at: 3.5).sublayers.count == 3)
    #expect(throws: SceneError.timeWentBackwards(current: 3.5, requested: 1.5)) {
      try scene.presentationTree(at: 1.5)
    }
    #expect(!scene.isReplicable)
    #expect(throws: SceneError.notReplicable) {
      try FrameRenderer(scene: scene).render(FrameSequence(to: 1, fps: 1), process: { $1 }) {
        _, _ in
      }
    }
  }

  func render(_ scene: Scene, jobs: Int) throws -> [Bitmap] {
    var out: [Bitmap] = []
    try FrameRenderer(scene: scene, jobs: jobs).render(
      FrameSequence(to: Swift.min(scene.duration, 1), fps: scene.fps), process: { $1 }
    ) { _, b in out.append(b) }
    return out
  }

  @Test(arguments: ["timeline", "display link", "dynamics", "scene file"])
  func parallelRendersOfASceneGiveTheSameBytes(_ kind: String) throws {
    let make: () throws -> Scene = [
      "timeline": { Self.timelineScene() }, "display link": Self.displayLinkScene,
      "dynamics": Self.dynamicsScene,
      "scene file": { try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/cradle.json") },
    ][kind]!
    let one = try render(make(), jobs: 1)
    #expect(one.count >= 10)
    #expect(try render(make(), jobs: 2) == one)
    // And the frames a scene makes on its own, in order.
    let scene = try make()
    let sequence = FrameSequence(to: Swift.min(scene.duration, 1), fps: scene.fps)
    #expect(
      try (0..<sequence.count).map { try scene.makeFrame(at: sequence.time(at: $0)).makeBitmap() }
        == one)
  }

  @Test(arguments: [1, 2])
  func dynamicsIsSteppedOncePerRender(jobs: Int) throws {
    let scene = try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/cradle.json")
    let sequence = FrameSequence(to: 1, fps: scene.fps)
    try FrameRenderer(scene: scene, jobs: jobs).render(sequence, process: { $1 }) { _, _ in }
    let lastStep = Int((sequence.time(at: sequence.count - 1) * 240 + 1e-9).rounded(.down))
    #expect(scene.dynamicsRecording.stepsTaken == lastStep)
    // Showing the frames again, in any order, steps no more.
    for i in [sequence.count - 1, 0, sequence.count / 2] {
      _ = try scene.presentationTree(at: sequence.time(at: i))
    }
    #expect(scene.dynamicsRecording.stepsTaken == lastStep)
  }

  @Test func theInstancesARendererGetsFromARecipeShareOneRecording() throws {
    let renderer = FrameRenderer(
      recipe: SceneRecipe {
        try SceneFormat.load(contentsOf: FixtureFiles.root + "/scenes/cradle.json")
      }, jobs: 2)
    let a = try renderer.recipe.make(), b = try renderer.recipe.make()
    #expect(a.dynamicsRecording === b.dynamicsRecording)
    _ = try a.presentationTree(at: 1)
    _ = try b.presentationTree(at: 1)
    #expect(a.dynamicsRecording.stepsTaken == 240)
  }

  @Test func anEventAddingABehaviourStartsASecondSimulationSharedByTheReplicas() throws {
    let scene = Self.dynamicsScene()
    try FrameRenderer(scene: scene, jobs: 2).render(
      FrameSequence(to: 1.5, fps: 20), process: { $1 }
    ) { _, _ in }
    // Before 0.5 s: the first simulation to 0.5; then the second one, from 0 to 1.45 s.
    #expect(scene.dynamicsRecording.stepsTaken == 120 + 348)
  }

  @Test func replicasTakeTheScenesSettingsAsTheyAreWhenRendered() throws {
    let scene = Self.timelineScene()
    scene.backgroundColor = .black
    scene.scale = 0.5
    let frames = try render(scene, jobs: 2)
    #expect(frames.first?.width == 30)
    #expect(frames.last == (try scene.makeFrame(at: 0.9).makeBitmap()))
  }

  /// The README's timeline example, as written there.
  @Test func theReadmesTimelineExampleShowsTimesInAnyOrder() throws {
    let scene = Scene(size: Size(320, 320), duration: 8, fps: 25, backgroundColor: .white) {
      scene in
      var random = SeededGenerator(seed: 7)  // your own deterministic generator
      scene.every(0.5) { [unowned scene] time in  // NSTimer.scheduledTimer(0.5, repeats: true)
        let item = Layer()
        item.frame = Rect(Double.random(in: 0...276, using: &random), 100, 44, 44)
        item.opacity = 0
        scene.addLayer(item)
        scene.animate(withDuration: 1, at: time) { item.opacity = 1 }
      }
      scene.onFrame { time in  // 60 Hz, like CADisplayLink: update paths here
      }
    }
    let last = try scene.makeFrame(at: 7.9), first = try scene.makeFrame(at: 0)  // any order
    _ = (last, first)
    let frames = try scene.presentationTree(at: 7.9).sublayers.map(\.frame)
    #expect(frames.count == 15)
    #expect(try scene.presentationTree(at: 0).sublayers.isEmpty)
    #expect(try scene.recipe.make().presentationTree(at: 7.9).sublayers.map(\.frame) == frames)
  }
}
