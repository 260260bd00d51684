import ImageComparison
import Flipbook
import GoldenTesting
import Glibc

/// Where the repository's `Fixtures/` folder is, and how to list and compare what is in it.
public enum FixtureFiles {
  /// `Fixtures/`, found from this source file's path.
  public static let root: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path + "/Fixtures"
  }()

  /// Where failing comparisons leave their pictures (ignored by git).
  /// The repository's root folder, with a trailing slash.
  public static var repository: String { String(root.dropLast("Fixtures".count)) }

  public static let artifacts: String = {
    let folder = repository + ".build/golden-failures"
    mkdir(folder, 0o755)
    return folder
  }()

  /// The names in `folder` that end with `suffix`, sorted, without the suffix.
  public static func names(in folder: String, suffix: String) -> [String] {
    AtomicFile.names(in: folder, suffix: suffix).map { String($0.dropLast(suffix.count)) }.sorted()
  }

  public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// The text of the file at `path` ("" when it cannot be read).
  public static func text(_ path: String) -> String {
    (try? AtomicFile.read(path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// A new empty folder for one test, inside this test process's own folder
  /// (`/tmp/flipbook-tests-PID`), which goes when the process exits: test runs leave nothing
  /// in /tmp. The folders of earlier runs whose process was killed before it could remove its
  /// own are removed the first time a later run asks for a folder.
  public static func temporaryFolder() -> String {
    var template = Array("\(processFolder)/XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template))
  }

  /// This process's folder under /tmp (see `temporaryFolder()`).
  private static let processFolder: String = {
    removeFoldersOfEndedRuns()
    let folder = "\(temporaryPrefix)\(getpid())"
    mkdir(folder, 0o700)
    atexit { removeTree("\(FixtureFiles.temporaryPrefix)\(getpid())") }
    return folder
  }()

  private static let temporaryPrefix = "/tmp/flipbook-tests-"

  /// Removes the `/tmp/flipbook-tests-PID` folders whose process no longer exists.
  private static func removeFoldersOfEndedRuns() {
    for name in entries(of: "/tmp") where name.hasPrefix("flipbook-tests-") {
      guard let pid = pid_t(name.dropFirst("flipbook-tests-".count)), pid > 0 else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { removeTree("/tmp/" + name) }
    }
  }

  /// Every entry of `folder` but `.` and `..`, dot files included.
  private static func entries(of folder: String) -> [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Removes `path` and everything below it, without following symbolic links.
  public static func removeTree(_ path: String) { removeTree(bytes: Array(path.utf8)) }

  /// `removeTree(_:)` by the path's bytes: a test's folder may hold names that are not UTF-8,
  /// which a `String` would turn into other names.
  private static func removeTree(bytes path: [UInt8]) {
    let cPath = (path + [0]).map { CChar(bitPattern: $0) }
    var info = stat()
    guard lstat(cPath, &info) == 0 else { return }
    if info.st_mode & S_IFMT == S_IFDIR {
      chmod(cPath, 0o700)  // tests make folders unwritable
      var names: [[UInt8]] = []
      if let dir = opendir(cPath) {
        while let entry = readdir(dir) {
          let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
          if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        closedir(dir)
      }
      for name in names { removeTree(bytes: path + [0x2F] + name) }
      rmdir(cPath)
    } else {
      unlink(cPath)
    }
  }
}

/// How the project's own golden images (in `Fixtures/goldens/`) are compared and re-recorded:
/// with the `GoldenTesting` kit users get, at `Golden.tolerance`, in the `FLIPBOOK_RECORD` mode
/// (`missing` by default: record absent goldens and fail; `failed`, `all`, `never`; see
/// Fixtures/README.md). Failure pictures go to `.build/golden-failures/`.
public enum Golden {
  /// Pixels may differ perceptually by 0.05 (half pixelmatch's default) and anti-aliased edges
  /// are forgiven; at most 0.1% of the pixels may differ beyond that.
  public static let tolerance = Tolerance(
    threshold: 0.05, ignoresAntialiasing: true, maxDifferingRatio: 0.001)

  /// Compares `actual` with the golden PNG at `path`; returns a failure message or `nil`.
  public static func check(_ actual: Bitmap, against path: String) -> String? {
    GoldenFile(path: path, artifactsFolder: FixtureFiles.artifacts).verify(
      actual, tolerance: tolerance
    ).message
  }
}
