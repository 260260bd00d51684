import Geometry
import Parallelism

#if canImport(Glibc)
  import Glibc
#endif

/// The comparison of two images of the same size, pixel by pixel, in pixelmatch's terms: the
/// perceptual (YIQ) color difference of each pixel, and for pixels over the threshold whether
/// they are anti-aliasing (an edge moved by a fraction of a pixel) or a real difference.
///
/// ```swift
/// let diff = try ImageDiff(expected: golden, actual: frame, tolerance: .antialiasing)
/// if !diff.passes { try diff.heatmap().writePNG(...) }
/// ```
public struct ImageDiff: Sendable {
  /// The images' width and height in pixels.
  public let width: Int, height: Int
  /// The tolerance the comparison used.
  public let tolerance: Tolerance
  /// Pixels whose difference counts (over the threshold and not forgiven anti-aliasing).
  public let differingPixels: Int
  /// Pixels over the threshold that were recognised as anti-aliasing and forgiven.
  public let antialiasedPixels: Int
  /// The largest difference of any channel (R, G, B or A) at any pixel, 0...255.
  public let maxChannelDelta: Int
  /// The largest perceptual difference at any pixel, on the threshold's 0...1 scale.
  public let maxPerceptualDelta: Double
  /// Per pixel: 0 equal within the threshold, 1 forgiven anti-aliasing, 2 differing (empty for
  /// the frames a streaming `AnimationDiff` keeps only the counts of).
  public internal(set) var classes: [UInt8]

  /// Why two images cannot be compared.
  public struct SizeMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    /// The expected and actual sizes in pixels.
    public var expected: (width: Int, height: Int), actual: (width: Int, height: Int)
    /// The mismatch between an expected and an actual size, in pixels.
    public init(expected: (width: Int, height: Int), actual: (width: Int, height: Int)) {
      self.expected = expected
      self.actual = actual
    }
    public var description: String {
      "sizes differ: expected \(expected.width) x \(expected.height), actual \(actual.width) x \(actual.height)"
    }
    public static func == (a: Self, b: Self) -> Bool {
      a.expected == b.expected && a.actual == b.actual
    }
    public func hash(into hasher: inout Hasher) {
      hasher.combine(expected.width); hasher.combine(expected.height); hasher.combine(actual.width);
      hasher.combine(actual.height)
    }
  }

  /// The share of all pixels that differ, 0...1.
  public var differingRatio: Double {
    width * height == 0 ? 0 : Double(differingPixels) / Double(width * height)
  }

  /// Whether the images match within the tolerance.
  public var passes: Bool { tolerance.allows(differing: differingPixels, of: width * height) }

  /// A one-line account: how many pixels differ and by how much.
  public var summary: String {
    let percent = (differingRatio * 10000).rounded() / 100
    return
      "\(differingPixels) of \(width * height) pixels differ (\(percent)%), \(antialiasedPixels) anti-aliased forgiven; "
      + "largest channel difference \(maxChannelDelta), largest perceptual difference \((maxPerceptualDelta * 1000).rounded() / 1000)"
  }

  /// pixelmatch's largest YIQ delta (white against black), which threshold 1 stands for.
  static let maxYIQDelta = 35215.0

  /// Compares `actual` with `expected`.
  ///
  /// - Throws: `SizeMismatch` when the sizes differ.
  public init(
    expected: Bitmap, actual: Bitmap, tolerance: Tolerance = .antialiasing
  ) throws(SizeMismatch) {
    guard expected.width == actual.width, expected.height == actual.height else {
      throw SizeMismatch(
        expected: (expected.width, expected.height), actual: (actual.width, actual.height))
    }
    width = expected.width
    height = expected.height
    self.tolerance = tolerance
    let count = width * height
    var classes = [UInt8](repeating: 0, count: count)
    var scan = Scan()
    let identical = expected.pixels.withUnsafeBytes { a in
      actual.pixels.withUnsafeBytes { b in
        a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
      }
    }
    if !identical {
      scan = ImageDiff.scanInBands(expected, actual, into: &classes, tolerance: tolerance)
    }
    let (differing, antialiased, maxChannel, maxDelta) = (
      scan.differing, scan.antialiased, scan.maxChannel, scan.maxDelta
    )
    self.classes = classes
    differingPixels = differing
    antialiasedPixels = antialiased
    maxChannelDelta = maxChannel
    maxPerceptualDelta = (maxDelta / ImageDiff.maxYIQDelta).squareRoot()
  }

  /// What one pass over the pixels found.
  struct Scan: Equatable {
    var differing = 0, antialiased = 0, maxChannel = 0
    var maxDelta = 0.0
  }

  /// Large images are scanned in bands of rows on every core (`Bands`): each band reads both
  /// images (neighbours across its edges included) and classifies only its own rows, and the
  /// counts add up the same whatever the number of bands.
  static func scanInBands(
    _ expected: Bitmap, _ actual: Bitmap, into classes: inout [UInt8], tolerance: Tolerance
  ) -> Scan {
    let (w, h) = (expected.width, expected.height)
    let cores = Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    let bands = w * h < 250_000 ? 1 : Swift.min(2 * cores, h)
    if bands == 1 {
      return expected.pixels.withUnsafeBufferPointer { a in
        actual.pixels.withUnsafeBufferPointer { b in
          classes.withUnsafeMutableBufferPointer { out in
            scan(
              a, b, into: out, firstRow: 0, width: w, height: h, rows: 0..<h, tolerance: tolerance)
          }
        }
      }
    }
    // Each band returns its counts and its rows' classes; they are copied into place here.
    let results = Bands.map(count: bands, threads: cores) { k -> (Scan, [UInt8]) in
      let rows = (k * h / bands)..<((k + 1) * h / bands)
      var own = [UInt8](repeating: 0, count: rows.count * w)
      let scan = expected.pixels.withUnsafeBufferPointer { a in
        actual.pixels.withUnsafeBufferPointer { b in
          own.withUnsafeMutableBufferPointer { out in
            // `out` holds only these rows: row y lands at (y - rows.lowerBound) * w.
            ImageDiff.scan(
              a, b, into: out, firstRow: rows.lowerBound, width: w, height: h, rows: rows,
              tolerance: tolerance)
          }
        }
      }
      return (scan, own)
    }
    var total = Scan()
    for (k, (r, own)) in results.enumerated() {
      let first = k * h / bands * w
      classes.replaceSubrange(first..<(first + own.count), with: own)
      total.differing += r.differing
      total.antialiased += r.antialiased
      total.maxChannel = Swift.max(total.maxChannel, r.maxChannel)
      total.maxDelta = Swift.max(total.maxDelta, r.maxDelta)
    }
    return total
  }

  /// Classifies the pixels of `rows` into `out` (which starts at row `firstRow`); the hot loop,
  /// with its counters in locals. `vectorized: false` takes every pixel alone (the tests check
  /// that the eight-pixel paths give the same answer).
  static func scan(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
    into out: UnsafeMutableBufferPointer<UInt8>,
    firstRow: Int, width w: Int, height h: Int, rows: Range<Int>, tolerance: Tolerance,
    vectorized: Bool = true
  ) -> Scan {
    let outBase = firstRow * w
    let limit = maxYIQDelta * tolerance.threshold * tolerance.threshold
    let blendLimit = Swift.max(limit, 64)
    let forgives = tolerance.ignoresAntialiasing
    let bytewise = tolerance.comparesBytes
    var differing = 0, antialiased = 0, maxChannel: UInt8 = 0
    var maxDelta = 0.0
    // The last pair of differing pixels and its delta: runs of one pair (flat areas that
    // differ) measure it once.
    var lastA: UInt32 = 0, lastB: UInt32 = 0, lastDelta = -1.0
    let rawA = UnsafeRawBufferPointer(a), rawB = UnsafeRawBufferPointer(b)
    let row = w * 4
    for y in rows {
      // Eight pixels at a time where their neighbourhoods lie inside the image (see `run`).
      let inner = vectorized && y > 0 && y < h - 1
      var x = 0
      while x < w {
        if inner && x > 0 && x + 8 <= w {
          let p = (y * w + x) * 4
          switch run(rawA, rawB, at: p, row: row, lastA: lastA, lastB: lastB) {
          case .equal:
            x += 8
            continue
          case .cachedFlat where lastDelta >= 0:
            // The pair's delta is known; both images are flat to the left, so no pixel is
            // forgiven as anti-aliasing (the scalar test's answer for each of the eight).
            if lastDelta > limit || bytewise {
              let first = y * w + x - outBase
              for k in first..<(first + 8) { out[k] = 2 }
              differing += 8
            }
            x += 8
            continue
          default: break
          }
        }
        // One pixel; `defer` moves on however its checks end.
        defer { x += 1 }
        let i = y * w + x, p = i * 4
        // Most pixels are equal: one 32-bit comparison each.
        let pa = rawA.loadUnaligned(fromByteOffset: p, as: UInt32.self),
          pb = rawB.loadUnaligned(fromByteOffset: p, as: UInt32.self)
        if pa == pb { continue }
        let delta: Double
        if pa == lastA && pb == lastB && lastDelta >= 0 {
          delta = lastDelta
        } else {
          delta = abs(colorDelta(a, p, b, p))
          // A channel's difference is that of its premultiplied values, and alpha's: the colour
          // under a transparent pixel changes nothing seen (two clear pictures said "largest
          // channel difference 255"), and white turned transparent differs by 255. Compared
          // byte for byte, the bytes' own.
          if bytewise {
            for c in 0..<4 {
              let (u, v) = (a[p + c], b[p + c])
              maxChannel = Swift.max(maxChannel, u > v ? u &- v : v &- u)
            }
          } else if delta > 0 {
            maxChannel = Swift.max(maxChannel, premultipliedDifference(a, b, at: p))
          }
          // A translucent pair's delta depends on its place (its background): not kept.
          (lastA, lastB, lastDelta) = (pa, pb, pa >> 24 == 0xFF && pb >> 24 == 0xFF ? delta : -1)
          if delta > maxDelta { maxDelta = delta }
        }
        // Compared byte for byte, even differences that look alike over white count.
        guard delta > limit || bytewise else { continue }
        if forgives
          && ((!isFlatLeft(a, p, x, y, w, h) && isAntialiased(a, x, y, w, h, other: b))
            || (!isFlatLeft(b, p, x, y, w, h) && isAntialiased(b, x, y, w, h, other: a)))
          && isBlend(b, p, ofNeighboursIn: a, x, y, w, h, limit: blendLimit)
          && isBlend(a, p, ofNeighboursIn: b, x, y, w, h, limit: blendLimit)
        {
          out[i - outBase] = 1
          antialiased += 1
        } else {
          out[i - outBase] = 2
          differing += 1
        }
      }
    }
    return Scan(
      differing: differing, antialiased: antialiased, maxChannel: Int(maxChannel),
      maxDelta: maxDelta)
  }

  /// What eight pixels from byte offset `p` on have in common, for the scan's fast paths.
  enum Run {
    /// Each pixel equals its counterpart in the other image.
    case equal
    /// Every pixel is the pair (`lastA`, `lastB`) in both images, as are their left, up-left
    /// and down-left neighbours: flat areas that differ.
    case cachedFlat
    /// Anything else: the pixels are taken one by one.
    case mixed
  }

  /// Classifies the eight pixels from byte offset `p` (not in the first or last row or column
  /// of the image, nor in the last seven columns) with 64-bit comparisons, two pixels each.
  @inline(__always)
  static func run(
    _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, at p: Int, row: Int,
    lastA: UInt32, lastB: UInt32
  ) -> Run {
    @inline(__always) func word(_ r: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
      r.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    // The bits where eight pixels from `offset` differ from `pair` (zero: all of them are it).
    @inline(__always) func off(
      _ r: UnsafeRawBufferPointer, _ offset: Int, _ pair: UInt64
    ) -> UInt64 {
      (word(r, offset) ^ pair) | (word(r, offset + 8) ^ pair) | (word(r, offset + 16) ^ pair)
        | (word(r, offset + 24) ^ pair)
    }
    let differ =
      (word(a, p) ^ word(b, p)) | (word(a, p + 8) ^ word(b, p + 8))
      | (word(a, p + 16) ^ word(b, p + 16)) | (word(a, p + 24) ^ word(b, p + 24))
    if differ == 0 { return .equal }
    let pa = UInt64(lastA) | UInt64(lastA) << 32, pb = UInt64(lastB) | UInt64(lastB) << 32
    guard off(a, p, pa) | off(b, p, pb) == 0 else { return .mixed }
    let left = p - 4
    let neighbours =
      off(a, left, pa) | off(b, left, pb) | off(a, left - row, pa) | off(b, left - row, pb)
      | off(a, left + row, pa) | off(b, left + row, pb)
    return neighbours == 0 ? .cachedFlat : .mixed
  }

  // MARK: - pixelmatch's measures

  /// The squared YIQ distance between pixel `i` of `a` and pixel `j` of `b`, negative when
  /// `a`'s is the brighter (pixelmatch 7's `colorDelta`): where either is not opaque, both are
  /// composited over a background that changes from pixel to pixel (`background(at: i)`), so
  /// a change of alpha shows. Blended with white, as pixelmatch 5 did, an opaque white shape
  /// matched a transparent picture, even at `--threshold 0`.
  @inline(__always)
  static func colorDelta(
    _ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ b: UnsafeBufferPointer<UInt8>, _ j: Int
  ) -> Double {
    let (dr, dg, db) = difference(a, i, b, j, background: i)
    let y = luma(dr, dg, db)
    let delta = yiqDistance(y: y, dr, dg, db)
    return y > 0 ? -delta : delta
  }

  /// The colour difference of pixel `i` of `a` and pixel `j` of `b` (first minus second), both
  /// composited over `background(at: k)` when either is not opaque.
  @inline(__always)
  static func difference(
    _ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ b: UnsafeBufferPointer<UInt8>, _ j: Int,
    background k: Int
  ) -> (Double, Double, Double) {
    let r1 = Double(a[i]), g1 = Double(a[i + 1]), b1 = Double(a[i + 2])
    let r2 = Double(b[j]), g2 = Double(b[j + 1]), b2 = Double(b[j + 2])
    let a1 = a[i + 3], a2 = b[j + 3]
    // Opaque pixels (the common case) need no background.
    guard a1 < 255 || a2 < 255 else { return (r1 - r2, g1 - g2, b1 - b2) }
    let (rb, gb, bb) = background(at: k)
    let (x1, x2) = (Double(a1), Double(a2))
    let da = x1 - x2
    return (
      (r1 * x1 - r2 * x2 - rb * da) / 255, (g1 * x1 - g2 * x2 - gb * da) / 255,
      (b1 * x1 - b2 * x2 - bb * da) / 255
    )
  }

  /// pixelmatch 7's background for the pixel at byte offset `k`: each channel 48 or 207 by a
  /// pattern of its own, so that no colour is invisible over every pixel of it.
  @inline(__always)
  static func background(at k: Int) -> (Double, Double, Double) {
    let x = Double(k)
    return (
      48 + 159 * Double(k % 2), 48 + 159 * Double(Int(x / 1.618033988749895) % 2),
      48 + 159 * Double(Int(x / 2.618033988749895) % 2)
    )
  }

  /// pixelmatch's weighted squared YIQ distance of a color difference whose luma difference
  /// is `y`.
  @inline(__always)
  static func yiqDistance(y: Double, _ dr: Double, _ dg: Double, _ db: Double) -> Double {
    let iq = 0.59597799 * dr - 0.2741761 * dg - 0.32180189 * db
    let q = 0.21147017 * dr - 0.52261711 * dg + 0.31114694 * db
    return 0.5053 * y * y + 0.299 * iq * iq + 0.1957 * q * q
  }

  /// The largest difference of the pixels at byte offset `p` of `a` and `b`: of their alpha,
  /// and of each colour channel premultiplied by it (rounded to levels).
  static func premultipliedDifference(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, at p: Int
  ) -> UInt8 {
    let a1 = Int(a[p + 3]), a2 = Int(b[p + 3])
    var largest = abs(a1 - a2)
    for c in 0..<3 {
      let u = (Int(a[p + c]) * a1 + 127) / 255, v = (Int(b[p + c]) * a2 + 127) / 255
      largest = Swift.max(largest, abs(u - v))
    }
    return UInt8(largest)
  }

  /// Whether pixel `i` of `a` and pixel `j` of `b` are the same four bytes.
  @inline(__always)
  static func same(
    _ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ b: UnsafeBufferPointer<UInt8>, _ j: Int
  ) -> Bool {
    UnsafeRawBufferPointer(a).loadUnaligned(fromByteOffset: i, as: UInt32.self)
      == UnsafeRawBufferPointer(b).loadUnaligned(fromByteOffset: j, as: UInt32.self)
  }

  /// The brightness difference of pixels `i` and `j` of one image (pixelmatch's `yOnly`).
  @inline(__always)
  static func brightnessDelta(_ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ j: Int) -> Double {
    if same(a, i, a, j) { return 0 }
    let (dr, dg, db) = difference(a, i, a, j, background: i)
    return luma(dr, dg, db)
  }

  @inline(__always)
  static func blended(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Double, Double, Double) {
    // Opaque pixels (alpha exactly 1, the common case) skip the division.
    if p[i + 3] == 255 { return (Double(p[i]), Double(p[i + 1]), Double(p[i + 2])) }
    let alpha = Double(p[i + 3]) / 255
    return (
      255 + (Double(p[i]) - 255) * alpha, 255 + (Double(p[i + 1]) - 255) * alpha,
      255 + (Double(p[i + 2]) - 255) * alpha
    )
  }

  @inline(__always)
  static func luma(_ r: Double, _ g: Double, _ b: Double) -> Double {
    0.29889531 * r + 0.58662247 * g + 0.11448223 * b
  }

  /// Whether an inner pixel equals its three left neighbours (up-left, left, down-left): then
  /// `isAntialiased` finds three equal neighbours first and answers false, so the call is
  /// skipped (the worst case, every pixel different, is mostly flat areas).
  @inline(__always)
  static func isFlatLeft(
    _ image: UnsafeBufferPointer<UInt8>, _ p: Int, _ x: Int, _ y: Int, _ w: Int, _ h: Int
  ) -> Bool {
    guard x > 0, y > 0, y < h - 1 else { return false }
    let row = w * 4
    return same(image, p, image, p - 4) && same(image, p, image, p - 4 - row)
      && same(image, p, image, p - 4 + row)
  }

  /// Whether pixel (x, y) of `image` looks like an anti-aliased edge pixel: its neighbours hold
  /// both a darker and a brighter pixel, at most two equal to it, and the darkest or brightest
  /// neighbour sits in a flat area (three or more identical pixels) in both images.
  static func isAntialiased(
    _ image: UnsafeBufferPointer<UInt8>, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int,
    other: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let x0 = Swift.max(x1 - 1, 0), y0 = Swift.max(y1 - 1, 0), x2 = Swift.min(x1 + 1, w - 1),
      y2 = Swift.min(y1 + 1, h - 1)
    let p = (y1 * w + x1) * 4
    var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
    var minDelta = 0.0, maxDelta = 0.0
    var minX = 0, minY = 0, maxX = 0, maxY = 0
    for x in x0...x2 {
      for y in y0...y2 where x != x1 || y != y1 {
        let delta = brightnessDelta(image, p, (y * w + x) * 4)
        if delta == 0 {
          zeroes += 1
          if zeroes > 2 { return false }
        } else if delta < minDelta {
          (minDelta, minX, minY) = (delta, x, y)
        } else if delta > maxDelta {
          (maxDelta, maxX, maxY) = (delta, x, y)
        }
      }
    }
    if minDelta == 0 || maxDelta == 0 { return false }
    return (hasManySiblings(image, minX, minY, w, h) && hasManySiblings(other, minX, minY, w, h))
      || (hasManySiblings(image, maxX, maxY, w, h) && hasManySiblings(other, maxX, maxY, w, h))
  }

  /// Whether pixel `p` of `image` is, within `limit`, a mix of two pixels of the 3 x 3
  /// neighbourhood of (x, y) in `other`: what an edge that moved by a fraction of a pixel
  /// gives. pixelmatch's test alone forgives any change to a thin line (its neighbours are
  /// both darker and brighter); a gray line turned red is no mix of gray and white.
  static func isBlend(
    _ image: UnsafeBufferPointer<UInt8>, _ p: Int, ofNeighboursIn other: UnsafeBufferPointer<UInt8>,
    _ x1: Int, _ y1: Int, _ w: Int, _ h: Int, limit: Double
  ) -> Bool {
    let x0 = Swift.max(x1 - 1, 0), y0 = Swift.max(y1 - 1, 0), x2 = Swift.min(x1 + 1, w - 1),
      y2 = Swift.min(y1 + 1, h - 1)
    // At most nine neighbours, on the stack: this runs for every changed pixel.
    return withUnsafeTemporaryAllocation(of: (Double, Double, Double).self, capacity: 9) {
      colors -> Bool in
      var n = 0
      for y in y0...y2 {
        for x in x0...x2 {
          colors[n] = blended(other, (y * w + x) * 4)
          n += 1
        }
      }
      let c = blended(image, p)
      // A mix of two colors lies in the box they span, and the YIQ distance is at least
      // `minimumYIQWeight` times the squared RGB distance: a color more than `reach` outside a
      // box, in any channel, is over `limit` from every mix of that box's colors. First the box of
      // all nine (the worst case, every pixel different, usually ends here), then each pair's.
      // Only provably failing pairs are skipped: the answer is the exact test's.
      let reach = (limit / minimumYIQWeight).squareRoot() + 1
      var lo = colors[0], hi = colors[0]
      for k in 1..<n {
        let v = colors[k]
        lo = (Swift.min(lo.0, v.0), Swift.min(lo.1, v.1), Swift.min(lo.2, v.2))
        hi = (Swift.max(hi.0, v.0), Swift.max(hi.1, v.1), Swift.max(hi.2, v.2))
      }
      if c.0 < lo.0 - reach || c.0 > hi.0 + reach || c.1 < lo.1 - reach || c.1 > hi.1 + reach
        || c.2 < lo.2 - reach
        || c.2 > hi.2 + reach
      {
        return false
      }
      for i in 0..<n {
        for j in i..<n {
          let (r1, g1, b1) = colors[i], (r2, g2, b2) = colors[j]
          if c.0 < Swift.min(r1, r2) - reach || c.0 > Swift.max(r1, r2) + reach
            || c.1 < Swift.min(g1, g2) - reach
            || c.1 > Swift.max(g1, g2) + reach || c.2 < Swift.min(b1, b2) - reach
            || c.2 > Swift.max(b1, b2) + reach
          {
            continue
          }
          let (dr, dg, db) = (r2 - r1, g2 - g1, b2 - b1)
          let length = dr * dr + dg * dg + db * db
          var t = length > 0 ? ((c.0 - r1) * dr + (c.1 - g1) * dg + (c.2 - b1) * db) / length : 0
          t = Swift.min(1, Swift.max(0, t))
          let (er, eg, eb) = (c.0 - (r1 + t * dr), c.1 - (g1 + t * dg), c.2 - (b1 + t * db))
          if yiqDistance(y: luma(er, eg, eb), er, eg, eb) <= limit { return true }
        }
      }
      return false
    }
  }

  /// A lower bound of `yiqDistance` per unit of squared RGB distance: the smallest eigenvalue
  /// of the YIQ form (0.04482, rounded down; `ImageDiffTests` checks it).
  static let minimumYIQWeight = 0.0448

  /// Whether pixel (x, y) has three or more identical pixels around it (edges count as one).
  static func hasManySiblings(
    _ image: UnsafeBufferPointer<UInt8>, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int
  ) -> Bool {
    let x0 = Swift.max(x1 - 1, 0), y0 = Swift.max(y1 - 1, 0), x2 = Swift.min(x1 + 1, w - 1),
      y2 = Swift.min(y1 + 1, h - 1)
    let p = (y1 * w + x1) * 4
    var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
    for x in x0...x2 {
      for y in y0...y2 where x != x1 || y != y1 {
        let q = (y * w + x) * 4
        if same(image, p, image, q) {
          zeroes += 1
          if zeroes > 2 { return true }
        }
      }
    }
    return false
  }
}
