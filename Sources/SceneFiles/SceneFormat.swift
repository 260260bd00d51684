import FileIO
import Geometry
import ImageEncoding
import Scenes

/// Reads Flipbook scene files (`docs/scene-format.md`, version 1) into `Scene`s.
///
/// A scene that cannot be read is refused whole, before anything is rendered, with one message
/// per problem, each naming the file, the place in the document and what is wrong:
///
/// ```
/// radar.json: layers[2].cornerRadius: expected a number, found a string
/// radar.json: layers[3].name: duplicate layer name "pulse" (first used at layers[0].name)
/// ```
public enum SceneFormat {
  /// The format version this reader understands (the document's `"flipbook"` key).
  public static let version = 1

  /// The most bytes a scene file may have: 64 MiB (67,108,864); a larger file is refused
  /// before it is parsed.
  public static let maximumFileSize: Int = 64 << 20

  /// The most layers a scene may have, sublayers included: 10,000.
  public static let maximumLayerCount: Int = 10_000

  /// The most elements (moves, lines, curves, closes) one path in a scene may have: 100,000.
  public static let maximumPathElements: Int = 100_000

  /// The most values one keyframe animation may have: 100,000 (as a Lottie property's
  /// keyframes), and in all the keyframe animations of a scene: 1,000,000. Each value is
  /// kept as an `AnimationValue` of up to a few hundred bytes: 21 million transforms in a
  /// 63 MB file took 4.8 GB, and two such files in a batch aborted.
  public static let maximumKeyframeValues: Int = 100_000
  /// See `maximumKeyframeValues`.
  public static let maximumKeyframeValuesPerScene: Int = 1_000_000

  /// The most layers a scene may draw a frame, each layer counted once for every replicator
  /// instance that draws it: 100,000 (10,000 instances of 1,000 layers hung a frame).
  public static let maximumDrawnLayers: Int = 100_000

  /// The most colours one gradient's `colors` (or one animation value of it) may have: 10,000.
  public static let maximumGradientColors: Int = 10_000
  /// The most filters one `filters` list may hold (a layer's, or an animation value): 16. Each
  /// goes over the layer's whole group; the frame's filter work is bounded as well
  /// (`LayerRenderer.maximumFilterPixelsPerFrame`).
  public static let maximumFilters: Int = 16

  /// The most pixels the distinct images a scene shows may decode to, all together: 256
  /// million (a gigabyte of pixels; four pictures at the decoder's limit of 64 million). Each
  /// image file is decoded once however many layers (and animation values) show it, and
  /// counted from its header before it is decoded; the image that would pass the limit is
  /// refused naming its place (40 distinct 64-megapixel pictures held 7.8 GB and aborted).
  public static let maximumImagePixels: Int = 256_000_000

  /// Reads the scene file at `path`; image paths inside it resolve against its folder.
  ///
  /// - Throws: `SceneFormat.DecodingError` listing every problem found.
  public static func load(contentsOf path: String) throws(DecodingError) -> Scene {
    let bytes: [UInt8]
    do {
      bytes = try AtomicFile.read(path, limit: maximumFileSize)
    } catch {
      let reason = SceneReader.shortenedQuotes(error.reason)
      throw DecodingError(
        file: path, problems: [Problem(place: "", message: "cannot read the file: \(reason)")])
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    return try decode(bytes, file: path, baseDirectory: folder)
  }

  /// The kind of picture `bytes` hold by their signature (`PNG`, `APNG`, `GIF`, `JPEG`,
  /// `WebP`), or `nil`.
  package static func imageKind(_ bytes: [UInt8]) -> String? {
    func starts(_ signature: [UInt8]) -> Bool { bytes.starts(with: signature) }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      return APNG.isAPNG(bytes) ? "APNG" : "PNG"
    }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "GIF" }
    if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
    if bytes.count >= 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
      return "WebP"
    }
    return nil
  }

  /// `imageKind(_:)` as a message says it, with its article: `a JPEG image`, `an APNG image`.
  package static func describedImage(_ bytes: [UInt8]) -> String? {
    imageKind(bytes).map { ($0 == "APNG" ? "an " : "a ") + $0 + " image" }
  }

  /// Reads a scene from the bytes of a scene file.
  ///
  /// - Parameters:
  ///   - file: the name to put in messages.
  ///   - baseDirectory: the folder relative image paths resolve against ("" for the current
  ///     folder; with or without a trailing slash).
  /// - Throws: `SceneFormat.DecodingError` listing every problem found.
  public static func decode(
    _ bytes: [UInt8], file: String, baseDirectory: String = ""
  ) throws(DecodingError) -> Scene {
    try decode(bytes, file: file, baseDirectory: baseDirectory, imagePixelLimit: maximumImagePixels)
  }

  /// `decode(_:file:baseDirectory:)` with at most `imagePixelLimit` decoded image pixels in all
  /// (smaller than `maximumImagePixels` in tests).
  package static func decode(
    _ bytes: [UInt8], file: String, baseDirectory: String = "", imagePixelLimit: Int
  ) throws(DecodingError) -> Scene {
    try decode(
      bytes, file: file, baseDirectory: baseDirectory, imagePixelLimit: imagePixelLimit,
      decoded: [:])
  }

  /// The reading itself, taking the pictures an earlier reading of the same bytes `decoded`.
  static func decode(
    _ bytes: [UInt8], file: String, baseDirectory: String, imagePixelLimit: Int,
    decoded: [String: Result<Image, SceneReader.FileOrImageError>]
  ) throws(DecodingError) -> Scene {
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      // A picture handed where a scene goes is named for what it is, not as broken JSON.
      if let kind = describedImage(bytes) {
        throw DecodingError(
          file: file,
          problems: [
            Problem(
              place: "",
              message: "is \(kind), not a scene file or Lottie animation (JSON, or a "
                + "dotLottie archive)")
          ])
      }
      throw DecodingError(
        file: file,
        problems: [
          Problem(
            place: "", line: error.line, column: error.column,
            message: SceneReader.shortenedQuotes("invalid JSON: \(error.message)"))
        ])
    }
    return try read(
      json, bytes: bytes, file: file, baseDirectory: baseDirectory,
      imagePixelLimit: imagePixelLimit, decoded: decoded)
  }

  /// Reads a scene from `json`, the parsed `bytes` (a caller that has parsed them already, to
  /// tell a Lottie file from a scene file, reads on from there rather than parsing them again:
  /// a 39 MB scene file took 1.2 s to parse). Replicas read `bytes` again.
  package static func read(
    _ json: JSONValue, bytes: [UInt8], file: String, baseDirectory: String = ""
  ) throws(DecodingError) -> Scene {
    try read(
      json, bytes: bytes, file: file, baseDirectory: baseDirectory,
      imagePixelLimit: maximumImagePixels, decoded: [:])
  }

  /// The reading of parsed `bytes`, taking the pictures an earlier reading of them `decoded`.
  static func read(
    _ json: JSONValue, bytes: [UInt8], file: String, baseDirectory: String, imagePixelLimit: Int,
    decoded: [String: Result<Image, SceneReader.FileOrImageError>]
  ) throws(DecodingError) -> Scene {
    let reader = SceneReader(
      baseDirectory: baseDirectory, imagePixelLimit: imagePixelLimit, decoded: decoded)
    let scene = reader.readScene(json)
    guard reader.problems.isEmpty, let scene else {
      throw DecodingError(file: file, problems: reader.problems)
    }
    scene.inputFiles = reader.imageFiles
    // A document reads the same every time, so its replicas are the bytes read again; they
    // share its decoded pictures (a replica for each thread held a copy of every image).
    let pictures = reader.decodedFiles
    scene.rebuild {
      try decode(
        bytes, file: file, baseDirectory: baseDirectory, imagePixelLimit: imagePixelLimit,
        decoded: pictures)
    }
    return scene
  }
}
