import Demos
import Flipbook
import Testing

/// The demos whose model changes over time (the radar's timer and random generator, the waves'
/// display-link state, the cradle's dynamics and ropes) show their frames in any order and on
/// any number of threads with the bytes of a forward render.
@Suite struct DemoReplayTests {
  static let scenes: [String: @Sendable () -> Scene] = [
    "radar": { Radar.makeScene() }, "waves": { Waves.makeScene() },
    "cradle": { NewtonsCradle.makeScene() },
  ]

  @Test(arguments: ["radar", "waves", "cradle"])
  func framesOutOfOrderEqualFramesInOrder(_ name: String) throws {
    let make = Self.scenes[name]!
    let times = [0.2, 1.0, 1.5]
    let forward = make()
    let inOrder = try times.map { try forward.makeFrame(at: $0).makeBitmap() }
    let scene = make()
    var shuffled: [Double: Bitmap] = [:]
    for t in [1.5, 0.2, 1.0] { shuffled[t] = try scene.makeFrame(at: t).makeBitmap() }
    let same = times.map { shuffled[$0] } == inOrder
    #expect(same)
  }

  @Test(arguments: ["radar", "waves", "cradle"])
  func oneAndTwoJobsGiveTheSameFrames(_ name: String) throws {
    let sequence = FrameSequence(from: 0.5, to: 1.5, fps: 6)
    func render(jobs: Int) throws -> [Bitmap] {
      var frames: [Bitmap] = []
      try FrameRenderer(scene: Self.scenes[name]!(), scale: 0.5, jobs: jobs).render(
        sequence, process: { $1 }
      ) { _, b in frames.append(b) }
      return frames
    }
    let one = try render(jobs: 1)
    let same = try render(jobs: 2) == one
    #expect(one.count == 6 && same)
  }

  @Test func theCradleIsSimulatedOncePerRenderOnTwoThreads() throws {
    let scene = NewtonsCradle.makeScene()
    let sequence = FrameSequence(to: 1, fps: scene.fps)
    try FrameRenderer(scene: scene, scale: 0.25, jobs: 2).render(sequence, process: { $1 }) {
      _, _ in
    }
    // 29/30 s is step 232; the ropes' display link asks for nothing later.
    #expect(scene.dynamicsRecording.stepsTaken == 232)
  }
}
