import Dispatch
import Glibc
import Flipbook
import Parallelism

/// One `flipbook batch` run: renders each animation to every format asked for, reusing outputs
/// whose content hash is unchanged, across all cores (`OrderedJobs`, balanced: one animation
/// per thread at a time, so memory is bounded by the largest animations being rendered, not by
/// their number), and returns the manifest. A failing animation is recorded and the rest go on.
public struct BatchRun: Sendable {
  /// The output formats a batch makes: the animated formats and `png` (the first frame).
  public enum Format: String, CaseIterable, Sendable {
    /// Animated GIF.
    case gif
    /// Animated WebP (lossless).
    case webp
    /// Animated PNG.
    case apng
    /// One PNG of the first frame.
    case png
    /// H.264 video (needs ffmpeg).
    case mp4
    /// VP9 video (needs ffmpeg).
    case webm

    /// Whether the format is animated (it then carries the frame sheet).
    public var isAnimated: Bool { self != .png }
  }

  /// Loads an animation file: the command's one scene-loading path (scene files and Lottie
  /// files), returning the scene with the warnings reading it gave (a Lottie file's unsupported
  /// features), which the manifest records beside the render's own.
  public typealias Loader = @Sendable (String) throws -> SceneDocument.Loaded

  /// The animations, sorted by relative path.
  public var inputs: [BatchInput]
  /// Their common folder.
  public var root: String
  /// Where outputs go (existing or made).
  public var outputFolder: String
  /// The formats, in the order asked for.
  public var formats: [Format]
  /// Animations rendered at once (default: the number of cores).
  public var jobs: Int = FrameRenderer.coreCount
  /// Render everything even when the recorded hash matches.
  public var force = false
  /// The Flipbook version recorded and hashed.
  public var version: String
  /// The records of an earlier run, by name (outputs whose hash matches are reused).
  public var previous: [String: Manifest.Entry] = [:]
  /// The loader.
  public var load: Loader

  /// `outputFiles`, made once a run (`run(progress:)`), for each animation to look its images
  /// up in.
  var writtenFiles: [String: String] = [:]
  /// `pictureClashes(threads:)`, found once a run before anything is rendered: the animations
  /// that are not rendered because one's output would replace a picture one reads, by relative
  /// path, with why.
  var clashes: [String: String] = [:]

  /// Every file the batch writes (each animation's outputs and frame sheet), absolute, with the
  /// input whose it is.
  public var outputFiles: [String: String] {
    var out: [String: String] = [:]
    let sheet = formats.contains { $0.isAnimated }
    for input in inputs {
      for format in formats { out[outputPath(input.name, format.rawValue)] = input.relativePath }
      if sheet { out[outputPath(input.name, "frames.png")] = input.relativePath }
    }
    return out
  }
  /// Where each rendered animation's record goes as it finishes, so that a run stopped before
  /// its manifest is written loses no finished work (`nil`: nowhere).
  public var journal: BatchJournal? = nil

  /// The render options every output uses (the batch has no per-format flags yet); described
  /// in `optionsDescription`, which the content hash covers.
  public static let options = Export.Options()
  /// The options as hashed text.
  public static let optionsDescription =
    "fps=scene scale=scene from=0 to=duration gif=256,floyd-steinberg loop=scene "
    + "webp=lossless apng=default png=default crf=default frames-sheet=4M"

  /// Creates a run.
  public init(
    inputs: [BatchInput], root: String, outputFolder: String, formats: [Format], version: String,
    load: @escaping Loader
  ) {
    (self.inputs, self.root, self.outputFolder, self.formats, self.version, self.load) =
      (inputs, root, outputFolder, formats, version, load)
  }

  /// The memory a batch's animations may hold once read, side by side: 2 GiB, each counted as
  /// `sceneBytesPerFileByte` times its file's size (at least 1 MiB). A file of 2.7 million
  /// Lottie keyframes (66 MB) held 1 GB read, and eight of them at `--jobs 8` aborted at
  /// 7.6 GB; scenes of large keyframe values likewise. Taken before the file is read, and
  /// before the frame and encoder budgets, never while holding them.
  public static let sceneMemory = MemoryBudget(limit: 2 << 30)

  /// What the animations rendered side by side in a batch hold in their dynamics recordings
  /// (`Scene.simulationMemory(through:)`, up to about 1 GB each), shared by every batch in the
  /// process: 2 GiB. Taken once the scene is read (holding `sceneMemory`), before the frame
  /// and encoder budgets, never while holding them; one alone always runs.
  public static let simulationMemory = MemoryBudget(limit: 2 << 30)

  /// What one byte of an input file is counted as in `sceneMemory`: 40 (the keyframe files
  /// above held 11 to 15 bytes read for each byte of JSON, and a JSON value tree more).
  public static let sceneBytesPerFileByte = 40

  /// `sceneMemory`'s bytes for a file of `size` bytes.
  static func sceneBytes(_ size: Int) -> Int {
    Swift.max(1 << 20, Swift.min(size, Int.max / 64) * sceneBytesPerFileByte)
  }

  /// Renders every input and returns their entries, in input order; `progress` is told of
  /// frames and animations as they finish.
  public func run(progress: BatchProgress? = nil) throws -> [Outcome] {
    var outcomes: [Outcome] = []
    let threads = Swift.max(1, Swift.min(jobs, inputs.count))
    let framesJobs = Swift.max(1, jobs / threads)
    var prepared = self
    prepared.writtenFiles = outputFiles
    prepared.clashes = try pictureClashes(threads: threads)
    let run = prepared
    try OrderedJobs.run(
      count: inputs.count, threads: threads, window: Swift.max(threads, inputs.count),
      balanced: true, makeState: {},
      job: { _, i in
        // What a file becomes once read is counted by its size, shared by the animations
        // side by side (one alone always runs).
        let bytes = BatchRun.sceneBytes(Paths.fileSize(run.inputs[i].path) ?? 0)
        _ = BatchRun.sceneMemory.acquire(workers: 1, bytesPerWorker: bytes)
        defer { BatchRun.sceneMemory.release(workers: 1, bytesPerWorker: bytes) }
        let outcome = run.entry(for: run.inputs[i], frameJobs: framesJobs, progress: progress)
        run.removeStaleOutputs(of: run.previous[run.inputs[i].name], keeping: outcome.entry)
        if outcome.rendered > 0 && outcome.entry.error == nil {
          run.journal?.record(outcome.entry)
        }
        return outcome
      }
    ) { _, outcome in
      outcomes.append(outcome)
      progress?.animationDone()
    }
    return outcomes
  }

  /// What became of one animation.
  public struct Outcome: Sendable {
    /// Its manifest record.
    public var entry: Manifest.Entry
    /// Outputs rendered this run (0 when everything was reused or it failed early).
    public var rendered: Int

    /// Creates an outcome.
    public init(entry: Manifest.Entry, rendered: Int) {
      (self.entry, self.rendered) = (entry, rendered)
    }
  }

  /// `OUTDIR/NAME.EXT`.
  func outputPath(_ name: String, _ ext: String) -> String {
    outputFolder + "/" + name + "." + ext
  }

  /// The hash of `input` with the dependencies (relative to the root) it read.
  func hash(_ bytes: [UInt8], _ dependencies: [String]) -> String? {
    ContentHash.compute(
      version: version, options: BatchRun.optionsDescription, input: bytes,
      dependencies: dependencies.map { ($0, Paths.absolute($0, base: root)) })
  }

  /// Removes what the earlier run recorded for an animation (`old`) and this run did not make
  /// again (`now`): its outputs in formats no longer asked for, and all of them when it failed
  /// this time, so that OUTDIR holds no picture of it the manifest does not list (a failed
  /// animation's GIF from the run before looked current; hostile pass 37). Only outputs still
  /// as recorded (their size) are removed, and the frame sheet by its own name: another file
  /// at those names is not the batch's.
  func removeStaleOutputs(of old: Manifest.Entry?, keeping now: Manifest.Entry) {
    guard let old, old.input == now.input else { return }
    let kept = Set(now.outputs.map(\.file) + (now.frames.map { [$0.file] } ?? []))
    for output in old.outputs
    where !kept.contains(output.file) && isPresent(output.file, bytes: output.bytes) {
      unlink(outputFolder + "/" + output.file)
    }
    if let sheet = old.frames, !kept.contains(sheet.file),
      sheet.file == old.name + ".frames.png"
    {
      unlink(outputFolder + "/" + sheet.file)
    }
  }

  /// Whether a recorded output is still on disk as recorded.
  func isPresent(_ file: String, bytes: Int) -> Bool {
    Paths.fileSize(outputFolder + "/" + file) == bytes
  }

  /// Renders (or reuses) one animation's outputs.
  func entry(for input: BatchInput, frameJobs: Int, progress: BatchProgress?) -> Outcome {
    var entry = Manifest.Entry(name: input.name, input: input.relativePath)
    if let problem = input.problem {
      entry.error = "\(shownPath(input.relativePath)): \(problem)"
      return Outcome(entry: entry, rendered: 0)
    }
    if let clash = clashes[input.relativePath] {
      entry.error = clash
      return Outcome(entry: entry, rendered: 0)
    }
    let bytes: [UInt8]
    do {
      bytes = try AtomicFile.read(input.path, limit: SceneFormat.maximumFileSize)
    } catch {
      entry.error = "\(shownPath(input.relativePath)): cannot read the file: \(error.reason)"
      return Outcome(entry: entry, rendered: 0)
    }
    // What an earlier run made that is still valid.
    var reusable: [String: Manifest.Output] = [:]
    var reusableSheet: Manifest.FrameSheet? = nil
    if !force, let old = previous[input.name], old.input == input.relativePath, old.error == nil,
      let oldHash = old.hash, hash(bytes, old.dependencies) == oldHash
    {
      for output in old.outputs where isPresent(output.file, bytes: output.bytes) {
        reusable[output.format] = output
      }
      if let sheet = old.frames, Paths.fileSize(outputFolder + "/" + sheet.file) != nil {
        reusableSheet = sheet
      }
      let needsSheet = formats.contains { $0.isAnimated }
      if formats.allSatisfy({ reusable[$0.rawValue] != nil })
        && (!needsSheet || reusableSheet != nil)
      {
        var kept = old
        kept.outputs = formats.compactMap { reusable[$0.rawValue] }
        kept.frames = needsSheet ? reusableSheet : nil
        return Outcome(entry: kept, rendered: 0)
      }
    }
    // Load and render.
    let scene: Scene
    do {
      let loaded = try load(input.path)
      scene = loaded.scene
      entry.warnings = loaded.warnings.map { relativeText($0.description) }
    } catch {
      entry.error = relativeMessage(error)
      return Outcome(entry: entry, rendered: 0)
    }
    // A simulation is recorded step by step as it is rendered: counted before it starts.
    let simulationBytes = scene.simulationMemory(through: scene.duration)
    if simulationBytes > 0 {
      _ = BatchRun.simulationMemory.acquire(workers: 1, bytesPerWorker: simulationBytes)
    }
    defer { BatchRun.simulationMemory.release(workers: 1, bytesPerWorker: simulationBytes) }
    entry.dependencies = scene.inputFiles
      .map { Paths.relative(Paths.absolute($0, base: root), to: root) }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    // An image the animation reads that this batch writes as an output (OUTDIR the inputs'
    // folder: `logo.json` showing `logo.png`, its own PNG output) was replaced by the render,
    // irrecoverably: refused before anything is written.
    for file in scene.inputFiles {
      let path = Paths.absolute(file, base: root)
      guard let output = writtenFiles[path] else { continue }
      entry.error =
        "\(shownPath(input.relativePath)): it reads \(MessageText.value(Paths.relative(path, to: root))), "
        + "which this batch writes as \(MessageText.value(output))'s output: write the outputs "
        + "to another folder (-o)"
      return Outcome(entry: entry, rendered: 0)
    }
    entry.hash = hash(bytes, entry.dependencies)
    let (width, height) = scene.pixelSize()
    (entry.width, entry.height, entry.duration, entry.fps) =
      (width, height, scene.duration, scene.fps)
    entry.frameCount = FrameSequence(from: 0, to: scene.duration, fps: scene.fps).count
    if let hash = entry.hash, hash != previous[input.name]?.hash || force {
      reusable = [:]
      reusableSheet = nil
    }
    // Outputs kept from the earlier run keep the warnings their render gave.
    if !reusable.isEmpty, let old = previous[input.name] {
      for warning in old.warnings where !entry.warnings.contains(warning) {
        entry.warnings.append(warning)
      }
    }
    do {
      try Paths.makeFolders(Paths.folder(of: outputPath(input.name, "x")))
    } catch {
      entry.error = relativeMessage(error)
      return Outcome(entry: entry, rendered: 0)
    }
    var options = BatchRun.options
    options.jobs = frameJobs
    let recipe = scene.recipe
    var sheetPending = formats.contains { $0.isAnimated } && reusableSheet == nil
    entry.frames = reusableSheet
    var errors: [String] = []
    var rendered = 0
    for format in formats {
      if let output = reusable[format.rawValue] {
        entry.outputs.append(output)
        continue
      }
      let file = input.name + "." + format.rawValue
      let path = outputFolder + "/" + file
      let start = DispatchTime.now().uptimeNanoseconds
      do {
        let report: Export.Report
        let frame: Export.Progress = { _, _, _ in progress?.frame() }
        switch format {
        case .png:
          report = try Export.png(recipe, to: path, options: options)
        default:
          let exportFormat = Export.Format(rawValue: format.rawValue)!
          let sink = Export.sink(exportFormat, to: path, options: options)
          if sheetPending {
            let sheetFile = input.name + ".frames.png"
            let sheet = FrameSheetSink(path: outputFolder + "/" + sheetFile)
            report = try BatchRun.render(
              recipe, into: sink, beside: sheet, options: options, progress: frame)
            if sheet.isMade {
              entry.frames = Manifest.FrameSheet(
                file: sheetFile, count: sheet.kept, columns: sheet.columns, step: sheet.step)
            } else {
              entry.warnings.append(
                "no frames to step through on the page: one frame of \(width) x \(height) pixels with its "
                  + "caption is over the limits of a picture (\(Canvas.maximumSide) pixels a side, "
                  + "\(Canvas.maximumPixelCount) in all)")
            }
            sheetPending = false
          } else {
            report = try Export.render(recipe, into: sink, options: options, progress: frame)
          }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        rendered += 1
        entry.outputs.append(
          Manifest.Output(
            format: format.rawValue, file: file, bytes: report.byteCount, width: width,
            height: height, duration: format == .png ? 0 : Double(report.frameCount) / scene.fps,
            frames: report.storedFrameCount, renderSeconds: seconds))
        entry.frameCount = format == .png ? entry.frameCount : report.frameCount
        for warning in report.warnings.map(relativeText) where !entry.warnings.contains(warning) {
          entry.warnings.append(warning)
        }
      } catch {
        errors.append("\(format.rawValue): \(outputMessage(error))")
        // The frame sheet rides with the first animated output: when that fails, the next
        // format renders alone (each was blamed on the sheet the first could not write).
        sheetPending = false
      }
    }
    if !errors.isEmpty { entry.error = errors.joined(separator: "; ") }
    return Outcome(entry: entry, rendered: rendered)
  }

  /// Renders into `sink` and, from the same frames, `sheet`.
  static func render<Sink: FrameSink & SendableMetatype>(
    _ recipe: SceneRecipe, into sink: Sink, beside sheet: FrameSheetSink, options: Export.Options,
    progress: Export.Progress?
  ) throws -> Export.Report {
    try Export.render(recipe, into: TeeSink(sink, sheet), options: options, progress: progress)
  }

  /// How messages name an input recorded as `relativePath`: relative to the batch's common
  /// folder, or absolute when that folder is `/`.
  public func shownPath(_ relativePath: String) -> String {
    root == "/" ? "/" + relativePath : relativePath
  }

  /// A format's failure as said: a file in OUTDIR that cannot be written is `cannot write
  /// output NAME.gif: reason`, named relative to OUTDIR as `render` names its output (it was
  /// the absolute path, so manifests differed between machines); another error as
  /// `relativeMessage(_:)` says it.
  func outputMessage(_ error: any Error) -> String {
    let prefix = outputFolder.hasSuffix("/") ? outputFolder : outputFolder + "/"
    if let error = error as? FileError, error.path.hasPrefix(prefix) {
      return "cannot write output \(error.path.dropFirst(prefix.count)): \(error.reason)"
    }
    return relativeMessage(error)
  }

  /// An error's message with the common folder taken off the paths it names, so manifests do
  /// not depend on where the inputs lie.
  func relativeMessage(_ error: any Error) -> String {
    relativeText(String(describing: error))
  }

  /// `text` (an error or a warning) with the common folder taken off the paths it names.
  func relativeText(_ text: String) -> String {
    // Under `/` the paths stay absolute (`/dev/zero`, not `dev/zero`).
    guard root != "/" else { return text }
    let prefix = root + "/"
    var out = ""
    var rest = Substring(text)
    while let range = rest.firstRange(of: prefix) {
      out += rest[..<range.lowerBound]
      rest = rest[range.upperBound...]
    }
    return out + rest
  }
}
