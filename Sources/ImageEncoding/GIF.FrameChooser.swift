import CGIF
import Geometry

extension GIF {
  /// The encoder's choosing half: maps each frame to its palette (unless it comes mapped),
  /// compares it with what the screen shows, holds it back until the next one decides its
  /// disposal, and chooses the pixels to store. It owns all of this state, so it can run on a
  /// thread of its own (a `SerialStage`) while the coding half (`FrameCoder`) LZW-codes the
  /// frames it has chosen.
  struct FrameChooser {
    let width: Int, height: Int
    /// The animation's (global) palette.
    let palette: Palette
    let options: Options
    private var mapper: ColorMapper
    private var mapperPalette: Palette
    private var mapped: [UInt8] = []
    private var previousSource: Bitmap? = nil
    private var previousIndices: [UInt8] = []
    private var previousPalette: Palette? = nil
    private var pending: Pending? = nil
    private var estimator = LZWEstimator()
    /// Whether frames are compared by color (after the first local palette) or by index.
    private var comparesColors = false

    /// What the chooser is asked to do, in order.
    enum Input: Sendable {
      /// A frame shown for `delay` centiseconds, mapped to `localPalette` when given; `indices`
      /// are its pixels already mapped to the global palette (by `IndependentMapper`), or `nil`
      /// to map them here.
      case frame(Bitmap, delay: Int, localPalette: Palette?, indices: [UInt8]?)
      /// No more frames: store the one held back.
      case finish
    }

    /// A frame ready to code: its indices in the rectangle, and how to store them.
    struct Chosen: Sendable {
      var pixels: [UInt8]
      var rect: (x: Int, y: Int, width: Int, height: Int)
      var palette: Palette
      var isLocal: Bool
      var delay: Int
      var disposal: Int32
    }

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

    init(width: Int, height: Int, palette: Palette, options: Options) {
      self.width = width
      self.height = height
      self.palette = palette
      self.options = options
      mapper = ColorMapper(palette: palette)
      mapperPalette = palette
    }

    /// Handles one input; returns the frames that are now ready to code (none or one).
    mutating func handle(_ input: Input) -> [Chosen] {
      switch input {
      case .frame(let frame, let delay, let localPalette, let indices):
        return add(frame, delay: delay, localPalette: localPalette, indices: indices)
      case .finish:
        guard let held = pending else { return [] }
        pending = nil
        return [written(held, disposal: DISPOSE_DO_NOT)]
      }
    }

    private mutating func add(
      _ frame: Bitmap, delay: Int, localPalette: Palette?, indices: [UInt8]?
    ) -> [Chosen] {
      var emitted: [Chosen] = []
      let framePalette = localPalette ?? palette
      if framePalette != mapperPalette {
        mapper = ColorMapper(palette: framePalette)
        mapperPalette = framePalette
      }
      // Unchanged pixels keep their index only while the palette stays the same.
      let previous =
        previousPalette == framePalette ? previousSource.map { ($0, previousIndices) } : nil
      if let indices, localPalette == nil, palette.isExact {
        // Mapped on a rendering thread: an exact palette's mapping is the same there.
        mapped = indices
      } else {
        mapper.map(
          frame, previous: options.dither == .none ? nil : previous, dither: options.dither,
          into: &mapped)
      }
      previousSource = frame
      previousIndices = mapped
      previousPalette = framePalette
      if localPalette != nil && !comparesColors {
        // From now on frames may index different palettes: compare what they display.
        comparesColors = true
        if var held = pending {
          held.shown = .colors(FrameChooser.displayed(held.shown, in: palette))
          held.before = .colors(FrameChooser.displayed(held.before, in: palette))
          pending = held
        }
      }
      let shown: Screen =
        comparesColors
        ? .colors(FrameChooser.colors(of: mapped, in: framePalette)) : .indices(mapped)

      guard var held = pending else {
        let blank: Screen =
          comparesColors
          ? .colors([UInt32](repeating: 0, count: width * height))
          : .indices([UInt8](repeating: palette.transparentIndex ?? 0, count: width * height))
        pending = Pending(
          shown: shown, indices: mapped, palette: framePalette, isLocal: localPalette != nil,
          before: blank,
          rect: (0, 0, width, height), delay: delay)
        return emitted
      }
      if held.shown == shown && held.delay + delay <= 65535 {
        held.delay += delay
        pending = held
        return emitted
      }
      // Pixels that turn transparent must be cleared by the held frame's disposal.
      var screen = held.shown
      if let c = clearedBox(from: held.shown, to: shown) {
        let r = held.rect
        let minX = Swift.min(r.x, c.minX), minY = Swift.min(r.y, c.minY)
        let maxX = Swift.max(r.x + r.width - 1, c.maxX),
          maxY = Swift.max(r.y + r.height - 1, c.maxY)
        held.rect = (minX, minY, maxX - minX + 1, maxY - minY + 1)
        emitted.append(written(held, disposal: DISPOSE_BACKGROUND))
        screen = cleared(screen, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
      } else {
        emitted.append(written(held, disposal: DISPOSE_DO_NOT))
      }
      pending = Pending(
        shown: shown, indices: mapped, palette: framePalette, isLocal: localPalette != nil,
        before: screen,
        rect: changedRect(from: screen, to: shown), delay: delay)
      return emitted
    }

    /// The value of a transparent pixel in screen arrays of each kind.
    private var transparentIndexValue: UInt8 { palette.transparentIndex ?? 0 }

    /// The box around pixels visible in `before` and transparent in `after`, if any.
    private func clearedBox(
      from before: Screen, to after: Screen
    ) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
      switch (before, after) {
      case (.indices(let b), .indices(let a)):
        guard let t = palette.transparentIndex else { return nil }
        return FrameChooser.box(width, height, b, a, clear: t)
      case (.colors(let b), .colors(let a)):
        return FrameChooser.box(width, height, b, a, clear: 0)
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

    /// The box around the pixels that are not `clear` in `before` and `clear` in `after`,
    /// scanning row by row (one comparison per pixel, no call per pixel).
    private static func box<E: FixedWidthInteger>(
      _ width: Int, _ height: Int, _ before: [E], _ after: [E], clear: E
    ) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
      var minX = width, minY = height, maxX = -1, maxY = -1
      before.withUnsafeBufferPointer { b in
        after.withUnsafeBufferPointer { a in
          for y in 0..<height {
            let row = y * width
            var found = false
            for x in 0..<width where a[row + x] == clear && b[row + x] != clear {
              if x < minX { minX = x }
              if x > maxX { maxX = x }
              found = true
            }
            if found {
              if y < minY { minY = y }
              maxY = y
            }
          }
        }
      }
      return maxX < 0 ? nil : (minX, minY, maxX, maxY)
    }

    /// A screen as displayed colors.
    private static func displayed(_ screen: Screen, in palette: Palette) -> [UInt32] {
      switch screen {
      case .indices(let v): return colors(of: v, in: palette)
      case .colors(let v): return v
      }
    }

    /// The displayed color of each index (`0xFFRRGGBB`; 0 for the transparent index).
    static func colors(of indices: [UInt8], in palette: Palette) -> [UInt32] {
      var table = [UInt32](repeating: 0, count: 256)
      for (i, c) in palette.colors.enumerated() {
        table[i] = 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
      }
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
    private func changedRect(
      from before: Screen, to after: Screen
    ) -> (x: Int, y: Int, width: Int, height: Int) {
      switch (before, after) {
      case (.indices(let b), .indices(let a)): return FrameChooser.changedRect(width, height, b, a)
      case (.colors(let b), .colors(let a)): return FrameChooser.changedRect(width, height, b, a)
      default: preconditionFailure("screens of different kinds")
      }
    }

    private static func changedRect<E: FixedWidthInteger>(
      _ width: Int, _ height: Int, _ before: [E], _ after: [E]
    ) -> (x: Int, y: Int, width: Int, height: Int) {
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

    /// `frame` with its pixels chosen, ready to code.
    private mutating func written(_ frame: Pending, disposal: Int32) -> Chosen {
      Chosen(
        pixels: choosePixels(frame), rect: frame.rect, palette: frame.palette,
        isLocal: frame.isLocal, delay: frame.delay,
        disposal: disposal)
    }

    /// The indices to store for `frame`'s rectangle: every pixel's own, or the transparent index
    /// where the color does not change, whichever LZW codes smaller.
    private mutating func choosePixels(_ frame: Pending) -> [UInt8] {
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
                  for x in 0..<r.width {
                    keep[dst + x] = shown[src + x] == before[src + x] ? t : now[src + x]
                  }
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
      let keepSample = FrameChooser.sampleRows(keep, width: r.width, every: 3)
      let plainSample = FrameChooser.sampleRows(plain, width: r.width, every: 3)
      return estimator.size(of: keepSample, minimumCodeSize: bits)
        <= estimator.size(of: plainSample, minimumCodeSize: bits) ? keep : plain
    }
  }
}
