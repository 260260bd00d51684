/// The instants a render shows: frame i at `from + i / fps` (computed, never accumulated) while
/// that time is before `to`.
public struct FrameSequence: Hashable, Sendable {
  /// The time of the first frame, in seconds.
  public let from: Double
  /// The end of the range (excluded), in seconds.
  public let to: Double
  /// Frames per second.
  public let fps: Double
  /// How many frames there are.
  public let count: Int

  /// Creates the sequence of frames of `from ..< to` at `fps`.
  public init(from: Double = 0, to: Double, fps: Double) {
    precondition(
      fps > 0 && fps.isFinite && from.isFinite && to.isFinite,
      "A frame sequence needs finite times and a positive frame rate")
    self.from = from
    self.to = to
    self.fps = fps
    // Saturated at 2^50 frames (far past any limit) so that no range traps or loops for ever;
    // below that, the count is exact: the frames whose times are before `to`.
    let estimate = ((to - from) * fps).rounded(.up)
    var n = estimate <= 0 ? 0 : estimate < 0x1p50 ? Int(estimate) : 1 << 50
    if n < 1 << 50 {
      while n > 0 && from + Double(n - 1) / fps >= to { n -= 1 }
      while from + Double(n) / fps < to { n += 1 }
    }
    count = n
  }

  /// The time of frame `index`.
  public func time(at index: Int) -> Double { from + Double(index) / fps }

  /// The first `count` frames (at most all of them), at the same times.
  public func prefix(_ count: Int) -> FrameSequence {
    count >= self.count
      ? self : FrameSequence(from: from, to: time(at: Swift.max(0, count)), fps: fps)
  }

  /// Frame `index` as a sink sees it: its index, time and duration (`1 / fps`).
  public func info(at index: Int) -> FrameInfo {
    FrameInfo(index: index, time: time(at: index), duration: 1 / fps)
  }
}
