import CairoCanvas
import Foundation
import Geometry
import Dynamics
import LayerTree
import Parallelism

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
  /// How many threads may render (at least 1); fewer run when their frames would pass the
  /// frame memory budget (`frameMemory`).
  public let jobs: Int
  /// The bytes of one frame (4 a pixel), which sets how many workers the frame memory budget
  /// lets run at once; 0 when not known (then `jobs` run).
  public var frameBytes = 0

  /// Frame memory, shared by every render in the process (a batch's animations side by side
  /// too): 2 GiB. Each worker holds about three frames (its canvas, a frame it has made and one
  /// waiting to be handed over), so an 8000 x 8000 render runs 2 workers whatever `jobs` says:
  /// at 16 it aborted allocating, at 8 it took 5.7 GB. The frames do not depend on the
  /// number of workers, so neither does the output.
  public static let frameMemory = MemoryBudget(limit: 2 << 30)

  /// The bytes a worker holds: three frames (see `frameMemory`).
  var bytesPerWorker: Int { 3 * frameBytes }

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

  /// The scenes workers of an earlier `render` left, for the next workers: a sink with two
  /// passes (a GIF's palette, then its frames) makes one scene per worker, not one per worker
  /// and pass (each a read of the file: most of a small animation's render).
  private let spareScenes = SparePool()

  /// Gives `scene` (an instance made from this renderer's recipe, not used elsewhere after
  /// this) to the next worker that needs one, when it shows any time as a new instance would:
  /// no timeline, no dynamics.
  func reuse(_ scene: Scene) {
    spareScenes.keep(scene)
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
    // Threads: `OrderedJobs` (thread w renders frames w, w + jobs, ... in increasing time order,
    // at most 2 x jobs frames ahead of the one being handed over).
    let (recipe, scale, spares) = (recipe, scale, spareScenes)
    try withWorkers(Swift.min(jobs, Swift.max(1, sequence.count))) { workers in
      spares.copyForAll(threads: workers)
      try OrderedJobs.run(
        count: sequence.count, threads: workers, window: 2 * workers,
        makeState: { try Worker(recipe: recipe, scale: scale, spares: spares) },
        job: { worker, i in
          let time = sequence.time(at: i)
          let frame = try FrameDrawingError.drawing(at: time, frame: i) {
            try worker.frame(at: time)
          }
          return try process(i, frame)
        },
        deliver: deliver)
    }
  }

  /// Runs `body` with the number of workers, at most `wanted`, the frame memory budget gives
  /// now (waiting for one when other renders hold it all), and gives them back after.
  public func withWorkers<R>(_ wanted: Int, _ body: (Int) throws -> R) rethrows -> R {
    let each = bytesPerWorker
    let workers = Self.frameMemory.acquire(workers: wanted, bytesPerWorker: each)
    defer { Self.frameMemory.release(workers: workers, bytesPerWorker: each) }
    return try body(workers)
  }

  /// One rendering thread's scene and canvas; the scene goes back to the spares when the
  /// thread is done with it.
  final class Worker {
    let scene: Scene
    let scale: Double?
    var canvas: Canvas?
    let spares: SparePool

    init(recipe: SceneRecipe, scale: Double?, spares: SparePool) throws {
      self.scale = scale
      self.spares = spares
      scene = try spares.take() ?? recipe.make()
    }

    deinit { spares.keep(scene) }

    /// The frame at `time` as straight RGBA.
    func frame(at time: Double) throws -> Bitmap {
      let tree = try scene.drawableTree(at: time)
      if canvas == nil { canvas = try Canvas(size: scene.size, scale: scale ?? scene.scale) }
      try scene.render(tree, into: canvas!)
      return canvas!.makeBitmap()
    }
  }
}

/// Scenes made from a renderer's recipe that no worker is using, handed from thread to thread
/// under a lock. Only scenes that show any time as a new instance would are kept (no timeline:
/// nothing has run; no dynamics: nothing was simulated).
final class SparePool: @unchecked Sendable {
  private let lock = NSLock()
  private var scenes: [Scene] = []

  /// Makes copies of a spare scene (`Scene.staticCopy()`) until there is one for each of
  /// `threads` workers, when there is one to copy: the workers do not each read the file.
  func copyForAll(threads: Int) {
    lock.lock()
    defer { lock.unlock() }
    guard let first = scenes.first else { return }
    while scenes.count < threads, let copy = first.staticCopy() { scenes.append(copy) }
  }

  /// A spare scene, if there is one.
  func take() -> Scene? {
    lock.lock()
    defer { lock.unlock() }
    return scenes.popLast()
  }

  /// Keeps `scene` for a later worker when it qualifies.
  func keep(_ scene: Scene) {
    guard !scene.hasTimeline, scene.dynamicAnimatorIfUsed == nil else { return }
    lock.lock()
    defer { lock.unlock() }
    scenes.append(scene)
  }
}
