import Geometry

extension GIF {
  /// Maps frames to palette indices: exact lookups for exact palettes, otherwise the nearest
  /// color in Oklab with the chosen dithering.
  ///
  /// Dithering is selective and stable: a pixel equal to its left and upper neighbours (a flat
  /// area) takes its nearest color and passes no error on; a pixel unchanged since the previous
  /// frame keeps its previous index, so still parts of an animation do not crawl.
  final class ColorMapper {
    let palette: Palette
    let transparent: UInt8
    private var exactKeys = [UInt32](repeating: .max, count: 1024)
    private var exactIndices = [UInt8](repeating: 0, count: 1024)
    /// Nearest palette index + 1 for each 6-bit-per-channel color, 0 when not yet computed;
    /// allocated once, with the mapper, for palettes that are not exact (an exact palette's rare
    /// misses, colors that were not in the histogram, search without it: same answers).
    private var nearestCache: [UInt16]
    private let paletteLab: [Oklab]
    private let paletteRGB: [(Float, Float, Float)]

    init(palette: Palette) {
      self.palette = palette
      transparent = palette.transparentIndex ?? 0
      paletteLab = palette.colors.map { Oklab(r: $0.r, g: $0.g, b: $0.b) }
      paletteRGB = palette.colors.map { (Float($0.r), Float($0.g), Float($0.b)) }
      nearestCache = palette.isExact ? [] : [UInt16](repeating: 0, count: 1 << 18)
      if palette.isExact {
        for (i, c) in palette.colors.enumerated() {
          let key = UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
          var slot = ColorMapper.slot(key)
          while exactKeys[slot] != .max { slot = (slot + 1) & 1023 }
          exactKeys[slot] = key
          exactIndices[slot] = UInt8(i)
        }
      }
    }

    @inline(__always) static func slot(_ key: UInt32) -> Int {
      Int((key &* 2_654_435_761) >> 22) & 1023
    }

    /// The tables the hot loops read, borrowed once per frame: no per-pixel exclusivity check,
    /// uniqueness check or reallocation of the cache.
    struct Lookup {
      let exactKeys: UnsafeBufferPointer<UInt32>
      let exactIndices: UnsafeBufferPointer<UInt8>
      let cache: UnsafeMutableBufferPointer<UInt16>
      let paletteLab: UnsafeBufferPointer<Oklab>
      let paletteRGB: UnsafeBufferPointer<(Float, Float, Float)>

      /// The index of an exact palette's color (the nearest one if it is missing).
      @inline(__always) func exactIndex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        var slot = ColorMapper.slot(key)
        while exactKeys[slot] != .max {
          if exactKeys[slot] == key { return exactIndices[slot] }
          slot = (slot + 1) & 1023
        }
        let (r, g, b) = (Int(r), Int(g), Int(b))
        return cache.isEmpty ? search(nil, r, g, b) : nearest(r, g, b)
      }

      /// The palette index nearest (in Oklab) to a color, cached per 6-bit-per-channel cell.
      @inline(__always) func nearest(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let key = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
        let cached = cache[key]
        if cached != 0 { return UInt8(cached - 1) }
        return search(key, r, g, b)
      }

      /// The cache miss: a search over the palette (at most once per cell and mapper), stored
      /// at `key` when there is a cache.
      @inline(never) func search(_ key: Int?, _ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let lab = Oklab(r: UInt8((r & ~3) | 2), g: UInt8((g & ~3) | 2), b: UInt8((b & ~3) | 2))
        var best = 0
        var bestDistance = Float.infinity
        for i in 0..<paletteLab.count {
          let d = lab.distanceSquared(paletteLab[i])
          if d < bestDistance {
            bestDistance = d
            best = i
          }
        }
        if let key { cache[key] = UInt16(best + 1) }
        return UInt8(best)
      }
    }

    /// Runs `body` with the tables borrowed.
    private func withLookup<R>(_ body: (Lookup) -> R) -> R {
      exactKeys.withUnsafeBufferPointer { keys in
        exactIndices.withUnsafeBufferPointer { indices in
          nearestCache.withUnsafeMutableBufferPointer { cache in
            paletteLab.withUnsafeBufferPointer { lab in
              paletteRGB.withUnsafeBufferPointer { rgb in
                body(
                  Lookup(
                    exactKeys: keys, exactIndices: indices, cache: cache, paletteLab: lab,
                    paletteRGB: rgb))
              }
            }
          }
        }
      }
    }

    /// The palette index nearest to a color (see `Lookup.nearest`).
    func nearest(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
      withLookup { $0.cache.isEmpty ? $0.search(nil, r, g, b) : $0.nearest(r, g, b) }
    }

    /// The largest per-channel difference between neighbours still counted as a smooth gradient
    /// (where banding would show and dithering helps).
    static let smoothStep = 6

    @inline(__always) static func difference(
      _ p: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int
    ) -> Int {
      Swift.max(
        abs(Int(p[a]) - Int(p[b])), abs(Int(p[a + 1]) - Int(p[b + 1])),
        abs(Int(p[a + 2]) - Int(p[b + 2])))
    }

    static let bayer: [Float] = {
      let m: [Int] = [
        0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26, 12, 44, 4, 36, 14, 46, 6, 38,
        60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25, 15, 47, 7, 39, 13, 45, 5, 37,
        63, 31, 55, 23, 61, 29, 53, 21,
      ]
      return m.map { (Float($0) + 0.5) / 64 - 0.5 }
    }()

    /// Maps `frame` into `out` (one index per pixel). `previous` is the previous frame and its
    /// indices, for keeping unchanged pixels stable.
    func map(
      _ frame: Bitmap, previous: (source: Bitmap, indices: [UInt8])?, dither: DitherMethod,
      into out: inout [UInt8]
    ) {
      let w = frame.width, h = frame.height
      if out.count != w * h { out = [UInt8](repeating: 0, count: w * h) }
      let t = transparent
      withLookup { lookup in
        frame.pixels.withUnsafeBufferPointer { src in
          out.withUnsafeMutableBufferPointer { dst in
            if palette.isExact {
              var lastKey: UInt32 = .max
              var lastIndex: UInt8 = 0
              for p in 0..<(w * h) {
                let i = p * 4
                if src[i + 3] < GIF.alphaThreshold {
                  dst[p] = t
                  continue
                }
                let key = UInt32(src[i]) << 16 | UInt32(src[i + 1]) << 8 | UInt32(src[i + 2])
                if key != lastKey {
                  lastKey = key
                  lastIndex = lookup.exactIndex(src[i], src[i + 1], src[i + 2])
                }
                dst[p] = lastIndex
              }
              return
            }
            if let previous {
              previous.source.pixels.withUnsafeBufferPointer { old in
                previous.indices.withUnsafeBufferPointer { oldIndices in
                  ColorMapper.mapQuantized(src, w, h, dither, old, oldIndices, dst, lookup, t)
                }
              }
            } else {
              ColorMapper.mapQuantized(src, w, h, dither, nil, nil, dst, lookup, t)
            }
          }
        }
      }
    }

    private static func mapQuantized(
      _ src: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ dither: DitherMethod,
      _ old: UnsafeBufferPointer<UInt8>?,
      _ oldIndices: UnsafeBufferPointer<UInt8>?, _ dst: UnsafeMutableBufferPointer<UInt8>,
      _ lookup: Lookup, _ t: UInt8
    ) {
      // Error rows for Floyd-Steinberg, one pixel of margin on each side.
      var current = [Float](repeating: 0, count: (w + 2) * 3)
      var next = [Float](repeating: 0, count: (w + 2) * 3)
      let amplitude: Float = 8
      let bayer = ColorMapper.bayer
      for y in 0..<h {
        let leftToRight = y % 2 == 0
        for n in 0..<w {
          let x = leftToRight ? n : w - 1 - n
          let p = y * w + x, i = p * 4
          if src[i + 3] < GIF.alphaThreshold {
            dst[p] = t
            continue
          }
          if let old, let oldIndices, old[i] == src[i], old[i + 1] == src[i + 1],
            old[i + 2] == src[i + 2], old[i + 3] == src[i + 3]
          {
            dst[p] = oldIndices[p]
            continue
          }
          let r = src[i], g = src[i + 1], b = src[i + 2]
          // Banding shows in smooth gradients: neighbours that differ, but only a little. Flat
          // areas (no difference) and texture or edges (large differences, which hide banding)
          // take the nearest color and pass no error on.
          var step = 0
          if x > 0 { step = Swift.max(step, ColorMapper.difference(src, i, i - 4)) }
          if y > 0 { step = Swift.max(step, ColorMapper.difference(src, i, i - w * 4)) }
          if step == 0 || step > ColorMapper.smoothStep || dither == .none {
            dst[p] = lookup.nearest(Int(r), Int(g), Int(b))
            let e = (x + 1) * 3
            current[e] = 0
            current[e + 1] = 0
            current[e + 2] = 0
            continue
          }
          let e = (x + 1) * 3
          var cr = Float(r), cg = Float(g), cb = Float(b)
          if dither == .ordered {
            let d = bayer[(y & 7) * 8 + (x & 7)] * amplitude
            cr += d
            cg += d
            cb += d
          } else {
            cr += current[e]
            cg += current[e + 1]
            cb += current[e + 2]
          }
          let qr = Int(Swift.max(0, Swift.min(255, cr.rounded())))
          let qg = Int(Swift.max(0, Swift.min(255, cg.rounded())))
          let qb = Int(Swift.max(0, Swift.min(255, cb.rounded())))
          let index = lookup.nearest(qr, qg, qb)
          dst[p] = index
          guard dither == .floydSteinberg else { continue }
          let chosen = lookup.paletteRGB[Int(index)]
          let er = (cr - chosen.0) * 0.85, eg = (cg - chosen.1) * 0.85, eb = (cb - chosen.2) * 0.85
          let ahead = leftToRight ? e + 3 : e - 3, behind = leftToRight ? e - 3 : e + 3
          current[ahead] += er * 7 / 16
          current[ahead + 1] += eg * 7 / 16
          current[ahead + 2] += eb * 7 / 16
          next[behind] += er * 3 / 16
          next[behind + 1] += eg * 3 / 16
          next[behind + 2] += eb * 3 / 16
          next[e] += er * 5 / 16
          next[e + 1] += eg * 5 / 16
          next[e + 2] += eb * 5 / 16
          next[ahead] += er / 16
          next[ahead + 1] += eg / 16
          next[ahead + 2] += eb / 16
        }
        swap(&current, &next)
        for k in next.indices { next[k] = 0 }
      }
    }
  }
}
