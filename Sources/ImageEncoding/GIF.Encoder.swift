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

    private let writer: Writer
    /// Maps, compares and chooses frames: on a thread of its own when pipelined.
    private let chooser: SerialStage<FrameChooser, FrameChooser.Input, [FrameChooser.Chosen]>
    private var finished = false
    private var storedCount = 0
    private var localCount = 0

    /// Starts a GIF of `width` x `height` pixels; `output` receives the bytes as they are made.
    ///
    /// - Parameter pipelined: map, compare and choose frames on a second thread while this one
    ///   LZW-codes the frames already chosen; `output` is always called on the thread that calls
    ///   `add` and `finish`. The bytes are the same.
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
      writer = try Writer(
        width: width, height: height, palette: palette, loopCount: options.loopCount, output: output
      )
      chooser = SerialStage(
        state: FrameChooser(width: width, height: height, palette: palette, options: options),
        capacity: 1, threaded: pipelined
      ) { chooser, input in chooser.handle(input) }
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
      for chosen in chooser.takeReady().joined() { try emit(chosen) }
    }

    /// Writes the last frame and the trailer.
    public func finish() throws(EncodingError) {
      guard !finished else { return }
      guard addedFrameCount > 0 else { throw .noFrames }
      finished = true
      chooser.submit(.finish)
      for chosen in chooser.finish().joined() { try emit(chosen) }
      try writer.finish()
      storedFrameCount = storedCount
      localPaletteFrameCount = localCount
    }

    /// Writes a frame's indices: with its own palette as a local color table, or with a local
    /// table of just the colors it uses when that is markedly smaller than its palette (LZW codes
    /// start at the table's bit width), or with the global table.
    private func emit(_ chosen: FrameChooser.Chosen) throws(EncodingError) {
      var pixels = chosen.pixels
      let r = chosen.rect, framePalette = chosen.palette, isLocal = chosen.isLocal
      let delay = chosen.delay, disposal = chosen.disposal
      let transparent = framePalette.transparentIndex
      var used = [Bool](repeating: false, count: 256)
      for v in pixels { used[Int(v)] = true }
      let usedCount = used.reduce(0) { $0 + ($1 ? 1 : 0) }
      var subsetSize = 2
      while subsetSize < usedCount { subsetSize *= 2 }
      if (subsetSize * 4 <= framePalette.tableSize
        || (isLocal && subsetSize < framePalette.tableSize)) && r.width * r.height >= 64
      {
        var local = [UInt8](repeating: 0, count: 256)
        var colors: [RGBA8] = []
        var localTransparent: UInt8? = nil
        for index in 0..<256 where used[index] {
          local[index] = UInt8(colors.count)
          if let t = transparent, index == Int(t) {
            localTransparent = UInt8(colors.count)
            colors.append(RGBA8(0, 0, 0, 255))
          } else {
            colors.append(framePalette.colors[index])
          }
        }
        for k in pixels.indices { pixels[k] = local[Int(pixels[k])] }
        try writer.writeFrame(
          rect: r, pixels: pixels, delay: delay, disposal: disposal,
          transparentIndex: localTransparent, localColors: colors,
          localTableSize: subsetSize)
      } else if isLocal {
        var colors = framePalette.colors
        if transparent != nil { colors.append(RGBA8(0, 0, 0, 255)) }
        try writer.writeFrame(
          rect: r, pixels: pixels, delay: delay, disposal: disposal, transparentIndex: transparent,
          localColors: colors,
          localTableSize: framePalette.tableSize)
      } else {
        try writer.writeFrame(
          rect: r, pixels: pixels, delay: delay, disposal: disposal, transparentIndex: transparent)
      }
      storedCount += 1
      if isLocal { localCount += 1 }
    }
  }
}
