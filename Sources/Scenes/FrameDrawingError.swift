import Geometry

/// An error found while drawing one frame of a scene, with the frame's time, and its number in a
/// render: `at 0.6 s (frame 6): the frame would draw more than 100000 layers, ...`. `Export`
/// and `FrameRenderer` wrap what drawing a frame throws (never what reading the scene or
/// writing the output throws), so that `render`, `sheet`, `frame` and `batch` say which frame
/// after the file's name, once, whatever the error.
public struct FrameDrawingError: Error, CustomStringConvertible {
  /// The frame's time, in seconds.
  public var time: Double
  /// The frame's number in a render (`FrameInfo.index`), or `nil` for a frame asked for by its
  /// time (a sheet's, `frame --time`'s).
  public var frame: Int?
  /// What drawing the frame threw.
  public var underlying: any Error

  /// Wraps `underlying`, found drawing the frame at `time` (number `frame` in a render).
  public init(time: Double, frame: Int? = nil, underlying: any Error) {
    (self.time, self.frame, self.underlying) = (time, frame, underlying)
  }

  /// `at 0.6 s (frame 6): ` and what was wrong.
  public var description: String {
    // A time limit's own message names the time again (in full): said once.
    let what =
      if let scene = underlying as? SceneError, case .simulatedTimeTooLong(time, _) = scene {
        scene.descriptionAfterTime
      } else {
        "\(underlying)"
      }
    return "at \(Self.text(time))\(frame.map { " (frame \($0))" } ?? ""): \(what)"
  }

  /// Throws what drawing the first of `times` past `scene.simulatedTimeLimit` would throw, before
  /// any frame is drawn: a render, a sheet or a frame past the limit fails at once, not after
  /// simulating up to it (0.74 s of a sheet; minutes of a long render). `frames` numbers the
  /// times as a render does (`nil`: times asked for one by one).
  static func checkSimulatedTime(
    of scene: Scene, at times: some Sequence<Double>, numbered frames: Bool
  ) throws {
    guard let limit = scene.simulatedTimeLimit else { return }
    for (i, time) in times.enumerated() where time > limit {
      throw FrameDrawingError(
        time: time, frame: frames ? i : nil,
        underlying: SceneError.simulatedTimeTooLong(requested: time, limit: limit))
    }
  }

  /// A time as the message says it: as a sheet captions it (`0.6 s`) when that is the time to
  /// a billionth of a second, else in full (`0.0001 s`).
  static func text(_ time: Double) -> String {
    let rounded = (time * 1000).rounded() / 1000
    return abs(time - rounded) < 1e-9 ? ContactSheet.caption(time) : shortestNumber(time) + " s"
  }

  /// `body`, which draws the frame at `time`, its error wrapped.
  static func drawing<R>(at time: Double, frame: Int? = nil, _ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch {
      throw FrameDrawingError(time: time, frame: frame, underlying: error)
    }
  }
}
