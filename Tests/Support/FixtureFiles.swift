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

  /// A new empty folder under /tmp for one test.
  public static func temporaryFolder() -> String {
    var template = Array("/tmp/flipbook-test-XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template))
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
