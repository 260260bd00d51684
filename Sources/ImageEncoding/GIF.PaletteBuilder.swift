import Glibc
import Geometry

extension GIF {
  /// The first pass of GIF encoding: sees every frame once and keeps what choosing a palette
  /// needs (the exact colors while there are at most 256 of them, and a histogram of 32,768
  /// color bins), not the frames.
  ///
  /// ```swift
  /// let builder = GIF.PaletteBuilder()
  /// for frame in frames { builder.add(frame) }
  /// let palette = builder.makePalette(maxColors: 256)
  /// ```
  public final class PaletteBuilder {
    /// Whether any pixel seen so far is transparent (alpha below 128).
    public private(set) var hasTransparency = false
    /// How many frames were added.
    public private(set) var frameCount = 0

    // Exact colors (0x00RRGGBB keys, 0xFFFFFFFF empty) with their counts, until more than 256.
    private var exactKeys = [UInt32](repeating: .max, count: 1024)
    private var exactCounts = [Int](repeating: 0, count: 1024)
    private var exactCount = 0
    private var exactOverflow = false
    // 5 bits per channel: counts and sums of the colors falling in each bin.
    private var binCounts = [Int](repeating: 0, count: 32768)
    private var binSums = [Int](repeating: 0, count: 32768 * 3)

    /// Creates an empty builder.
    public init() {}

    /// Counts the colors of one frame.
    ///
    /// - Complexity: O(pixels); runs of one color cost one histogram update.
    public func add(_ bitmap: Bitmap) {
      add(FrameHistogram(bitmap))
    }

    /// Adds the colors of one frame, counted beforehand (on another thread, for instance).
    public func add(_ histogram: FrameHistogram) {
      frameCount += 1
      if histogram.hasTransparency { hasTransparency = true }
      for (key, n) in zip(histogram.keys, histogram.counts) { count(key, n) }
    }

    private func count(_ key: UInt32, _ n: Int) {
      if key == 0xFF00_0000 {
        hasTransparency = true
        return
      }
      let r = Int(key >> 16 & 0xFF), g = Int(key >> 8 & 0xFF), b = Int(key & 0xFF)
      let bin = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
      binCounts[bin] += n
      binSums[bin * 3] += r * n
      binSums[bin * 3 + 1] += g * n
      binSums[bin * 3 + 2] += b * n
      guard !exactOverflow else { return }
      let hash = key &* 2_654_435_761
      var slot = Int(hash >> 22) & 1023
      while exactKeys[slot] != .max && exactKeys[slot] != key { slot = (slot + 1) & 1023 }
      if exactKeys[slot] == key {
        exactCounts[slot] += n
      } else if exactCount < 256 {
        exactKeys[slot] = key
        exactCounts[slot] = n
        exactCount += 1
      } else {
        exactOverflow = true
      }
    }

    /// The palette for everything added: exact when the colors fit (then frames are reproduced
    /// losslessly), otherwise quantized by median cut refined with k-means in Oklab. A spare
    /// index is kept for transparency and unchanged pixels whenever `maxColors` allows.
    public func makePalette(maxColors: Int = 256) -> Palette {
      precondition((2...256).contains(maxColors), "A GIF palette has 2 to 256 colors")
      if !exactOverflow {
        var colors: [(RGBA8, Int)] = []
        for (slot, key) in exactKeys.enumerated() where key != .max {
          colors.append(
            (
              RGBA8(UInt8(key >> 16 & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF), 255),
              exactCounts[slot]
            ))
        }
        let room = maxColors - (hasTransparency ? 1 : 0)
        if colors.count <= room {
          colors.sort { ($0.1, $0.0.r, $0.0.g, $0.0.b) > ($1.1, $1.0.r, $1.0.g, $1.0.b) }
          return Palette(
            colors: colors.map(\.0), isExact: true,
            hasTransparentIndex: hasTransparency || colors.count < maxColors)
        }
      }
      var bins: [Quantizer.Bin] = []
      for bin in 0..<32768 where binCounts[bin] > 0 {
        let n = binCounts[bin]
        let count = Double(n)
        let r = Oklab.linearValue(Double(binSums[bin * 3]) / count)
        let g = Oklab.linearValue(Double(binSums[bin * 3 + 1]) / count)
        let b = Oklab.linearValue(Double(binSums[bin * 3 + 2]) / count)
        bins.append(Quantizer.Bin(color: Oklab(linearR: r, g: g, b: b), weight: Float(n)))
      }
      // A transparent entry lets a frame keep the pixels that did not change; of a few colours
      // it would take one that shows (`--colors 2` drew every frame in one flat colour): up to
      // `smallPaletteColors` colours, an animation without transparent pixels gets them all.
      let transparent = hasTransparency || maxColors > GIF.smallPaletteColors
      let colors = Quantizer.palette(for: bins, count: maxColors - (transparent ? 1 : 0))
      return Palette(colors: colors, isExact: false, hasTransparentIndex: transparent)
    }
  }
}

extension Oklab {
  /// Linear light for a (possibly fractional) 8-bit sRGB level.
  static func linearValue(_ v: Double) -> Float {
    let c = Float(v / 255)
    return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
  }
}

extension GIF {
  /// The colors of one frame with their pixel counts (transparent pixels noted apart): what the
  /// palette builder needs from a frame, small to keep and cheap to merge.
  public struct FrameHistogram: Sendable {
    /// The opaque colors as `0x00RRGGBB`.
    public private(set) var keys: [UInt32] = []
    /// How many pixels have each color.
    public private(set) var counts: [Int] = []
    /// Whether any pixel is transparent (alpha below 128).
    public private(set) var hasTransparency = false
    // Open addressing from color to its position in `keys`; grows fourfold at half full.
    private var table = [UInt32](repeating: .max, count: 1024)
    private var slots = [Int32](repeating: -1, count: 1024)

    /// Counts the colors of `bitmap`.
    ///
    /// - Complexity: O(pixels), one hash probe per run of equal pixels.
    public init(_ bitmap: Bitmap) {
      var runKey: UInt32 = .max
      var runLength = 0
      bitmap.pixels.withUnsafeBufferPointer { p in
        var i = 0
        while i < p.count {
          let key: UInt32 =
            p[i + 3] < GIF.alphaThreshold
            ? 0xFF00_0000 : UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
          if key == runKey {
            runLength += 1
          } else {
            if runLength > 0 { add(runKey, runLength) }
            runKey = key
            runLength = 1
          }
          i += 4
        }
      }
      if runLength > 0 { add(runKey, runLength) }
      table = []
      slots = []
    }

    private mutating func add(_ key: UInt32, _ n: Int) {
      if key == 0xFF00_0000 {
        hasTransparency = true
        return
      }
      if keys.count * 2 >= table.count { grow() }
      let mask = table.count - 1
      var s = Int((key &* 2_654_435_761) >> 7) & mask
      while table[s] != .max && table[s] != key { s = (s + 1) & mask }
      if table[s] == key {
        counts[Int(slots[s])] += n
      } else {
        table[s] = key
        slots[s] = Int32(keys.count)
        keys.append(key)
        counts.append(n)
      }
    }

    private mutating func grow() {
      let capacity = table.count * 4
      table = [UInt32](repeating: .max, count: capacity)
      slots = [Int32](repeating: -1, count: capacity)
      let mask = capacity - 1
      for (i, k) in keys.enumerated() {
        var s = Int((k &* 2_654_435_761) >> 7) & mask
        while table[s] != .max { s = (s + 1) & mask }
        table[s] = k
        slots[s] = Int32(i)
      }
    }
  }
}

extension GIF {
  /// Per-frame palettes: a frame whose colors the animation's palette serves clearly worse than
  /// a palette of its own gets one (a local color table).
  public enum LocalPalette {
    /// How much smaller a local palette's error must be to replace the global one. Measured on a
    /// pan over a photograph, local palettes at a 0.8 ratio gained 0.5 dB for 11% more bytes
    /// (a new palette re-maps every pixel, and unchanged pixels stop keeping their indices); only
    /// frames the global palette serves badly, such as an animation whose scenes have unrelated
    /// colors, gain enough to pay.
    public static let requiredGain: Float = 0.6

    /// A palette of the frame's own, of at most `maxColors` entries with its transparent one
    /// (the most the animation's palette may have: `--colors` bounds every table, where local
    /// ones took 255 colours whatever was asked), or `nil` when `global` serves it (exact global
    /// palettes always do).
    public static func choose(
      for histogram: FrameHistogram, global: Palette, maxColors: Int = 256
    ) -> Palette? {
      precondition((2...256).contains(maxColors), "A GIF palette has 2 to 256 colors")
      guard !global.isExact, !histogram.keys.isEmpty else { return nil }
      var counts = [Int](repeating: 0, count: 32768)
      var sums = [Int](repeating: 0, count: 32768 * 3)
      var touched: [Int] = []
      for (key, n) in zip(histogram.keys, histogram.counts) {
        let r = Int(key >> 16 & 0xFF), g = Int(key >> 8 & 0xFF), b = Int(key & 0xFF)
        let bin = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
        if counts[bin] == 0 { touched.append(bin) }
        counts[bin] += n
        sums[bin * 3] += r * n
        sums[bin * 3 + 1] += g * n
        sums[bin * 3 + 2] += b * n
      }
      // The heaviest 2,048 bins stand for the frame: the decision costs a few milliseconds.
      let heaviest = touched.sorted { (counts[$0], $1) > (counts[$1], $0) }.prefix(2048).sorted()
      let weighted: [Quantizer.Bin] = heaviest.map { bin in
        let n = Double(counts[bin])
        let r = Oklab.linearValue(Double(sums[bin * 3]) / n)
        let g = Oklab.linearValue(Double(sums[bin * 3 + 1]) / n)
        let b = Oklab.linearValue(Double(sums[bin * 3 + 2]) / n)
        return Quantizer.Bin(color: Oklab(linearR: r, g: g, b: b), weight: Float(counts[bin]))
      }
      let local = Palette(
        colors: Quantizer.palette(for: weighted, count: maxColors - 1), isExact: false,
        hasTransparentIndex: true)
      let globalError = error(of: global, on: weighted)
      let localError = error(of: local, on: weighted)
      return localError < requiredGain * globalError ? local : nil
    }

    /// The weighted mean squared Oklab distance from each bin to its nearest palette color.
    static func error(of palette: Palette, on bins: [Quantizer.Bin]) -> Float {
      let colors = palette.colors.map { Oklab(r: $0.r, g: $0.g, b: $0.b) }
      var total: Float = 0, weight: Float = 0
      for bin in bins {
        var best = Float.infinity
        for c in colors { best = Swift.min(best, bin.color.distanceSquared(c)) }
        total += best * bin.weight
        weight += bin.weight
      }
      return weight > 0 ? total / weight : 0
    }
  }
}
