import CGIF
import Geometry
import Parallelism

extension GIF {
  /// The second pass of GIF encoding: maps each frame to the palette and writes it as it comes,
  /// storing only what changed.
  ///
  /// Each frame is compared, color by color, with what the screen shows before it: only the
  /// rectangle that changed is stored, and inside it pixels that did not change use the
  /// transparent index or keep their own, whichever LZW codes smaller. A frame may bring a
  /// palette of its own (a local color table, see `GIF.LocalPalette`). A frame identical to the one
  /// before it is not stored; its delay is added to that frame's. The previous frame is held
  /// back until the next one arrives, so its disposal can be chosen: "leave in place" normally,
  /// "restore to background" (enlarged to cover them) when pixels turn transparent, so
  /// transparent animations leave no trails.
  ///
  /// ```swift
  /// let encoder = try GIF.Encoder(width: 320, height: 320, palette: palette, options: .init()) { bytes in
  ///   file.write(bytes)
  /// }
  /// for (frame, delay) in zip(frames, GIF.DelayPlan.centiseconds(frameCount: frames.count, fps: 25)) {
  ///   try encoder.add(frame, delay: delay)
  /// }
  /// try encoder.finish()
  /// ```
  public final class Encoder {
    /// The animation's width in pixels.
    public let width: Int
    /// The animation's height in pixels.
    public let height: Int
    /// The animation's (global) palette.
    public let palette: Palette
    /// The options in force.
    public let options: Options
    /// How many frames were added.
    public private(set) var addedFrameCount = 0
    /// How many frames the GIF holds (identical neighbours merged); final after `finish()`.
    public private(set) var storedFrameCount = 0
    /// How many stored frames have a palette of their own; final after `finish()`.
    public private(set) var localPaletteFrameCount = 0

    /// Maps, compares and chooses frames, and hands the chosen ones straight to the coder: on a
    /// thread of its own when pipelined. Its outputs say what was chosen (stored and local).
    private let chooser: SerialStage<FrameChooser, FrameChooser.Input, [Bool]>
    /// LZW-codes the chosen frames through giflib: on another thread of its own when pipelined.
    private let coder: SerialStage<FrameCoder, FrameCoder.Input, Result<[UInt8], EncodingError>>
    private let output: ([UInt8]) throws -> Void
    private var finished = false
    private var storedCount = 0
    private var localCount = 0

    /// Starts a GIF of `width` x `height` pixels; `output` receives the bytes as they are made.
    ///
    /// - Parameter pipelined: map, compare and choose frames on a second thread and LZW-code
    ///   the chosen ones on a third, while the thread that calls `add` only passes frames and
    ///   bytes along; `output` is always called on the thread that calls `add` and `finish`.
    ///   The bytes are the same.
    public init(
      width: Int, height: Int, palette: Palette, options: Options = Options(),
      pipelined: Bool = false,
      output: @escaping ([UInt8]) throws -> Void
    ) throws(EncodingError) {
      precondition(
        width > 0 && height > 0 && width <= 65535 && height <= 65535,
        "A GIF is 1...65535 pixels a side")
      self.width = width
      self.height = height
      self.palette = palette
      self.options = options
      self.output = output
      let frameCoder = try FrameCoder(
        width: width, height: height, palette: palette, loopCount: options.loopCount)
      let header = frameCoder.take()
      // Two inputs queued per stage: each keeps working while the other, or this thread, is
      // busy (a few frames of indices in memory). The chooser passes its frames to the coder
      // itself, so the coder never waits for this thread to come back with them.
      coder = SerialStage(state: frameCoder, capacity: 2, threaded: pipelined) { coder, input in
        coder.handle(input)
      }
      let coderInlet = coder.inlet
      chooser = SerialStage(
        state: FrameChooser(width: width, height: height, palette: palette, options: options),
        capacity: 2, threaded: pipelined
      ) { chooser, input in
        chooser.handle(input).map { chosen in
          coderInlet.submit(.frame(chosen))
          return chosen.isLocal
        }
      }
      try deliver(header)
    }

    /// Adds a frame shown for `delay` centiseconds, mapped to `localPalette` when given (see
    /// `GIF.LocalPalette.choose`), otherwise to the animation's palette.
    public func add(_ frame: Bitmap, delay: Int, localPalette: Palette? = nil) throws(EncodingError)
    {
      try add(frame, delay: delay, localPalette: localPalette, indices: nil)
    }

    /// Adds a frame whose pixels `IndependentMapper` has already mapped to the animation's exact
    /// palette (`indices`, one per pixel), so that the encoder's serial stage skips the mapping.
    /// The bytes are those of `add(_:delay:localPalette:)`.
    package func add(
      _ frame: Bitmap, delay: Int, localPalette: Palette? = nil, indices: [UInt8]?
    ) throws(EncodingError) {
      let number = addedFrameCount
      guard frame.width == width, frame.height == height else {
        throw .frameSizeMismatch(
          frame: number, expected: Size(Double(width), Double(height)),
          actual: Size(Double(frame.width), Double(frame.height)))
      }
      guard (0...65535).contains(delay) else {
        throw .delayOutOfRange(frame: number, centiseconds: delay)
      }
      precondition(!finished, "add after finish")
      addedFrameCount += 1
      if let indices {
        precondition(
          indices.count == width * height && palette.isExact && localPalette == nil,
          "indices are mapped ahead only to an exact global palette")
      }
      chooser.submit(.frame(frame, delay: delay, localPalette: localPalette, indices: indices))
      count(chooser.takeReady())
      for bytes in coder.takeReady() { try deliver(bytes.get()) }
    }

    /// Writes the last frame and the trailer.
    public func finish() throws(EncodingError) {
      guard !finished else { return }
      guard addedFrameCount > 0 else { throw .noFrames }
      finished = true
      chooser.submit(.finish)
      count(chooser.finish())
      coder.submit(.finish)
      for bytes in coder.finish() { try deliver(bytes.get()) }
      storedFrameCount = storedCount
      localPaletteFrameCount = localCount
    }

    /// Counts the frames the chooser passed to the coder (`true`: with a palette of its own).
    private func count(_ batches: [[Bool]]) {
      for isLocal in batches.joined() {
        storedCount += 1
        if isLocal { localCount += 1 }
      }
    }

    /// Passes bytes the coder made to `output`.
    private func deliver(_ bytes: [UInt8]) throws(EncodingError) {
      guard !bytes.isEmpty else { return }
      do { try output(bytes) } catch { throw .output("\(error)") }
    }
  }
}
