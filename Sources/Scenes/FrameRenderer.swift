import CairoCanvas
import Foundation
import Geometry
import Dynamics
import LayerTree

/// Renders a frame sequence on several threads and hands the frames over in order.
///
/// Each worker has its own instance of the scene (from the recipe: a replica, for a renderer made
/// from a scene) and its own canvas, and renders every `jobs`-th frame. The instances share one
/// dynamics recording, so a simulation runs once per renderer, whatever `jobs` is. A worker may
/// run at most `2 × jobs` frames ahead of the frame being handed over: memory holds a few
/// frames, whatever the frame count. The frames, and so every output built from them, are the same whatever
/// `jobs` is.
public struct FrameRenderer: Sendable {
  /// How each worker gets its scene: the recipe given (or the scene's `recipe`), its instances
  /// recording dynamics in one recording.
  public let recipe: SceneRecipe
  /// Pixels per point (`nil`: the scene's own scale).
  public let scale: Double?
  /// How many threads render (at least 1).
  public let jobs: Int

  /// Creates a renderer for `scene`, which must have been built by a builder (or given
  /// `rebuild(with:)`): each worker renders a replica (rendering fails with
  /// `SceneError.notReplicable` otherwise). The scene's own model is not changed.
  public init(scene: Scene, scale: Double? = nil, jobs: Int = 1) {
    self.init(workerRecipe: scene.recipe, scale: scale, jobs: jobs)
  }

  /// Creates a renderer whose workers get their scenes from `recipe`.
  public init(recipe: SceneRecipe, scale: Double? = nil, jobs: Int = 1) {
    self.init(workerRecipe: recipe.recording(into: DynamicsRecording()), scale: scale, jobs: jobs)
  }

  private init(workerRecipe recipe: SceneRecipe, scale: Double?, jobs: Int) {
    self.recipe = recipe
    self.scale = scale
    self.jobs = Swift.max(1, jobs)
  }

  /// The number of cores, the default for `jobs`.
  public static var coreCount: Int { Swift.max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Renders every frame of `sequence`, runs `process` on it on the rendering thread (work that
  /// does not depend on order, such as encoding a PNG), and hands the results to `deliver` on
  /// the calling thread in frame order. Stops at the first error, from any side.
  public func render<Output: Sendable>(
    _ sequence: FrameSequence, process: @escaping @Sendable (Int, Bitmap) throws -> Output,
    deliver: (Int, Output) throws -> Void
  ) throws {
    let count = sequence.count
    guard count > 0 else { return }
    if jobs == 1 || count == 1 {
      var worker = try Worker(recipe: recipe, scale: scale)
      for i in 0..<count { try deliver(i, try process(i, try worker.frame(at: sequence.time(at: i)))) }
      return
    }
    let state = SharedState<Output>(window: 2 * jobs)
    var threads: [Thread] = []
    for w in 0..<Swift.min(jobs, count) {
      let thread = Thread { [recipe, scale, jobs] in
        do {
          var worker = try Worker(recipe: recipe, scale: scale)
          var i = w
          while i < count {
            guard state.waitForRoom(index: i) else { break }
            let output = try process(i, try worker.frame(at: sequence.time(at: i)))
            state.put(i, output)
            i += jobs
          }
        } catch {
          state.fail(error)
        }
        state.workerFinished()
      }
      thread.stackSize = 8 << 20
      threads.append(thread)
      thread.start()
    }
    defer { state.waitForWorkers(threads.count) }
    for i in 0..<count {
      let output = try state.take(i)
      do {
        try deliver(i, output)
      } catch {
        state.fail(error)
        throw error
      }
    }
  }

  /// One rendering thread's scene and canvas.
  struct Worker {
    let scene: Scene
    let recipe: SceneRecipe
    let scale: Double?
    var canvas: Canvas?

    init(recipe: SceneRecipe, scale: Double?) throws {
      self.recipe = recipe
      self.scale = scale
      scene = try recipe.make()
    }

    /// The frame at `time` as straight RGBA.
    mutating func frame(at time: Double) throws -> Bitmap {
      let tree = try scene.presentationTree(at: time)
      if canvas == nil { canvas = try Canvas(size: scene.size, scale: scale ?? scene.scale) }
      try scene.render(tree, into: canvas!)
      return canvas!.makeBitmap()
    }
  }
}

/// The hand-over between rendering threads and the delivering thread.
private final class SharedState<Output: Sendable>: @unchecked Sendable {
  // Every field is read and written under `condition`.
  private let condition = NSCondition()
  private var ready: [Int: Output] = [:]
  private var next = 0
  private var failure: (any Error)? = nil
  private var finishedWorkers = 0
  private let window: Int

  init(window: Int) { self.window = window }

  /// Waits until frame `index` is within the window; false when the render failed.
  func waitForRoom(index: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while index >= next + window && failure == nil { condition.wait() }
    return failure == nil
  }

  func put(_ index: Int, _ output: Output) {
    condition.lock()
    ready[index] = output
    condition.broadcast()
    condition.unlock()
  }

  func take(_ index: Int) throws -> Output {
    condition.lock()
    defer { condition.unlock() }
    while ready[index] == nil && failure == nil { condition.wait() }
    if let failure { throw failure }
    let output = ready.removeValue(forKey: index)!
    next = index + 1
    condition.broadcast()
    return output
  }

  func fail(_ error: any Error) {
    condition.lock()
    if failure == nil { failure = error }
    condition.broadcast()
    condition.unlock()
  }

  func workerFinished() {
    condition.lock()
    finishedWorkers += 1
    condition.broadcast()
    condition.unlock()
  }

  func waitForWorkers(_ count: Int) {
    condition.lock()
    if failure == nil && next < Int.max { failure = failure ?? CancellationError() }
    condition.broadcast()
    while finishedWorkers < count { condition.wait() }
    condition.unlock()
  }
}
