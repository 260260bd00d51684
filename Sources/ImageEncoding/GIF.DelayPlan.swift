import Geometry

extension GIF {
  /// GIF delays for frames at evenly spaced times: whole centiseconds whose running total
  /// follows the exact frame times (30 fps gives 3, 3, 4, 3, 3, 4, ...).
  public enum DelayPlan {
    /// The delays, in centiseconds, of `frameCount` frames shown at `fps` frames per second: the
    /// delay of frame i is `floor(100 (i + 1) / fps) - floor(100 i / fps)`, so the total is
    /// exactly `floor(100 * frameCount / fps)`.
    public static func centiseconds(frameCount: Int, fps: Double) -> [Int] {
      precondition(fps > 0 && fps.isFinite, "Frame rate must be positive")
      // Saturated so that no frame rate traps: a delay over 65535 cs is refused by the writer.
      func mark(_ i: Int) -> Int {
        Int(Swift.min(1e15, (Double(i) * 100 / fps + 1e-9).rounded(.down)))
      }
      return (0..<frameCount).map { mark($0 + 1) - mark($0) }
    }

    /// A warning when the frame rate needs delays under 2 cs, which browsers play at 10 cs; `nil`
    /// when every delay is at least 2 cs.
    public static func warning(fps: Double) -> String? {
      guard 100 / fps < 2 - 1e-9 else { return nil }
      let frames = Int(Swift.min(fps, 1e6).rounded(.up)) + 1
      let shortest = centiseconds(frameCount: frames, fps: fps).min() ?? 0
      return
        "\(shortestNumber(fps)) fps needs GIF delays of \(shortest) cs; browsers play delays under 2 cs at 10 cs (use 50 fps or less)"
    }
  }
}
