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

/// The device and inode of the file at `path` (the same file however it is named: `./a.png`,
/// a hard link, a symbolic link), or `nil` when there is none.
func fileIdentity(of path: String) -> [UInt64]? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return [UInt64(info.st_dev), UInt64(info.st_ino)]
}

/// Refuses an output file that is the scene file `file` itself or a picture `scene` shows (the
/// same file, by device and inode): `render logo.json -o logo.png` wrote the render over the
/// picture the scene draws, and `render self.png -o self.png` over the scene file, as `diff`
/// and `batch` refuse. A folder output is not checked (its frames are replaced, as documented).
func refuseOutput(_ output: String, over scene: Scene, file: String) throws {
  guard let written = fileIdentity(of: output), !AtomicFile.isFolder(output) else { return }
  if fileIdentity(of: file) == written {
    throw CommandFailure(
      message: "cannot write output \(MessageText.path(output)): it is the scene file itself")
  }
  if let image = scene.inputFiles.first(where: { fileIdentity(of: $0) == written }) {
    throw CommandFailure(
      message: "cannot write output \(MessageText.path(output)): it is \(MessageText.path(image)), "
        + "a picture the scene shows")
  }
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
