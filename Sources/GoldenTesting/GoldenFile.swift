import ImageComparison
import Flipbook

#if canImport(Glibc)
  import Glibc
#endif

/// One golden image (or GIF) on disk and the comparison of a new rendering against it: the
/// framework-free core of the assertions, usable from any test runner.
public struct GoldenFile: Sendable {
  /// Where the golden lives.
  public var path: String
  /// Where failure pictures go: `<artifacts>/<name>.expected.png`, `.actual.png`, `.diff.png`
  /// (heatmap) and `.strip.png` (the three side by side).
  public var artifactsFolder: String
  /// The `swift test --filter` pattern that runs the test alone, for the re-record hint in a
  /// failure message (`MyTests.PulseTests/pulseGrows`); the assertions set it. `nil` leaves the
  /// pattern for the reader to fill in.
  public var rerunFilter: String? = nil

  /// What a comparison came to.
  public enum Outcome: Sendable, Equatable {
    /// The rendering matches the golden.
    case matched
    /// The golden was written (missing, or re-recorded by the mode); the test must fail so a
    /// person looks at it.
    case recorded(reason: String)
    /// The rendering does not match; the message says how, where the pictures are, and what
    /// to run next.
    case failed(message: String)

    /// Whether the test should fail.
    public var isFailure: Bool { self != .matched }

    /// The message for a failing outcome.
    public var message: String? {
      switch self {
      case .matched: return nil
      case .recorded(let reason): return reason
      case .failed(let message): return message
      }
    }
  }

  /// A golden at `path`, with failure pictures in `artifactsFolder`.
  public init(path: String, artifactsFolder: String) {
    self.path = path
    self.artifactsFolder = artifactsFolder
  }

  /// The golden for test `test` in test file `testFile` (a `#filePath`), named `name`:
  /// `<folder of testFile>/__Snapshots__/<TestFile>/<test>.<name>.<ext>`, with failure
  /// pictures in the package's `.build/golden-failures/<TestFile>/`.
  ///
  /// When `FLIPBOOK_SNAPSHOTS` names a folder, goldens live there instead:
  /// `<FLIPBOOK_SNAPSHOTS>/<TestFile>/<test>.<name>.<ext>` (for goldens kept outside the
  /// sources, or recorded into a temporary folder as Flipbook's own example does).
  public init(testFile: String, test: String, name: String, extension ext: String = "png") {
    let folder = GoldenFile.folder(of: testFile)
    let fileName = GoldenFile.baseName(of: testFile)
    let base = "\(GoldenFile.sanitized(test)).\(GoldenFile.sanitized(name))"
    let snapshots = Environment.value(of: GoldenFile.snapshotsVariable)
      .flatMap { $0.isEmpty ? nil : $0 }
    path = "\(snapshots ?? folder + "/__Snapshots__")/\(fileName)/\(base).\(ext)"
    let root = GoldenFile.packageRoot(containing: folder) ?? folder
    artifactsFolder = "\(root)/.build/golden-failures/\(fileName)"
  }

  /// The environment variable naming a folder that holds the goldens instead of the
  /// `__Snapshots__` folders beside the tests.
  public static let snapshotsVariable = "FLIPBOOK_SNAPSHOTS"

  /// The name failure pictures take: the golden's file name without its extension.
  var artifactBase: String {
    let file = String(path.split(separator: "/").last ?? "golden")
    return file.split(separator: ".").dropLast().joined(separator: ".")
  }

  // MARK: - Comparing

  /// Compares `actual` with the golden PNG, recording as `mode` says.
  public func verify(
    _ actual: Bitmap, tolerance: Tolerance = .antialiasing, mode: RecordMode = .current
  ) -> Outcome {
    let bytes: [UInt8]
    do {
      bytes = try PNG.encode(actual)
    } catch {
      return .failed(message: "cannot encode the rendering as PNG: \(error)")
    }
    let exists = access(path, F_OK) == 0
    if mode == .all || (!exists && mode != .never) {
      return record(
        bytes, reason: exists ? "re-recorded (FLIPBOOK_RECORD=all)" : "recorded a new golden")
    }
    guard exists else {
      return .failed(
        message:
          "no golden at \(path) (FLIPBOOK_RECORD=never). Record it: run the test once without FLIPBOOK_RECORD=never, look at the picture, commit it."
      )
    }
    let expected: Bitmap
    do {
      expected = try Bitmap(contentsOfPNGFile: path)
    } catch {
      return .failed(message: "cannot read the golden \(path): \(error)")
    }
    let diff: ImageDiff
    do {
      diff = try ImageDiff(expected: expected, actual: actual, tolerance: tolerance)
    } catch {
      return mismatch(
        "\(error.description)", expected: expected, actual: actual, diff: nil, bytes: bytes,
        mode: mode)
    }
    if diff.passes {
      removeFailurePictures()
      return .matched
    }
    let outcome = mismatch(
      diff.summary + " (tolerance: \(tolerance))", expected: expected, actual: actual, diff: diff,
      bytes: bytes, mode: mode)
    reportFailure(
      message: outcome.message ?? "", expected: [expected], actual: [actual], diffs: [diff],
      times: [0])
    return outcome
  }

  /// Compares the GIF `bytes` with the golden GIF frame by frame (frame count, delays and loop
  /// count too), recording as `mode` says.
  public func verifyGIF(
    _ bytes: [UInt8], tolerance: Tolerance = .antialiasing, mode: RecordMode = .current
  ) -> Outcome {
    verifyAnimation(
      bytes, format: "GIF", mode: mode, decode: { try GIF.decode($0) },
      compare: { AnimationDiff(expected: $0, actual: $1, tolerance: tolerance) },
      frames: \.frames, durations: { $0.delays.map { Double($0) / 100 } })
  }

  /// Compares the animated WebP `bytes` with the golden WebP frame by frame (frame count,
  /// durations and loop count too), recording as `mode` says.
  public func verifyWebP(
    _ bytes: [UInt8], tolerance: Tolerance = .antialiasing, mode: RecordMode = .current
  ) -> Outcome {
    verifyAnimation(
      bytes, format: "WebP", mode: mode, decode: { try WebP.decode($0) },
      compare: { AnimationDiff(expected: $0, actual: $1, tolerance: tolerance) },
      frames: \.frames, durations: { $0.durations.map { Double($0) / 1000 } })
  }

  /// Compares an animation's `bytes` with the golden of the same format, recording as `mode`
  /// says; a failure's pictures show the frame that differs most, named by its index and time.
  ///
  /// - Parameters:
  ///   - format: the format's name in messages (`"GIF"`).
  ///   - durations: how long each frame shows, in seconds.
  private func verifyAnimation<Animation>(
    _ bytes: [UInt8], format: String, mode: RecordMode,
    decode: ([UInt8]) throws -> Animation, compare: (Animation, Animation) -> AnimationDiff,
    frames: (Animation) -> [Bitmap], durations: (Animation) -> [Double]
  ) -> Outcome {
    let exists = access(path, F_OK) == 0
    if mode == .all || (!exists && mode != .never) {
      return record(
        bytes, reason: exists ? "re-recorded (FLIPBOOK_RECORD=all)" : "recorded a new golden")
    }
    guard exists else {
      return .failed(
        message: "no golden at \(path) (FLIPBOOK_RECORD=never). Record it: run the test once "
          + "without FLIPBOOK_RECORD=never, look at the \(format), commit it.")
    }
    let expected: Animation, actual: Animation
    do {
      expected = try decode(try AtomicFile.read(path))
      actual = try decode(bytes)
    } catch {
      return .failed(message: "cannot read \(path) or the new \(format): \(error)")
    }
    let diff = compare(expected, actual)
    if diff.passes {
      removeFailurePictures()
      return .matched
    }
    let k = diff.failingFrames.max {
      diff.frames[$0].differingPixels < diff.frames[$1].differingPixels
    }
    let expectedFrames = frames(expected), actualFrames = frames(actual)
    var what = diff.summary
    if let k {
      let time = durations(expected).prefix(k).reduce(0, +)
      what +=
        "\nthe pictures show \(format) frame \(k) of \(expectedFrames.count)"
        + " (at \(shortestTime(time)) s),"
        + " the one that differs most: \(diff.frames[k].differingPixels) pixels"
    }
    let outcome = mismatch(
      what, expected: k.map { expectedFrames[$0] }, actual: k.map { actualFrames[$0] },
      diff: k.map { diff.frames[$0] }, bytes: bytes, mode: mode)
    var starts: [Double] = []
    var time = 0.0
    for duration in durations(expected) {
      starts.append(time)
      time += duration
    }
    reportFailure(
      message: outcome.message ?? "", expected: expectedFrames, actual: actualFrames,
      diffs: diff.frames, times: starts)
    return outcome
  }

  /// A time in seconds as messages show it: `0.5`, `2`.
  private func shortestTime(_ time: Double) -> String {
    time == time.rounded() && abs(time) < 1e15 ? String(Int(time)) : "\(time)"
  }

  // MARK: - Writing

  private func record(_ bytes: [UInt8], reason: String) -> Outcome {
    do {
      try GoldenFile.makeFolders(for: path)
      try AtomicFile.write(bytes, to: path)
    } catch {
      return .failed(message: "cannot write the golden \(path): \(error)")
    }
    return .recorded(reason: "\(reason) at \(path): look at it, commit it, and run the test again.")
  }

  private func mismatch(
    _ what: String, expected: Bitmap?, actual: Bitmap?, diff: ImageDiff?, bytes: [UInt8],
    mode: RecordMode
  ) -> Outcome {
    var lines = ["\(path) does not match: \(what)"]
    if let expected, let actual {
      let base = "\(artifactsFolder)/\(artifactBase)"
      do {
        try GoldenFile.makeFolders(for: base)
        try AtomicFile.write(try PNG.encode(expected), to: base + ".expected.png")
        try AtomicFile.write(try PNG.encode(actual), to: base + ".actual.png")
        let strip = ImageDiff.stripSize(width: expected.width, height: expected.height)
        if let diff,
          strip.width > Canvas.maximumSide || strip.height > Canvas.maximumSide
            || strip.width * strip.height > Canvas.maximumPixelCount
        {
          // Three frames side by side past the frame limits would be a picture Flipbook (and
          // many viewers) cannot open, made in as much memory: the three files alone.
          try AtomicFile.write(try PNG.encode(diff.heatmap(over: expected)), to: base + ".diff.png")
          lines.append(
            "pictures: \(base).expected.png, .actual.png and .diff.png (differences in red; no "
              + "strip: side by side they would be \(strip.width) x \(strip.height) pixels, over "
              + "the frame limits)")
        } else if let diff {
          try AtomicFile.write(try PNG.encode(diff.heatmap(over: expected)), to: base + ".diff.png")
          try AtomicFile.write(
            try PNG.encode(diff.strip(expected: expected, actual: actual)), to: base + ".strip.png")
          lines.append(
            "pictures: \(base).strip.png (expected | actual | differences in red), and .expected.png, .actual.png, .diff.png beside it"
          )
        } else {
          lines.append("pictures: \(base).expected.png and \(base).actual.png")
        }
      } catch {
        lines.append("(could not write the failure pictures to \(artifactsFolder): \(error))")
      }
    }
    if mode == .failed {
      do {
        try AtomicFile.write(bytes, to: path)
        lines.append(
          "re-recorded (FLIPBOOK_RECORD=failed): look at the new golden, commit it if it is right, and run the test again."
        )
      } catch {
        lines.append("could not re-record: \(error)")
      }
    } else {
      let filter = rerunFilter.map { "'\($0)'" } ?? "<this test>"
      lines.append(
        "If the change is intended, re-record: FLIPBOOK_RECORD=failed swift test --filter \(filter),"
          + " look at the new golden, commit it.")
    }
    return .failed(message: lines.joined(separator: "\n"))
  }

  // MARK: - Paths

  static func folder(of file: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return "." }
    return String(file[..<slash])
  }

  static func baseName(of file: String) -> String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return name.hasSuffix(".swift") ? String(name.dropLast(6)) : name
  }

  /// A test or golden name made safe for a file name: `testPulse()` is `testPulse`, anything but
  /// letters, digits, `-`, `_`, `@` and `.` becomes `_`.
  static func sanitized(_ name: String) -> String {
    var s = name
    if let paren = s.firstIndex(of: "(") { s = String(s[..<paren]) }
    let mapped = s.unicodeScalars.map { c -> Character in
      (c.properties.isAlphabetic || ("0"..."9").contains(c) || "-_@.".unicodeScalars.contains(c))
        && c.isASCII ? Character(c) : "_"
    }
    return String(mapped)
  }

  /// The nearest folder at or above `folder` holding a Package.swift.
  static func packageRoot(containing folder: String) -> String? {
    var current = folder
    while !current.isEmpty {
      if access(current + "/Package.swift", F_OK) == 0 { return current }
      guard let slash = current.lastIndex(of: "/") else { return nil }
      current = String(current[..<slash])
    }
    return nil
  }

  static func makeFolders(for file: String) throws {
    var prefix = ""
    let parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    for (i, part) in parts.enumerated() {
      prefix += (i == 0 ? "" : "/") + part
      if prefix.isEmpty { continue }
      try AtomicFile.makeFolder(prefix)
    }
  }
}
