import ArgumentParser
import Batch
import Flipbook
import Glibc

/// `flipbook batch INPUT... -o OUTDIR [...]` and `flipbook batch --merge OUTDIR`: many
/// animations in one run (docs/command-line.md "batch").
struct BatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract: "Render many scene or Lottie files at once, with a manifest and a gallery page.",
    // Two forms: the parser's own line showed INPUTs and --output as optional (they are, with
    // --merge only), right under an error saying one is missing.
    usage: "flipbook batch <inputs> ... --output <output> [--formats <formats>] "
      + "[--shard <shard>] [--jobs <jobs>] [--force] [--quiet]\n"
      + "flipbook batch --merge <merge>",
    discussion: """
      Each INPUT is a file, a folder (searched recursively for *.json and *.lottie files that are \
      scenes or Lottie animations) or @LIST (a text file of paths, one a line). Animation A (its \
      path relative to the inputs' common folder, without extension) gives OUTDIR/A.FORMAT for \
      each format, plus OUTDIR/manifest.json and OUTDIR/index.html. Outputs whose content hash \
      is unchanged are not rendered again (--force renders all). --shard I/N renders every N-th \
      animation from the I-th and writes OUTDIR/manifest.I-of-N.json; --merge OUTDIR joins the \
      shards' manifests. A bad input is reported and the rest render; the exit status is then 1.
      """)

  @Argument(help: "Scene or Lottie files, folders, or @LIST files.")
  var inputs: [String] = []

  @Option(name: [.customShort("o"), .long], help: "The output folder.")
  var output: String?

  @Option(
    name: .long,
    help:
      "Comma-separated formats: gif, webp, apng, png (the first frame), mp4, webm (default gif)."
  )
  var formats: String = "gif"

  @Option(
    name: .long, parsing: .unconditional,
    help: "Render only shard I of N (1 ≤ I ≤ N), e.g. 2/3.")
  var shard: String?

  @Option(
    name: .long, parsing: .unconditional,
    help: "Rendering threads, across animations (default: the number of cores).",
    transform: wholeNumber("in 1...256"))
  var jobs: Int = FrameRenderer.coreCount

  @Flag(name: .long, help: "Render every output, even those whose content hash is unchanged.")
  var force = false

  @Flag(name: .long, help: "Print nothing but errors (no progress bar, no summary).")
  var quiet = false

  @Option(name: .long, help: "Join OUTDIR's shard manifests into manifest.json and index.html.")
  var merge: String?

  /// The formats asked for, in order. A name given twice or an empty name between commas is a
  /// usage error: `gif,gif` or `gif,,webp` is a slip in a script, not a request.
  var chosenFormats: [BatchRun.Format] {
    get throws {
      var out: [BatchRun.Format] = []
      let names = formats.split(separator: ",", omittingEmptySubsequences: false)
      for name in names {
        let trimmed = name.trimmingCharacters(in: " ").lowercased()
        if trimmed.isEmpty, names.count > 1 {
          throw ValidationError(
            "--formats: an empty name in '\(MessageText.value(formats))' (names are separated by one comma)"
          )
        }
        guard let format = BatchRun.Format(rawValue: trimmed) else {
          if trimmed.isEmpty { break }
          throw ValidationError(
            "--formats: unknown format '\(MessageText.value(trimmed))' (use gif, webp, apng, png, mp4, webm)"
          )
        }
        guard !out.contains(format) else {
          throw ValidationError("--formats names \(format.rawValue) twice")
        }
        out.append(format)
      }
      guard !out.isEmpty else { throw ValidationError("--formats names no format") }
      return out
    }
  }

  /// `--shard I/N` as numbers.
  var chosenShard: (index: Int, count: Int)? {
    get throws {
      guard let shard else { return nil }
      let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
      let digits = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
      if parts.count == 2, digits, Int(parts[0]) == nil || Int(parts[1]) == nil {
        // Whole numbers past what an Int holds: say so, not that I ≤ N fails.
        throw ValidationError(
          "--shard must be I/N with 1 ≤ I ≤ N ≤ \(Int.max), found '\(MessageText.value(shard))': "
            + "too large")
      }
      guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1,
        (1...n).contains(i)
      else {
        throw ValidationError(
          "--shard must be I/N with 1 ≤ I ≤ N, found '\(MessageText.value(shard))'")
      }
      return (i, n)
    }
  }

  func validate() throws {
    if let merge {
      guard inputs.isEmpty, output == nil, shard == nil else {
        throw ValidationError("--merge OUTDIR takes no inputs, -o or --shard")
      }
      guard merge != "" else {
        throw ValidationError("--merge is empty: name the output folder (use . for this one)")
      }
      return
    }
    guard !inputs.isEmpty else { throw ValidationError("Missing expected argument '<inputs> ...'") }
    guard output != nil else {
      throw ValidationError("Missing expected argument '--output <output>'")
    }
    // An empty name (`-o "$OUTDIR"` with the variable unset) read as the working folder, and
    // the gallery page replaced an index.html there without a word.
    guard output != "" else {
      throw ValidationError("--output is empty: name the output folder (use . for this one)")
    }
    guard !inputs.contains("") else {
      throw ValidationError("an input is empty: name a file, a folder or @LIST")
    }
    _ = try chosenFormats
    _ = try chosenShard
    guard jobs >= 1 && jobs <= 256 else {
      throw ValidationError("--jobs must be 1...256, found \(jobs)")
    }
  }

  func run() throws {
    // Relative paths are made absolute against the working folder, which must then be UTF-8
    // (`in` was "No such file" under a folder named `cwd<FF>`).
    let relative =
      (inputs.map { $0.hasPrefix("@") ? String($0.dropFirst()) : $0 }
      + [output, merge].compactMap { $0 }).first { !$0.hasPrefix("/") }
    if let relative, let folder = Paths.workingDirectoryNotUTF8() {
      throw CommandFailure(
        message: "\(MessageText.value(relative)): the working folder (\(folder)) is not UTF-8, "
          + "so a path relative to it cannot be read: give absolute paths, or work from another "
          + "folder")
    }
    if let merge { return try runMerge(merge) }
    let outdir = Paths.absolute(output ?? "", base: Paths.workingDirectory())
    let formats = try chosenFormats
    let shard = try chosenShard
    let found: (inputs: [BatchInput], root: String)
    do {
      found = try BatchInputs.find(
        inputs, workingDirectory: Paths.workingDirectory(), excluding: outdir)
      try BatchInputs.checkOutputNames(found.inputs, formats: formats)
      try BatchInputs.checkOutputsAreNotInputs(
        found.inputs, lists: inputs.filter { $0.hasPrefix("@") }.map { String($0.dropFirst()) },
        formats: formats, outputFolder: outdir,
        manifestName: shard.map { Manifest.shardFileName($0.index, of: $0.count) }
          ?? "manifest.json")
    } catch {
      throw CommandFailure(message: error.description)
    }
    guard !found.inputs.isEmpty else {
      // An input folder that is the output folder, or inside it, was not searched.
      let base = Paths.workingDirectory()
      let skipped = inputs.contains { input in
        let path = Paths.absolute(input, base: base)
        return path == outdir || path.hasPrefix(outdir.hasSuffix("/") ? outdir : outdir + "/")
      }
      throw CommandFailure(
        message: "no scene or Lottie files found in \(inputs.joined(separator: " "))"
          + (skipped
            ? " (the output folder \(output ?? "") is not searched: put the outputs elsewhere)"
            : ""))
    }
    let selected =
      shard.map { BatchInputs.shard(found.inputs, index: $0.index, of: $0.count) }
      ?? found.inputs
    do {
      try Paths.makeFolders(outdir)
    } catch {
      // A folder above OUTDIR that is a file (an input: `-o in/a.json/x`) is said as the output
      // that cannot be written, not as a file of its own.
      let what = error.path == outdir ? error.reason : "\(error.path) \(error.reason)"
      throw CommandFailure(message: "cannot write output \(MessageText.path(outdir)): \(what)")
    }
    let manifestName =
      shard.map { Manifest.shardFileName($0.index, of: $0.count) } ?? "manifest.json"
    var run = BatchRun(
      inputs: selected, root: found.root, outputFolder: outdir, formats: formats,
      version: FlipbookTool.configuration.version,
      load: { path in
        // Its warnings go in the manifest and the page, as the render's own do.
        try SceneDocument.load(contentsOf: path)
      })
    run.jobs = jobs
    run.force = force
    for name in ["manifest.json", manifestName] {
      guard let old = try? Manifest.read(outdir + "/" + name) else { continue }
      for entry in old.animations { run.previous[entry.name] = entry }
    }
    // What a run stopped before writing its manifest finished, newer than any manifest.
    let journalPath = BatchJournal.path(in: outdir, manifestName: manifestName)
    for entry in BatchJournal.entries(at: journalPath) { run.previous[entry.name] = entry }
    run.journal = BatchJournal(
      path: journalPath, version: run.version, formats: formats.map(\.rawValue))
    let progress =
      !quiet && isatty(2) == 1
      ? BatchProgress(total: selected.count) { FileHandleStandardError.writeRaw($0) } : nil
    let outcomes = try run.run(progress: progress)
    progress?.finish()
    var manifest = Manifest(
      flipbookVersion: run.version, formats: formats.map(\.rawValue),
      shard: shard.map { "\($0.index)/\($0.count)" }, animations: outcomes.map(\.entry))
    // A shard records the whole batch's inputs, which a merge checks every shard shares.
    if shard != nil {
      manifest.inputs = Manifest.InputSet(relativePaths: found.inputs.map(\.relativePath))
    }
    // The animations' failures are said whether or not the manifest and page could be
    // written (a full disk cut the report to the page's write error alone).
    var unwritten: String? = nil
    do {
      try write(manifest, to: outdir, manifestName: manifestName, page: shard == nil)
      run.journal = nil
      BatchJournal.remove(at: journalPath)
    } catch {
      unwritten = (error as? CommandFailure)?.message ?? String(describing: error)
    }
    let failed = outcomes.filter { $0.entry.error != nil }
    if !quiet { print("\(MessageText.path(output ?? outdir)): \(Self.summary(outcomes))") }
    if !failed.isEmpty || unwritten != nil {
      let lines =
        failed.isEmpty
        ? []
        : [
          Self.failureMessage(
            failed.map {
              Self.failureLine($0.entry.error ?? "", file: run.shownPath($0.entry.input))
            })
        ]
      throw CommandFailure(message: (lines + [unwritten].compactMap { $0 }).joined(separator: "\n"))
    }
  }

  /// The run's counts as said after it: `4 animations, 1 rendered, 1 unchanged, 2 failed`.
  /// Each animation is counted once: failed when any of its outputs failed (one whose GIF was
  /// written and whose WebP found the disk full was counted as both, and the unchanged went
  /// negative), rendered when it made an output, unchanged when it reused them all.
  static func summary(_ outcomes: [BatchRun.Outcome]) -> String {
    let failed = outcomes.filter { $0.entry.error != nil }.count
    let rendered = outcomes.filter { $0.entry.error == nil && $0.rendered > 0 }.count
    let unchanged = outcomes.count - failed - rendered
    return "\(MessageText.counted(outcomes.count, "animation")), \(rendered) rendered, "
      + "\(unchanged) unchanged, \(failed) failed"
  }

  /// The failed animations' lines as said: the first 100 lines (an animation's error may take
  /// several), then one counting the rest, which the manifest holds (10,000 bad files printed
  /// as many lines).
  static func failureMessage(_ failures: [String]) -> String {
    // Each line cut as a manifest's text read back is (a merged shard's error may be long).
    let lines = failures.flatMap {
      MessageText.lines($0).split(separator: "\n", omittingEmptySubsequences: false)
    }
    return MessageText.listed(lines.map(String.init)) {
      "… and \($0) more lines of errors (the manifest holds every animation's)"
    }.joined(separator: "\n")
  }

  /// A failed animation's line: its error naming `file` once. Errors about the file name it
  /// already; the others (a format's) get it in front (`bad: bad.json: ...` named it twice).
  static func failureLine(_ error: String, file: String) -> String {
    error.hasPrefix(file + ":") ? error : "\(file): \(error)"
  }

  /// Writes the manifest and, for a whole batch, the page.
  func write(_ manifest: Manifest, to outdir: String, manifestName: String, page: Bool) throws {
    try failing(outdir, output: outdir) {
      try AtomicFile.write(
        Array(manifest.json.serialized().utf8), to: outdir + "/" + manifestName)
      if page {
        try AtomicFile.write(Array(GalleryPage.html(manifest).utf8), to: outdir + "/index.html")
      }
    }
  }

  /// `--merge OUTDIR`: joins `manifest.I-of-N.json` (all N of them) into `manifest.json` and
  /// `index.html`.
  func runMerge(_ folder: String) throws {
    let outdir = Paths.absolute(folder, base: Paths.workingDirectory())
    let merged: Manifest
    do {
      merged = try ShardMerge.merge(in: folder)  // named as given in every message
    } catch {
      throw CommandFailure(message: error.description)
    }
    try write(merged, to: outdir, manifestName: "manifest.json", page: true)
    let failed = merged.animations.filter { $0.error != nil }
    if !quiet {
      print(
        "\(MessageText.path(folder)): \(MessageText.counted(merged.animations.count, "animation")) "
          + "merged, "
          + "\(failed.count) failed")
    }
    if !failed.isEmpty {
      throw CommandFailure(
        message: Self.failureMessage(
          failed.map { Self.failureLine($0.error ?? "", file: $0.input) }))
    }
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> String {
    String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
  }
}
