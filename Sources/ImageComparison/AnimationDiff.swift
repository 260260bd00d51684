import Geometry
import ImageEncoding

/// The comparison of two GIFs (or two animated WebPs, or two APNGs) as a viewer shows them: screen size, frame count, delays and loop
/// count must be equal, and each composited frame must match within the tolerance.
public struct AnimationDiff: Sendable {
  /// What differs besides pixels, each in words naming both values (empty when nothing does).
  public let mismatches: [String]
  /// Frame by frame comparisons (empty when sizes or frame counts differ). A comparison of
  /// `FrameStream`s keeps only each frame's counts (its `classes` are empty): the pixels are
  /// those of `shownFrame`.
  public private(set) var frames: [ImageDiff]
  /// The frame a picture of the comparison shows, kept whole: the first that differs, else
  /// frame 0 (`nil` when sizes or frame counts differ).
  public private(set) var shownFrame: ShownFrame?

  /// One frame of both animations and their comparison, kept whole for a picture.
  public struct ShownFrame: Sendable {
    /// The frame's index.
    public var index: Int
    /// The expected and the actual frame.
    public var expected: Bitmap, actual: Bitmap
    /// Their comparison, pixels classified.
    public var diff: ImageDiff
  }

  /// An animation as the comparison sees it: canvas size, composited frames, each frame's
  /// delay and the loop count in words (so different formats' units can be named).
  struct Shown {
    var width: Int, height: Int
    var frames: [Bitmap]
    var delays: [String]
    var loop: String
  }

  /// Compares `actual` with `expected`.
  public init(expected: GIF.Animation, actual: GIF.Animation, tolerance: Tolerance = .antialiasing)
  {
    func shown(_ a: GIF.Animation) -> Shown {
      Shown(
        width: a.width, height: a.height, frames: a.frames, delays: a.delays.map { "\($0) cs" },
        loop: LoopWords.gif(a.loopExtension))
    }
    self.init(shown(expected), shown(actual), tolerance: tolerance)
  }

  /// Compares two animated WebPs as `WebP.decode` composites them: sizes, frame counts,
  /// durations (ms), loop counts and every frame within the tolerance.
  public init(
    expected: WebP.Animation, actual: WebP.Animation, tolerance: Tolerance = .antialiasing
  ) {
    func shown(_ a: WebP.Animation) -> Shown {
      Shown(
        width: a.width, height: a.height, frames: a.frames, delays: a.durations.map { "\($0) ms" },
        loop: LoopWords.plays(a.loopCount))
    }
    self.init(shown(expected), shown(actual), tolerance: tolerance)
  }

  /// Compares two APNGs as `APNG.decode` composites them: sizes, frame counts, delays (as
  /// reduced fractions, so 2/60 equals 1/30), loop counts and every frame within the tolerance.
  public init(
    expected: APNG.Animation, actual: APNG.Animation, tolerance: Tolerance = .antialiasing
  ) {
    func shown(_ a: APNG.Animation) -> Shown {
      Shown(
        width: a.width, height: a.height, frames: a.frames,
        delays: a.delays.map {
          APNG.Delay.closest(numerator: $0.numerator, denominator: max(1, $0.denominator))
            .description
        },
        loop: LoopWords.plays(a.loopCount))
    }
    self.init(shown(expected), shown(actual), tolerance: tolerance)
  }

  init(
    _ expected: Shown, _ actual: Shown, tolerance: Tolerance, frameCounts: (Int, Int)? = nil
  ) {
    let counts = frameCounts ?? (expected.frames.count, actual.frames.count)
    var mismatches: [String] = []
    if expected.width != actual.width || expected.height != actual.height {
      mismatches.append(
        "sizes differ: expected \(expected.width) x \(expected.height), actual \(actual.width) x \(actual.height)"
      )
    }
    if counts.0 != counts.1 {
      mismatches.append("frame counts differ: expected \(counts.0), actual \(counts.1)")
    }
    if let k = zip(expected.delays, actual.delays).offsets(where: { $0.0 != $0.1 }).first {
      let differing = zip(expected.delays, actual.delays).filter { $0 != $1 }.count
      mismatches.append(
        "delays differ from frame \(k): expected \(expected.delays[k]), actual \(actual.delays[k])"
          + " (\(Self.framesDiffer(differing)))")
    }
    if expected.loop != actual.loop {
      mismatches.append("loop counts differ: expected \(expected.loop), actual \(actual.loop)")
    }
    self.mismatches = mismatches
    if expected.width == actual.width && expected.height == actual.height
      && expected.frames.count == actual.frames.count
    {
      frames = zip(expected.frames, actual.frames).map {
        try! ImageDiff(expected: $0, actual: $1, tolerance: tolerance)
      }
    } else {
      frames = []
    }
    let k = frames.firstIndex { !$0.passes } ?? (frames.isEmpty ? nil : 0)
    shownFrame = k.map {
      ShownFrame(
        index: $0, expected: expected.frames[$0], actual: actual.frames[$0], diff: frames[$0])
    }
  }

  /// Compares two animations read one frame at a time (`flipbook diff`): each pair of frames is
  /// decoded, compared and dropped, so two frames and the first that differs are held, not every
  /// frame of both (999 frames of 1000 x 1000 held at once took 7.9 GB). Sizes, frame counts,
  /// delays and loop counts are compared as the other initializers do; frames of two sizes are
  /// read through only to be counted.
  ///
  /// - Parameter keepsPixels: whether every frame's comparison keeps its `classes` (for a
  ///   report that shows every frame; the caller bounds their size), not only `shownFrame`'s.
  /// - Throws: the first error either stream throws while reading a frame.
  public init(
    streaming expected: FrameStream, actual: FrameStream, tolerance: Tolerance,
    keepsPixels: Bool = false
  ) throws {
    let sameSize = expected.width == actual.width && expected.height == actual.height
    var delays: ([String], [String]) = ([], [])
    var diffs: [ImageDiff] = []
    var shown: ShownFrame? = nil
    var ended = (false, false)
    while !(ended.0 && ended.1) {
      let e = ended.0 ? nil : try expected.next()
      let c = ended.1 ? nil : try actual.next()
      if let e { delays.0.append(e.delay) } else { ended.0 = true }
      if let c { delays.1.append(c.delay) } else { ended.1 = true }
      guard sameSize, let e, let c else { continue }
      var diff = try ImageDiff(expected: e.image, actual: c.image, tolerance: tolerance)
      if shown == nil || (shown!.diff.passes && !diff.passes) {
        shown = ShownFrame(index: diffs.count, expected: e.image, actual: c.image, diff: diff)
      }
      if !keepsPixels { diff.classes = [] }
      diffs.append(diff)
    }
    let counts = (delays.0.count, delays.1.count)
    self.init(
      Shown(
        width: expected.width, height: expected.height, frames: [], delays: delays.0,
        loop: expected.loop()),
      Shown(
        width: actual.width, height: actual.height, frames: [], delays: delays.1,
        loop: actual.loop()),
      tolerance: tolerance, frameCounts: counts)
    if sameSize && counts.0 == counts.1 {
      (frames, shownFrame) = (diffs, shown)
    }
  }

  /// Whether everything matches: no mismatch, and every frame within the tolerance.
  public var passes: Bool { mismatches.isEmpty && frames.allSatisfy(\.passes) }

  /// The indices of frames outside the tolerance.
  public var failingFrames: [Int] { frames.indices.filter { !frames[$0].passes } }

  /// A short account: the mismatches, then the failing frames with their summaries.
  public var summary: String {
    var lines = mismatches
    for k in failingFrames.prefix(5) { lines.append("frame \(k): \(frames[k].summary)") }
    if failingFrames.count > 5 {
      lines.append("... and \(Self.framesDiffer(failingFrames.count - 5, more: true))")
    }
    if lines.isEmpty {
      let worst = frames.map(\.differingPixels).max() ?? 0
      let noun = frames.count == 1 ? "frame matches" : "frames match"
      lines.append("\(frames.count) \(noun) (at most \(worst) differing pixels in a frame)")
    }
    return lines.joined(separator: "\n")
  }
}

extension AnimationDiff {
  /// "1 frame differs", "3 frames differ" (or "1 more frame differs" with `more`).
  fileprivate static func framesDiffer(_ count: Int, more: Bool = false) -> String {
    "\(count)\(more ? " more" : "") \(count == 1 ? "frame differs" : "frames differ")"
  }
}

extension Sequence {
  fileprivate func offsets(where predicate: (Element) -> Bool) -> [Int] {
    enumerated().filter { predicate($0.element) }.map(\.offset)
  }
}
