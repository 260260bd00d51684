import Geometry
import ImageEncoding

/// An animation read one composited frame at a time, as `AnimationDiff(streaming:actual:tolerance:)`
/// compares it: a GIF, an animated WebP or an APNG through its format's `FrameReader`, with
/// each frame's delay and the loop count in words (so different formats' units can be named).
public struct FrameStream {
  /// The canvas size in pixels.
  public let width: Int, height: Int
  /// How many frames the file states it has, known before any is decoded.
  public let statedFrameCount: Int
  /// The next frame, its delay in words and in seconds, or `nil` after the last.
  public let next: () throws -> (image: Bitmap, delay: String, seconds: Double)?
  /// The loop count in words, once every frame has been read.
  public let loop: () -> String

  /// A stream of the frames `next` gives, on a `width` x `height` canvas, `statedFrameCount`
  /// of them as the file says.
  public init(
    width: Int, height: Int, statedFrameCount: Int,
    next: @escaping () throws -> (image: Bitmap, delay: String, seconds: Double)?,
    loop: @escaping () -> String
  ) {
    (self.width, self.height, self.statedFrameCount) = (width, height, statedFrameCount)
    (self.next, self.loop) = (next, loop)
  }

  /// A GIF's frames, delays in hundredths of a second (as `AnimationDiff` says them).
  public static func gif(_ reader: GIF.FrameReader) -> FrameStream {
    FrameStream(
      width: reader.width, height: reader.height, statedFrameCount: reader.layout.delays.count,
      next: { try reader.next().map { ($0.image, "\($0.delay) cs", Double($0.delay) / 100) } },
      loop: { LoopWords.gif(reader.loopExtension) })
  }

  /// An animated WebP's frames, durations in milliseconds.
  public static func webP(_ reader: WebP.FrameReader) -> FrameStream {
    FrameStream(
      width: reader.width, height: reader.height, statedFrameCount: reader.frameCount,
      next: {
        try reader.next().map { ($0.image, "\($0.duration) ms", Double($0.duration) / 1000) }
      },
      loop: { LoopWords.plays(reader.loopCount) })
  }

  /// An APNG's frames, delays as reduced fractions (so 2/60 equals 1/30).
  public static func apng(_ reader: APNG.FrameReader) -> FrameStream {
    FrameStream(
      width: reader.width, height: reader.height, statedFrameCount: reader.declaredFrames,
      next: {
        try reader.next().map {
          let d = $0.delay
          return (
            $0.image,
            APNG.Delay.closest(numerator: d.numerator, denominator: max(1, d.denominator))
              .description,
            Double(d.numerator) / Double(max(1, d.denominator))
          )
        }
      },
      loop: { LoopWords.plays(reader.loopCount) })
  }
}

/// A loop count in words, in one unit whatever the format: how many times the animation plays
/// in all, 0 forever (as `render --loop` counts). A GIF's NETSCAPE repeat count is one less than
/// its plays, so it is named beside them.
enum LoopWords {
  /// An APNG's or an animated WebP's loop count, which counts plays in all.
  static func plays(_ count: Int) -> String {
    count == 0 ? "forever (0)" : count == 1 ? "1 play" : "\(count) plays"
  }

  /// A GIF's loop extension (its repeat count), or `nil` without one.
  static func gif(_ loopExtension: Int?) -> String {
    guard let repeats = loopExtension else { return "1 play (no loop extension)" }
    let words = plays(GIF.plays(loopExtension: repeats))
    return repeats == 0 ? words : "\(words) (NETSCAPE repeat count \(repeats))"
  }
}
