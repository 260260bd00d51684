import Geometry

/// Two sinks fed by one render: every frame goes to `primary`, and its first frames (up to
/// `secondary.frameLimit`) also to `secondary`, so a second output (a batch's frame sheet beside
/// its GIF) costs no second rendering of the frames.
///
/// The primary's first pass, if any, is the tee's; the secondary must not need one. `finish()`
/// completes the secondary first, then the primary, and returns the primary's summary; after an
/// error both are aborted.
///
/// ```swift
/// let tee = TeeSink(GIFSink(.file("a.gif")), ContactSheetSink(.file("a.png"), columns: 8))
/// try Export.render(recipe, into: tee)
/// ```
public final class TeeSink<
  Primary: FrameSink & SendableMetatype, Secondary: FrameSink & SendableMetatype
>: FrameSink
where Secondary.Survey == Void {
  /// The first pass's per-frame result: the primary's.
  public typealias Survey = Primary.Survey
  /// A frame prepared for both sinks (the secondary's part is `nil` past its frame limit).
  public typealias Prepared = Pair

  /// A frame prepared for both sinks.
  public struct Pair: Sendable {
    let primary: Primary.Prepared
    let secondary: Secondary.Prepared?
  }

  /// The sink that owns the render (its first pass, frame limit and summary).
  public let primary: Primary
  /// The sink that takes the same frames on the side.
  public let secondary: Secondary

  /// A tee of `primary` and `secondary`.
  public init(_ primary: Primary, _ secondary: Secondary) {
    (self.primary, self.secondary) = (primary, secondary)
  }

  /// The primary's frame limit.
  public var frameLimit: Int? { primary.frameLimit }
  /// The primary's first pass.
  public var firstPass: String? { primary.firstPass }

  /// Both sinks' encoders' bytes, which are held together.
  public func encoderMemory(_ plan: FramePlan) -> Int {
    primary.encoderMemory(plan) + secondary.encoderMemory(plan)
  }

  /// Begins both; the secondary is told of the frames it will get.
  public func begin(_ plan: FramePlan) throws {
    try primary.begin(plan)
    var side = plan
    if let limit = secondary.frameLimit { side.frameCount = Swift.min(plan.frameCount, limit) }
    try secondary.begin(side)
  }

  /// The primary's first-pass work.
  public func surveyWork() -> @Sendable (Bitmap, FrameInfo) throws -> Survey {
    primary.surveyWork()
  }

  /// The primary's first-pass absorption.
  public func absorb(_ survey: Survey, _ frame: FrameInfo) throws {
    try primary.absorb(survey, frame)
  }

  /// Both sinks' per-frame work, on the rendering threads.
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Pair {
    let first = try primary.frameWork()
    let second = try secondary.frameWork()
    let limit = secondary.frameLimit ?? Int.max
    return { bitmap, info in
      Pair(
        primary: try first(bitmap, info),
        secondary: info.index < limit ? try second(bitmap, info) : nil)
    }
  }

  /// Hands the frame to both, in frame order.
  public func add(_ frame: Pair, _ info: FrameInfo) throws {
    try primary.add(frame.primary, info)
    if let side = frame.secondary { try secondary.add(side, info) }
  }

  /// Completes the secondary, then the primary; returns the primary's summary.
  public func finish() throws -> OutputSummary {
    _ = try secondary.finish()
    return try primary.finish()
  }

  /// Aborts both.
  public func abort() {
    secondary.abort()
    primary.abort()
  }
}
