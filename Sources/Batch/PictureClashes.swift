import FileIO
import Parallelism
import SceneFiles

/// Outputs that would replace a picture an animation of the batch reads (OUTDIR the inputs'
/// folder: `b.json` showing `a.png`, `a.json`'s PNG output; or `a.frames.png`, its frame sheet).
/// The reader failed, but the writer rendered and replaced the picture, the user's, for good.
/// Found before anything is rendered, so that neither is, and the picture is left as it is.
extension BatchRun {
  /// A file this run would write that is on disk now, not as an earlier run recorded it: a
  /// picture in the way of an output.
  struct PictureInTheWay {
    /// The file, absolute.
    var path: String
    /// The input whose output it is (its relative path).
    var writer: String
    /// What it is of the writer's (`png output`, `frame sheet`).
    var what: String
  }

  /// The outputs of this run that are on disk now and are not what an earlier run recorded
  /// there (`previous`: an output at its recorded size, a frame sheet), by file identity.
  /// Usually none (a first run into a new folder, a run over an earlier one's outputs), and
  /// then nothing more is looked at.
  func picturesInTheWay() -> [[UInt64]: PictureInTheWay] {
    var found: [[UInt64]: PictureInTheWay] = [:]
    let sheet = formats.contains { $0.isAnimated }
    for input in inputs where input.problem == nil {
      let earlier = previous[input.name]
      var files: [(file: String, what: String, recorded: Bool)] = formats.map { format in
        let file = input.name + "." + format.rawValue
        let output = earlier?.outputs.first { $0.file == file }
        return (
          file, "\(format.rawValue) output",
          output.map { isPresent(file, bytes: $0.bytes) } ?? false
        )
      }
      if sheet {
        let file = input.name + ".frames.png"
        files.append((file, "frame sheet", earlier?.frames?.file == file))
      }
      for (file, what, recorded) in files where !recorded {
        let path = outputFolder + "/" + file
        guard Paths.fileSize(path) != nil, let identity = AtomicFile.identity(of: path) else {
          continue
        }
        found[identity] = PictureInTheWay(path: path, writer: input.relativePath, what: what)
      }
    }
    return found
  }

  /// The files `input` reads besides itself, absolute: its earlier record's dependencies when
  /// that is still valid (as `entry(for:frameJobs:progress:)` reuses it), else its scene's, read
  /// now (and let go: the render reads it again); none when it cannot be read.
  func pictures(of input: BatchInput) -> [String] {
    guard input.problem == nil,
      let bytes = try? AtomicFile.read(input.path, limit: SceneFormat.maximumFileSize)
    else { return [] }
    if let old = previous[input.name], old.input == input.relativePath, old.error == nil,
      let oldHash = old.hash, hash(bytes, old.dependencies) == oldHash
    {
      return old.dependencies.map { Paths.absolute($0, base: root) }
    }
    let size = BatchRun.sceneBytes(bytes.count)
    _ = BatchRun.sceneMemory.acquire(workers: 1, bytesPerWorker: size)
    defer { BatchRun.sceneMemory.release(workers: 1, bytesPerWorker: size) }
    guard let loaded = try? load(input.path) else { return [] }
    return loaded.scene.inputFiles.map { Paths.absolute($0, base: root) }
  }

  /// The animations not rendered because an output of one would replace a picture one reads,
  /// by relative path, with why: the writer (`a.json: its png output a.png is a picture b.json
  /// reads: ...`) and the reader (`b.json: it reads a.png, which a.json's png output would
  /// replace: ...`), or one animation both (`logo.json` showing `logo.png`). The animations'
  /// files are read on `threads` threads, only when an output is in the way of a file.
  func pictureClashes(threads: Int) throws -> [String: String] {
    let inTheWay = picturesInTheWay()
    guard !inTheWay.isEmpty else { return [:] }
    var clashes: [String: String] = [:]
    let advice = "write the outputs to another folder (-o)"
    try OrderedJobs.run(
      count: inputs.count, threads: threads, window: Swift.max(threads, inputs.count),
      balanced: true, makeState: {}, job: { _, i in pictures(of: inputs[i]) }
    ) { i, pictures in
      let reader = inputs[i].relativePath
      for picture in pictures {
        guard let identity = AtomicFile.identity(of: picture), let clash = inTheWay[identity] else {
          continue
        }
        let file = MessageText.value(Paths.relative(clash.path, to: root))
        let kept = "it is not rendered, and \(file) is left as it is: \(advice)"
        let whose =
          clash.writer == reader ? "its" : MessageText.value(shownPath(clash.writer)) + "'s"
        if clashes[reader] == nil {
          clashes[reader] =
            "\(shownPath(reader)): it reads \(file), which \(whose) \(clash.what) would replace: "
            + kept
        }
        if clashes[clash.writer] == nil {
          clashes[clash.writer] =
            "\(shownPath(clash.writer)): its \(clash.what) \(file) is a picture "
            + "\(MessageText.value(shownPath(reader))) reads: \(kept)"
        }
      }
    }
    return clashes
  }
}
