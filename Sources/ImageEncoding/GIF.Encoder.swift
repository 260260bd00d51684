import CGIF
import Geometry

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
    private var mapper: ColorMapper
    private var mapperPalette: Palette
    private var mapped: [UInt8] = []
    private var previousSource: Bitmap? = nil
    private var previousIndices: [UInt8] = []
    private var previousPalette: Palette? = nil
    private var pending: Pending? = nil
    private var finished = false
    private var estimator = LZWEstimator()
    /// The thread frames are coded on when pipelined.
    private let coder: SerialWorker<EncodingError>?
    private var storedCount = 0
    private var localCount = 0
    /// Whether frames are compared by color (after the first local palette) or by index.
    private var comparesColors = false

    /// What a frame shows: indices into the global palette while every frame so far uses it (the
    /// cheap, common case), displayed colors (`0xFFRRGGBB`, 0 for transparent) once a frame has
    /// brought a palette of its own.
    private enum Screen: Equatable {
      case indices([UInt8])
      case colors([UInt32])
    }

    /// A frame waiting for its disposal to be decided.
    private struct Pending {
      /// What the frame shows.
      var shown: Screen
      /// The frame's pixels as indices into `palette`.
      var indices: [UInt8]
      var palette: Palette
      var isLocal: Bool
      /// What the screen shows before the frame is drawn.
      var before: Screen
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
      mapper = ColorMapper(palette: palette)
      mapperPalette = palette
      writer = try Writer(width: width, height: height, palette: palette, loopCount: options.loopCount, output: output)
      coder = pipelined ? SerialWorker<EncodingError>() : nil
      coder?.start()
    }

    /// Adds a frame shown for `delay` centiseconds, mapped to `localPalette` when given (see
    /// `GIF.LocalPalette.choose`), otherwise to the animation's palette.
    public func add(_ frame: Bitmap, delay: Int, localPalette: Palette? = nil) throws(EncodingError) {
      let number = addedFrameCount
      guard frame.width == width, frame.height == height else {
        throw .frameSizeMismatch(frame: number, expected: Size(Double(width), Double(height)), actual: Size(Double(frame.width), Double(frame.height)))
      }
      guard (0...65535).contains(delay) else { throw .delayOutOfRange(frame: number, centiseconds: delay) }
      addedFrameCount += 1
      let framePalette = localPalette ?? palette
      if framePalette != mapperPalette {
        mapper = ColorMapper(palette: framePalette)
        mapperPalette = framePalette
      }
      // Unchanged pixels keep their index only while the palette stays the same.
      let previous = previousPalette == framePalette ? previousSource.map { ($0, previousIndices) } : nil
      mapper.map(frame, previous: options.dither == .none ? nil : previous, dither: options.dither, into: &mapped)
      previousSource = frame
      previousIndices = mapped
      previousPalette = framePalette
      if localPalette != nil && !comparesColors {
        // From now on frames may index different palettes: compare what they display.
        comparesColors = true
        if var held = pending {
          held.shown = .colors(Encoder.displayed(held.shown, in: palette))
          held.before = .colors(Encoder.displayed(held.before, in: palette))
          pending = held
        }
      }
      let shown: Screen = comparesColors ? .colors(Encoder.colors(of: mapped, in: framePalette)) : .indices(mapped)

      guard var held = pending else {
        let blank: Screen = comparesColors
          ? .colors([UInt32](repeating: 0, count: width * height))
          : .indices([UInt8](repeating: palette.transparentIndex ?? 0, count: width * height))
        pending = Pending(
          shown: shown, indices: mapped, palette: framePalette, isLocal: localPalette != nil, before: blank,
          rect: (0, 0, width, height), delay: delay)
        return
      }
      if held.shown == shown && held.delay + delay <= 65535 {
        held.delay += delay
        pending = held
        return
      }
      // Pixels that turn transparent must be cleared by the held frame's disposal.
      var screen = held.shown
      if let c = clearedBox(from: held.shown, to: shown) {
        let r = held.rect
        let minX = Swift.min(r.x, c.minX), minY = Swift.min(r.y, c.minY)
        let maxX = Swift.max(r.x + r.width - 1, c.maxX), maxY = Swift.max(r.y + r.height - 1, c.maxY)
        held.rect = (minX, minY, maxX - minX + 1, maxY - minY + 1)
        try write(held, disposal: DISPOSE_BACKGROUND)
        screen = cleared(screen, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
      } else {
        try write(held, disposal: DISPOSE_DO_NOT)
      }
      pending = Pending(
        shown: shown, indices: mapped, palette: framePalette, isLocal: localPalette != nil, before: screen,
        rect: changedRect(from: screen, to: shown), delay: delay)
    }

    /// The value of a transparent pixel in screen arrays of each kind.
    private var transparentIndexValue: UInt8 { palette.transparentIndex ?? 0 }

    /// The box around pixels visible in `before` and transparent in `after`, if any.
    private func clearedBox(from before: Screen, to after: Screen) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
      switch (before, after) {
      case (.indices(let b), .indices(let a)):
        guard let t = palette.transparentIndex else { return nil }
        return Encoder.box(width, height, b, a) { old, new in new == t && old != t }
      case (.colors(let b), .colors(let a)):
        return Encoder.box(width, height, b, a) { old, new in new == 0 && old != 0 }
      default:
        preconditionFailure("screens of different kinds")
      }
    }

    /// `screen` with the box cleared to transparent.
    private func cleared(_ screen: Screen, minX: Int, minY: Int, maxX: Int, maxY: Int) -> Screen {
      switch screen {
      case .indices(var v):
        for y in minY...maxY { for x in minX...maxX { v[y * width + x] = transparentIndexValue } }
        return .indices(v)
      case .colors(var v):
        for y in minY...maxY { for x in minX...maxX { v[y * width + x] = 0 } }
        return .colors(v)
      }
    }

    /// The box around the pixels `hit` is true for, scanning row by row.
    private static func box<E: FixedWidthInteger>(
      _ width: Int, _ height: Int, _ before: [E], _ after: [E], _ hit: (E, E) -> Bool
    ) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
      var result: (minX: Int, minY: Int, maxX: Int, maxY: Int)? = nil
      before.withUnsafeBufferPointer { b in
        after.withUnsafeBufferPointer { a in
          for y in 0..<height {
            let row = y * width
            for x in 0..<width where hit(b[row + x], a[row + x]) {
              result = result.map { (Swift.min($0.minX, x), Swift.min($0.minY, y), Swift.max($0.maxX, x), Swift.max($0.maxY, y)) } ?? (x, y, x, y)
            }
          }
        }
      }
      return result
    }

    /// A screen as displayed colors.
    private static func displayed(_ screen: Screen, in palette: Palette) -> [UInt32] {
      switch screen {
      case .indices(let v): return colors(of: v, in: palette)
      case .colors(let v): return v
      }
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
      localPaletteFrameCount = localCount
      finished = true
    }

    /// The displayed color of each index (`0xFFRRGGBB`; 0 for the transparent index).
    static func colors(of indices: [UInt8], in palette: Palette) -> [UInt32] {
      var table = [UInt32](repeating: 0, count: 256)
      for (i, c) in palette.colors.enumerated() { table[i] = 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b) }
      return indices.withUnsafeBufferPointer { p in
        [UInt32](unsafeUninitializedCapacity: p.count) { out, count in
          for i in 0..<p.count { out[i] = table[Int(p[i])] }
          count = p.count
        }
      }
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
    private func changedRect(from before: Screen, to after: Screen) -> (x: Int, y: Int, width: Int, height: Int) {
      switch (before, after) {
      case (.indices(let b), .indices(let a)): return Encoder.changedRect(width, height, b, a)
      case (.colors(let b), .colors(let a)): return Encoder.changedRect(width, height, b, a)
      default: preconditionFailure("screens of different kinds")
      }
    }

    private static func changedRect<E: FixedWidthInteger>(_ width: Int, _ height: Int, _ before: [E], _ after: [E]) -> (x: Int, y: Int, width: Int, height: Int) {
      var minX = width, minY = height, maxX = -1, maxY = -1
      before.withUnsafeBufferPointer { b in
        after.withUnsafeBufferPointer { a in
          for y in 0..<height {
            let row = y * width
            var first = -1
            for x in 0..<width where a[row + x] != b[row + x] {
              first = x
              break
            }
            guard first >= 0 else { continue }
            var last = width - 1
            while last > first && a[row + last] == b[row + last] { last -= 1 }
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
        try coder.submit { [self] () throws(EncodingError) in
          try emit(pixels, rect: frame.rect, palette: frame.palette, isLocal: frame.isLocal, delay: frame.delay, disposal: disposal)
        }
      } else {
        try emit(pixels, rect: frame.rect, palette: frame.palette, isLocal: frame.isLocal, delay: frame.delay, disposal: disposal)
      }
    }

    /// The indices to store for `frame`'s rectangle: every pixel's own, or the transparent index
    /// where the color does not change, whichever LZW codes smaller.
    private func choosePixels(_ frame: Pending) -> [UInt8] {
      let r = frame.rect
      let transparent = frame.palette.transparentIndex
      var plain = [UInt8](repeating: 0, count: r.width * r.height)
      var keep = transparent == nil ? [] : plain
      func fill<E: FixedWidthInteger>(_ shown: [E], _ before: [E]) {
        frame.indices.withUnsafeBufferPointer { now in
          shown.withUnsafeBufferPointer { shown in
            before.withUnsafeBufferPointer { before in
              for y in 0..<r.height {
                let src = (r.y + y) * width + r.x
                let dst = y * r.width
                for x in 0..<r.width { plain[dst + x] = now[src + x] }
                if let t = transparent {
                  for x in 0..<r.width { keep[dst + x] = shown[src + x] == before[src + x] ? t : now[src + x] }
                }
              }
            }
          }
        }
      }
      switch (frame.shown, frame.before) {
      case (.indices(let a), .indices(let b)): fill(a, b)
      case (.colors(let a), .colors(let b)): fill(a, b)
      default: preconditionFailure("screens of different kinds")
      }
      guard !keep.isEmpty else { return plain }
      guard keep != plain else { return keep }
      // Only the comparison matters: score every third row of each (a third of the work).
      let bits = Swift.max(2, frame.palette.tableSize.trailingZeroBitCount)
      let keepSample = Encoder.sampleRows(keep, width: r.width, every: 3)
      let plainSample = Encoder.sampleRows(plain, width: r.width, every: 3)
      return estimator.size(of: keepSample, minimumCodeSize: bits) <= estimator.size(of: plainSample, minimumCodeSize: bits) ? keep : plain
    }

    /// Writes a frame's indices: with its own palette as a local color table, or with a local
    /// table of just the colors it uses when that is markedly smaller than its palette (LZW codes
    /// start at the table's bit width), or with the global table.
    private func emit(
      _ chosen: [UInt8], rect r: (x: Int, y: Int, width: Int, height: Int), palette framePalette: Palette, isLocal: Bool, delay: Int,
      disposal: Int32
    ) throws(EncodingError) {
      var pixels = chosen
      let transparent = framePalette.transparentIndex
      var used = [Bool](repeating: false, count: 256)
      for v in pixels { used[Int(v)] = true }
      let usedCount = used.reduce(0) { $0 + ($1 ? 1 : 0) }
      var subsetSize = 2
      while subsetSize < usedCount { subsetSize *= 2 }
      if (subsetSize * 4 <= framePalette.tableSize || (isLocal && subsetSize < framePalette.tableSize)) && r.width * r.height >= 64 {
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
          rect: r, pixels: pixels, delay: delay, disposal: disposal, transparentIndex: localTransparent, localColors: colors,
          localTableSize: subsetSize)
      } else if isLocal {
        var colors = framePalette.colors
        if transparent != nil { colors.append(RGBA8(0, 0, 0, 255)) }
        try writer.writeFrame(
          rect: r, pixels: pixels, delay: delay, disposal: disposal, transparentIndex: transparent, localColors: colors,
          localTableSize: framePalette.tableSize)
      } else {
        try writer.writeFrame(rect: r, pixels: pixels, delay: delay, disposal: disposal, transparentIndex: transparent)
      }
      storedCount += 1
      if isLocal { localCount += 1 }
    }
  }
}
