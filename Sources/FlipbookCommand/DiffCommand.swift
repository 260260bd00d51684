import ArgumentParser
import ImageComparison
import Pages
import Flipbook
import Glibc

/// `flipbook diff EXPECTED ACTUAL [--threshold T] [--max-diff-pixels N | --max-diff-ratio R]
/// [-o DIFF.png]`: two PNGs, or two GIFs frame by frame, compared as docs/command-line.md says.
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract:
      "Compare two PNGs, or two GIFs frame by frame; exit 0 when they match, 1 when they differ.",
    discussion: """
      A pixel differs when its perceptual color difference exceeds --threshold (0...1, default \
      0.1, pixelmatch's scale) and it is not anti-aliasing (an edge moved by a fraction of a \
      pixel). The images match when at most --max-diff-pixels pixels differ (default 0), or at \
      most the fraction --max-diff-ratio of them; for GIFs, in every frame, and the sizes, frame \
      counts, delays and loop counts must be equal. -o writes a heatmap the size of the inputs \
      (differing pixels red, forgiven anti-aliasing yellow; with --strip, expected, actual and \
      heatmap side by side); for GIFs, of the first frame that differs.
      """)

  @Argument(help: "The expected image (.png or .gif).")
  var expected: String

  @Argument(help: "The actual image, of the same kind.")
  var actual: String

  @Option(
    name: .long, parsing: .unconditional,
    help: "The largest perceptual difference a pixel may have, 0...1 (default 0.1).",
    transform: decimal)
  var threshold: Double = 0.1

  @Option(name: .long, parsing: .unconditional, help: "How many pixels may differ (default 0).")
  var maxDiffPixels: Int?

  @Option(
    name: .long, parsing: .unconditional, help: "The share of pixels that may differ, 0...1.",
    transform: decimal)
  var maxDiffRatio: Double?

  @Option(
    name: [.customShort("o"), .long],
    help: "Write the difference picture to this PNG, or the comparison page to this .html.")
  var output: String?

  @Flag(name: .long, help: "With -o: expected, actual and heatmap side by side.")
  var strip = false

  func validate() throws {
    guard (0...1).contains(threshold) else { throw ValidationError("--threshold must be in 0...1") }
    if let maxDiffPixels, maxDiffPixels < 0 {
      throw ValidationError("--max-diff-pixels must not be negative")
    }
    if let maxDiffRatio, !(0...1).contains(maxDiffRatio) {
      throw ValidationError("--max-diff-ratio must be in 0...1")
    }
    if maxDiffPixels != nil && maxDiffRatio != nil {
      throw ValidationError("give --max-diff-pixels or --max-diff-ratio, not both")
    }
    if let output, !output.lowercased().hasSuffix(".png"), !isReport {
      throw ValidationError("-o must name a .png or .html file, got '\(output)'")
    }
    if strip && isReport { throw ValidationError("--strip applies to a .png picture only") }
    if strip && output == nil { throw ValidationError("--strip needs -o") }
  }

  var tolerance: Tolerance {
    Tolerance(
      threshold: threshold, ignoresAntialiasing: true, maxDifferingPixels: maxDiffPixels ?? 0,
      maxDifferingRatio: maxDiffRatio)
  }

  /// The device and inode of the file at `path`, or `nil` when there is none.
  static func identity(of path: String) -> [UInt64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  /// Whether `-o` names a report page (`.html`) rather than a picture.
  var isReport: Bool { output?.lowercased().hasSuffix(".html") ?? false }

  func run() throws {
    // The picture or page must not replace what it compares.
    if let output, let written = Self.identity(of: output),
      [expected, actual].contains(where: { Self.identity(of: $0) == written })
    {
      throw ValidationError("-o \(output) names one of the compared files")
    }
    let a = try failing(expected) { try AtomicFile.read(expected) }
    let b = try failing(actual) { try AtomicFile.read(actual) }
    if let animated = try compareAnimations(a, b) {
      guard animated else { throw CommandFailure(message: "\(expected) and \(actual) differ") }
      return
    }
    let (aIsGIF, bIsGIF) = (Self.isGIF(a), Self.isGIF(b))
    guard aIsGIF == bIsGIF else {
      throw CommandFailure(
        message:
          "\(expected) is \(aIsGIF ? "a GIF" : "not a GIF") but \(actual) is \(bIsGIF ? "a GIF" : "not a GIF"): compare two PNGs or two GIFs"
      )
    }
    let passes: Bool
    if aIsGIF {
      let e = try failing(expected) { try GIF.decode(a) },
        c = try failing(actual) { try GIF.decode(b) }
      let diff = AnimationDiff(expected: e, actual: c, tolerance: tolerance)
      print(diff.summary)
      if isReport {
        try writeReport(
          diff, expected: e.frames, actual: c.frames, durations: e.delays.map { Double($0) / 100 })
      } else if let output, let k = diff.failingFrames.first ?? (diff.frames.isEmpty ? nil : 0) {
        try write(diff.frames[k], expected: e.frames[k], actual: c.frames[k], to: output)
      }
      passes = diff.passes
    } else {
      // Sizes the headers state are compared first: two large images that cannot match are
      // not decoded (a pair of 64-megapixel PNGs would take about 780 MB).
      if let sa = PNG.statedSize(of: a), let sb = PNG.statedSize(of: b), sa != sb {
        let mismatch = ImageDiff.SizeMismatch(expected: sa, actual: sb)
        throw CommandFailure(message: "\(expected) and \(actual) differ: \(mismatch.description)")
      }
      let e = try failing(expected) { try Bitmap(pngData: a) },
        c = try failing(actual) { try Bitmap(pngData: b) }
      let diff: ImageDiff
      do {
        diff = try ImageDiff(expected: e, actual: c, tolerance: tolerance)
      } catch {
        throw CommandFailure(message: "\(expected) and \(actual) differ: \(error.description)")
      }
      print(diff.summary)
      if isReport {
        try writeReport(
          summary: diff.summary, expected: [e], actual: [c], diffs: [diff], times: [0])
      } else if let output {
        try write(diff, expected: e, actual: c, to: output)
      }
      passes = diff.passes
    }
    guard passes else { throw CommandFailure(message: "\(expected) and \(actual) differ") }
  }

  private func write(
    _ diff: ImageDiff, expected e: Bitmap, actual c: Bitmap, to path: String
  ) throws {
    let picture = strip ? diff.strip(expected: e, actual: c) : diff.heatmap(over: e)
    try failing(path, output: path) { try AtomicFile.write(PNG.encode(picture), to: path) }
  }

  /// The report page for an animation: every frame stepped, opening on the one that differs
  /// most; `durations` in seconds (`nil`: frame times unknown, shown as 0).
  private func writeReport(
    _ diff: AnimationDiff, expected: [Bitmap], actual: [Bitmap], durations: [Double]?
  ) throws {
    var times: [Double] = []
    var t = 0.0
    for d in durations ?? Array(repeating: 0, count: expected.count) {
      times.append(t)
      t += d
    }
    try writeReport(
      summary: diff.summary, expected: expected, actual: actual, diffs: diff.frames, times: times)
  }

  /// `flipbook diff -o report.html`: the comparison page `GoldenTesting` also writes, with its
  /// pictures inside the file.
  private func writeReport(
    summary: String, expected e: [Bitmap], actual c: [Bitmap], diffs: [ImageDiff],
    times: [Double]
  ) throws {
    guard let output else { return }
    try failing(output, output: output) {
      let item = try ComparisonReport.item(
        title: "\(expected) vs \(actual)", message: summary, expected: e, actual: c, diffs: diffs,
        times: times, pictures: .embedded)
      let page = ComparisonPage.html(
        title: "flipbook diff", summary: "\(expected) (expected) and \(actual) (actual)",
        items: [item])
      try AtomicFile.write(Array(page.utf8), to: output)
    }
  }

  static func isGIF(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("GIF8".utf8)) }

  /// "WebP" or "APNG" when `bytes` are an animated WebP (any WebP) or an APNG, else `nil`.
  static func animatedFormat(_ bytes: [UInt8]) -> String? {
    WebP.isWebP(bytes) ? "WebP" : APNG.isAPNG(bytes) ? "APNG" : nil
  }

  /// Throws the error of decoding `bytes` as `format` ("WebP" or "APNG"), unless they are a
  /// whole PNG or GIF (then nothing: the files are simply of two formats).
  private func decodes(_ bytes: [UInt8], as format: String, path: String) throws {
    if Self.isGIF(bytes) ? (try? GIF.decode(bytes)) != nil : (try? Bitmap(pngData: bytes)) != nil {
      return
    }
    if format == "WebP" {
      _ = try failing(path) { try WebP.decode(bytes) }
    } else {
      _ = try failing(path) { try APNG.decode(bytes) }
    }
  }

  /// Compares two WebPs or two APNGs frame by frame (as GIFs are compared) and prints the
  /// summary; whether they match, or `nil` when neither file is a WebP or an APNG.
  private func compareAnimations(_ a: [UInt8], _ b: [UInt8]) throws -> Bool? {
    let (fa, fb) = (Self.animatedFormat(a), Self.animatedFormat(b))
    guard fa != nil || fb != nil else { return nil }
    guard fa == fb else {
      // A file cut short before it says what it is (an APNG before its acTL chunk) and that is
      // no whole PNG or GIF either is a broken file of the other's format: say what is wrong.
      if fa == nil, let format = fb { try decodes(a, as: format, path: expected) }
      if fb == nil, let format = fa { try decodes(b, as: format, path: actual) }
      throw CommandFailure(
        message:
          "\(expected) is \(fa.map { "an \($0)" } ?? "not a WebP or APNG") but \(actual) is \(fb.map { "an \($0)" } ?? "not a WebP or APNG"): compare two files of one format"
      )
    }
    let diff: AnimationDiff, (ef, cf): ([Bitmap], [Bitmap])
    if fa == "WebP" {
      let e = try failing(expected) { try WebP.decode(a) },
        c = try failing(actual) { try WebP.decode(b) }
      (diff, ef, cf) = (
        AnimationDiff(expected: e, actual: c, tolerance: tolerance), e.frames, c.frames
      )
    } else {
      let e = try failing(expected) { try APNG.decode(a) },
        c = try failing(actual) { try APNG.decode(b) }
      (diff, ef, cf) = (
        AnimationDiff(expected: e, actual: c, tolerance: tolerance), e.frames, c.frames
      )
    }
    print(diff.summary)
    if isReport {
      try writeReport(diff, expected: ef, actual: cf, durations: nil)
    } else if let output, let k = diff.failingFrames.first ?? (diff.frames.isEmpty ? nil : 0) {
      try write(diff.frames[k], expected: ef[k], actual: cf[k], to: output)
    }
    return diff.passes
  }
}
