import Flipbook
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
  public static let artifacts: String = {
    let folder = String(root.dropLast("Fixtures".count)) + ".build/golden-failures"
    mkdir(folder, 0o755)
    return folder
  }()

  /// The names in `folder` that end with `suffix`, sorted, without the suffix.
  public static func names(in folder: String, suffix: String) -> [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var out: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if name.hasSuffix(suffix) && !name.hasPrefix(".") { out.append(String(name.dropLast(suffix.count))) }
    }
    return out.sorted()
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

/// How golden images are compared and re-recorded.
///
/// A pixel differs when one of its channels differs by more than `maxChannelDelta` (2 levels:
/// what anti-aliasing rounding moves between builds); a comparison passes when at most
/// `maxDifferingFraction` of the pixels (0.1%) differ. Set `FLIPBOOK_RECORD` to `missing` (the
/// default: record absent goldens and fail), `failed` (re-record mismatches and fail), `all`
/// (re-record every golden and fail) or `never` (CI: only compare).
public enum Golden {
  public static let maxChannelDelta = 2
  public static let maxDifferingFraction = 0.001

  public enum RecordMode: String { case missing, failed, all, never }

  public static var recordMode: RecordMode {
    guard let raw = getenv("FLIPBOOK_RECORD") else { return .missing }
    return RecordMode(rawValue: String(cString: raw)) ?? .missing
  }

  /// Compares `actual` with the golden PNG at `path`; returns a failure message or `nil`.
  public static func check(_ actual: Bitmap, against path: String, name: String) throws -> String? {
    let mode = recordMode
    guard FixtureFiles.exists(path), mode != .all else {
      if mode == .never { return "missing golden \(path); record it with FLIPBOOK_RECORD=missing scripts/test" }
      try AtomicFile.write(actual.pngData(), to: path)
      return "recorded golden \(path): look at it, commit it, and run the tests again"
    }
    let expected = try Bitmap(contentsOfPNGFile: path)
    guard expected.width == actual.width, expected.height == actual.height else {
      return try fail("size \(actual.width)x\(actual.height) differs from the golden's \(expected.width)x\(expected.height)")
    }
    var differing = 0
    var largest = 0
    var diff = Bitmap(width: actual.width, height: actual.height, fill: RGBA8(255, 255, 255, 255))
    for i in stride(from: 0, to: actual.pixels.count, by: 4) {
      var delta = 0
      for c in 0..<4 { delta = max(delta, abs(Int(actual.pixels[i + c]) - Int(expected.pixels[i + c]))) }
      largest = max(largest, delta)
      if delta > maxChannelDelta {
        differing += 1
        (diff.pixels[i], diff.pixels[i + 1], diff.pixels[i + 2]) = (255, 0, 0)
      }
    }
    let fraction = Double(differing) / Double(max(1, actual.width * actual.height))
    guard fraction > maxDifferingFraction else { return nil }
    let folder = FixtureFiles.artifacts
    try AtomicFile.write(actual.pngData(), to: "\(folder)/\(name).actual.png")
    try AtomicFile.write(diff.pngData(), to: "\(folder)/\(name).difference.png")
    return try fail(
      "\(differing) pixels (\(fraction * 100)%) differ by more than \(maxChannelDelta) levels (largest \(largest)); "
        + "see \(folder)/\(name).actual.png and .difference.png")

    func fail(_ message: String) throws -> String {
      if mode == .failed {
        try AtomicFile.write(actual.pngData(), to: path)
        return "\(name): \(message); re-recorded \(path)"
      }
      return "\(name): \(message). If the change is intended: FLIPBOOK_RECORD=failed scripts/test"
    }
  }
}
