import FileIO
import SceneFiles
import Scenes

#if canImport(Glibc)
  import Glibc
#endif

/// Opens what a command's SCENE names: a Flipbook scene file or a Lottie animation (JSON or a
/// dotLottie archive), told apart by content, whatever the file's extension.
public enum SceneDocument {
  /// A scene read from a file, with the Lottie features it uses that Flipbook does not draw
  /// (always empty for scene files).
  public struct Loaded {
    /// The scene.
    public var scene: Scene
    /// One warning per unsupported Lottie feature.
    public var warnings: [LottieFormat.Warning]
  }

  /// Reads the scene file or Lottie animation at `path`.
  ///
  /// - Parameter strict: refuse a Lottie file that uses an unsupported feature.
  /// - Throws: `SceneFormat.DecodingError` listing every problem found.
  public static func load(
    contentsOf path: String, strict: Bool = false
  ) throws(SceneFormat.DecodingError) -> Loaded {
    let bytes: [UInt8]
    do {
      bytes = try AtomicFile.read(path, limit: LottieFormat.maximumFileSize)
    } catch {
      // The scene reader words this refusal.
      return Loaded(scene: try SceneFormat.load(contentsOf: path), warnings: [])
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    return try decode(bytes, file: path, baseDirectory: folder, strict: strict)
  }

  /// Reads a scene file or Lottie animation from its bytes.
  public static func decode(
    _ bytes: [UInt8], file: String, baseDirectory: String = "", strict: Bool = false
  ) throws(SceneFormat.DecodingError) -> Loaded {
    if DotLottie.isArchive(bytes) {
      let document = try LottieFormat.decode(
        bytes, file: file, baseDirectory: baseDirectory, strict: strict)
      return Loaded(scene: document.scene, warnings: document.warnings)
    }
    // Parsed once: a scene file reads on from the same JSON (JSON that does not parse is
    // decoded again, for the error that says where and why).
    guard let json = try? JSONParser.parse(bytes) else {
      let scene = try SceneFormat.decode(bytes, file: file, baseDirectory: baseDirectory)
      return Loaded(scene: scene, warnings: [])
    }
    if LottieFormat.isLottie(json) {
      let document = try LottieFormat.read(
        json, file: file, baseDirectory: baseDirectory, strict: strict)
      return Loaded(scene: document.scene, warnings: document.warnings)
    }
    if let problem = LottieFormat.lookalikeProblem(json) {
      throw SceneFormat.DecodingError(
        file: file, problems: [SceneFormat.Problem(place: "", message: problem)])
    }
    let scene = try SceneFormat.read(
      json, bytes: bytes, file: file, baseDirectory: baseDirectory)
    return Loaded(scene: scene, warnings: [])
  }

  /// The lines `warnings` are said in: `warning: ...` each, the first 100 and then one line
  /// counting the rest.
  public static func warningLines(_ warnings: [some CustomStringConvertible]) -> [String] {
    MessageText.listed(warnings.map { "warning: \($0)" }) { "warning: … and \($0) more warnings" }
  }

  /// Writes the warnings on standard error, one line each (see `warningLines(_:)`).
  public static func printWarnings(_ warnings: [LottieFormat.Warning]) {
    for w in warningLines(warnings) {
      let line = Array("\(w)\n".utf8)
      var offset = 0
      while offset < line.count {
        let n = line.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if n <= 0 { break }
        offset += n
      }
    }
  }
}

extension Scene {
  /// Reads the scene file or Lottie animation (JSON or dotLottie) at `path`, recognised by its
  /// content; a Lottie file's unsupported features are written on standard error, one line each.
  ///
  /// - Parameter strict: refuse a Lottie file that uses an unsupported feature.
  /// - Throws: `SceneFormat.DecodingError` listing every problem found.
  public convenience init(
    contentsOf path: String, strict: Bool = false
  ) throws(SceneFormat.DecodingError) {
    let loaded = try SceneDocument.load(contentsOf: path, strict: strict)
    SceneDocument.printWarnings(loaded.warnings)
    self.init(size: loaded.scene.size)
    adoptContents(of: loaded.scene)
  }
}
