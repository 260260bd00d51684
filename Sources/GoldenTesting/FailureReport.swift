import Flipbook
import ImageComparison
import Pages

#if canImport(Glibc)
  import Glibc
#endif

/// The run's golden-failure page, `.build/golden-failures/index.html`: every failing golden with
/// expected, actual and difference side by side, a swipe and a flicker view, and for animations
/// a frame stepper opening on the frame that differs most (`Pages.ComparisonPage`).
///
/// Each failure keeps its section in `<artifacts>/<golden>.section.html` beside its pictures
/// (frames in `<golden>.frames/`); the page joins every section under the failures folder, so
/// test processes running side by side each add theirs. A golden that matches again has its
/// pictures and section removed, and the page is made again (removed when nothing fails).
extension GoldenFile {
  /// The folder that holds every test file's failure pictures and the page: the artifacts
  /// folder itself when it is named `golden-failures` (pictures kept in one folder), else the
  /// folder above it (`.build/golden-failures/<TestFile>/`).
  var failuresRoot: String {
    GoldenFile.baseName(of: artifactsFolder) == "golden-failures"
      ? artifactsFolder : GoldenFile.folder(of: artifactsFolder)
  }

  /// The page's path.
  public var failureReportPath: String { failuresRoot + "/index.html" }

  /// Writes this golden's section of the page (with its pictures) and makes the page again.
  func reportFailure(
    message: String, expected: [Bitmap], actual: [Bitmap], diffs: [ImageDiff], times: [Double]
  ) {
    let base = artifactBase
    let prefix =
      failuresRoot == artifactsFolder ? "" : GoldenFile.baseName(of: artifactsFolder) + "/"
    do {
      try GoldenFile.makeFolders(for: artifactsFolder + "/" + base)
      removeFiles(in: artifactsFolder + "/" + base + ".frames")
      let item = try ComparisonReport.item(
        title: path, message: message, expected: expected, actual: actual, diffs: diffs,
        times: times,
        pictures: .files(
          folder: artifactsFolder + "/" + base + ".frames", prefix: "",
          urlPrefix: HTML.urlPath(prefix + base + ".frames/")))
      try AtomicFile.write(
        Array(ComparisonPage.section(item).utf8),
        to: artifactsFolder + "/" + base + ".section.html")
    } catch {
      return  // the message already names the pictures; the page is a convenience
    }
    GoldenFile.writeFailureReport(root: failuresRoot)
  }

  /// Removes this golden's failure pictures and section (it matches again) and makes the page
  /// again.
  func removeFailurePictures() {
    let base = artifactsFolder + "/" + artifactBase
    var removed = false
    for suffix in [".expected.png", ".actual.png", ".diff.png", ".strip.png", ".section.html"] {
      if unlink(base + suffix) == 0 { removed = true }
    }
    if removeFiles(in: base + ".frames") { removed = true }
    rmdir(base + ".frames")
    if removed { GoldenFile.writeFailureReport(root: failuresRoot) }
  }

  /// Removes the files in `folder`; whether there were any.
  @discardableResult
  private func removeFiles(in folder: String) -> Bool {
    let names = AtomicFile.names(in: folder)
    for name in names { unlink(folder + "/" + name) }
    return !names.isEmpty
  }

  /// Joins every section under `root` into `root/index.html`, or removes the page when there
  /// are none.
  static func writeFailureReport(root: String) {
    var sections: [String] = []
    let folders =
      [root]
      + AtomicFile.names(in: root).map { root + "/" + $0 }
      .filter { AtomicFile.isFolder($0) && !$0.hasSuffix(".frames") }
    for folder in folders {
      for name in AtomicFile.names(in: folder, suffix: ".section.html") {
        if let bytes = try? AtomicFile.read(folder + "/" + name) {
          sections.append(String(decoding: bytes, as: UTF8.self))
        }
      }
    }
    guard !sections.isEmpty else {
      unlink(root + "/index.html")
      return
    }
    let page = ComparisonPage.page(
      title: "Golden failures",
      summary: "\(sections.count) failing golden\(sections.count == 1 ? "" : "s") "
        + "(a golden that matches again leaves this page)",
      sections: sections)
    try? AtomicFile.write(Array(page.utf8), to: root + "/index.html")
  }
}
