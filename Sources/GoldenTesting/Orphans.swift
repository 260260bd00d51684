import Flipbook

extension GoldenFile {
  /// The goldens of the test target holding `testFile` that no test can produce, in every
  /// `__Snapshots__` folder of the target (`Tests/<Target>/`, found from the package root):
  /// goldens of a test file that no longer exists; in `__Snapshots__/<TestFile>/`, goldens whose
  /// test function (the start of the file name) is not declared in `<TestFile>.swift` or whose
  /// name (before any `@time`) appears nowhere in it as a string literal; and loose files.
  ///
  /// A static check of the test files' text, so it gives the same answer whatever tests ran and
  /// in whatever order. Call it from any one test of the target:
  ///
  /// ```swift
  /// @Test func noOrphanedGoldens() { #expect(GoldenFile.orphans().isEmpty) }
  /// ```
  public static func orphans(testFile: String = #filePath) -> [String] {
    snapshotFolders(under: targetFolder(of: testFile)).flatMap(orphans(inSnapshots:))
  }

  /// The test target's folder: `<package>/Tests/<Target>` when `testFile` is under one, else the
  /// test file's own folder.
  static func targetFolder(of testFile: String) -> String {
    let folder = GoldenFile.folder(of: testFile)
    guard let root = packageRoot(containing: folder), folder.hasPrefix(root + "/") else {
      return folder
    }
    let parts = folder.dropFirst(root.count + 1).split(separator: "/")
    guard parts.count >= 2 else { return folder }
    return "\(root)/\(parts[0])/\(parts[1])"
  }

  /// Every `__Snapshots__` folder at or below `folder` (not looking inside them).
  static func snapshotFolders(under folder: String) -> [String] {
    var found: [String] = []
    for name in AtomicFile.names(in: folder) where AtomicFile.isFolder("\(folder)/\(name)") {
      if name == "__Snapshots__" {
        found.append("\(folder)/\(name)")
      } else {
        found += snapshotFolders(under: "\(folder)/\(name)")
      }
    }
    return found
  }

  /// The orphans in one `__Snapshots__` folder, checked against the test files beside it.
  static func orphans(inSnapshots snapshots: String) -> [String] {
    let testFolder = GoldenFile.folder(of: snapshots)
    var result: [String] = []
    for name in AtomicFile.names(in: snapshots) {
      let path = "\(snapshots)/\(name)"
      guard AtomicFile.isFolder(path) else {
        result.append(path)  // a loose file: no test writes there
        continue
      }
      let goldens =
        (AtomicFile.names(in: path, suffix: ".png") + AtomicFile.names(in: path, suffix: ".gif")
        + AtomicFile.names(in: path, suffix: ".webp")).sorted()
      guard let source = try? AtomicFile.read("\(testFolder)/\(name).swift") else {
        result += goldens.map { "\(path)/\($0)" }  // the test file is gone
        continue
      }
      let text = String(decoding: source, as: UTF8.self)
      result += goldens.filter { !isProduced($0, by: text) }.map { "\(path)/\($0)" }
    }
    return result
  }

  /// Whether a test file's text declares the golden's test function and names the golden.
  static func isProduced(_ file: String, by text: String) -> Bool {
    let parts = file.split(separator: ".", maxSplits: 1)
    guard parts.count == 2 else { return false }
    let test = String(parts[0])
    let rest = String(parts[1])
    let stem = rest[..<(rest.lastIndex(of: ".") ?? rest.endIndex)]
    let name = String(stem.split(separator: "@").first ?? "")
    let declared = text.contains("func \(test)(")
    let named = text.contains("\"\(name)\"") || text.contains("\"\(name)@")
    return declared && named
  }
}
