import Parallelism

/// The batch's progress bar on standard error: animations done of all, and frames rendered,
/// redrawn from any rendering thread (at most once per 8 frames and at each animation's end).
public final class BatchProgress: Sendable {
  private struct State {
    var animationsDone = 0
    var frames = 0
    var lastDrawnFrames = -8
    var drawn = false
  }

  private let state = Locked(State())
  private let total: Int
  private let write: @Sendable (String) -> Void

  /// A bar over `total` animations that draws through `write` (raw text, `\r`-led lines).
  public init(total: Int, write: @escaping @Sendable (String) -> Void) {
    (self.total, self.write) = (total, write)
  }

  /// One more frame rendered.
  public func frame() {
    state.withLock { s in
      s.frames += 1
      if s.frames - s.lastDrawnFrames >= 8 { draw(&s) }
    }
  }

  /// One more animation done (rendered, skipped or failed).
  public func animationDone() {
    state.withLock { s in
      s.animationsDone += 1
      draw(&s)
    }
  }

  /// Clears the line.
  public func finish() {
    state.withLock { s in
      if s.drawn { write("\r\u{1B}[K") }
      s.drawn = false
    }
  }

  private func draw(_ s: inout State) {
    s.lastDrawnFrames = s.frames
    s.drawn = true
    write(BatchProgress.line(done: s.animationsDone, total: total, frames: s.frames))
  }

  /// The bar's text: `\rbatch [=====     ] 12/100 animations, 3400 frames`.
  public static func line(done: Int, total: Int, frames: Int) -> String {
    let width = 30
    let filled = total > 0 ? done * width / total : width
    let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
    return "\rbatch [\(bar)] \(done)/\(total) animations, \(frames) frames"
  }
}
