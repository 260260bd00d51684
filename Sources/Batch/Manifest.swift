import FileIO
import SceneFiles

/// `OUTDIR/manifest.json`: what a batch made, one entry per animation, sorted by name
/// (docs/command-line.md "batch"). It holds no timestamps: two runs over the same inputs write
/// the same bytes except the render times (`Output.renderSeconds`), which are measured.
public struct Manifest: Equatable, Sendable {
  /// The version of Flipbook that rendered the outputs.
  public var flipbookVersion: String
  /// The formats asked for, in the order given.
  public var formats: [String]
  /// `I/N` when this is one shard's manifest (`manifest.I-of-N.json`), `nil` for a whole batch.
  public var shard: String?
  /// For a shard: the whole batch's inputs, which every shard of it must share (`InputSet`);
  /// `nil` for a whole batch.
  public var inputs: InputSet? = nil

  /// The animations a batch was given before it was sharded: how many, and the SHA-256 of
  /// their relative paths in order (`sha256:` and 64 hexadecimal digits). Shards given other
  /// INPUTs (one shard's checkout or glob differing) merged into an incomplete gallery without
  /// a word; with these recorded the merge refuses them.
  public struct InputSet: Equatable, Sendable {
    /// How many animations the whole batch has.
    public var count: Int
    /// The SHA-256 of their relative paths, each ended by a newline, sorted as a batch sorts
    /// them.
    public var hash: String

    /// The set of `relativePaths`, sorted as a batch sorts them.
    public init(relativePaths: [String]) {
      var sha = SHA256()
      for path in relativePaths { sha.update(Array((path + "\n").utf8)) }
      (count, hash) = (relativePaths.count, "sha256:" + sha.finalizeHex())
    }

    /// A set as a manifest states it.
    public init(count: Int, hash: String) { (self.count, self.hash) = (count, hash) }
  }
  /// The animations, sorted by name.
  public var animations: [Entry]

  /// Creates a manifest.
  public init(flipbookVersion: String, formats: [String], shard: String?, animations: [Entry]) {
    (self.flipbookVersion, self.formats, self.shard, self.animations) =
      (flipbookVersion, formats, shard, animations)
  }

  /// One animation's record.
  public struct Entry: Equatable, Sendable {
    /// Its name: the input's relative path without extension (`icons/spinner`).
    public var name: String
    /// The input file, relative to the batch's common folder.
    public var input: String
    /// `sha256:` and the SHA-256 of everything the outputs depend on (see `ContentHash`), or
    /// `nil` when the input could not be read.
    public var hash: String?
    /// The other files the animation read (its images), relative to the common folder.
    public var dependencies: [String] = []
    /// The frame size in pixels, the duration in seconds, the frame rate, and the frames
    /// rendered; `nil` when the animation failed before rendering.
    public var width: Int?, height: Int?, duration: Double?, fps: Double?, frameCount: Int?
    /// The files written, in the order of the formats asked for.
    public var outputs: [Output] = []
    /// The frames the gallery page steps through (`NAME.frames.png`), or `nil`.
    public var frames: FrameSheet?
    /// What did not stop the render.
    public var warnings: [String] = []
    /// Why the animation was not (completely) rendered, or `nil`.
    public var error: String?

    /// Creates an entry.
    public init(name: String, input: String) { (self.name, self.input) = (name, input) }
  }

  /// One file written.
  public struct Output: Equatable, Sendable {
    /// `gif`, `webp`, `apng`, `png`, `mp4` or `webm`.
    public var format: String
    /// The file, relative to OUTDIR (`icons/spinner.gif`).
    public var file: String
    /// Its size in bytes.
    public var bytes: Int
    /// Its frame size in pixels.
    public var width: Int, height: Int
    /// How long it plays, in seconds (0 for a `png`, one frame).
    public var duration: Double
    /// The frames it stores (a GIF merges identical neighbours; 1 for a `png`).
    public var frames: Int
    /// How long rendering and encoding it took, in seconds (measured: differs run to run).
    public var renderSeconds: Double

    /// Creates an output record.
    public init(
      format: String, file: String, bytes: Int, width: Int, height: Int, duration: Double,
      frames: Int, renderSeconds: Double
    ) {
      (self.format, self.file, self.bytes, self.width, self.height) =
        (format, file, bytes, width, height)
      (self.duration, self.frames, self.renderSeconds) = (duration, frames, renderSeconds)
    }
  }

  /// A contact sheet of frames for the page's frame stepper: `count` frames of `width` x
  /// `height` pixels, `columns` to a row, laid out as `ContactSheet` does; frame k of the sheet
  /// is frame `k * step` of the animation.
  public struct FrameSheet: Equatable, Sendable {
    /// The PNG, relative to OUTDIR (`icons/spinner.frames.png`).
    public var file: String
    /// Frames on the sheet, frames a row, and the animation frames between two sheet frames.
    public var count: Int, columns: Int, step: Int

    /// Creates a sheet record.
    public init(file: String, count: Int, columns: Int, step: Int) {
      (self.file, self.count, self.columns, self.step) = (file, count, columns, step)
    }
  }

  /// The file name of shard `index` of `count`'s manifest: `manifest.2-of-3.json`.
  public static func shardFileName(_ index: Int, of count: Int) -> String {
    "manifest.\(index)-of-\(count).json"
  }

  /// Whether any animation failed.
  public var hasErrors: Bool { animations.contains { $0.error != nil } }
}

// MARK: JSON

extension Manifest {
  /// The manifest as JSON (`serialized()` gives its bytes).
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("flipbookVersion", .string(flipbookVersion)),
      ("formats", .array(formats.map(JSONValue.string))),
    ]
    if let shard { members.append(("shard", .string(shard))) }
    if let inputs {
      members.append(
        (
          "inputs",
          .object([("count", .number(Double(inputs.count))), ("hash", .string(inputs.hash))])
        ))
    }
    members.append(("animations", .array(animations.map(\.json))))
    return .object(members)
  }

  /// The most characters (Unicode scalars) an animation's `error` and each of its `warnings`
  /// keep in a manifest: 100,000 (a file's 100 problems said, each a line of a few hundred).
  /// A batch writes a longer one cut to this with `…`; a manifest read back (a shard's, a
  /// cache's) with a longer one is refused, naming the place: a shard's `error` of 50,000,000
  /// characters was printed as one line and copied into a 100 MB page.
  public static let maximumTextLength = 100_000

  /// The most bytes a name, path or hash in a manifest has: 4,096 (`PATH_MAX`); longer ones in
  /// a manifest read back are refused.
  public static let maximumNameLength = 4_096

  /// `text` as a manifest keeps it: whole up to `maximumTextLength` characters, else cut to
  /// them with `…` in place of the last.
  static func kept(_ text: String) -> String {
    guard text.utf8.count > maximumTextLength, text.unicodeScalars.count > maximumTextLength
    else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.prefix(maximumTextLength - 1)))
      + "…"
  }

  /// Reads a manifest written by `json`, checking its shape before anything is made of it:
  /// each value of its kind (a `width` of `"x"` was read as none), formats the batch knows
  /// (`gif`, `webp`, `apng`, `png`, `mp4`, `webm`), each once, at most one output of each
  /// format an animation (an animation's outputs repeated 1,000,000 times, a 170 MB shard
  /// manifest, took 74 s and 1.5 GB to merge), each of a format the manifest names, texts
  /// within `maximumTextLength` and names within `maximumNameLength`. An error names the JSON
  /// path (`animations[0].outputs[1].format: ...`).
  public init(json: JSONValue) throws(ManifestError) {
    guard case .object = json, json["flipbookVersion"] != nil, json["animations"] != nil else {
      throw ManifestError(message: "not a flipbook batch manifest")
    }
    let reader = ManifestReader()
    let version = try reader.name(json["flipbookVersion"], "flipbookVersion")
    let formatValues = try reader.list(json["formats"], "formats")
    var formats: [String] = []
    for (k, item) in formatValues.enumerated() {
      let place = "formats[\(k)]"
      let format = try reader.name(item, place)
      guard BatchRun.Format(rawValue: format) != nil else {
        throw ManifestError(
          message: "\(place): \"\(MessageText.value(format))\" is not a format a batch makes "
            + "(\(BatchRun.Format.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      guard !formats.contains(format) else {
        throw ManifestError(message: "\(place): \(format) is named twice")
      }
      formats.append(format)
    }
    let shard = try reader.optionalName(json["shard"], "shard")
    var inputs: InputSet? = nil
    if let value = json["inputs"], value != .null {
      guard case .object = value else { throw reader.fail("inputs", "an object", value) }
      inputs = InputSet(
        count: try reader.count(value["count"], "inputs.count"),
        hash: try reader.name(value["hash"], "inputs.hash"))
    }
    var entries: [Entry] = []
    for (k, item) in try reader.list(json["animations"], "animations").enumerated() {
      entries.append(try Entry(json: item, at: "animations[\(k)]", formats: formats))
    }
    self.init(flipbookVersion: version, formats: formats, shard: shard, animations: entries)
    self.inputs = inputs
  }

  /// Reads the manifest at `path`.
  public static func read(_ path: String) throws(ManifestError) -> Manifest {
    let bytes: [UInt8]
    do { bytes = try AtomicFile.read(path) } catch {
      throw ManifestError(message: "\(path): cannot read: \(error.reason)")
    }
    do {
      return try Manifest(json: try JSONParser.parse(bytes))
    } catch let error as JSONSyntaxError {
      throw ManifestError(message: "\(path): \(error.line):\(error.column): \(error.message)")
    } catch let error as ManifestError {
      throw ManifestError(message: "\(path): \(error.message)")
    } catch {
      throw ManifestError(message: "\(path): \(error)")
    }
  }
}

/// A manifest that cannot be read.
public struct ManifestError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, naming the file.
  public var message: String
  /// The message.
  public var description: String { message }
}

extension Manifest.Entry {
  var json: JSONValue {
    var m: [(key: String, value: JSONValue)] = [("name", .string(name)), ("input", .string(input))]
    m.append(("hash", hash.map(JSONValue.string) ?? .null))
    m.append(("dependencies", .array(dependencies.map(JSONValue.string))))
    func number<T: BinaryInteger>(_ x: T?) -> JSONValue { x.map { .number(Double($0)) } ?? .null }
    m.append(("width", number(width)))
    m.append(("height", number(height)))
    m.append(("duration", duration.map(JSONValue.number) ?? .null))
    m.append(("fps", fps.map(JSONValue.number) ?? .null))
    m.append(("frameCount", number(frameCount)))
    m.append(("outputs", .array(outputs.map(\.json))))
    if let frames {
      m.append(
        (
          "frames",
          .object([
            ("file", .string(frames.file)), ("count", .number(Double(frames.count))),
            ("columns", .number(Double(frames.columns))), ("step", .number(Double(frames.step))),
          ])
        ))
    }
    m.append(("warnings", .array(warnings.map { .string(Manifest.kept($0)) })))
    m.append(("error", error.map { .string(Manifest.kept($0)) } ?? .null))
    return .object(m)
  }

  /// Reads the entry `json` at `place` (`animations[3]`) of a manifest of `formats`.
  init(json: JSONValue, at place: String, formats: [String]) throws(ManifestError) {
    let reader = ManifestReader()
    guard case .object = json else {
      throw ManifestError(message: "\(place): expected an object, found \(json.kindDescription)")
    }
    // A manifest may come back from a cache or a hand: its counts must be whole numbers a
    // file can have, and its paths must stay inside the output folder, or the record is refused
    // (and the animation rendered again).
    func inside(_ value: JSONValue?, _ key: String) throws(ManifestError) -> String {
      let path = try reader.name(value, key)
      if let problem = Paths.notPlainRelative(path) {
        throw ManifestError(
          message: "\(key): \"\(MessageText.value(path))\" is not a plain path in the output "
            + "folder: \(problem)")
      }
      return path
    }
    self.init(
      name: try reader.name(json["name"], place + ".name"),
      input: try reader.name(json["input"], place + ".input"))
    try checkNamedByInput(at: place)
    hash = try reader.optionalName(json["hash"], place + ".hash")
    for (k, item) in try reader.list(json["dependencies"], place + ".dependencies").enumerated() {
      dependencies.append(try reader.name(item, place + ".dependencies[\(k)]"))
    }
    width = try reader.optionalCount(json["width"], place + ".width")
    height = try reader.optionalCount(json["height"], place + ".height")
    duration = try reader.optionalNumber(json["duration"], place + ".duration")
    fps = try reader.optionalNumber(json["fps"], place + ".fps")
    frameCount = try reader.optionalCount(json["frameCount"], place + ".frameCount")
    let outputItems = try reader.list(json["outputs"], place + ".outputs")
    guard outputItems.count <= formats.count else {
      throw ManifestError(
        message: "\(place).outputs: \(outputItems.count) outputs, more than the "
          + "\(MessageText.counted(formats.count, "format")) the manifest names (one each)")
    }
    for (k, item) in outputItems.enumerated() {
      let at = "\(place).outputs[\(k)]"
      guard case .object = item else {
        throw ManifestError(message: "\(at): expected an object, found \(item.kindDescription)")
      }
      let format = try reader.name(item["format"], at + ".format")
      guard formats.contains(format) else {
        throw ManifestError(
          message: "\(at).format: \"\(MessageText.value(format))\" is not one of the manifest's "
            + "formats (\(formats.joined(separator: ", ")))")
      }
      guard !outputs.contains(where: { $0.format == format }) else {
        throw ManifestError(message: "\(at).format: a second \(format) output")
      }
      let file = try inside(item["file"], at + ".file")
      try checkOwn(file, name + "." + format, at: at + ".file", what: "\(format) output")
      outputs.append(
        Manifest.Output(
          format: format, file: file,
          bytes: try reader.count(item["bytes"], at + ".bytes"),
          width: try reader.count(item["width"], at + ".width"),
          height: try reader.count(item["height"], at + ".height"),
          duration: try reader.number(item["duration"], at + ".duration"),
          frames: try reader.count(item["frames"], at + ".frames"),
          renderSeconds: try reader.optionalNumber(item["renderSeconds"], at + ".renderSeconds")
            ?? 0))
    }
    if let sheet = json["frames"], sheet != .null {
      let at = place + ".frames"
      guard case .object = sheet else {
        throw ManifestError(message: "\(at): expected an object, found \(sheet.kindDescription)")
      }
      let file = try inside(sheet["file"], at + ".file")
      try checkOwn(file, name + ".frames.png", at: at + ".file", what: "frame sheet")
      frames = Manifest.FrameSheet(
        file: file,
        count: try reader.count(sheet["count"], at + ".count"),
        columns: try reader.count(sheet["columns"], at + ".columns"),
        step: try reader.count(sheet["step"], at + ".step"))
    }
    for (k, item) in try reader.list(json["warnings"], place + ".warnings").enumerated() {
      warnings.append(try reader.text(item, place + ".warnings[\(k)]"))
    }
    if let text = json["error"], text != .null {
      error = try reader.text(text, place + ".error")
    }
  }
}

extension Manifest.Entry {
  /// Refuses a record whose `name` is not its `input` without the extension, the only name a
  /// batch gives an animation: the files a record may list are named after it
  /// (`checkOwn(_:_:at:what:)`), so a record renamed after another animation could list that
  /// one's outputs as its own.
  func checkNamedByInput(at place: String) throws(ManifestError) {
    let expected = Paths.removingExtension(input)
    guard name != expected else { return }
    throw ManifestError(
      message: "\(place).name: \"\(MessageText.value(name))\" is not its input "
        + "\"\(MessageText.value(input))\" without the extension (\"\(MessageText.value(expected))\")"
    )
  }

  /// Refuses a record's `file` (at JSON path `place`) that is not `expected`, the one file a
  /// batch writes as this animation's `what` (`NAME.FORMAT`, `NAME.frames.png`): a cached or
  /// shard manifest whose record listed another animation's output (`"file": "three-d.gif"`
  /// for `effects-replicator`) was trusted, its own output never made and the page showing the
  /// other's.
  func checkOwn(
    _ file: String, _ expected: String, at place: String, what: String
  )
    throws(ManifestError)
  {
    guard file != expected else { return }
    throw ManifestError(
      message: "\(place): \"\(MessageText.value(file))\" is not the file a batch writes as "
        + "\(MessageText.value(name))'s \(what) (\"\(MessageText.value(expected))\")")
  }
}

/// The checks a manifest's values pass as it is read back, each throwing `ManifestError` with
/// the value's JSON path (`place`) and what was found.
struct ManifestReader {
  func fail(_ place: String, _ expected: String, _ value: JSONValue?) -> ManifestError {
    let found: String
    switch value {
    case nil: found = "nothing"
    case .number(let x)?: found = MessageText.number(x)
    case let value?: found = value.kindDescription
    }
    return ManifestError(message: "\(place): expected \(expected), found \(found)")
  }

  /// A string of at most `Manifest.maximumNameLength` bytes.
  func name(_ value: JSONValue?, _ place: String) throws(ManifestError) -> String {
    guard case .string(let s)? = value else { throw fail(place, "a string", value) }
    guard s.utf8.count <= Manifest.maximumNameLength else {
      throw ManifestError(
        message: "\(place): \(s.utf8.count) bytes, more than the "
          + "\(Manifest.maximumNameLength) a name may have")
    }
    return s
  }

  /// `name`, or `nil` for `null` or no value.
  func optionalName(_ value: JSONValue?, _ place: String) throws(ManifestError) -> String? {
    value == nil || value == .null ? nil : try name(value, place)
  }

  /// A string of at most `Manifest.maximumTextLength` characters.
  func text(_ value: JSONValue?, _ place: String) throws(ManifestError) -> String {
    guard case .string(let s)? = value else { throw fail(place, "a string", value) }
    // Bytes first: counting the scalars of 50 MB took time for nothing.
    if s.utf8.count > Manifest.maximumTextLength {
      let count = s.unicodeScalars.count
      guard count <= Manifest.maximumTextLength else {
        throw ManifestError(
          message: "\(place): \(count) characters, more than the "
            + "\(Manifest.maximumTextLength) a batch writes")
      }
    }
    return s
  }

  /// A list (an absent one is empty).
  func list(_ value: JSONValue?, _ place: String) throws(ManifestError) -> [JSONValue] {
    guard let value else { return [] }
    guard case .array(let items) = value else { throw fail(place, "a list", value) }
    return items
  }

  /// A finite number.
  func number(_ value: JSONValue?, _ place: String) throws(ManifestError) -> Double {
    guard case .number(let x)? = value, x.isFinite else { throw fail(place, "a number", value) }
    return x
  }

  /// `number`, or `nil` for `null` or no value.
  func optionalNumber(_ value: JSONValue?, _ place: String) throws(ManifestError) -> Double? {
    value == nil || value == .null ? nil : try number(value, place)
  }

  /// A whole number a file can have: 0 to 2^53.
  func count(_ value: JSONValue?, _ place: String) throws(ManifestError) -> Int {
    guard case .number(let x)? = value, x.isFinite, x == x.rounded(), x >= 0,
      x <= 9_007_199_254_740_992
    else { throw fail(place, "a whole number of 0 or more", value) }
    return Int(x)
  }

  /// `count`, or `nil` for `null` or no value.
  func optionalCount(_ value: JSONValue?, _ place: String) throws(ManifestError) -> Int? {
    value == nil || value == .null ? nil : try count(value, place)
  }
}

extension Manifest.Output {
  var json: JSONValue {
    .object([
      ("format", .string(format)), ("file", .string(file)), ("bytes", .number(Double(bytes))),
      ("width", .number(Double(width))), ("height", .number(Double(height))),
      ("duration", .number(duration)), ("frames", .number(Double(frames))),
      ("renderSeconds", .number((renderSeconds * 1000).rounded() / 1000)),
    ])
  }
}
