import CGIF
import Geometry

extension GIF {
  /// The second pass of GIF encoding: maps each frame to the palette and writes it as it comes,
  /// storing only what changed.
  ///
  /// Each frame is compared with what the screen shows before it: only the rectangle that
  /// changed is stored, and inside it pixels that did not change use the transparent index (when
  /// the palette has one), which compresses to almost nothing. A frame identical to the one
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
    /// The palette every frame is mapped to.
    public let palette: Palette
    /// The options in force.
    public let options: Options
    /// How many frames were added.
    public private(set) var addedFrameCount = 0
    /// How many frames the GIF holds (identical neighbours merged); final after `finish()`.
    public private(set) var storedFrameCount = 0

    private let writer: Writer
    private let mapper: ColorMapper
    private let transparent: UInt8?
    private var mapped: [UInt8] = []
    private var previousSource: Bitmap? = nil
    private var previousIndices: [UInt8] = []
    private var pending: Pending? = nil
    private var finished = false
    private var estimator = LZWEstimator()
    /// The thread frames are coded on when pipelined.
    private let coder: SerialWorker<EncodingError>?
    private var storedCount = 0

    /// A frame waiting for its disposal to be decided.
    private struct Pending {
      var indices: [UInt8]
      var before: [UInt8]
      var rect: (x: Int, y: Int, width: Int, height: Int)
      var delay: Int
    }

    /// Starts a GIF of `width` x `height` pixels; `output` receives the bytes as they are made.
    ///
    /// - Parameter pipelined: code frames (LZW) on a second thread while the next frame is being
    ///   mapped and compared; `output` is then called from that thread. The bytes are the same.
    public init(
      width: Int, height: Int, palette: Palette, options: Options = Options(), pipelined: Bool = false,
      output: @escaping ([UInt8]) throws -> Void
    ) throws(EncodingError) {
      precondition(width > 0 && height > 0 && width <= 65535 && height <= 65535, "A GIF is 1...65535 pixels a side")
      self.width = width
      self.height = height
      self.palette = palette
      self.options = options
      transparent = palette.transparentIndex
      mapper = ColorMapper(palette: palette)
      writer = try Writer(width: width, height: height, palette: palette, loopCount: options.loopCount, output: output)
      coder = pipelined ? SerialWorker<EncodingError>() : nil
      coder?.start()
    }

    /// Adds a frame shown for `delay` centiseconds.
    public func add(_ frame: Bitmap, delay: Int) throws(EncodingError) {
      let number = addedFrameCount
      guard frame.width == width, frame.height == height else {
        throw .frameSizeMismatch(frame: number, expected: Size(Double(width), Double(height)), actual: Size(Double(frame.width), Double(frame.height)))
      }
      guard (0...65535).contains(delay) else { throw .delayOutOfRange(frame: number, centiseconds: delay) }
      addedFrameCount += 1
      let previous = previousSource.map { ($0, previousIndices) }
      mapper.map(frame, previous: options.dither == .none ? nil : previous, dither: options.dither, into: &mapped)
      previousSource = frame
      previousIndices = mapped

      guard var held = pending else {
        let blank = [UInt8](repeating: transparent ?? 0, count: width * height)
        pending = Pending(indices: mapped, before: blank, rect: (0, 0, width, height), delay: delay)
        return
      }
      if held.indices == mapped && held.delay + delay <= 65535 {
        held.delay += delay
        pending = held
        return
      }
      // Pixels that turn transparent must be cleared by the held frame's disposal.
      var screen = held.indices
      var clear: (minX: Int, minY: Int, maxX: Int, maxY: Int)? = nil
      if let t = transparent {
        for y in 0..<height {
          for x in 0..<width {
            let p = y * width + x
            if mapped[p] == t && held.indices[p] != t {
              clear = clear.map { (Swift.min($0.minX, x), Swift.min($0.minY, y), Swift.max($0.maxX, x), Swift.max($0.maxY, y)) } ?? (x, y, x, y)
            }
          }
        }
      }
      if let c = clear, let t = transparent {
        let r = held.rect
        let minX = Swift.min(r.x, c.minX), minY = Swift.min(r.y, c.minY)
        let maxX = Swift.max(r.x + r.width - 1, c.maxX), maxY = Swift.max(r.y + r.height - 1, c.maxY)
        held.rect = (minX, minY, maxX - minX + 1, maxY - minY + 1)
        try write(held, disposal: DISPOSE_BACKGROUND)
        for y in minY...maxY {
          for x in minX...maxX { screen[y * width + x] = t }
        }
      } else {
        try write(held, disposal: DISPOSE_DO_NOT)
      }
      pending = Pending(indices: mapped, before: screen, rect: changedRect(from: screen, to: mapped), delay: delay)
    }

    /// Writes the last frame and the trailer.
    public func finish() throws(EncodingError) {
      guard !finished else { return }
      guard let held = pending else { throw .noFrames }
      try write(held, disposal: DISPOSE_DO_NOT)
      if let coder {
        try coder.drain()
      }
      try writer.finish()
      storedFrameCount = storedCount
      finished = true
    }

    /// Every `every`-th row of a `width`-wide block, concatenated.
    static func sampleRows(_ pixels: [UInt8], width: Int, every: Int) -> [UInt8] {
      let rows = pixels.count / width
      guard rows > every else { return pixels }
      var out: [UInt8] = []
      out.reserveCapacity((rows / every + 1) * width)
      var y = 0
      while y < rows {
        out.append(contentsOf: pixels[(y * width)..<((y + 1) * width)])
        y += every
      }
      return out
    }

    /// The bounding box of the pixels that differ (a 1 x 1 box at the origin when none do).
    private func changedRect(from before: [UInt8], to after: [UInt8]) -> (x: Int, y: Int, width: Int, height: Int) {
      var minX = width, minY = height, maxX = -1, maxY = -1
      before.withUnsafeBufferPointer { b in
        after.withUnsafeBufferPointer { a in
          for y in 0..<height {
            let row = y * width
            var first = -1, last = -1
            for x in 0..<width where a[row + x] != b[row + x] {
              first = x
              break
            }
            guard first >= 0 else { continue }
            var x = width - 1
            while x >= first {
              if a[row + x] != b[row + x] {
                last = x
                break
              }
              x -= 1
            }
            minX = Swift.min(minX, first)
            maxX = Swift.max(maxX, last)
            minY = Swift.min(minY, y)
            maxY = y
          }
        }
      }
      guard maxX >= 0 else { return (0, 0, 1, 1) }
      return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// Chooses how to store a frame (on this thread) and writes it: now, or queued on the coding
    /// thread when pipelined (giflib's LZW coding is the other half of the work).
    private func write(_ frame: Pending, disposal: Int32) throws(EncodingError) {
      let pixels = choosePixels(frame)
      if let coder {
        try coder.submit { [self] () throws(EncodingError) in try emit(pixels, rect: frame.rect, delay: frame.delay, disposal: disposal) }
      } else {
        try emit(pixels, rect: frame.rect, delay: frame.delay, disposal: disposal)
      }
    }

    /// The indices to store for `frame`'s rectangle.
    private func choosePixels(_ frame: Pending) -> [UInt8] {
      let r = frame.rect
      // Two ways to store the rectangle: unchanged pixels as the transparent index (long runs
      // where little changed), or every pixel's own index (no holes punched into runs of the
      // same color). The one LZW codes smaller is written.
      var plain = [UInt8](repeating: 0, count: r.width * r.height)
      var keep = transparent == nil ? [] : plain
      frame.indices.withUnsafeBufferPointer { now in
        frame.before.withUnsafeBufferPointer { before in
          for y in 0..<r.height {
            let src = (r.y + y) * width + r.x
            let dst = y * r.width
            for x in 0..<r.width { plain[dst + x] = now[src + x] }
            if let t = transparent {
              for x in 0..<r.width {
                let v = now[src + x]
                keep[dst + x] = v == before[src + x] ? t : v
              }
            }
          }
        }
      }
      var pixels = plain
      if !keep.isEmpty && keep != plain {
        // Only the comparison matters: score every third row of each (a third of the work).
        let bits = Swift.max(2, palette.tableSize.trailingZeroBitCount)
        let keepSample = Encoder.sampleRows(keep, width: r.width, every: 3)
        let plainSample = Encoder.sampleRows(plain, width: r.width, every: 3)
        if estimator.size(of: keepSample, minimumCodeSize: bits) <= estimator.size(of: plainSample, minimumCodeSize: bits) { pixels = keep }
      } else if !keep.isEmpty {
        pixels = keep
      }
      return pixels
    }

    /// Writes a frame's indices, with a local color table when that is worth it.
    private func emit(_ chosen: [UInt8], rect r: (x: Int, y: Int, width: Int, height: Int), delay: Int, disposal: Int32) throws(EncodingError) {
      var pixels = chosen
      // A local color table of just the colors the frame uses, when it has markedly fewer
      // entries than the global one: LZW codes start at the table's bit width, so a frame of a
      // few colors codes in fewer bits. Still exactly the same colors.
      var used = [Bool](repeating: false, count: 256)
      for v in pixels { used[Int(v)] = true }
      let usedCount = used.reduce(0) { $0 + ($1 ? 1 : 0) }
      var localSize = 2
      while localSize < usedCount { localSize *= 2 }
      if localSize * 4 <= palette.tableSize && r.width * r.height >= 64 {
        var local = [UInt8](repeating: 0, count: 256)
        var colors: [RGBA8] = []
        var localTransparent: UInt8? = nil
        for index in 0..<256 where used[index] {
          local[index] = UInt8(colors.count)
          if let t = transparent, index == Int(t) {
            localTransparent = UInt8(colors.count)
            colors.append(RGBA8(0, 0, 0, 255))
          } else {
            colors.append(palette.colors[index])
          }
        }
        for k in pixels.indices { pixels[k] = local[Int(pixels[k])] }
        try writer.writeFrame(
          rect: r, pixels: pixels, delay: delay, disposal: disposal, transparentIndex: localTransparent, localColors: colors,
          localTableSize: localSize)
      } else {
        try writer.writeFrame(rect: r, pixels: pixels, delay: delay, disposal: disposal, transparentIndex: transparent)
      }
      storedCount += 1
    }
  }
}
