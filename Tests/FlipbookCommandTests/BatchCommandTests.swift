import Batch
import FileIO
import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

@testable import FlipbookCommand

/// docs/command-line.md "batch": outputs by relative path, the manifest, skipping unchanged
/// work, shards and their merge (byte for byte one run's), bad inputs, and the same bytes
/// whatever --jobs is.
@Suite struct BatchCommandTests {
  let folder = FixtureFiles.temporaryFolder()

  /// A small scene: a square sliding across, `color` so that scenes differ.
  static func scene(_ color: String, image: String? = nil) -> String {
    let contents = image.map { #", "contents": "\#($0)""# } ?? ""
    return """
      {"flipbook": 1, "size": [40, 30], "duration": 0.5, "fps": 10, "background": "#ffffff",
       "layers": [{"name": "box", "bounds": [0, 0, 10, 10], "position": [5, 15],
         "backgroundColor": "\(color)"\(contents),
         "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 5, "toValue": 35,
           "duration": 0.5}]}]}
      """
  }

  func write(_ text: String, _ name: String) throws {
    let path = folder + "/" + name
    try Paths.makeFolders(Paths.folder(of: path))
    try AtomicFile.write(Array(text.utf8), to: path)
  }

  func makeInputs() throws {
    try write(Self.scene("#ff0000"), "in/a.json")
    try write(Self.scene("#00ff00"), "in/b.json")
    try write(Self.scene("#0000ff"), "in/icons/c.json")
    try write(Self.scene("#ffff00"), "in/icons/d.json")
    try write(Self.scene("#00ffff", image: "../img/q.png"), "in/icons/e.json")
    try write(#"{"dependencies": {}}"#, "in/package.json")
    let png = try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png")
    try Paths.makeFolders(folder + "/in/img")
    try AtomicFile.write(png, to: folder + "/in/img/q.png")
  }

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  /// Hostile pass 37: an animation that failed on a later run, or a format no longer asked
  /// for, left the earlier run's outputs in OUTDIR, unlisted, looking current. They are
  /// removed (those still as recorded); a file of the user's beside them stays.
  @Test func outputsAnAnimationNoLongerHasAreRemoved() throws {
    try write(Self.scene("#ff0000"), "in/a.json")
    let out = folder + "/out"
    #expect(
      run(["batch", folder + "/in", "-o", out, "--quiet", "--formats", "gif,apng,png"]).status == 0)
    try AtomicFile.write([1, 2, 3], to: out + "/notes.txt")
    #expect(
      Set(AtomicFile.names(in: out)).isSuperset(of: ["a.gif", "a.apng", "a.png", "a.frames.png"]))
    #expect(run(["batch", folder + "/in", "-o", out, "--quiet", "--formats", "webp"]).status == 0)
    #expect(
      Set(AtomicFile.names(in: out))
        == ["a.webp", "a.frames.png", "index.html", "manifest.json", "notes.txt"])
    try write(#"{"flipbook": 1, "size": [10"#, "in/a.json")
    #expect(run(["batch", folder + "/in", "-o", out, "--quiet", "--formats", "webp"]).status == 1)
    #expect(Set(AtomicFile.names(in: out)) == ["index.html", "manifest.json", "notes.txt"])
  }

  func manifest(_ outdir: String, _ name: String = "manifest.json") throws -> Manifest {
    try Manifest.read(folder + "/" + outdir + "/" + name)
  }

  /// Every file under `outdir` and its bytes, by relative path; manifests without their
  /// measured render times.
  func files(_ outdir: String) throws -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    let root = folder + "/" + outdir
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let name = enumerator?.nextObject() as? String {
      let path = root + "/" + name
      guard !AtomicFile.isFolder(path) else { continue }
      var bytes = try AtomicFile.read(path)
      if name.hasSuffix(".json") {
        var manifest = try Manifest.read(path)
        for a in manifest.animations.indices {
          for o in manifest.animations[a].outputs.indices {
            manifest.animations[a].outputs[o].renderSeconds = 0
          }
        }
        bytes = Array(manifest.json.serialized().utf8)
      }
      out[name] = bytes
    }
    return out
  }

  @Test func rendersEveryAnimationByRelativePathWithAManifestAndAPage() throws {
    try makeInputs()
    let (status, errors) = run(
      ["batch", folder + "/in", "-o", folder + "/out", "--formats", "gif,png", "--quiet"])
    #expect(status == 0, "\(errors)")
    let m = try manifest("out")
    #expect(m.animations.map(\.name) == ["a", "b", "icons/c", "icons/d", "icons/e"])
    #expect(m.formats == ["gif", "png"])
    let e = m.animations[4]
    #expect(e.input == "icons/e.json")
    #expect(e.dependencies == ["img/q.png"])
    #expect((e.width, e.height, e.frameCount) == (40, 30, 5))
    #expect(e.duration == 0.5 && e.fps == 10)
    #expect(e.outputs.map(\.file) == ["icons/e.gif", "icons/e.png"])
    #expect(
      e.frames == Manifest.FrameSheet(file: "icons/e.frames.png", count: 5, columns: 3, step: 1))
    for output in e.outputs {
      #expect(try AtomicFile.read(folder + "/out/" + output.file).count == output.bytes)
    }
    // The GIF is the one `flipbook render` makes.
    #expect(run(["render", folder + "/in/icons/e.json", "-o", folder + "/e.gif"]).status == 0)
    #expect(
      try AtomicFile.read(folder + "/e.gif") == AtomicFile.read(folder + "/out/icons/e.gif"))
    let page = String(decoding: try AtomicFile.read(folder + "/out/index.html"), as: UTF8.self)
    #expect(page.contains("<h2>icons/e</h2>"))
  }

  @Test func aSecondRunRendersNothingAndAChangedImageRendersItsAnimationAgain() throws {
    try makeInputs()
    let args = ["batch", folder + "/in", "-o", folder + "/out", "--quiet"]
    #expect(run(args).status == 0)
    let first = try manifest("out")
    #expect(run(args).status == 0)
    let second = try manifest("out")
    #expect(second == first)  // reused records keep even their render times
    // Mark every record: a record kept keeps the mark, a render measures a new time.
    var marked = second
    for a in marked.animations.indices { marked.animations[a].outputs[0].renderSeconds = 999 }
    try AtomicFile.write(
      Array(marked.json.serialized().utf8), to: folder + "/out/manifest.json")
    // Change the image e reads: only e renders again.
    let other = try AtomicFile.read(folder + "/in/img/q.png")
    try AtomicFile.write(other + [0], to: folder + "/in/img/q.png")  // trailing byte: same picture
    #expect(run(args).status == 0)
    let third = try manifest("out")
    #expect(third.animations[4].hash != first.animations[4].hash)
    #expect(
      third.animations.map { $0.outputs[0].renderSeconds == 999 } == [
        true, true, true, true, false,
      ])
    #expect(third.animations[4].outputs[0].bytes == first.animations[4].outputs[0].bytes)
    // --force renders all.
    #expect(run(args + ["--force"]).status == 0)
    let forced = try manifest("out")
    #expect(forced.animations.map(\.hash) == third.animations.map(\.hash))
    #expect(forced.animations.allSatisfy { $0.outputs[0].renderSeconds != 999 })
  }

  /// A batch stopped before its manifest was written (an interrupt, a CI time limit) lost all
  /// it had rendered: the next run rendered everything again. Each finished animation's record
  /// is appended to a journal as it finishes, read back by the next run (a line a kill cut
  /// short skipped), and the journal is removed once the manifest is written.
  @Test func aStoppedBatchResumesFromItsJournal() throws {
    try makeInputs()
    let args = ["batch", folder + "/in", "-o", folder + "/out", "--quiet"]
    #expect(run(args).status == 0)
    let journal = BatchJournal.path(in: folder + "/out", manifestName: "manifest.json")
    #expect(journal == folder + "/out/.manifest.json.journal")
    #expect(!FixtureFiles.exists(journal))
    // A run stopped after a, b and icons/c had finished: their records in the journal (marked,
    // so that a kept record shows), one line cut short between them, and no manifest.
    let first = try manifest("out")
    try FileManager.default.removeItem(atPath: folder + "/out/manifest.json")
    try FileManager.default.removeItem(atPath: folder + "/out/index.html")
    do {
      let writer = BatchJournal(
        path: journal, version: first.flipbookVersion, formats: first.formats)
      for var entry in first.animations.prefix(2) {
        entry.outputs[0].renderSeconds = 999
        writer.record(entry)
      }
    }
    var bytes = try AtomicFile.read(journal)
    bytes += Array(#"{"flipbookVersion": "0.1.0", "formats": ["#.utf8)  // killed mid-line
    try AtomicFile.write(bytes, to: journal)
    do {
      let writer = BatchJournal(
        path: journal, version: first.flipbookVersion, formats: first.formats)
      var entry = first.animations[2]
      entry.outputs[0].renderSeconds = 999
      writer.record(entry)
    }
    #expect(BatchJournal.entries(at: journal).map(\.name) == ["a", "b", "icons/c"])
    #expect(run(args).status == 0)
    let resumed = try manifest("out")
    #expect(resumed.animations.map(\.name) == first.animations.map(\.name))
    #expect(
      resumed.animations.map { $0.outputs[0].renderSeconds == 999 } == [
        true, true, true, false, false,
      ])
    #expect(FixtureFiles.exists(folder + "/out/index.html"))
    #expect(!FixtureFiles.exists(journal))
    // A shard keeps its own journal, removed as its manifest is written.
    #expect(run(args + ["--shard", "1/2"]).status == 0)
    #expect(FixtureFiles.exists(folder + "/out/manifest.1-of-2.json"))
    #expect(!FixtureFiles.exists(folder + "/out/.manifest.1-of-2.json.journal"))
    // A run whose manifest cannot be written (a folder in its place) leaves its journal, with
    // every animation it rendered; the next run renders none of them again.
    try Paths.makeFolders(folder + "/out2/manifest.json")
    let args2 = ["batch", folder + "/in", "-o", folder + "/out2", "--quiet"]
    #expect(run(args2).status == 1)
    let journal2 = folder + "/out2/.manifest.json.journal"
    let recorded = BatchJournal.entries(at: journal2)
    #expect(recorded.map(\.name).sorted() == first.animations.map(\.name))
    try FileManager.default.removeItem(atPath: folder + "/out2/manifest.json")
    #expect(run(args2).status == 0)
    let kept = try manifest("out2")
    #expect(
      kept.animations.map { $0.outputs.map(\.renderSeconds) }
        == kept.animations.map { entry in
          recorded.first { $0.name == entry.name }!.outputs.map(\.renderSeconds)
        })
    #expect(!FixtureFiles.exists(journal2))
    // Twenty-first pass: a FIFO at the journal's path blocked the batch before it rendered,
    // and a symbolic link there had the records appended to the file it named. Neither is
    // used: the batch runs, the FIFO stays, the link is removed and its file left as it was.
    try Paths.makeFolders(folder + "/out3")
    #expect(mkfifo(folder + "/out3/.manifest.json.journal", 0o644) == 0)
    #expect(run(["batch", folder + "/in", "-o", folder + "/out3", "--quiet"]).status == 0)
    try AtomicFile.write(Array("victim\n".utf8), to: folder + "/victim.txt")
    try Paths.makeFolders(folder + "/out4")
    #expect(symlink(folder + "/victim.txt", folder + "/out4/.manifest.json.journal") == 0)
    #expect(run(["batch", folder + "/in", "-o", folder + "/out4", "--quiet"]).status == 0)
    #expect(try AtomicFile.read(folder + "/victim.txt") == Array("victim\n".utf8))
    var info = stat()
    #expect(lstat(folder + "/out4/.manifest.json.journal", &info) != 0)
  }

  /// A Lottie file's warnings went to standard error only and its record said `"warnings": []`
  /// (found by a hostile pass): they are in the manifest with the render's own, by relative
  /// path, and an animation whose outputs are reused keeps them.
  @Test func lottieAndRenderWarningsAreRecordedAndKeptWhenReused() throws {
    try write(
      #"""
      {"v": "5.7.4", "fr": 10, "ip": 0, "op": 5, "w": 20, "h": 20, "layers": [{"ty": 4,
       "nm": "Heart", "ip": 0, "op": 5, "st": 0, "ks": {"o": {"a": 0, "k": 100, "x": "1"}},
       "shapes": [{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [8, 8]},
         "r": {"a": 0, "k": 0}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]},
         "o": {"a": 0, "k": 100}}]}]}
      """#, "in/cards/heart.json")
    try write(
      #"{"flipbook": 1, "size": [20, 20], "duration": 0.1, "fps": 60, "layers": []}"#,
      "in/fast.json")
    let expected = [
      [
        "cards/heart.json: layers[0] \"Heart\": unsupported expressions (x): the static value or keyframes are used"
      ],
      [
        "60 fps needs GIF delays of 1 cs; browsers play delays under 2 cs at 10 cs (use 50 fps or less)"
      ],
    ]
    let args = ["batch", folder + "/in", "-o", folder + "/out", "--quiet"]
    let first = run(args + ["--formats", "gif"])
    #expect(first.status == 0 && first.errors.isEmpty, "\(first.errors)")
    #expect(try manifest("out").animations.map(\.warnings) == expected)
    // The GIF reused, a PNG rendered: the GIF's warning stays.
    #expect(run(args + ["--formats", "gif,png"]).status == 0)
    #expect(try manifest("out").animations.map(\.warnings) == expected)
    // All reused.
    #expect(run(args + ["--formats", "gif,png"]).status == 0)
    let kept = try manifest("out")
    #expect(kept.animations.map(\.warnings) == expected)
    let page = String(decoding: try AtomicFile.read(folder + "/out/index.html"), as: UTF8.self)
    #expect(
      page.contains("⚠ cards/heart.json: layers[0] &quot;Heart&quot;: unsupported expressions"))
  }

  /// Each animation is counted once in the summary: one whose GIF was written and whose WebP
  /// found the disk full was counted as rendered and as failed (`-1 unchanged`).
  @Test func theSummaryCountsEachAnimationOnce() {
    func outcome(_ rendered: Int, failed: Bool) -> BatchRun.Outcome {
      var entry = Manifest.Entry(name: "a", input: "a.json")
      entry.error = failed ? "webp: a.webp: no space left on device" : nil
      return BatchRun.Outcome(entry: entry, rendered: rendered)
    }
    let outcomes = [
      outcome(1, failed: true), outcome(2, failed: true), outcome(0, failed: true),
      outcome(2, failed: false), outcome(0, failed: false),
    ]
    #expect(BatchCommand.summary(outcomes) == "5 animations, 1 rendered, 1 unchanged, 3 failed")
    #expect(
      BatchCommand.summary([outcome(1, failed: false)])
        == "1 animation, 1 rendered, 0 unchanged, 0 failed")
  }

  @Test func threeShardsAndAMergeAreByteForByteOneRun() throws {
    try makeInputs()
    let formats = ["--formats", "gif,apng,png", "--quiet"]
    #expect(run(["batch", folder + "/in", "-o", folder + "/one"] + formats).status == 0)
    for i in 1...3 {
      let (status, errors) = run(
        ["batch", folder + "/in", "-o", folder + "/sharded", "--shard", "\(i)/3"] + formats)
      #expect(status == 0, "\(errors)")
    }
    let second = try manifest("sharded", "manifest.2-of-3.json")
    #expect(second.animations.map(\.name) == ["b", "icons/e"])
    #expect(second.shard == "2/3")
    #expect(run(["batch", "--merge", folder + "/sharded", "--quiet"]).status == 0)
    var one = try files("one")
    var sharded = try files("sharded")
    for i in 1...3 { #expect(sharded.removeValue(forKey: "manifest.\(i)-of-3.json") != nil) }
    #expect(one.keys.sorted() == sharded.keys.sorted())
    for (name, bytes) in one { #expect(sharded[name] == bytes, "\(name) differs") }
    one.removeAll()
    // Fifteenth pass: a shard's outputs not beside its manifest (rendered elsewhere, only the
    // manifest copied) were merged as if there: the animation fails, naming them.
    unlink(folder + "/sharded/b.gif")
    let gone = run(["batch", "--merge", folder + "/sharded", "--quiet"])
    #expect(gone.status == 1)
    #expect(
      gone.errors.contains(
        "manifest.2-of-3.json: animations[0].outputs[0].file b.gif not in the folder at the size "
          + "it states (copy each shard's outputs beside its manifest)"), "\(gone.errors)")
    let merged = try manifest("sharded")
    #expect(merged.animations.first { $0.name == "b" }?.outputs.map(\.format) == ["apng", "png"])
  }

  @Test func aBadInputIsReportedAndTheOthersRender() throws {
    try makeInputs()
    try write(#"{"flipbook": 1, "layers": [{"bounds": "wide"}]}"#, "in/bad.json")
    let (status, errors) = run(["batch", folder + "/in", "-o", folder + "/out", "--quiet"])
    #expect(status == 1)
    // The file named once (it was "bad: bad.json: ...").
    #expect(errors.hasPrefix("bad.json: size: "), "\(errors)")
    #expect(errors.contains("\nbad.json: layers[0].bounds:"), "\(errors)")
    let m = try manifest("out")
    #expect(m.animations.count == 6)
    let bad = m.animations.first { $0.name == "bad" }
    #expect(bad?.error?.contains("bad.json: layers[0].bounds:") == true)
    #expect(bad?.outputs.isEmpty == true)
    #expect(m.animations.filter { $0.error == nil }.allSatisfy { $0.outputs.count == 1 })
    let page = String(decoding: try AtomicFile.read(folder + "/out/index.html"), as: UTF8.self)
    #expect(page.contains("✖ bad.json: "))
    #expect(page.contains("bad.json: layers[0].bounds:"))
  }

  /// Seventeenth hostile pass: `batch nothere -o nothere` said "is a folder, not a file" of an
  /// input that did not exist: OUTDIR, made after the inputs were listed, made a folder of its
  /// name. A named input missing when the inputs are listed is said to be missing.
  @Test func aMissingInputThatOutdirWouldMakeIsSaidMissing() throws {
    for (input, outdir) in [("nothere", "nothere"), ("gone/", "gone/sub")] {
      let (status, errors) = run(
        ["batch", folder + "/" + input, "-o", folder + "/" + outdir, "--quiet"])
      #expect(status == 1)
      #expect(errors.contains("cannot read the file: No such file or directory"), "\(errors)")
      #expect(!errors.contains("is a folder"), "\(errors)")
    }
  }

  @Test func theBytesDoNotDependOnJobs() throws {
    try makeInputs()
    for jobs in [1, 3] {
      let (status, errors) = run(
        [
          "batch", folder + "/in", "-o", folder + "/j\(jobs)", "--jobs", "\(jobs)", "--quiet",
          "--formats", "gif,webp",
        ])
      #expect(status == 0, "\(errors)")
    }
    #expect(try files("j1") == files("j3"))
  }

  @Test func wrongUsageExitsWith2() {
    #expect(run(["batch"]).status == 2)
    #expect(run(["batch", "x"]).status == 2)
    #expect(run(["batch", "x", "-o", "o", "--formats", "gif,tiff"]).status == 2)
    let twice = run(["batch", "x", "-o", "o", "--formats", "gif,webp,GIF"])
    #expect(twice.status == 2 && twice.errors.contains("--formats names gif twice"))
    let empty = run(["batch", "x", "-o", "o", "--formats", "gif,,webp"])
    #expect(empty.status == 2 && empty.errors.contains("--formats: an empty name in 'gif,,webp'"))
    #expect(run(["batch", "x", "-o", "o", "--formats", ""]).errors.contains("names no format"))
    #expect(run(["batch", "x", "-o", "o", "--shard", "4/3"]).status == 2)
    #expect(run(["batch", "x", "-o", "o", "--shard", "0/3"]).status == 2)
    #expect(run(["batch", "x", "--merge", "o"]).status == 2)
  }

  @Test func mergeNeedsEveryShard() throws {
    try makeInputs()
    #expect(
      run(["batch", folder + "/in", "-o", folder + "/s", "--shard", "1/2", "--quiet"]).status == 0)
    let (status, errors) = run(["batch", "--merge", folder + "/s"])
    #expect(status == 1)
    #expect(errors.contains("missing shard manifests: manifest.2-of-2.json"))
    // A shard count of a billion is answered at once, naming the first missing few.
    try write("{}", "huge/manifest.1-of-999999999.json")
    let huge = run(["batch", "--merge", folder + "/huge"])
    #expect(huge.status == 1)
    #expect(
      huge.errors.contains(
        "missing shard manifests: manifest.2-of-999999999.json, manifest.3-of-999999999.json, "
          + "manifest.4-of-999999999.json and 999999995 more"), "\(huge.errors)")
  }

  /// A merge named a manifest bare in some messages and by absolute path in others, and a bad
  /// count in one without its key: each manifest is named as the folder was given, and the key
  /// and value are said.
  @Test func mergeNamesManifestsAsTheFolderWasGivenAndTheKeyAtFault() throws {
    try makeInputs()
    for i in 1...2 {
      _ = run(["batch", folder + "/in", "-o", folder + "/s", "--shard", "\(i)/2", "--quiet"])
    }
    let first = folder + "/s/manifest.1-of-2.json"
    var manifest = try Manifest.read(first)
    manifest.animations[0].width = 1
    let text = manifest.json.serialized().replacingOccurrences(
      of: #""width": 1,"#, with: #""width": -5,"#)
    try AtomicFile.write(Array(text.utf8), to: first)
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors
        == "\(first): animations[0].width: expected a whole number of 0 or more, found -5\n")
  }

  /// A shard manifest whose output file was `javascript:alert(document.domain)//.gif` was merged
  /// into a gallery linking to it (found by an independent hostile pass): manifests' files are
  /// plain relative paths in the output folder, and a batch refuses an input whose outputs
  /// would not be.
  @Test func mergeRefusesFilesThatAreNotPlainPathsInTheOutputFolder() throws {
    try makeInputs()
    for i in 1...2 {
      _ = run(["batch", folder + "/in", "-o", folder + "/s", "--shard", "\(i)/2", "--quiet"])
    }
    let second = folder + "/s/manifest.2-of-2.json"
    let original = try Manifest.read(second)
    for (file, problem) in [
      (
        "javascript:alert(document.domain)//.gif",
        #""javascript:alert(document.domain)//.gif" is not a plain path in the output folder: "#
          + "a colon before the first slash (a link would read it as a URL scheme)"
      ),
      (
        #"icons\x.gif"#,
        #""icons\x.gif" is not a plain path in the output folder: a backslash in a file name"#
      ),
      (
        "x\u{7}.gif",
        #""x\u0007.gif" is not a plain path in the output folder: "#
          + "a control character in a file name"
      ),
      (
        "../x.gif",
        #""../x.gif" is not a plain path in the output folder: a file outside the output folder"#
      ),
    ] {
      var forged = original
      forged.animations[0].outputs[0].file = file
      try AtomicFile.write(Array(forged.json.serialized().utf8), to: second)
      let merged = run(["batch", "--merge", folder + "/s"])
      #expect(merged.status == 1)
      #expect(merged.errors == "\(second): animations[0].outputs[0].file: \(problem)\n")
      #expect(!FileManager.default.fileExists(atPath: folder + "/s/index.html"))
    }
    // The same check guards the frame sheet's file.
    var forged = original
    forged.animations[0].frames?.file = "data:image/png,x"
    try AtomicFile.write(Array(forged.json.serialized().utf8), to: second)
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors.contains(": animations[0].frames.file: "))
    // An input whose outputs would be such names is refused before anything is written.
    try write(Self.scene("#123456"), "in/x:y.json")
    let batch = run(["batch", folder + "/in", "-o", folder + "/colon"])
    #expect(batch.status != 0)
    #expect(
      batch.errors
        == "x:y.json: its outputs would be named x:y.*: a colon before the first slash (a link "
        + "would read it as a URL scheme); rename it\n", "\(batch.errors)")
  }

  /// Issue 18: a shard manifest copied over another's was merged (its animations twice, the
  /// other shard's none), and so were animations in two shards; a failed animation's line named
  /// the file twice (`bad: bad.json: ...`).
  @Test func mergeRefusesShardsThatDisagreeAndNamesAFailureOnce() throws {
    try makeInputs()
    try write(#"{"flipbook": 1, "layers": [{"bounds": "wide"}]}"#, "in/bad.json")
    for i in 1...2 {
      _ = run(["batch", folder + "/in", "-o", folder + "/s", "--shard", "\(i)/2", "--quiet"])
    }
    let merged = run(["batch", "--merge", folder + "/s", "--quiet"])
    #expect(merged.status == 1)
    #expect(merged.errors.hasPrefix("bad.json: size: "), "\(merged.errors)")
    let first = folder + "/s/manifest.1-of-2.json", second = folder + "/s/manifest.2-of-2.json"
    let (one, two) = (try AtomicFile.read(first), try AtomicFile.read(second))
    // The first shard's manifest copied over the second's.
    try AtomicFile.write(one, to: second)
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors
        == "\(second): says it is shard 1/2, its name shard 2/2; render "
        + "shard 2/2 again\n")
    // Another version, or other formats: the message says which, and what the first has.
    var newer = try Manifest.read(second)
    newer.flipbookVersion = "9.9.9"
    try AtomicFile.write(Array(newer.json.serialized().utf8), to: second)
    let version = try Manifest.read(first).flipbookVersion
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors
        == "\(second): made by Flipbook 9.9.9, manifest.1-of-2.json by \(version); "
        + "render all shards with one build\n")
    try AtomicFile.write(two, to: second)
    newer = try Manifest.read(second)
    let formats = newer.formats.joined(separator: ",")
    newer.formats.append("webp")
    try AtomicFile.write(Array(newer.json.serialized().utf8), to: second)
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors
        == "\(second): made with formats \(formats),webp, manifest.1-of-2.json with \(formats); "
        + "render all shards with the same --formats\n")
    // The second's own, with one of the first's animations in it too.
    var copied = try Manifest.read(first)
    try AtomicFile.write(two, to: second)
    var other = try Manifest.read(second)
    other.animations.append(copied.animations[0])
    try AtomicFile.write(Array(other.json.serialized().utf8), to: second)
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors
        == "\(copied.animations[0].input) is in \(first) and "
        + "\(second): shards of one batch share no animation; render the shards again\n")
    copied.animations.append(copied.animations[0])
    try AtomicFile.write(Array(copied.json.serialized().utf8), to: first)
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors
        == "\(copied.animations[0].input) is twice in \(first): shards of one "
        + "batch share no animation; render the shards again\n")
  }

  /// Nineteenth hostile pass: a shard given other INPUTs (one file of the folder the first
  /// shard had) merged without a word into a gallery missing an animation. Each shard records
  /// the whole batch's inputs; the merge refuses shards that differ, and a merge holding fewer
  /// animations than the batch had.
  @Test func mergeRefusesShardsGivenOtherInputs() throws {
    try makeInputs()
    #expect(
      run(["batch", folder + "/in", "-o", folder + "/s", "--shard", "1/2", "--quiet"]).status == 0)
    #expect(
      run(["batch", folder + "/in/a.json", "-o", folder + "/s", "--shard", "2/2", "--quiet"])
        .status == 0)
    let first = try Manifest.read(folder + "/s/manifest.1-of-2.json")
    #expect(first.inputs?.count == 5 && first.inputs?.hash.hasPrefix("sha256:") == true)
    let merged = run(["batch", "--merge", folder + "/s", "--quiet"])
    #expect(merged.status == 1)
    #expect(
      merged.errors.hasPrefix(
        "\(folder)/s/manifest.2-of-2.json: made from 1 animation (sha256:"), "\(merged.errors)")
    #expect(merged.errors.hasSuffix("give every shard the same INPUTs\n"))
    #expect(!FixtureFiles.exists(folder + "/s/manifest.json"))
    // The same inputs: merged; the merged manifest records none (it is a whole batch's).
    #expect(
      run(["batch", folder + "/in", "-o", folder + "/s", "--shard", "2/2", "--quiet"]).status == 0)
    #expect(run(["batch", "--merge", folder + "/s", "--quiet"]).status == 0)
    #expect(try Manifest.read(folder + "/s/manifest.json").inputs == nil)
    // A shard that lost an animation (its record removed by hand): fewer than the batch had.
    var second = try Manifest.read(folder + "/s/manifest.2-of-2.json")
    second.animations.removeLast()
    try AtomicFile.write(
      Array(second.json.serialized().utf8), to: folder + "/s/manifest.2-of-2.json")
    #expect(
      run(["batch", "--merge", folder + "/s"]).errors
        == "\(folder)/s: the shards hold 4 animations, their batch 5; render the shards again\n")
  }

  /// Nineteenth hostile pass: an output that could not be written was named by its absolute
  /// path (so manifests differed between machines), the next format was blamed on the frame
  /// sheet the first could not write, and when the page could not be written the animations'
  /// failures were not said at all. Outputs are named as `render` names them, relative to
  /// OUTDIR; the next format renders without the sheet; every failure is said.
  @Test func failuresToWriteAreSaidRelativeToTheOutputFolderAndAllOfThem() throws {
    try write(Self.scene("#ff0000"), "in/a.json")
    try write(Self.scene("#00ff00"), "in/b.json")
    try Paths.makeFolders(folder + "/out/a.gif")
    try Paths.makeFolders(folder + "/out/index.html")
    let result = run([
      "batch", folder + "/in", "-o", folder + "/out", "--formats", "gif,webp", "--quiet",
    ])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "a.json: gif: cannot write output a.gif: Is a directory\n"
        + "cannot write output \(folder)/out/index.html: Is a directory\n")
    let a = try #require(try manifest("out").animations.first)
    #expect(a.error == "gif: cannot write output a.gif: Is a directory")
    #expect(a.outputs.map(\.format) == ["webp"] && a.frames == nil)
  }

  /// Twenty-first hostile pass: `a.json` writes `a.gif`, which `a.gif/b.json`'s outputs need
  /// as a folder; both rendered, then one failed and left its frame sheet behind. Refused
  /// before anything is rendered, naming both.
  @Test func anOutputThatIsAnotherAnimationsFolderIsRefusedFirst() throws {
    try write(Self.scene("#ff0000"), "in/a.json")
    try write(Self.scene("#00ff00"), "in/a.gif/b.json")
    let result = run(["batch", folder + "/in", "-o", folder + "/out"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "a.json would write a.gif, the folder that a.gif/b.json's outputs go in: rename one\n")
    #expect(!FixtureFiles.exists(folder + "/out"))
  }

  /// Twenty-third hostile pass: `logo.json` showing `logo.png`, batched into its own folder
  /// with `--formats png`, wrote its render over the picture it reads, irrecoverably; and an
  /// input folder named `manifest.json` made a folder where the manifest goes, found after
  /// everything rendered. Both refused before anything is written.
  @Test func outputsThatWouldReplaceAnImageOrTheManifestAreRefused() throws {
    try Paths.makeFolders(folder + "/own")
    let png = try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png")
    try AtomicFile.write(png, to: folder + "/own/logo.png")
    try write(
      #"{"flipbook": 1, "size": [4, 4], "layers": [{"bounds": [0, 0, 4, 4], "contents": "logo.png"}]}"#,
      "own/logo.json")
    let own = run(["batch", folder + "/own/logo.json", "-o", folder + "/own", "--formats", "png"])
    #expect(own.status == 1)
    #expect(
      own.errors.hasSuffix(
        "logo.json: it reads logo.png, which its png output would replace: it is not rendered, "
          + "and logo.png is left as it is: write the outputs to another folder (-o)\n"),
      "\(own.errors)")
    #expect(try AtomicFile.read(folder + "/own/logo.png") == png)
    try write(Self.scene("#ff0000"), "mj/manifest.json/a.json")
    try write(Self.scene("#00ff00"), "mj/c.json")
    let reserved = run(["batch", folder + "/mj", "-o", folder + "/mjo"])
    #expect(reserved.status == 1)
    #expect(
      reserved.errors
        == "manifest.json/a.json: its outputs would go in the folder manifest.json, a name the "
        + "batch writes its own files under: rename the folder\n")
    #expect(!FixtureFiles.exists(folder + "/mjo"))
  }

  /// Hostile pass 26: a cached `manifest.json` or a shard manifest whose record for `a` listed
  /// `b.gif`, `b`'s output, at its size, was trusted: the cache kept the record (`a.gif` never
  /// made again, the page showing `b`'s), and the merge merged it. A record lists only its own
  /// animation's files: the cached manifest is not trusted, so `a` renders again, and the merge
  /// fails naming the manifest and the record.
  @Test func aRecordListingAnotherAnimationsOutputIsNotTrusted() throws {
    try write(Self.scene("#ff0000"), "in/a.json")
    try write(Self.scene("#00ff00"), "in/b.json")
    #expect(run(["batch", folder + "/in", "-o", folder + "/out", "--quiet"]).status == 0)
    /// `path` (a manifest) with its first record's GIF output named `b.gif`, at `b.gif`'s size.
    func forge(_ path: String) throws {
      var forged = try Manifest.read(path)
      forged.animations[0].outputs[0].file = "b.gif"
      forged.animations[0].outputs[0].bytes =
        try AtomicFile.read(Paths.folder(of: path) + "/b.gif").count
      try AtomicFile.write(Array(forged.json.serialized().utf8), to: path)
    }
    try forge(folder + "/out/manifest.json")
    unlink(folder + "/out/a.gif")
    #expect(run(["batch", folder + "/in", "-o", folder + "/out", "--quiet"]).status == 0)
    #expect(
      try manifest("out").animations.map { $0.outputs.map(\.file) } == [["a.gif"], ["b.gif"]])
    #expect(FixtureFiles.exists(folder + "/out/a.gif"))
    for i in 1...2 {
      _ = run(["batch", folder + "/in", "-o", folder + "/s", "--shard", "\(i)/2", "--quiet"])
    }
    let first = folder + "/s/manifest.1-of-2.json"
    try forge(first)
    let merged = run(["batch", "--merge", folder + "/s"])
    #expect(merged.status == 1)
    #expect(
      merged.errors
        == "\(first): animations[0].outputs[0].file: \"b.gif\" is not the file a batch writes "
        + "as a's gif output (\"a.gif\")\n")
    #expect(!FixtureFiles.exists(folder + "/s/manifest.json"))
  }

  /// Hostile pass 26: an output could be one of the batch's own input files, and was written
  /// over it without a word: `batch x.gif -o .` (`x.gif` a scene) replaced the scene by its
  /// GIF, `batch a.json a.frames.png -o .` the second scene by the first's frame sheet, and
  /// `batch index.html manifest.json -o .` both by the page and the manifest. Refused before
  /// anything is written, by file identity (an OUTDIR that is a link to the inputs' folder
  /// too), every input left as it was.
  @Test func anOutputThatIsAnInputFileIsRefusedFirst() throws {
    let scene = Self.scene("#ff0000")
    for (inputs, formats, message) in [
      (["x.gif"], "gif", "x.gif: its gif output x.gif is this input file"),
      (["y.png"], "png", "y.png: its png output y.png is this input file"),
      (
        ["a.json", "a.frames.png"], "gif",
        "a.frames.png: a.json's frame sheet a.frames.png is this input file"
      ),
      (
        ["index.html", "manifest.json"], "gif",
        "index.html: the batch's gallery page index.html is this input file"
      ),
      (
        ["manifest.json"], "gif",
        "manifest.json: the batch's manifest manifest.json is this input file"
      ),
      (
        [".manifest.json.journal"], "gif",
        ".manifest.json.journal: the batch's journal .manifest.json.journal is this input file"
      ),
    ] {
      let dir = "self-" + inputs[0]
      for input in inputs { try write(scene, dir + "/" + input) }
      // The output folder named through a link to the inputs' folder: the same files.
      symlink(dir, folder + "/" + dir + "-link")
      let result = run(
        ["batch"] + inputs.map { folder + "/" + dir + "/" + $0 } + [
          "-o", folder + "/" + dir + "-link", "--formats", formats,
        ])
      #expect(result.status == 1)
      #expect(result.errors == message + ": write the outputs to another folder (-o)\n")
      for input in inputs {
        #expect(try AtomicFile.read(folder + "/" + dir + "/" + input) == Array(scene.utf8))
      }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder + "/" + dir).count
          == inputs.count)
    }
    // A shard is refused as the whole batch is: the merge would write the page.
    let shard = run([
      "batch", folder + "/self-index.html/index.html", folder + "/self-index.html/manifest.json",
      "-o", folder + "/self-index.html", "--shard", "2/2",
    ])
    #expect(
      shard.errors
        == "index.html: the batch's gallery page index.html is this input file: write the "
        + "outputs to another folder (-o)\n")
    // A list of inputs named as an output is one of the batch's input files too.
    try write(scene, "listed/a.json")
    try write(folder + "/listed/a.json\n", "listed/a.gif")
    let listed = folder + "/listed/a.gif"
    let list = run(["batch", "@" + listed, "-o", folder + "/listed"])
    #expect(
      list.errors
        == "@\(listed): a.json's gif output a.gif is this input file: write the outputs to "
        + "another folder (-o)\n")
    #expect(try AtomicFile.read(listed) == Array((folder + "/listed/a.json\n").utf8))
  }

  /// Hostile pass 26: `b.json` showing `a.png`, batched into its folder with `a.json` and
  /// `--formats png`, failed as documented, but `a.json` still rendered and its PNG replaced
  /// `b.json`'s picture for good (and `a.frames.png`, with an animated format, by `a.json`'s
  /// frame sheet). An output that would replace a picture an animation reads is found before
  /// anything is rendered: neither animation is, both say why, and the picture is left as it is,
  /// run after run.
  @Test func anOutputThatWouldReplaceAnotherAnimationsPictureIsRefusedToo() throws {
    let png = try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png")
    for (picture, formats, what) in [
      ("a.png", "png", "png output"), ("a.frames.png", "gif", "frame sheet"),
    ] {
      let dir = "shows-" + picture
      try write(Self.scene("#ff0000"), dir + "/a.json")
      try write(Self.scene("#00ff00", image: picture), dir + "/b.json")
      try write(Self.scene("#0000ff"), dir + "/c.json")
      try AtomicFile.write(png, to: folder + "/" + dir + "/" + picture)
      for _ in 1...2 {
        let result = run(
          ["batch"] + ["a", "b", "c"].map { folder + "/" + dir + "/" + $0 + ".json" } + [
            "-o", folder + "/" + dir, "--formats", formats,
          ])
        #expect(result.status == 1)
        #expect(
          result.errors
            == "a.json: its \(what) \(picture) is a picture b.json reads: it is not rendered, and "
            + "\(picture) is left as it is: write the outputs to another folder (-o)\n"
            + "b.json: it reads \(picture), which a.json's \(what) would replace: it is not "
            + "rendered, and \(picture) is left as it is: write the outputs to another folder (-o)\n"
        )
        #expect(try AtomicFile.read(folder + "/" + dir + "/" + picture) == png)
        let records = try manifest(dir).animations
        #expect(records.map { $0.error == nil } == [false, false, true])
        #expect(records.map(\.outputs.count) == [0, 0, 1])
      }
    }
  }

  /// A merged shard's error of 50,000,000 characters was printed as one line: each line of a
  /// batch's failures is said cut to 1,000 characters, control characters escaped.
  @Test func failureLinesAreCut() {
    #expect(
      BatchCommand.failureMessage(["a.json: " + String(repeating: "E", count: 50_000) + "\u{7}"])
        == "a.json: " + String(repeating: "E", count: 992) + "…")
    #expect(BatchCommand.failureMessage(["b.json: bad\u{1B}[2J"]) == "b.json: bad\\u001B[2J")
  }

  @Test func hostileInputsAndManifestsAreReportedNotTrusted() throws {
    try makeInputs()
    // Two files that would write the same outputs.
    try write(Self.scene("#123456"), "in/a.lottie.json")
    try write(Self.scene("#654321"), "in/icons/c.JSON")
    let clash = run(["batch", folder + "/in", "-o", folder + "/out", "--quiet"])
    #expect(clash.status != 0)
    #expect(clash.errors.contains("would both write icons/c.*"), "\(clash.errors)")
    unlink(folder + "/in/icons/c.JSON")
    unlink(folder + "/in/a.lottie.json")
    // An animation's frame sheet and another's PNG: refused where both are made.
    try write(Self.scene("#123456"), "in/a.frames.json")
    let sheet = run([
      "batch", folder + "/in", "-o", folder + "/out", "--formats", "gif,png", "--quiet",
    ])
    #expect(sheet.status == 2 || sheet.status == 1)
    #expect(
      sheet.errors.contains(
        "a.json and a.frames.json would both write a.frames.png (the first's frame sheet, the "
          + "second's PNG): rename one"), "\(sheet.errors)")
    #expect(
      run(["batch", folder + "/in", "-o", folder + "/out2", "--formats", "gif", "--quiet"])
        .status == 0)
    unlink(folder + "/in/a.frames.json")
    // A damaged scene in a folder is reported, not skipped.
    try write(#"{"flipbook": 1, "size": [10, 10], "layers": ["#, "in/broken.json")
    #expect(run(["batch", folder + "/in", "-o", folder + "/out", "--quiet"]).status == 1)
    #expect(try manifest("out").animations.first { $0.name == "broken" }?.error != nil)
    unlink(folder + "/in/broken.json")
    // A tampered manifest (a count past Int, a path out of the folder) is not trusted: those
    // animations render again.
    var text = String(decoding: try AtomicFile.read(folder + "/out/manifest.json"), as: UTF8.self)
    let bytes = try #require(text.range(of: "\"bytes\": "))  // the first output: a's
    text.replaceSubrange(bytes, with: "\"bytes\": 1e19, \"spare\": ")
    text = text.replacingOccurrences(of: "\"file\": \"b.gif\"", with: "\"file\": \"../../b.gif\"")
    try AtomicFile.write(Array(text.utf8), to: folder + "/out/manifest.json")
    #expect(run(["batch", folder + "/in", "-o", folder + "/out", "--quiet"]).status == 0)
    let m = try manifest("out")
    let a = try #require(m.animations.first { $0.name == "a" }?.outputs.first)
    #expect(a.file == "a.gif" && a.bytes < 1_000_000)
    #expect(m.animations.first { $0.name == "b" }?.outputs.first?.file == "b.gif")
  }
}

/// `flipbook diff -o report.html`: the golden-failure page for one comparison, pictures inside.
@Suite struct DiffReportTests {
  let folder = FixtureFiles.temporaryFolder()

  @Test func aReportPageHoldsItsPicturesAndOpensOnTheWorstFrame() throws {
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
    try AtomicFile.write(try gif(30), to: folder + "/e.gif")
    try AtomicFile.write(try gif(10), to: folder + "/a.gif")
    var errors = ""
    let status = FlipbookTool.run(
      ["diff", folder + "/e.gif", folder + "/a.gif", "-o", folder + "/report.html"],
      standardError: { errors += $0 })
    #expect(status == 1)
    let html = String(decoding: try AtomicFile.read(folder + "/report.html"), as: UTF8.self)
    #expect(html.contains("data-worst=\"2\""))
    #expect(html.contains("src=\"data:image/png;base64,"))
    #expect(!html.contains("http://") && !html.contains("https://"))
    #expect(
      FlipbookTool.run(["diff", "a.png", "b.png", "-o", "r.html", "--strip"]) { _ in } == 2)
  }
}
