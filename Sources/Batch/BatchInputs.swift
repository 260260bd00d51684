import FileIO
import SceneFiles

/// One animation of a batch: where its file is and the name its outputs take.
public struct BatchInput: Hashable, Sendable {
  /// The file, absolute and normalized (what is opened).
  public var path: String
  /// The file relative to the batch's common folder (`icons/spinner.json`): what the manifest
  /// records, the same on every machine.
  public var relativePath: String
  /// `relativePath` without its extension (`icons/spinner`): outputs are `OUTDIR/NAME.FORMAT`.
  public var name: String
  /// Why a file a folder search found cannot be rendered, said before it is opened (its name
  /// is not UTF-8), or `nil`: the batch reports it as a failed animation rather than skipping
  /// it without a word.
  public var problem: String?

  /// Creates an input; `problem` makes it one the batch reports as failed without opening it.
  public init(path: String, relativePath: String, name: String, problem: String? = nil) {
    (self.path, self.relativePath, self.name, self.problem) = (path, relativePath, name, problem)
  }
}

/// Finds a batch's animations from its INPUT arguments (docs/command-line.md "batch"): files
/// are taken as named; folders are searched recursively for `*.json` and `*.lottie` files whose
/// content is a scene or a Lottie animation (other JSON is skipped; one that cannot be read, or
/// whose name is not UTF-8, is taken so that the batch reports it); `@list.txt` names one path
/// a line (relative to the working folder, blank lines and `#` comments skipped).
public enum BatchInputs {
  /// Why the inputs could not be listed.
  public struct Failure: Error, CustomStringConvertible {
    /// The message.
    public var description: String
  }

  /// What a folder search recognises a file as.
  public enum Kind: Equatable, Sendable {
    /// A Flipbook scene file (a JSON object with a `"flipbook"` key).
    case scene
    /// A Lottie animation: JSON with four of `v`, `fr`, `ip`, `op`, `w`, `h` and `layers`, or
    /// a dotLottie archive.
    case lottie
  }

  /// The most bytes a file found in a folder may have to be looked at (as `SceneFormat`'s).
  public static let maximumFileSize = SceneFormat.maximumFileSize

  /// What `bytes` (a file's content) are, or `nil` when neither a scene nor a Lottie file.
  public static func kind(of bytes: [UInt8]) -> Kind? {
    // dotLottie: a ZIP (an empty one too, so that it is reported rather than skipped).
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    {
      return .lottie
    }
    guard let json = try? JSONParser.parse(bytes), case .object(let members) = json else {
      // Broken JSON that names a scene's or a Lottie file's keys is one of them, damaged: it is
      // taken, so that the batch reports it instead of skipping it silently.
      let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
      if text.contains("\"flipbook\"") { return .scene }
      if text.contains("\"layers\"") && text.contains("\"fr\"") { return .lottie }
      return nil
    }
    let keys = Set(members.map(\.key))
    if keys.contains("flipbook") { return .scene }
    // Four of Lottie's seven top-level keys: a Lottie animation (`v` is not required), or one
    // that lacks a key it needs, taken so that the batch says which (as the reader does); a
    // file without `v` was skipped silently.
    let lottieKeys: Set = ["v", "fr", "ip", "op", "w", "h", "layers"]
    if keys.intersection(lottieKeys).count >= 4 { return .lottie }
    return nil
  }

  /// The most lists that may be read one inside another: 8 (`@a.txt` naming `@b.txt` is two).
  public static let maximumListDepth = 8

  /// The most lines read from lists in all: 1,000,000, counted before a list's lines are
  /// taken. A list read once already is not read again, and a path named again is not looked
  /// at again: lists naming each other 100 times over, 8 deep, would have been expanded 10^14
  /// times, and 3,000,000 lines naming one file took 135 s.
  public static let maximumListLines = 1_000_000

  /// The most animations one batch takes: 100,000 (its manifest and page list each; a
  /// million missing files named in a list made a 364 MB manifest and a 669 MB page, in
  /// 168 s and 2.9 GB). Counted as they are found, before anything is rendered.
  public static let maximumInputs = 100_000

  /// The animations `arguments` name, sorted by relative path, and their common folder.
  ///
  /// - Parameters:
  ///   - workingDirectory: what relative arguments resolve against.
  ///   - excluding: a folder not to search (the output folder).
  /// - Throws: `Failure` when a list file cannot be read.
  public static func find(
    _ arguments: [String], workingDirectory: String, excluding: String? = nil
  ) throws(Failure) -> (inputs: [BatchInput], root: String) {
    var files: [String] = []
    var seen: Set<String> = []
    func add(_ file: String) throws(Failure) {
      guard seen.insert(file).inserted else { return }
      files.append(file)
      guard files.count <= maximumInputs else {
        throw Failure(
          description: "the inputs name more than \(maximumInputs) animations, the most a batch "
            + "renders (split them into several batches, or shards)")
      }
    }
    let excluded = excluding.map { Paths.absolute($0, base: workingDirectory) }

    // Found files whose names are not UTF-8, by the path shown for them (`bad\xFFname.json`),
    // and named files missing now, with why they are not rendered.
    var problems: [String: String] = [:]

    // The lists being read, outermost first, as named: a list that names one of them would be
    // read for ever; more than `maximumListDepth` deep is refused too.
    var reading: [(path: String, name: String)] = []
    var read: Set<String> = [], searched: Set<String> = [], lineCount = 0
    // `place`: where a list names `argument` (`list.txt line 3`), nil on the command line;
    // made only for a message (a list may have a million lines).
    func take(_ argument: String, place: @autoclosure () -> String? = nil) throws(Failure) {
      if argument.hasPrefix("@") {
        let name = String(argument.dropFirst())
        guard !name.isEmpty else {
          throw Failure(
            description: (place().map { $0 + ": " } ?? "")
              + "@: the list file's name is empty (write @LIST.txt, a file of paths)")
        }
        let list = Paths.absolute(name, base: workingDirectory)
        if let k = reading.firstIndex(where: { $0.path == list }) {
          let chain = (reading[k...].map(\.name) + [name]).map(MessageText.value)
          throw Failure(
            description: "\(MessageText.value(reading[k].name)): the list includes itself ("
              + chain.joined(separator: " → ") + ")")
        }
        guard reading.count < maximumListDepth else {
          throw Failure(
            description: "\(MessageText.value(name)): lists nest more than \(maximumListDepth) "
              + "deep (\(MessageText.value(reading[0].name)) → … → \(MessageText.value(name)))")
        }
        guard read.insert(list).inserted else { return }  // all it names is taken already
        let bytes: [UInt8]
        do {
          bytes = try AtomicFile.read(list)
        } catch {
          throw Failure(
            description: "\(MessageText.path(name)): cannot read the list: \(error.reason)")
        }
        // Its lines: one per line feed, and one more for text after the last.
        lineCount +=
          bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
          + (bytes.last.map { $0 != 10 } ?? false ? 1 : 0)
        guard lineCount <= maximumListLines else {
          throw Failure(
            description: "\(MessageText.value(name)): the lists have more than "
              + "\(maximumListLines) lines in all, past the limit")
        }
        if String(validating: bytes, as: UTF8.self) == nil {
          // A path that is not UTF-8 would be read as another (U+FFFD in place of its bytes).
          let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
          let k = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0
          throw Failure(
            description: "\(MessageText.place(name)) line \(k + 1): the path "
              + "\(MessageText.value(MessageText.bytes(Array(lines[k])))) is not UTF-8: rename "
              + "the file (file names are read and written as UTF-8 text)")
        }
        reading.append((list, name))
        // A byte-order mark at the start (Windows' "UTF-8") is no part of the first path.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let lines = String(decoding: text, as: UTF8.self)
          .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (k, line) in lines.enumerated() {
          let entry = line.trimmingSpaces()
          if entry.isEmpty || entry.hasPrefix("#") { continue }
          try take(entry, place: "\(MessageText.place(name)) line \(k + 1)")
        }
        reading.removeLast()
        return
      }
      let path = Paths.absolute(argument, base: workingDirectory)
      if seen.contains(path) { return }  // a file named again: nothing new to look at
      if Paths.isFolder(path) {
        if searched.insert(path).inserted { try search(path) }
      } else {
        // Taken as named; a missing or bad file is reported by the batch. One missing now is
        // said so now: OUTDIR, made later, may make a folder of its name (`batch nothere -o
        // nothere` said "is a folder, not a file" of an input that did not exist).
        if !Paths.exists(path) {
          do {
            _ = try AtomicFile.read(path, first: 0)
          } catch {
            problems[path] = "cannot read the file: \(error.reason)"
          }
        }
        try add(path)
      }
    }
    func search(_ folder: String) throws(Failure) {
      if folder == excluded { return }
      for bytes in Paths.entryBytes(of: folder) where bytes.first != 0x2E {  // not hidden
        let entry = String(decoding: bytes, as: UTF8.self)
        let lower = entry.lowercased()
        let candidate = lower.hasSuffix(".json") || lower.hasSuffix(".lottie")
        guard String(validating: bytes, as: UTF8.self) != nil else {
          // Neither opened nor searched (paths are UTF-8 text throughout), but said.
          let isFolder = Paths.isFolder(folder, entry: bytes)
          guard isFolder || candidate else { continue }
          let shown = (folder == "/" ? "/" : folder + "/") + MessageText.bytes(bytes)
          problems[shown] =
            (isFolder
              ? "a folder whose name is not UTF-8 is not searched" : "its name is not UTF-8")
            + ": rename it (file names are read and written as UTF-8 text)"
          try add(shown)
          continue
        }
        let path = folder == "/" ? "/" + entry : folder + "/" + entry
        if Paths.isFolder(path) {
          if !Paths.isLink(path) { try search(path) }  // no loops through linked folders
          continue
        }
        guard candidate else { continue }
        // A file that cannot be read (a link to nothing, a pipe, a device, no permission) is
        // taken, and reported by the batch, never skipped without a word; one too large to read
        // whole is taken when its start names a scene's or a Lottie file's keys.
        let content: [UInt8]
        do {
          content = try AtomicFile.read(path, limit: maximumFileSize)
        } catch {
          guard Paths.fileSize(path).map({ $0 > maximumFileSize }) == true,
            let start = try? AtomicFile.read(path, first: 4096)
          else {
            try add(path)
            continue
          }
          content = start
        }
        if kind(of: content) != nil { try add(path) }
      }
    }

    for argument in arguments { try take(argument) }
    let root = Paths.commonFolder(files.map(Paths.folder(of:)))
    let inputs = files.map { file in
      let relative = Paths.relative(file, to: root)
      return BatchInput(
        path: file, relativePath: relative, name: Paths.removingExtension(relative),
        problem: problems[file])
    }
    let sorted = inputs.sorted {
      $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8)
    }
    // Two files that differ only in their extension would write the same outputs; a name a
    // manifest would not take back (a colon before the first slash, a control character, a
    // backslash) is refused before any is written.
    var byName: [String: String] = [:]
    for input in sorted where input.problem == nil {  // the others write no output
      if let problem = Paths.notPlainRelative(input.name) {
        throw Failure(
          description: "\(MessageText.value(input.relativePath)): its outputs would be named "
            + "\(MessageText.value(input.name)).*: \(problem); rename it")
      }
      if let other = byName[input.name] {
        throw Failure(
          description: "\(other) and \(input.relativePath) would both write \(input.name).*: "
            + "rename one")
      }
      byName[input.name] = input.relativePath
    }
    return (sorted, root)
  }

  /// Refuses inputs whose outputs in `formats` would be the same file: the frame sheet an
  /// animation makes beside its animated outputs (`NAME.frames.png`) and the first-frame PNG of
  /// an animation named `NAME.frames` (`a.json` and `a.frames.json` wrote one file, whichever
  /// finished last winning, and the manifest named it twice), an output file that is another
  /// animation's folder, and outputs in a folder named as one of the batch's own files. Checked
  /// over all the inputs, before sharding, so that every shard refuses the same batch.
  public static func checkOutputNames(
    _ inputs: [BatchInput], formats: [BatchRun.Format]
  ) throws(Failure) {
    // An animation whose outputs go in a folder named as one of the batch's own files
    // (`manifest.json/a.json`) made that folder, and the manifest could not be written after
    // everything had rendered.
    func reserved(_ name: Substring) -> Bool {
      name == "index.html" || (name.hasPrefix("manifest.") && name.hasSuffix(".json"))
        || (name.hasPrefix(".manifest.") && name.hasSuffix(".journal"))
    }
    for input in inputs where input.problem == nil {
      let top = input.name.split(separator: "/", maxSplits: 1)
      guard top.count == 2, reserved(top[0]) else { continue }
      throw Failure(
        description: "\(MessageText.value(input.relativePath)): its outputs would go in the "
          + "folder \(MessageText.value(String(top[0]))), a name the batch writes its own files "
          + "under: rename the folder")
    }
    // An output file that another animation needs as a folder (`a.json` writes `a.gif`,
    // `a.gif/b.json` writes into the folder `a.gif/`): the second's outputs could not be
    // written once the first is, or the other way round, found only after rendering.
    var folders: [String: String] = [:]
    for input in inputs where input.problem == nil {
      var folder = Substring(input.name)
      while let slash = folder.lastIndex(of: "/") {
        folder = folder[..<slash]
        if folders[String(folder)] == nil { folders[String(folder)] = input.relativePath }
      }
    }
    if !folders.isEmpty {
      let suffixes =
        formats.map { "." + $0.rawValue }
        + (formats.contains(where: \.isAnimated) ? [".frames.png"] : [])
      for input in inputs where input.problem == nil {
        for suffix in suffixes {
          guard let other = folders[input.name + suffix] else { continue }
          throw Failure(
            description: "\(MessageText.value(input.relativePath)) would write "
              + "\(MessageText.value(input.name + suffix)), the folder that "
              + "\(MessageText.value(other))'s outputs go in: rename one")
        }
      }
    }
    guard formats.contains(.png), formats.contains(where: \.isAnimated) else { return }
    let written = Dictionary(
      inputs.filter { $0.problem == nil }.map { ($0.name, $0.relativePath) },
      uniquingKeysWith: { first, _ in first })
    for input in inputs where input.problem == nil {
      if let other = written[input.name + ".frames"] {
        throw Failure(
          description: "\(MessageText.value(input.relativePath)) and \(MessageText.value(other)) "
            + "would both write \(MessageText.value(input.name + ".frames.png")) (the first's "
            + "frame sheet, the second's PNG): rename one")
      }
    }
  }

  /// Refuses a batch that would write one of its own input files: an animation's output or
  /// frame sheet, the manifest, the page or the journal that is the same file as an input (by
  /// device and inode, however it is named: `./x.gif`, a link). `batch x.gif -o .`, `x.gif`
  /// holding a scene, wrote the GIF over the scene; `batch a.json a.frames.png -o .` wrote
  /// `a.json`'s frame sheet over the other scene; `batch index.html manifest.json -o .` wrote
  /// the page and the manifest over both, all without a word. Checked over all the inputs,
  /// before sharding and before anything is written; `manifestName` is the manifest this run
  /// writes (`manifest.json`, or a shard's). `lists` are the `@LIST` files the inputs were read
  /// from (as given, without the `@`), refused alike.
  public static func checkOutputsAreNotInputs(
    _ inputs: [BatchInput], lists: [String] = [], formats: [BatchRun.Format],
    outputFolder: String, manifestName: String
  ) throws(Failure) {
    // Each input file's name relative to the inputs' folder, and how a message names it (a
    // list as given, `@LIST`).
    var byIdentity: [[UInt64]: (name: String, shown: String)] = [:]
    for input in inputs where input.problem == nil {
      if let identity = AtomicFile.identity(of: input.path) {
        byIdentity[identity] = (input.relativePath, MessageText.value(input.relativePath))
      }
    }
    for list in lists {
      if let identity = AtomicFile.identity(of: list) {
        byIdentity[identity] = ("@" + list, "@" + MessageText.path(list))
      }
    }
    guard !byIdentity.isEmpty else { return }
    for written in writtenFiles(inputs, formats: formats, manifestName: manifestName) {
      guard let identity = AtomicFile.identity(of: outputFolder + "/" + written.file),
        let input = byIdentity[identity]
      else { continue }
      let whose =
        written.owner.map { $0 == input.name ? "its " : MessageText.value($0) + "'s " }
        ?? "the batch's "
      throw Failure(
        description: "\(input.shown): \(whose)\(written.what) "
          + "\(MessageText.value(written.file)) is this input file: write the outputs to another "
          + "folder (-o)")
    }
  }

  /// The files a batch of `inputs` writes, relative to its output folder, with the input whose
  /// output each is (`nil` for the batch's own files) and what it is (`gif output`, `gallery
  /// page`): the manifest and journal this run writes (`manifestName`), the whole batch's
  /// manifest and page (a merge writes them from the shards), and each animation's outputs and
  /// frame sheet.
  static func writtenFiles(
    _ inputs: [BatchInput], formats: [BatchRun.Format], manifestName: String
  ) -> [(file: String, owner: String?, what: String)] {
    var files: [(file: String, owner: String?, what: String)] = [
      ("index.html", nil, "gallery page"), ("manifest.json", nil, "manifest"),
    ]
    if manifestName != "manifest.json" { files.append((manifestName, nil, "shard manifest")) }
    files.append(("." + manifestName + ".journal", nil, "journal"))
    let sheet = formats.contains(where: \.isAnimated)
    for input in inputs where input.problem == nil {
      for format in formats {
        files.append(
          (input.name + "." + format.rawValue, input.relativePath, "\(format.rawValue) output"))
      }
      if sheet { files.append((input.name + ".frames.png", input.relativePath, "frame sheet")) }
    }
    return files
  }

  /// The animations of shard `index` of `count` (1-based): sorted by relative path, every
  /// `count`-th starting at the `index`-th.
  public static func shard(_ inputs: [BatchInput], index: Int, of count: Int) -> [BatchInput] {
    precondition(1 <= index && index <= count, "a shard is 1...count")
    return inputs.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
