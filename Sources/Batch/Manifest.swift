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
    members.append(("animations", .array(animations.map(\.json))))
    return .object(members)
  }

  /// Reads a manifest written by `json`.
  public init(json: JSONValue) throws(ManifestError) {
    guard let version = json["flipbookVersion"]?.stringValue,
      let formats = json["formats"]?.arrayValue?.compactMap(\.stringValue),
      let animations = json["animations"]?.arrayValue
    else { throw ManifestError(message: "not a flipbook batch manifest") }
    var entries: [Entry] = []
    for item in animations { entries.append(try Entry(json: item)) }
    self.init(
      flipbookVersion: version, formats: formats, shard: json["shard"]?.stringValue,
      animations: entries)
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
public struct ManifestError: Error, CustomStringConvertible {
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
    m.append(("warnings", .array(warnings.map(JSONValue.string))))
    m.append(("error", error.map(JSONValue.string) ?? .null))
    return .object(m)
  }

  init(json: JSONValue) throws(ManifestError) {
    guard let name = json["name"]?.stringValue, let input = json["input"]?.stringValue else {
      throw ManifestError(message: "an animation without a name or input")
    }
    // A manifest may come back from a cache or a hand: its counts must be whole numbers a
    // file can have, and its paths must stay inside the output folder, or the record is refused
    // (and the animation rendered again).
    func count(_ x: Double, _ key: String) throws(ManifestError) -> Int {
      guard x.isFinite, x == x.rounded(), x >= 0, x <= 9_007_199_254_740_992 else {
        throw ManifestError(
          message: "\(MessageText.value(name)): \(key): expected a whole number of 0 or more, "
            + "found \(MessageText.number(x))")
      }
      return Int(x)
    }
    func inside(_ path: String, _ key: String) throws(ManifestError) -> String {
      if let problem = Paths.notPlainRelative(path) {
        throw ManifestError(
          message: "\(MessageText.value(name)): \(key): \"\(MessageText.value(path))\" is not "
            + "a plain path in the output folder: \(problem)")
      }
      return path
    }
    self.init(name: name, input: input)
    hash = json["hash"]?.stringValue
    dependencies = json["dependencies"]?.arrayValue?.compactMap(\.stringValue) ?? []
    if let w = json["width"]?.numberValue { width = try count(w, "width") }
    if let h = json["height"]?.numberValue { height = try count(h, "height") }
    duration = json["duration"]?.numberValue
    fps = json["fps"]?.numberValue
    if let n = json["frameCount"]?.numberValue { frameCount = try count(n, "frameCount") }
    for item in json["outputs"]?.arrayValue ?? [] {
      guard let format = item["format"]?.stringValue, let file = item["file"]?.stringValue,
        let bytes = item["bytes"]?.numberValue, let width = item["width"]?.numberValue,
        let height = item["height"]?.numberValue, let duration = item["duration"]?.numberValue,
        let frames = item["frames"]?.numberValue
      else { throw ManifestError(message: "\(name): an output with a missing field") }
      outputs.append(
        Manifest.Output(
          format: format, file: try inside(file, "outputs.file"),
          bytes: try count(bytes, "outputs.bytes"),
          width: try count(width, "outputs.width"), height: try count(height, "outputs.height"),
          duration: duration,
          frames: try count(frames, "outputs.frames"),
          renderSeconds: item["renderSeconds"]?.numberValue ?? 0))
    }
    if let sheet = json["frames"], let file = sheet["file"]?.stringValue,
      let total = sheet["count"]?.numberValue, let columns = sheet["columns"]?.numberValue,
      let step = sheet["step"]?.numberValue
    {
      frames = Manifest.FrameSheet(
        file: try inside(file, "frames.file"), count: try count(total, "frames.count"),
        columns: try count(columns, "frames.columns"),
        step: try count(step, "frames.step"))
    }
    warnings = json["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
    error = json["error"]?.stringValue
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
