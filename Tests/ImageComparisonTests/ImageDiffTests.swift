import CairoCanvas
@testable import ImageComparison
import Geometry
import ImageEncoding
import Scenes
import Testing

/// The diff on crafted pairs: what must match, what must not, and what the heatmap shows.
@Suite struct ImageDiffTests {
  /// A 64 x 64 white picture with a dark disc of radius 12 centred at (32 + dx, 32).
  func disc(dx: Double = 0, color: Color = Color(red: 0.1, green: 0.3, blue: 0.7)) throws -> Bitmap
  {
    let canvas = try Canvas(pixelWidth: 64, pixelHeight: 64)
    canvas.clear(to: .white)
    canvas.fill(Path(ellipseIn: Rect(20 + dx, 20, 24, 24)), with: color)
    return canvas.makeBitmap()
  }

  func recolored(
    _ bitmap: Bitmap, _ rect: (x: Int, y: Int, w: Int, h: Int), by levels: Int
  ) -> Bitmap {
    var out = bitmap
    for y in rect.y..<(rect.y + rect.h) {
      for x in rect.x..<(rect.x + rect.w) {
        let p = out[x, y]
        func shift(_ v: UInt8) -> UInt8 { UInt8(max(0, min(255, Int(v) - levels))) }
        out[x, y] = RGBA8(shift(p.r), shift(p.g), shift(p.b), p.a)
      }
    }
    return out
  }

  @Test func identicalImagesMatchExactly() throws {
    let a = try disc()
    let diff = try ImageDiff(expected: a, actual: a, tolerance: .exact)
    #expect(
      diff.passes && diff.differingPixels == 0 && diff.maxChannelDelta == 0
        && diff.maxPerceptualDelta == 0)
  }

  @Test func anEdgeMovedByAFractionOfAPixelIsAntialiasing() throws {
    let a = try disc(), b = try disc(dx: 0.3)
    let forgiving = try ImageDiff(expected: a, actual: b, tolerance: .antialiasing)
    #expect(forgiving.passes, "\(forgiving.summary)")
    #expect(forgiving.antialiasedPixels > 0)
    let exact = try ImageDiff(expected: a, actual: b, tolerance: .exact)
    #expect(!exact.passes)
    #expect(exact.differingPixels > 10)
  }

  @Test func aTenByTenAreaRecoloredBy40LevelsFails() throws {
    let a = try disc()
    let b = recolored(a, (2, 2, 10, 10), by: 40)
    let diff = try ImageDiff(expected: a, actual: b, tolerance: .antialiasing)
    #expect(!diff.passes)
    #expect(diff.differingPixels == 100 && diff.maxChannelDelta == 40)
    // Unless the tolerance allows it: a higher threshold, or 100 pixels.
    #expect(try ImageDiff(expected: a, actual: b, tolerance: Tolerance(threshold: 0.2)).passes)
    #expect(
      try ImageDiff(expected: a, actual: b, tolerance: Tolerance(maxDifferingPixels: 100)).passes)
    #expect(
      try ImageDiff(expected: a, actual: b, tolerance: Tolerance(maxDifferingRatio: 100.0 / 4096))
        .passes)
    #expect(
      try !ImageDiff(expected: a, actual: b, tolerance: Tolerance(maxDifferingPixels: 99)).passes)
  }

  /// Eighteenth hostile pass: `--max-diff-ratio 0.29` failed 29 of 100 differing pixels, as
  /// `0.29 * 100` is 28.999999999999996 in doubles. Exactly the ratio passes; one more fails.
  @Test func exactlyTheRatioOfDifferingPixelsPasses() {
    for (differing, ratio) in [(29, 0.29), (57, 0.57), (25, 0.25), (1, 0.01), (7, 0.07)] {
      let tolerance = Tolerance(maxDifferingRatio: ratio)
      #expect(tolerance.allows(differing: differing, of: 100), "\(differing) at \(ratio)")
      #expect(!tolerance.allows(differing: differing + 1, of: 100), "\(differing + 1) at \(ratio)")
    }
    #expect(Tolerance(maxDifferingRatio: 0.001).allows(differing: 3, of: 3000))
    #expect(!Tolerance(maxDifferingRatio: 0.001).allows(differing: 4, of: 3000))
  }

  @Test func aFewLevelsAreUnderTheDefaultThresholdButNotExact() throws {
    let a = try disc()
    let b = recolored(a, (2, 2, 10, 10), by: 3)
    #expect(try ImageDiff(expected: a, actual: b, tolerance: .antialiasing).passes)
    #expect(try ImageDiff(expected: a, actual: b, tolerance: .exact).differingPixels == 100)
  }

  @Test func aMissingShapeFailsAndTheHeatmapMarksIt() throws {
    let a = try disc()
    let canvas = try Canvas(pixelWidth: 64, pixelHeight: 64)
    canvas.clear(to: .white)
    let b = canvas.makeBitmap()
    let diff = try ImageDiff(expected: a, actual: b)
    #expect(!diff.passes)
    #expect(diff.differingPixels > 350)  // the disc's ~452 pixels, less edge pixels forgiven
    let heatmap = diff.heatmap(over: a)
    #expect(heatmap[32, 32] == RGBA8(255, 0, 0, 255))  // the disc's center: red
    #expect(heatmap[2, 2].r == heatmap[2, 2].g && heatmap[2, 2].r > 240)  // untouched: pale gray
    let strip = diff.strip(expected: a, actual: b)
    #expect(strip.width == 3 * 64 + 2 * 4 && strip.height == 64)
    #expect(
      strip[32, 32] == a[32, 32] && strip[68 + 32, 32] == b[32, 32]
        && strip[136 + 32, 32] == RGBA8(255, 0, 0, 255))
  }

  @Test func differentSizesAreAClearError() throws {
    let a = try disc()
    let small = Bitmap(width: 32, height: 64)
    #expect(throws: ImageDiff.SizeMismatch.self) { try ImageDiff(expected: a, actual: small) }
    do {
      _ = try ImageDiff(expected: a, actual: small)
    } catch {
      #expect(error.description == "sizes differ: expected 64 x 64, actual 32 x 64")
    }
  }

  /// Twenty-ninth pass: pixels were blended with white (pixelmatch 5), so an opaque white shape
  /// matched a transparent picture, even at `--threshold 0`, and a white icon that vanished
  /// passed its golden check. Where either pixel is not opaque both are composited over a
  /// background that changes from pixel to pixel (pixelmatch 7): a change of alpha shows.
  @Test func transparencyIsComparedOverAChangingBackground() throws {
    let clear = Bitmap(width: 4, height: 4)
    var white = Bitmap(width: 4, height: 4), veiled = Bitmap(width: 4, height: 4)
    for y in 0..<4 {
      for x in 0..<4 {
        white[x, y] = RGBA8(255, 255, 255, 255)
        veiled[x, y] = RGBA8(255, 255, 255, 128)
      }
    }
    let whiteOverClear = try ImageDiff(expected: clear, actual: white)
    #expect(whiteOverClear.differingPixels == 16 && whiteOverClear.maxChannelDelta == 255)
    #expect(try ImageDiff(expected: clear, actual: veiled).differingPixels == 16)
    #expect(try ImageDiff(expected: veiled, actual: veiled).passes)
    // pixelmatch 7's background: 48 or 207 a channel, by its own pattern of byte offsets.
    #expect(ImageDiff.background(at: 0) == (48, 48, 48))
    #expect(ImageDiff.background(at: 4) == (48, 48, 207))
    #expect(ImageDiff.background(at: 12) == (48, 207, 48))
  }

  /// Twentieth hostile pass: `--threshold 0` compared byte for byte, so two transparent pixels
  /// of other hidden colors "differed" with a largest perceptual difference of 0. A pixel
  /// differs when its perceptual difference exceeds the threshold, at 0 too (any visible
  /// change); `.exact` alone compares bytes.
  @Test func thresholdZeroCountsEveryVisibleChangeAndExactEveryByte() throws {
    var hidden = Bitmap(width: 4, height: 4)
    for y in 0..<4 { for x in 0..<4 { hidden[x, y] = RGBA8(200, 10, 10, 0) } }
    let clear = Bitmap(width: 4, height: 4)
    let zero = Tolerance(threshold: 0, ignoresAntialiasing: false)
    #expect(try ImageDiff(expected: clear, actual: hidden, tolerance: zero).passes)
    // Twenty-second pass: their hidden colours were "a largest channel difference of 255".
    #expect(try ImageDiff(expected: clear, actual: hidden, tolerance: zero).maxChannelDelta == 0)
    #expect(
      try ImageDiff(expected: clear, actual: hidden, tolerance: .exact).maxChannelDelta == 200)
    #expect(try ImageDiff(expected: clear, actual: hidden, tolerance: .exact).differingPixels == 16)
    // One level of one channel is a visible change.
    var black = Bitmap(width: 4, height: 4), nearly = Bitmap(width: 4, height: 4)
    for y in 0..<4 {
      for x in 0..<4 {
        black[x, y] = RGBA8(0, 0, 0, 255)
        nearly[x, y] = RGBA8(0, 0, x == 1 && y == 1 ? 1 : 0, 255)
      }
    }
    #expect(try ImageDiff(expected: black, actual: nearly, tolerance: zero).differingPixels == 1)
    #expect(Tolerance.exact.description.hasPrefix("byte for byte"))
  }
}

@Suite struct AnimationDiffTests {
  func animation(frames: Int, delay: Int = 4, loop: Int? = 0, shade: UInt8 = 0) -> GIF.Animation {
    var frame = Bitmap(width: 8, height: 8)
    for y in 0..<8 { for x in 0..<8 { frame[x, y] = RGBA8(shade, shade, shade, 255) } }
    return GIF.Animation(
      width: 8, height: 8, frames: Array(repeating: frame, count: frames),
      delays: Array(repeating: delay, count: frames),
      disposals: Array(repeating: 1, count: frames), loopExtension: loop)
  }

  @Test func equalAnimationsMatch() {
    let diff = AnimationDiff(expected: animation(frames: 3), actual: animation(frames: 3))
    #expect(diff.passes && diff.mismatches.isEmpty && diff.frames.count == 3)
  }

  @Test func differentFrameCountsFailNamingBoth() {
    let diff = AnimationDiff(expected: animation(frames: 3), actual: animation(frames: 4))
    #expect(!diff.passes)
    #expect(diff.mismatches == ["frame counts differ: expected 3, actual 4"])
  }

  @Test func differentDelaysAndLoopsFailWithTheReason() {
    let diff = AnimationDiff(
      expected: animation(frames: 3), actual: animation(frames: 3, delay: 5, loop: nil))
    #expect(!diff.passes)
    #expect(
      diff.mismatches.contains(
        "delays differ from frame 0: expected 4 cs, actual 5 cs (3 frames differ)"))
    #expect(
      diff.mismatches.contains(
        "loop counts differ: expected forever (0), actual 1 play (no loop extension)"))
  }

  /// Eighteenth hostile pass: a GIF's loop count was said as its NETSCAPE repeat count (plays
  /// minus 1), so `--loop 2` read "1" beside "once", where APNG and WebP say plays in all.
  @Test func loopCountsAreSaidInPlaysInAllInEveryFormat() {
    let once = AnimationDiff(
      expected: animation(frames: 1, loop: nil), actual: animation(frames: 1, loop: 1))
    #expect(
      once.mismatches == [
        "loop counts differ: expected 1 play (no loop extension), actual 2 plays"
          + " (NETSCAPE repeat count 1)"
      ])
    let forever = AnimationDiff(
      expected: animation(frames: 1, loop: 0), actual: animation(frames: 1, loop: 1))
    #expect(
      forever.mismatches == [
        "loop counts differ: expected forever (0), actual 2 plays (NETSCAPE repeat count 1)"
      ])
    func apng(_ loops: Int) -> APNG.Animation {
      let gif = animation(frames: 1)
      return APNG.Animation(
        width: 8, height: 8, frames: gif.frames,
        delays: [APNG.Delay(numerator: 1, denominator: 25)],
        loopCount: loops)
    }
    #expect(
      AnimationDiff(expected: apng(1), actual: apng(2)).mismatches == [
        "loop counts differ: expected 1 play, actual 2 plays"
      ])
    #expect(GIF.plays(loopExtension: nil) == 1 && GIF.plays(loopExtension: 0) == 0)
    #expect(GIF.plays(loopExtension: 65535) == 65536)
  }

  @Test func oneFrameIsSaidInTheSingular() {
    let same = AnimationDiff(expected: animation(frames: 1), actual: animation(frames: 1))
    #expect(same.summary == "1 frame matches (at most 0 differing pixels in a frame)")
    var actual = animation(frames: 6, delay: 5)
    actual.delays[1...] = [4, 4, 4, 4, 4]
    for k in 0..<6 { actual.frames[k] = animation(frames: 1, shade: 200).frames[0] }
    let diff = AnimationDiff(expected: animation(frames: 6), actual: actual)
    #expect(
      diff.mismatches == [
        "delays differ from frame 0: expected 4 cs, actual 5 cs (1 frame differs)"
      ])
    #expect(diff.summary.hasSuffix("... and 1 more frame differs"))
  }

  @Test func aChangedFrameIsNamed() {
    var actual = animation(frames: 3)
    actual.frames[1] = animation(frames: 1, shade: 200).frames[0]
    let diff = AnimationDiff(expected: animation(frames: 3), actual: actual)
    #expect(!diff.passes && diff.failingFrames == [1])
    #expect(diff.summary.hasPrefix("frame 1: 64 of 64 pixels differ"))
  }

  /// A stream of `animation`'s frames, counting how many have been read.
  func stream(_ a: GIF.Animation, reads: Counter) -> FrameStream {
    var k = 0
    return FrameStream(
      width: a.width, height: a.height, statedFrameCount: a.frames.count,
      next: {
        guard k < a.frames.count else { return nil }
        defer { k += 1 }
        reads.count += 1
        return (a.frames[k], "\(a.delays[k]) cs", Double(a.delays[k]) / 100)
      }, loop: { "forever (0)" })
  }

  final class Counter: @unchecked Sendable { var count = 0 }

  /// `flipbook diff` compares frames as they are decoded: the result keeps the counts of every
  /// frame, and the pixels of only the first that differs (999 frames of 1000 x 1000 held at
  /// once took 7.9 GB).
  @Test func aStreamingComparisonKeepsOneFrameWhole() throws {
    var actual = animation(frames: 5)
    actual.frames[2] = animation(frames: 1, shade: 200).frames[0]
    actual.frames[3] = actual.frames[2]
    let reads = (Counter(), Counter())
    let diff = try AnimationDiff(
      streaming: stream(animation(frames: 5), reads: reads.0),
      actual: stream(actual, reads: reads.1), tolerance: .antialiasing)
    #expect(reads.0.count == 5 && reads.1.count == 5)
    #expect(
      diff.failingFrames == [2, 3] && diff.frames.map(\.differingPixels) == [0, 0, 64, 64, 0])
    #expect(diff.frames.allSatisfy { $0.classes.isEmpty })
    let shown = try #require(diff.shownFrame)
    #expect(shown.index == 2 && shown.diff.differingPixels == 64 && shown.diff.classes.count == 64)
    #expect(shown.actual == actual.frames[2])
    // Frame counts that differ are counted to the end, and no frame is said to differ.
    let longer = try AnimationDiff(
      streaming: stream(animation(frames: 5), reads: Counter()),
      actual: stream(animation(frames: 7), reads: Counter()), tolerance: .antialiasing)
    #expect(longer.mismatches == ["frame counts differ: expected 5, actual 7"])
    #expect(longer.frames.isEmpty && longer.shownFrame == nil)
  }
}

/// The bound the blend test prunes with: the YIQ distance of any color difference is at least
/// `minimumYIQWeight` times its squared RGB length (otherwise pruning could change answers).
@Suite struct YIQBoundTests {
  @Test func theWeightIsALowerBoundOfTheYIQDistance() {
    var generator = SeededGenerator(seed: 18)  // the same colours every run
    var worst = Double.infinity
    for _ in 0..<200_000 {
      let (r, g, b) = (
        Double.random(in: -255...255, using: &generator),
        Double.random(in: -255...255, using: &generator),
        Double.random(in: -255...255, using: &generator)
      )
      let length = r * r + g * g + b * b
      guard length > 1e-6 else { continue }
      worst = min(worst, ImageDiff.yiqDistance(y: ImageDiff.luma(r, g, b), r, g, b) / length)
    }
    #expect(worst >= ImageDiff.minimumYIQWeight)
    #expect(worst < ImageDiff.minimumYIQWeight * 1.01)  // and tight: pruning stays effective
  }
}

/// The scan's eight-pixel paths (equal runs, flat runs of one differing pair) classify every
/// pixel as the pixel-by-pixel scan does.
@Suite struct ImageDiffFastPathTests {
  /// A 61 x 37 picture (widths that are no multiple of 8) of flat areas, a disc's anti-aliased
  /// edge and a band of translucent pixels.
  func picture(dx: Double, background: Color, disc: Color) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 61, pixelHeight: 37)
    canvas.clear(to: background)
    canvas.fill(Path(ellipseIn: Rect(10 + dx, 6, 24, 24)), with: disc)
    canvas.fill(
      Path(rect: Rect(40, 0, 9, 37)), with: Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.5))
    return canvas.makeBitmap()
  }

  @Test func eightPixelPathsAgreeWithThePixelByPixelScan() throws {
    let base = try picture(dx: 0, background: .white, disc: .blue)
    var black = Bitmap(width: 61, height: 37)
    for i in stride(from: 3, to: black.pixels.count, by: 4) { black.pixels[i] = 255 }
    let others = [
      try picture(dx: 0.4, background: .white, disc: .blue),
      try picture(dx: 3, background: Color(red: 0.95, green: 0.95, blue: 0.9), disc: .blue),
      try picture(dx: 0, background: .white, disc: Color(red: 0.1, green: 0.3, blue: 0.7)),
      black, Bitmap(width: 61, height: 37),
    ]
    for (n, other) in others.enumerated() {
      for tolerance in [Tolerance.antialiasing, Tolerance.exact, Tolerance(threshold: 0.3)] {
        var results: [(ImageDiff.Scan, [UInt8])] = []
        for vectorized in [true, false] {
          var classes = [UInt8](repeating: 0, count: 61 * 37)
          let scan = base.pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
              classes.withUnsafeMutableBufferPointer { out in
                ImageDiff.scan(
                  a, b, into: out, firstRow: 0, width: 61, height: 37, rows: 0..<37,
                  tolerance: tolerance, vectorized: vectorized)
              }
            }
          }
          results.append((scan, classes))
        }
        #expect(results[0].0 == results[1].0, "pair \(n), \(tolerance)")
        #expect(results[0].1 == results[1].1, "pair \(n), \(tolerance)")
      }
    }
  }
}
