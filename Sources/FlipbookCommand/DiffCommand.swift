import ArgumentParser
import ImageComparison
import Pages
import Flipbook
import Glibc

/// `flipbook diff EXPECTED ACTUAL [--threshold T] [--max-diff-pixels N | --max-diff-ratio R]
/// [-o DIFF.png | -o REPORT.html]`: two PNGs, or two GIFs, APNGs or WebPs frame by frame,
/// compared as docs/command-line.md says.
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract:
      "Compare two PNGs, or two GIFs, APNGs or WebPs frame by frame; exit 0 when they match, 1 "
      + "when they differ.",
    discussion: """
      A pixel differs when its perceptual color difference exceeds --threshold (0...1, default \
      0.1, pixelmatch's scale) and it is not anti-aliasing (an edge moved by a fraction of a \
      pixel). The images match when at most --max-diff-pixels pixels differ (default 0), or at \
      most the fraction --max-diff-ratio of them; for animations (GIF, APNG, WebP), in every \
      frame, and the sizes, frame counts, delays and loop counts must be equal. -o DIFF.png \
      writes a heatmap the size of the inputs (differing pixels red, forgiven anti-aliasing \
      yellow; with --strip, expected, actual and heatmap side by side); for animations, of the \
      first frame that differs. -o REPORT.html writes a page comparing every frame.
      """)

  @Argument(help: "The expected image (.png, .gif, .apng or .webp).")
  var expected: String

  @Argument(help: "The actual image, of the same kind.")
  var actual: String

  @Option(
    name: .long, parsing: .unconditional,
    help: "The largest perceptual difference a pixel may have, 0...1 (default 0.1).",
    transform: decimal)
  var threshold: Double = 0.1

  @Option(
    name: .long, parsing: .unconditional, help: "How many pixels may differ (default 0).",
    transform: wholeNumber("of 0 or more"))
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
    guard (0...1).contains(threshold) else {
      throw ValidationError("--threshold must be in 0...1, found \(shortestNumber(threshold))")
    }
    if let maxDiffPixels, maxDiffPixels < 0 {
      throw ValidationError("--max-diff-pixels must be 0 or more, found \(maxDiffPixels)")
    }
    if let maxDiffRatio, !(0...1).contains(maxDiffRatio) {
      throw ValidationError(
        "--max-diff-ratio must be in 0...1, found \(shortestNumber(maxDiffRatio))")
    }
    if maxDiffPixels != nil && maxDiffRatio != nil {
      throw ValidationError("give --max-diff-pixels or --max-diff-ratio, not both")
    }
    if let output, !output.lowercased().hasSuffix(".png"), !isReport {
      throw ValidationError("-o must name a .png or .html file, got '\(output)'")
    }
    if strip && isReport { throw ValidationError("--strip applies to a .png picture only") }
    if strip && output == nil { throw ValidationError("--strip needs -o") }
    // The picture or page must not replace what it compares.
    if let output, let written = AtomicFile.identity(of: output),
      [expected, actual].contains(where: { AtomicFile.identity(of: $0) == written })
    {
      throw ValidationError("-o \(output) names one of the compared files")
    }
  }

  var tolerance: Tolerance {
    Tolerance(
      threshold: threshold, ignoresAntialiasing: true, maxDifferingPixels: maxDiffPixels ?? 0,
      maxDifferingRatio: maxDiffRatio)
  }

  /// Whether `-o` names a report page (`.html`) rather than a picture.
  var isReport: Bool { output?.lowercased().hasSuffix(".html") ?? false }

  func run() throws {
    let a = try failing(expected) { try AtomicFile.read(expected) }
    let b = try failing(actual) { try AtomicFile.read(actual) }
    if let animated = try compareAnimations(a, b) {
      guard animated else {
        throw CommandFailure(
          message: "\(MessageText.path(expected)) and \(MessageText.path(actual)) differ")
      }
      return
    }
    let (aIsGIF, bIsGIF) = (Self.isGIF(a), Self.isGIF(b))
    guard aIsGIF == bIsGIF else {
      throw CommandFailure(
        message:
          "\(MessageText.path(expected)) is \(Self.described(a, animated: nil)) but \(MessageText.path(actual)) is "
          + "\(Self.described(b, animated: nil)): compare two files of one format")
    }
    let passes: Bool
    if aIsGIF {
      let e = try failing(expected) { try GIF.FrameReader(a) },
        c = try failing(actual) { try GIF.FrameReader(b) }
      passes = try compare(
        .gif(e), .gif(c))
    } else {
      // A file that is no PNG is said to be what it is (a JPEG was "not a readable PNG image").
      for (bytes, path) in [(a, expected), (b, actual)]
      where !bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
        throw CommandFailure(
          message:
            "\(MessageText.path(path)): is \(Self.described(bytes, animated: nil)): diff compares two PNGs, "
            + "or two GIFs, APNGs or WebPs")
      }
      // Sizes the headers state are compared first: two large images that cannot match are
      // not decoded (a pair of 64-megapixel PNGs would take about 780 MB).
      if let sa = PNG.statedSize(of: a), let sb = PNG.statedSize(of: b), sa != sb {
        let mismatch = ImageDiff.SizeMismatch(expected: sa, actual: sb)
        try notCompared(because: mismatch.description)
        throw CommandFailure(
          message:
            "\(MessageText.path(expected)) and \(MessageText.path(actual)) differ: \(mismatch.description)"
        )
      }
      if let sa = PNG.statedSize(of: a) { try checkStrip(width: sa.width, height: sa.height) }
      let e = try failing(expected) { try Bitmap(pngData: a) },
        c = try failing(actual) { try Bitmap(pngData: b) }
      let diff: ImageDiff
      do {
        diff = try ImageDiff(expected: e, actual: c, tolerance: tolerance)
      } catch {
        try notCompared(because: error.description)
        throw CommandFailure(
          message:
            "\(MessageText.path(expected)) and \(MessageText.path(actual)) differ: \(error.description)"
        )
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
    guard passes else {
      throw CommandFailure(
        message: "\(MessageText.path(expected)) and \(MessageText.path(actual)) differ")
    }
  }

  /// Refuses `--strip` when the strip of two `width` x `height` frames would be over the frame
  /// size limits (`Canvas.maximumSide`, `Canvas.maximumPixelCount`), before a frame is decoded:
  /// two 16000 x 4000 PNGs made a 48008 x 4000 strip Flipbook could not read back, in 1.6 GB.
  func checkStrip(width: Int, height: Int) throws {
    guard strip, let output else { return }
    let size = ImageDiff.stripSize(width: width, height: height)
    guard
      size.width > Canvas.maximumSide || size.height > Canvas.maximumSide
        || size.width * size.height > Canvas.maximumPixelCount
    else { return }
    throw CommandFailure(
      message: "\(output): --strip would make a picture of \(size.width) x \(size.height) pixels "
        + "(expected, actual and heatmap side by side), over the limits of a frame "
        + "(\(Canvas.maximumSide) pixels a side, \(Canvas.maximumPixelCount / 1_000_000) "
        + "megapixels): write the heatmap alone, without --strip")
  }

  /// With `-o`, what two PNGs whose pixels were not compared (`cause`: their sizes differ)
  /// leave, as for animations whose frames were not compared: the report page saying `cause`
  /// with no frames, or a line saying the picture was not written (it was left for the user to
  /// find no file).
  private func notCompared(because cause: String) throws {
    if isReport {
      try writeReport(summary: cause, expected: [], actual: [], diffs: [], times: [])
    } else if let output {
      FileHandleStandardError.write(
        "\(output): not written: the images were not compared (\(cause))"
          + Self.removingEarlierPicture(at: output))
    }
  }

  /// Removes the picture an earlier `diff` left at `output`, which this one does not replace,
  /// and says so (`""` when there was none): a CI step that keeps DIFF.png after exit 1, the
  /// ordinary "they differ", kept an unrelated earlier heatmap (hostile pass 42).
  static func removingEarlierPicture(at output: String) -> String {
    var info = stat()
    guard stat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, unlink(output) == 0
    else { return "" }
    return "; the earlier file there is removed"
  }

  private func write(
    _ diff: ImageDiff, expected e: Bitmap, actual c: Bitmap, to path: String
  ) throws {
    let picture = strip ? diff.strip(expected: e, actual: c) : diff.heatmap(over: e)
    try failing(path, output: path) { try AtomicFile.write(PNG.encode(picture), to: path) }
  }

  /// The most pixels of frames a report page (`-o .html`) shows, in all the frames of one file:
  /// 64,000,000. The page holds every frame of both files and their heatmaps, all in memory
  /// while it is made (about 20 bytes a pixel), where a comparison alone holds two frames.
  static let maximumReportPixels = 64_000_000

  /// Compares two animations frame by frame as they are decoded and prints the summary; with
  /// `-o`, writes the picture of the first frame that differs (else frame 0) or the report
  /// page (each frame's time from the expected file's delays); whether they match.
  private func compare(_ e: FrameStream, _ c: FrameStream) throws -> Bool {
    // A report shows every frame: those are kept as they are read, within the page's budget,
    // checked on the counts the files state before any frame is decoded (and as frames come).
    final class Kept {
      var frames: [Bitmap] = []
      var seconds: [Double] = []
    }
    let kept = (Kept(), Kept())
    let isReport = isReport
    try checkStrip(width: e.width, height: e.height)
    func overBudget(_ s: FrameStream, _ path: String, frames: Int) -> CommandFailure {
      CommandFailure(
        message:
          "\(path): \(frames) frames of \(s.width) x \(s.height) pixels are over the \(Self.maximumReportPixels) pixels of frames a report page shows; write a .png picture of the first frame that differs instead"
      )
    }
    if isReport {
      for (s, path) in [(e, expected), (c, actual)]
      where s.statedFrameCount > Self.maximumReportPixels / max(1, s.width * s.height) {
        throw overBudget(s, path, frames: s.statedFrameCount)
      }
    }
    func reading(_ s: FrameStream, _ path: String, _ kept: Kept) -> FrameStream {
      FrameStream(
        width: s.width, height: s.height, statedFrameCount: s.statedFrameCount,
        next: {
          guard let frame = try failing(path, { try s.next() }) else { return nil }
          if isReport {
            guard kept.frames.count < Self.maximumReportPixels / max(1, s.width * s.height) else {
              throw overBudget(s, path, frames: kept.frames.count + 1)
            }
            kept.frames.append(frame.image)
            kept.seconds.append(frame.seconds)
          }
          return frame
        }, loop: s.loop)
    }
    let diff = try AnimationDiff(
      streaming: reading(e, expected, kept.0), actual: reading(c, actual, kept.1),
      tolerance: tolerance, keepsPixels: isReport)
    print(diff.summary)
    if isReport {
      var times: [Double] = []
      var t = 0.0
      for d in kept.0.seconds {
        times.append(t)
        t += d
      }
      let frames = diff.frames.isEmpty ? [] : kept.0.frames
      try writeReport(
        summary: diff.summary, expected: frames, actual: diff.frames.isEmpty ? [] : kept.1.frames,
        diffs: diff.frames, times: Array(times.prefix(frames.count)))
    } else if let output, let shown = diff.shownFrame {
      try write(shown.diff, expected: shown.expected, actual: shown.actual, to: output)
    } else if let output {
      // Frames that were not compared (sizes or frame counts differ) have no picture: said,
      // rather than leaving the user to find no file.
      let cause = diff.mismatches.first ?? "nothing to show"
      FileHandleStandardError.write(
        "\(output): not written: no frames were compared (\(cause))"
          + Self.removingEarlierPicture(at: output))
    }
    return diff.passes
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

  /// Whether `bytes` are a GIF whose every frame decodes (one at a time, none kept).
  static func readsThrough(_ bytes: [UInt8]) -> Bool {
    do {
      let reader = try GIF.FrameReader(bytes)
      while try reader.next() != nil {}
      return true
    } catch {
      return false
    }
  }

  /// "WebP" or "APNG" when `bytes` are an animated WebP (any WebP) or an APNG, else `nil`.
  static func animatedFormat(_ bytes: [UInt8]) -> String? {
    WebP.isWebP(bytes) ? "WebP" : APNG.isAPNG(bytes) ? "APNG" : nil
  }

  /// Throws the error of decoding `bytes` as `format` ("WebP" or "APNG"), unless they are a
  /// whole PNG or GIF (then nothing: the files are simply of two formats).
  private func decodes(_ bytes: [UInt8], as format: String, path: String) throws {
    if Self.isGIF(bytes) ? Self.readsThrough(bytes) : (try? Bitmap(pngData: bytes)) != nil {
      return
    }
    try reads(bytes, as: format, path: path)
  }

  /// Throws the error of decoding `bytes` as `format` ("WebP" or "APNG"), if any.
  private func reads(_ bytes: [UInt8], as format: String, path: String) throws {
    try failing(path) {
      if format == "WebP" {
        let reader = try WebP.FrameReader(bytes)
        while try reader.next() != nil {}
      } else {
        let reader = try APNG.FrameReader(bytes)
        while try reader.next() != nil {}
      }
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
      // A file of an animated format that does not read as one (an APNG whose acTL states a
      // frame no fcTL makes) is said for that, rather than asking for another of its format.
      if let format = fa { try reads(a, as: format, path: expected) }
      if let format = fb { try reads(b, as: format, path: actual) }
      throw CommandFailure(
        message:
          "\(MessageText.path(expected)) is \(Self.described(a, animated: fa)) but \(MessageText.path(actual)) is "
          + "\(Self.described(b, animated: fb)): compare two files of one format"
      )
    }
    if fa == "WebP" {
      let e = try failing(expected) { try WebP.FrameReader(a) },
        c = try failing(actual) { try WebP.FrameReader(b) }
      return try compare(.webP(e), .webP(c))
    }
    let e = try failing(expected) { try APNG.FrameReader(a) },
      c = try failing(actual) { try APNG.FrameReader(b) }
    return try compare(.apng(e), .apng(c))
  }
}

extension DiffCommand {
  /// What a file is, as the message of a mismatch says it: `an APNG`, `a WebP` (`animated`,
  /// when it is one of those), `a GIF`, `a PNG`, another picture as its bytes say
  /// (`a JPEG image`), or `neither a PNG, a GIF, an APNG nor a WebP` (`empty, ...` when the
  /// file is).
  static func described(_ bytes: [UInt8], animated: String?) -> String {
    if let animated { return withArticle(animated) }
    if isGIF(bytes) { return "a GIF" }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "a PNG" }
    if let picture = SceneFormat.describedImage(bytes) { return picture }
    // An empty file is said to be empty, its real fault.
    if bytes.isEmpty { return "empty, neither a PNG, a GIF, an APNG nor a WebP" }
    return "neither a PNG, a GIF, an APNG nor a WebP"
  }

  /// A format's name with its article, as it is said: `a WebP`, `an APNG`, `a GIF`.
  static func withArticle(_ format: String) -> String {
    ("AEIOU".contains(format.first ?? "x") ? "an " : "a ") + format
  }
}
