import Glibc

/// A grid of alpha values in device pixels: the shape of a shadow before and after its blur.
///
/// `originX`/`originY` place pixel (0, 0) in whatever device space the mask was made in.
public struct AlphaMask: Hashable, Sendable {
  /// The width, in pixels.
  public let width: Int
  /// The height, in pixels.
  public let height: Int
  /// Where pixel (0, 0) is, in device pixels.
  public let originX: Int
  /// Where pixel (0, 0) is, in device pixels.
  public let originY: Int
  /// Alpha values 0...255, row by row, `width` per row.
  public let pixels: [UInt8]

  /// Creates a mask from its pixels (`width × height` of them).
  public init(width: Int, height: Int, originX: Int = 0, originY: Int = 0, pixels: [UInt8]) {
    precondition(pixels.count == width * height, "AlphaMask needs width × height pixels")
    (self.width, self.height, self.originX, self.originY) = (width, height, originX, originY)
    self.pixels = pixels
  }

  /// The alpha at pixel (x, y), 0 outside the mask.
  public subscript(x: Int, y: Int) -> UInt8 {
    guard x >= 0, y >= 0, x < width, y < height else { return 0 }
    return pixels[y * width + x]
  }

  /// The mask blurred by a Gaussian of standard deviation `sigma` pixels, grown on every side
  /// by the blur's reach (its origin moves up and left by as much) and on the right to a width
  /// that is a multiple of 4.
  ///
  /// Below 6 pixels the Gaussian's kernel is applied directly (at most 37 taps, exact); from 6
  /// pixels on, five extended box blurs per axis whose variances add up to σ² exactly (a blurred
  /// edge stays within 2 levels of 255 of the Gaussian's). Either way the time is linear in the
  /// pixels, with a bounded cost per pixel whatever `sigma` is.
  public func blurred(sigma: Double) -> AlphaMask {
    guard sigma > 0, width > 0, height > 0 else { return self }
    let passes = Blur.passes(sigma: sigma)
    let pad = passes.reach
    // Rows a multiple of 4 bytes long, as Cairo's A8 surfaces want them, so that drawing the
    // mask needs no copy (the extra columns on the right stay 0: the blur does not reach them).
    let w = (width + 2 * pad + 3) / 4 * 4, h = height + 2 * pad
    var buffer = [Float](repeating: 0, count: w * h)
    buffer.withUnsafeMutableBufferPointer { b in
      pixels.withUnsafeBufferPointer { p in
        for y in 0..<height {
          let row = b.baseAddress! + (y + pad) * w + pad, source = p.baseAddress! + y * width
          for x in 0..<width { row[x] = Float(source[x]) }
        }
      }
    }
    Blur.apply(passes, to: &buffer, width: w, height: h)
    // Rounded to the nearest level (values are never negative: + 0.5 and truncate).
    let out = [UInt8](unsafeUninitializedCapacity: w * h) { o, count in
      buffer.withUnsafeBufferPointer { b in
        for i in 0..<(w * h) { o[i] = UInt8(Swift.min(255, Swift.max(0, b[i]) + 0.5)) }
      }
      count = w * h
    }
    return AlphaMask(
      width: w, height: h, originX: originX - pad, originY: originY - pad, pixels: out)
  }
}

/// Separable blurs of a float image: a direct Gaussian kernel for small σ, else three boxes.
enum Blur {
  /// How one axis is blurred.
  enum Passes {
    /// A normalised kernel, centred.
    case kernel([Float])
    /// `count` extended boxes of radius `radius` and end weight `alpha`, one after another.
    case boxes(radius: Int, alpha: Float, count: Int)

    /// How far, in pixels, the blur spreads a pixel.
    var reach: Int {
      switch self {
      case .kernel(let k): return k.count / 2
      case .boxes(let r, _, let count): return (r + 1) * count
      }
    }
  }

  /// The passes that blur with standard deviation `sigma` pixels.
  static func passes(sigma: Double) -> Passes {
    if sigma < kernelLimit {
      let r = Int((3 * sigma).rounded(.up))
      var k = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
      let sum = k.reduce(0, +)
      k = k.map { $0 / sum }
      return .kernel(k)
    }
    // Extended boxes (Gwosdek, Grewenig, Bruhn, Weickert, "Theoretical foundations of Gaussian
    // convolution by extended box filtering", 2011): a box of radius r plus a fraction α of the
    // next sample on each side, chosen so that the passes' variances add up to σ² exactly.
    let n = Double(boxCount)
    let v = sigma * sigma / n
    let r = Int((0.5 * (12 * v + 1).squareRoot() - 0.5).rounded(.down))
    let rd = Double(r)
    let alpha = (2 * rd + 1) * (rd * (rd + 1) - 3 * v) / (6 * (v - (rd + 1) * (rd + 1)))
    return .boxes(radius: r, alpha: Float(alpha), count: boxCount)
  }

  /// Below this σ (pixels) the kernel is applied directly (at most 37 taps).
  static let kernelLimit = 6.0
  /// How many extended boxes make one axis's blur.
  static let boxCount = 5

  /// Which axes a blur acts along.
  enum Axes {
    /// Rows and columns: a round blur.
    case both
    /// Along each row only.
    case horizontal
    /// Down each column only.
    case vertical
  }

  /// Blurs `buffer` (`width × height`, row by row) in place along `axes` (default both).
  static func apply(
    _ passes: Passes, to buffer: inout [Float], width: Int, height: Int, axes: Axes = .both
  ) {
    var scratch = [Float](repeating: 0, count: buffer.count)
    var sums = [Float](repeating: 0, count: Swift.max(width, height))
    buffer.withUnsafeMutableBufferPointer { a in
      scratch.withUnsafeMutableBufferPointer { b in
        sums.withUnsafeMutableBufferPointer { sums in
          switch passes {
          case .kernel(let k):
            k.withUnsafeBufferPointer { k in
              switch axes {
              case .both:
                convolveRows(a, into: b, k, width: width, height: height)
                convolveColumns(b, into: a, k, width: width, height: height)
              case .horizontal:
                convolveRows(a, into: b, k, width: width, height: height)
                _ = a.update(fromContentsOf: b)
              case .vertical:
                convolveColumns(a, into: b, k, width: width, height: height)
                _ = a.update(fromContentsOf: b)
              }
            }
          case .boxes(let r, let alpha, let count):
            // Column passes vectorise (one running sum per column, a row at a time) where row
            // passes cannot, so rows are blurred as the columns of the transposed image.
            var (src, dst) = (a, b)
            if axes != .vertical {
              transpose(src, into: dst, width: width, height: height)
              swap(&src, &dst)
              for _ in 0..<count {
                boxColumns(
                  src, into: dst, radius: r, alpha: alpha, width: height, height: width,
                  sums: sums)
                swap(&src, &dst)
              }
              transpose(src, into: dst, width: height, height: width)
              swap(&src, &dst)
            }
            for _ in 0..<(axes == .horizontal ? 0 : count) {
              boxColumns(
                src, into: dst, radius: r, alpha: alpha, width: width, height: height, sums: sums)
              swap(&src, &dst)
            }
            if src.baseAddress != a.baseAddress { _ = a.update(fromContentsOf: src) }
          }
        }
      }
    }
  }

  typealias Buffer = UnsafeMutableBufferPointer<Float>

  /// `src` (`width × height`) transposed into `dst` (`height × width`), in tiles that stay in
  /// the cache.
  static func transpose(_ src: Buffer, into dst: Buffer, width: Int, height: Int) {
    let tile = 32
    for y0 in stride(from: 0, to: height, by: tile) {
      for x0 in stride(from: 0, to: width, by: tile) {
        for y in y0..<Swift.min(y0 + tile, height) {
          for x in x0..<Swift.min(x0 + tile, width) { dst[x * height + y] = src[y * width + x] }
        }
      }
    }
  }

  /// A normalised kernel along each row (zero outside).
  static func convolveRows(
    _ src: Buffer, into dst: Buffer, _ k: UnsafeBufferPointer<Float>, width: Int, height: Int
  ) {
    let r = k.count / 2
    for y in 0..<height {
      let base = y * width
      for x in 0..<width {
        var sum: Float = 0
        let lo = Swift.max(0, x - r), hi = Swift.min(width - 1, x + r)
        if lo <= hi { for j in lo...hi { sum += src[base + j] * k[j - x + r] } }
        dst[base + x] = sum
      }
    }
  }

  /// A normalised kernel down each column (zero outside), a row at a time.
  static func convolveColumns(
    _ src: Buffer, into dst: Buffer, _ k: UnsafeBufferPointer<Float>, width: Int, height: Int
  ) {
    let r = k.count / 2
    for y in 0..<height {
      let out = y * width
      for x in 0..<width { dst[out + x] = 0 }
      let lo = Swift.max(0, y - r), hi = Swift.min(height - 1, y + r)
      guard lo <= hi else { continue }
      for j in lo...hi {
        let weight = k[j - y + r], row = j * width
        for x in 0..<width { dst[out + x] += src[row + x] * weight }
      }
    }
  }

  /// An extended box down each column (zero outside): the sum of the 2r + 1 nearest samples plus
  /// `alpha` times the next one on each side, normalised, by running sums kept for a whole row at
  /// once (memory is read in order, the loops vectorise, and the work per pixel is constant
  /// whatever the radius).
  static func boxColumns(
    _ src: Buffer, into dst: Buffer, radius r: Int, alpha: Float, width: Int, height: Int,
    sums: Buffer
  ) {
    // Row pointers and wrapping-free inner loops, so that the compiler vectorises them.
    let scale = 1 / (Float(2 * r + 1) + 2 * alpha)
    let s = src.baseAddress!, d = dst.baseAddress!, sum = sums.baseAddress!
    sum.update(repeating: 0, count: width)
    for y in 0..<Swift.min(r, height) {
      let row = s + y * width
      for x in 0..<width { sum[x] += row[x] }
    }
    for y in 0..<height {
      if y + r < height {
        let row = s + (y + r) * width
        for x in 0..<width { sum[x] += row[x] }
      }
      if y - r - 1 >= 0 {
        let row = s + (y - r - 1) * width
        for x in 0..<width { sum[x] -= row[x] }
      }
      let out = d + y * width
      let below: UnsafeMutablePointer<Float>? = y + r + 1 < height ? s + (y + r + 1) * width : nil
      let above: UnsafeMutablePointer<Float>? = y - r - 1 >= 0 ? s + (y - r - 1) * width : nil
      switch (below, above) {
      case (let b?, let a?):
        for x in 0..<width { out[x] = (sum[x] + alpha * (b[x] + a[x])) * scale }
      case (let b?, nil):
        for x in 0..<width { out[x] = (sum[x] + alpha * b[x]) * scale }
      case (nil, let a?):
        for x in 0..<width { out[x] = (sum[x] + alpha * a[x]) * scale }
      case (nil, nil):
        for x in 0..<width { out[x] = sum[x] * scale }
      }
    }
  }

}
