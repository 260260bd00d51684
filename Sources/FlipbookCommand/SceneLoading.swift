import ArgumentParser
import Flipbook
import Glibc

/// Loads the scene a command names (a scene file or a Lottie animation, told apart by content),
/// writing each unsupported Lottie feature as a warning on standard error and turning reading
/// problems into a work failure (exit 1). `strict` refuses a Lottie file with unsupported
/// features (`--strict`).
func loadScene(_ path: String, strict: Bool = false) throws -> Scene {
  do {
    let loaded = try SceneDocument.load(contentsOf: path, strict: strict)
    for line in SceneDocument.warningLines(loaded.warnings) { FileHandleStandardError.write(line) }
    return loaded.scene
  } catch {
    throw CommandFailure(message: error.description)
  }
}

/// Refuses an output that would replace the scene file `file` itself or a picture `scene` shows
/// (the same file, by device and inode): `render logo.json -o logo.png` wrote the render over
/// the picture the scene draws, and `render self.png -o self.png` over the scene file, as `diff`
/// and `batch` refuse. A folder of frames replaces the files named as its frames
/// (`frame-00000.png`, ...): one of those that is the scene or a picture it shows is refused
/// too (twenty-sixth pass: `render s.json -o fr/` replaced `fr/frame-00001.png`, which the
/// scene showed, compounding with each render).
func refuseOutput(_ output: String, over scene: Scene, file: String) throws {
  let inputs =
    [(file, "the scene file")] + scene.inputFiles.map { ($0, "a picture the scene shows") }
  try refuseOutput(output, over: inputs)
}

/// Refuses an output that is one of `inputs` (each a path and what it is: "the scene file",
/// "a picture the scene shows"), or, for a folder of frames, a folder holding one of them under
/// a frame's name.
func refuseOutput(_ output: String, over inputs: [(path: String, what: String)]) throws {
  if AtomicFile.isFolder(output) || output.hasSuffix("/") {
    guard let folder = AtomicFile.identity(of: output) else { return }
    for (path, what) in inputs where PNGSequenceSink.isFrameFileName(baseName(of: path)) {
      guard AtomicFile.identity(of: folderPart(of: path)) == folder else { continue }
      throw CommandFailure(
        message: "cannot write frames into \(MessageText.path(output)): "
          + "\(MessageText.path(path)), \(what), would be replaced by a frame of this render")
    }
    return
  }
  guard let written = AtomicFile.identity(of: output) else { return }
  if let (path, what) = inputs.first(where: { AtomicFile.identity(of: $0.path) == written }) {
    let it = what.hasPrefix("the ") ? "\(what) itself" : "\(MessageText.path(path)), \(what)"
    throw CommandFailure(message: "cannot write output \(MessageText.path(output)): it is \(it)")
  }
}

/// The last component of `path` (`a/b.png` is `b.png`).
private func baseName(of path: String) -> String {
  var trimmed = Substring(path)
  while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
  return String(trimmed.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
}

/// The folder `path` lies in (`.` for a bare name).
private func folderPart(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The scene at `path` read again (for a recipe's replicas), without repeating its warnings.
func reloadScene(_ path: String, strict: Bool = false) throws -> Scene {
  try SceneDocument.load(contentsOf: path, strict: strict).scene
}

/// `--strict`: what the commands that take a SCENE say of it.
let strictHelp: ArgumentHelp =
  "Refuse a Lottie file that uses a feature Flipbook does not draw (its warnings become errors)."

/// Runs `body`, turning library errors into a work failure naming `file`; a file error of
/// `output` (the file, or a file in the folder, the command writes) says it is the output.
func failing<R>(_ file: String, output: String? = nil, _ body: () throws -> R) throws -> R {
  do {
    return try body()
  } catch let failure as CommandFailure {
    throw failure
  } catch let error as FileError {
    if let output, isOutput(error.path, output) {
      throw CommandFailure(
        message: "cannot write output \(MessageText.path(error.path)): \(error.reason)")
    }
    throw CommandFailure(message: "\(MessageText.path(error.path)): \(error.reason)")
  } catch let error as SceneFormat.DecodingError {
    throw CommandFailure(message: error.description)  // it names the file on every line already
  } catch {
    throw CommandFailure(message: "\(MessageText.path(file)): \(error)")
  }
}

/// Whether `path` is `output` or lies in the folder `output` names (`frames/` is the folder
/// `frames`: a folder output that cannot be made is said to be the output).
func isOutput(_ path: String, _ output: String) -> Bool {
  guard !output.isEmpty else { return false }
  if path == output { return true }
  var bare = Substring(output)
  while bare.count > 1, bare.hasSuffix("/") { bare = bare.dropLast() }
  if path == bare { return true }
  let folder = output.hasSuffix("/") ? output : output + "/"
  return path.hasPrefix(folder)
}
