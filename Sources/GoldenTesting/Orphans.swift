import Flipbook

extension GoldenFile {
  /// The goldens in `__Snapshots__/<TestFile>/` beside `testFile` that no test in it can
  /// produce: the test function the file name starts with is not declared in the file, or the
  /// golden's name (before any `@time`) appears nowhere in it as a string literal.
  ///
  /// A static check of the test file's text, so it gives the same answer whatever tests ran and
  /// in whatever order. Call it from a test in the same file:
  ///
  /// ```swift
  /// @Test func noOrphanedGoldens() { #expect(GoldenFile.orphans(testFile: #filePath).isEmpty) }
  /// ```
  public static func orphans(testFile: String = #filePath) -> [String] {
    let folder = "\(GoldenFile.folder(of: testFile))/__Snapshots__/\(GoldenFile.baseName(of: testFile))"
    guard let source = try? AtomicFile.read(testFile) else { return [] }
    let text = String(decoding: source, as: UTF8.self)
    let goldens = (AtomicFile.names(in: folder, suffix: ".png") + AtomicFile.names(in: folder, suffix: ".gif")
      + AtomicFile.names(in: folder, suffix: ".webp")).sorted()
    return goldens.filter { file in
      let parts = file.split(separator: ".", maxSplits: 1)
      guard parts.count == 2 else { return true }
      let test = String(parts[0])
      let rest = String(parts[1])
      let name = String(rest[..<(rest.lastIndex(of: ".") ?? rest.endIndex)].split(separator: "@").first ?? "")
      let declared = text.contains("func \(test)(")
      let named = text.contains("\"\(name)\"") || text.contains("\"\(name)@")
      return !(declared && named)
    }.map { "\(folder)/\($0)" }
  }
}
