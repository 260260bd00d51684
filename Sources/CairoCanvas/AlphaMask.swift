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
    (self.width, self.height, self.originX, self.originY, self.pixels) = (width, height, originX, originY, pixels)
  }

  /// The alpha at pixel (x, y), 0 outside the mask.
  public subscript(x: Int, y: Int) -> UInt8 {
    guard x >= 0, y >= 0, x < width, y < height else { return 0 }
    return pixels[y * width + x]
  }

  /// The mask blurred by a Gaussian of standard deviation `sigma` pixels, grown on every side
  /// by the blur's reach (its origin moves up and left by as much).
  ///
  /// Below 2 pixels the Gaussian's kernel is applied directly (at most 13 taps); from 2 pixels
  /// on, three box blurs per axis whose combined variance is σ² (they match the Gaussian within
  /// about 1% of full scale). Either way the time is linear in the pixels whatever `sigma` is.
  public func blurred(sigma: Double) -> AlphaMask {
    guard sigma > 0, width > 0, height > 0 else { return self }
    let passes = Blur.passes(sigma: sigma)
    let pad = passes.reach
    let w = width + 2 * pad, h = height + 2 * pad
    var buffer = [Float](repeating: 0, count: w * h)
    for y in 0..<height {
      for x in 0..<width { buffer[(y + pad) * w + x + pad] = Float(pixels[y * width + x]) }
    }
    Blur.apply(passes, to: &buffer, width: w, height: h)
    let out = buffer.map { UInt8(Swift.max(0, Swift.min(255, ($0).rounded()))) }
    return AlphaMask(width: w, height: h, originX: originX - pad, originY: originY - pad, pixels: out)
  }
}

/// Separable blurs of a float image: a direct Gaussian kernel for small σ, else three boxes.
enum Blur {
  /// How one axis is blurred.
  enum Passes {
    /// A normalised kernel, centred.
    case kernel([Float])
    /// Box widths (odd), applied one after another.
    case boxes([Int])

    /// How far, in pixels, the blur spreads a pixel.
    var reach: Int {
      switch self {
      case .kernel(let k): return k.count / 2
      case .boxes(let b): return b.reduce(0) { $0 + $1 / 2 }
      }
    }
  }

  /// The passes that blur with standard deviation `sigma` pixels.
  static func passes(sigma: Double) -> Passes {
    if sigma < 2 {
      let r = Int((3 * sigma).rounded(.up))
      var k = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
      let sum = k.reduce(0, +)
      k = k.map { $0 / sum }
      return .kernel(k)
    }
    // Three boxes of widths wl or wl + 2 whose variances, (w² − 1) / 12 each, add up to σ²
    // (the nearest such split; W. Jarosz, "Fast image convolutions").
    let n = 3.0
    let ideal = (12 * sigma * sigma / n + 1).squareRoot()
    var wl = Int(ideal.rounded(.down))
    if wl % 2 == 0 { wl -= 1 }
    let wu = wl + 2
    let wlD = Double(wl)
    let m = Int(((12 * sigma * sigma - n * wlD * wlD - 4 * n * wlD - 3 * n) / (-4 * wlD - 4)).rounded())
    return .boxes((0..<3).map { $0 < m ? wl : wu })
  }

  /// Blurs `buffer` (`width × height`, row by row) in place along both axes.
  static func apply(_ passes: Passes, to buffer: inout [Float], width: Int, height: Int) {
    var scratch = [Float](repeating: 0, count: buffer.count)
    var sums = [Float](repeating: 0, count: width)
    buffer.withUnsafeMutableBufferPointer { a in
      scratch.withUnsafeMutableBufferPointer { b in
        sums.withUnsafeMutableBufferPointer { sums in
          switch passes {
          case .kernel(let k):
            k.withUnsafeBufferPointer { k in
              convolveRows(a, into: b, k, width: width, height: height)
              convolveColumns(b, into: a, k, width: width, height: height)
            }
          case .boxes(let widths):
            // Rows: a → b → a → b; columns: b → a → b → a.
            boxRows(a, into: b, box: widths[0], width: width, height: height)
            boxRows(b, into: a, box: widths[1], width: width, height: height)
            boxRows(a, into: b, box: widths[2], width: width, height: height)
            boxColumns(b, into: a, box: widths[0], width: width, height: height, sums: sums)
            boxColumns(a, into: b, box: widths[1], width: width, height: height, sums: sums)
            boxColumns(b, into: a, box: widths[2], width: width, height: height, sums: sums)
          }
        }
      }
    }
  }

  typealias Buffer = UnsafeMutableBufferPointer<Float>

  /// A normalised kernel along each row (zero outside).
  static func convolveRows(_ src: Buffer, into dst: Buffer, _ k: UnsafeBufferPointer<Float>, width: Int, height: Int) {
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
  static func convolveColumns(_ src: Buffer, into dst: Buffer, _ k: UnsafeBufferPointer<Float>, width: Int, height: Int) {
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

  /// A box of odd width `box` along each row (zero outside), by a running sum: constant work
  /// per pixel whatever the width.
  static func boxRows(_ src: Buffer, into dst: Buffer, box: Int, width: Int, height: Int) {
    let r = box / 2
    let scale = 1 / Float(box)
    for y in 0..<height {
      let base = y * width
      var sum: Float = 0
      for x in 0..<Swift.min(r, width) { sum += src[base + x] }
      for x in 0..<width {
        if x + r < width { sum += src[base + x + r] }
        if x - r - 1 >= 0 { sum -= src[base + x - r - 1] }
        dst[base + x] = sum * scale
      }
    }
  }

  /// A box of odd width `box` down each column (zero outside), by running sums kept for a whole
  /// row at once (so memory is read in order).
  static func boxColumns(_ src: Buffer, into dst: Buffer, box: Int, width: Int, height: Int, sums: Buffer) {
    let r = box / 2
    let scale = 1 / Float(box)
    for x in 0..<width { sums[x] = 0 }
    for y in 0..<Swift.min(r, height) {
      let row = y * width
      for x in 0..<width { sums[x] += src[row + x] }
    }
    for y in 0..<height {
      if y + r < height {
        let row = (y + r) * width
        for x in 0..<width { sums[x] += src[row + x] }
      }
      if y - r - 1 >= 0 {
        let row = (y - r - 1) * width
        for x in 0..<width { sums[x] -= src[row + x] }
      }
      let out = y * width
      for x in 0..<width { dst[out + x] = sums[x] * scale }
    }
  }
}
