import CGIF
import Geometry

extension GIF {
  /// The encoder's coding half: writes chosen frames through giflib (`Writer`: each frame's
  /// color table, control block and LZW-coded indices), in order, and hands back the bytes
  /// made. It owns the writer, so it can run on a thread of its own (a `SerialStage`) while the
  /// choosing half works on later frames and the encoder's caller only passes frames and bytes
  /// along.
  final class FrameCoder {
    /// What the coder is asked to do, in order.
    enum Input: Sendable {
      /// A chosen frame to write.
      case frame(FrameChooser.Chosen)
      /// No more frames: write the trailer.
      case finish
    }

    private let writer: Writer
    /// The bytes giflib made and `take()` has not handed back yet.
    private let made: Made
    /// The first failure; once set, nothing more is written.
    private var failure: EncodingError? = nil

    /// Bytes collected from the writer.
    private final class Made {
      var bytes: [UInt8] = []
    }

    /// Starts the stream: header, screen descriptor, global color table and loop extension
    /// (see `take()`).
    init(width: Int, height: Int, palette: Palette, loopCount: Int) throws(EncodingError) {
      let made = Made()
      self.made = made
      writer = try Writer(
        width: width, height: height, palette: palette, loopCount: loopCount
      ) { made.bytes += $0 }
    }

    /// The bytes made since the last call.
    func take() -> [UInt8] {
      defer { made.bytes = [] }
      return made.bytes
    }

    /// Handles one input; returns the bytes it made, or the failure that stops the stream.
    func handle(_ input: Input) -> Result<[UInt8], EncodingError> {
      if let failure { return .failure(failure) }
      do throws(EncodingError) {
        switch input {
        case .frame(let chosen): try write(chosen)
        case .finish: try writer.finish()
        }
        return .success(take())
      } catch {
        failure = error
        return .failure(error)
      }
    }

    /// Writes a frame's indices: with its own palette as a local color table, or with a local
    /// table of just the colors it uses when that is markedly smaller than its palette (LZW codes
    /// start at the table's bit width), or with the global table.
    private func write(_ chosen: FrameChooser.Chosen) throws(EncodingError) {
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
    }
  }
}
