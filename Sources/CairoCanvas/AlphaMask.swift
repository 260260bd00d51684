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

  /// This mask, made at `density` pixels to the wanted pixel with its pixel (0, 0) at `origin`
  /// in its own pixels, resampled bilinearly to the wanted pixels (its origin then a whole
  /// pixel there): how a shadow's shape drawn at a lower density comes back to the frame's.
  public func scaled(density: Double, origin: Point) -> AlphaMask {
    guard width > 0, height > 0, density > 0, density.isFinite else { return self }
    func axis(_ o: Double, _ n: Int) -> (start: Int, index: [Int], weight: [Float]) {
      let start = Int((o / density).rounded(.down))
      let end = Int(((o + Double(n)) / density).rounded(.up))
      var index: [Int] = [], weight: [Float] = []
      index.reserveCapacity(end - start)
      weight.reserveCapacity(end - start)
      for j in start..<Swift.max(start, end) {
        let s = (Double(j) + 0.5) * density - o - 0.5
        let i = Int(s.rounded(.down))
        index.append(i)
        weight.append(Float(s - Double(i)))
      }
      return (start, index, weight)
    }
    let xs = axis(origin.x, width), ys = axis(origin.y, height)
    let w = xs.index.count, h = ys.index.count
    var out = [UInt8](repeating: 0, count: w * h)
    // Each source row interpolated along x once (the same products and sums as pixel by
    // pixel), kept while the output rows between it and the next use it: a shadow of radius
    // 3,000 scaled 100 times drawn at a 20th of the density took 20 ms a frame to scale back.
    var upper = [Float](repeating: 0, count: w), lower = upper
    var upperRow = Int.min, lowerRow = Int.min
    pixels.withUnsafeBufferPointer { src in
      func interpolate(_ y: Int, into line: inout [Float]) {
        line.withUnsafeMutableBufferPointer { line in
          guard y >= 0, y < height else {
            // `0 * (1 - f) + 0 * f` at every column.
            line.update(repeating: 0)
            return
          }
          func at(_ x: Int) -> Float { x >= 0 && x < width ? Float(src[y * width + x]) : 0 }
          for column in 0..<w {
            let x0 = xs.index[column], fx = xs.weight[column]
            line[column] = at(x0) * (1 - fx) + at(x0 + 1) * fx
          }
        }
      }
      out.withUnsafeMutableBufferPointer { dst in
        for row in 0..<h {
          let y0 = ys.index[row], fy = ys.weight[row]
          if upperRow != y0 {
            if lowerRow == y0 {
              swap(&upper, &lower)
              (upperRow, lowerRow) = (y0, upperRow)
            } else {
              interpolate(y0, into: &upper)
              upperRow = y0
            }
          }
          if lowerRow != y0 + 1 {
            interpolate(y0 + 1, into: &lower)
            lowerRow = y0 + 1
          }
          upper.withUnsafeBufferPointer { top in
            lower.withUnsafeBufferPointer { bottom in
              for column in 0..<w {
                let value = top[column] * (1 - fy) + bottom[column] * fy
                // `value.rounded()` (halves up) within 0...255 without a call into libm: from
                // 0.5 on, adding a half and truncating rounds alike; below it the sum may
                // round up to 1.
                dst[row * w + column] = value >= 0.5 ? UInt8(Swift.min(255, value + 0.5)) : 0
              }
            }
          }
        }
      }
    }
    return AlphaMask(width: w, height: h, originX: xs.start, originY: ys.start, pixels: out)
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
  /// Below 6 pixels the Gaussian's kernel is applied directly (at most 37 taps, cut at 3σ: a
  /// blurred edge within a level of 255 of the Gaussian's); from 6 pixels on, Deriche's
  /// fourth-order recursive Gaussian along each axis (`RecursiveGaussian`: within a tenth of a
  /// level before rounding). Either way the time is linear in the pixels, with a bounded cost
  /// per pixel whatever `sigma` is.
  public func blurred(sigma: Double) -> AlphaMask {
    blurred(sigmaX: sigma, sigmaY: sigma)
  }

  /// The mask blurred by an axis-aligned Gaussian of standard deviation `sigmaX` pixels along
  /// each row and `sigmaY` pixels down each column (0 leaves that axis unblurred), grown by
  /// each axis's reach on both of its sides (its origin moves up and left by as much) and on
  /// the right to a width that is a multiple of 4. Each axis is blurred as `blurred(sigma:)`
  /// blurs it (a kernel below 6 pixels, Deriche's recursive Gaussian from 6 on); equal σs give
  /// exactly `blurred(sigma:)`'s pixels.
  public func blurred(sigmaX: Double, sigmaY: Double) -> AlphaMask {
    let everywhere = Int.max / 8
    guard sigmaX > 0 || sigmaY > 0,
      let whole = blurCrop(
        sigmaX: sigmaX, sigmaY: sigmaY, within: (-everywhere, -everywhere, everywhere, everywhere))
    else { return self }
    return blurred(sigmaX: sigmaX, sigmaY: sigmaY, in: whole)
  }
}

extension AlphaMask {
  /// The mask resampled for drawing with its pixel (0, 0) at device pixel `(x, y)`: the alpha
  /// that Cairo's `cairo_mask_surface` at `(x, y)` takes at each whole pixel, as a mask one
  /// pixel wider (taller) where the place has a fraction along x (y), to be drawn at the
  /// returned whole pixel without filtering; `nil` when Cairo itself draws the mask unfiltered
  /// (a place within 1/512 pixel of whole pixels along both axes, which it rounds to them) or
  /// the place is past 2^20 pixels.
  ///
  /// Pixman's bilinear filter, step by step: the place in 16.16 fixed point (rounded to
  /// nearest, ties to even), so every output pixel samples the same fraction `f` of a pixel
  /// along each axis; that fraction's 7 top bits as weights out of 256 (`(f >> 9) << 1`); the
  /// four neighbours' weighted sum shifted right by 16 (truncated); zero outside the mask.
  /// Byte for byte the same pixels (checked against Cairo by the tests), without Pixman's
  /// general per-pixel path.
  func placed(atDeviceX x: Double, y: Double) -> (mask: AlphaMask, x: Int, y: Int)? {
    let limit = Double(1 << 20)
    guard width > 0, height > 0, abs(x) < limit, abs(y) < limit else { return nil }
    let cairoX = (x * 256).rounded(.toNearestOrEven), cairoY = (y * 256).rounded(.toNearestOrEven)
    if cairoX.remainder(dividingBy: 256) == 0 && cairoY.remainder(dividingBy: 256) == 0 {
      return nil
    }
    let fixedX = Int((x * 65536).rounded(.toNearestOrEven))
    let fixedY = Int((y * 65536).rounded(.toNearestOrEven))
    let x0 = fixedX >> 16, y0 = fixedY >> 16
    let fx = fixedX - (x0 << 16), fy = fixedY - (y0 << 16)
    // Output pixel i samples source column i − 1 and i with weights (256 − dx, dx) when the
    // place has a fraction, columns i and i + 1 with (256, 0) when it has none; rows alike.
    let shiftX = fx == 0 ? 0 : 1, shiftY = fy == 0 ? 0 : 1
    let dx = UInt32(fx == 0 ? 0 : ((65536 - fx) >> 9) & 127) << 1
    let dy = UInt32(fy == 0 ? 0 : ((65536 - fy) >> 9) & 127) << 1
    let w00 = (256 - dx) * (256 - dy), w10 = dx * (256 - dy)
    let w01 = (256 - dx) * dy, w11 = dx * dy
    // One pixel more each way for the spread (only along an axis with a fraction), and rows a
    // multiple of 4 bytes long for Cairo.
    let ow = (width + shiftX + 3) / 4 * 4, oh = height + shiftY
    // The source with a border of zeros (one pixel each side, and on the right to the output's
    // width), so the loop needs no tests.
    let pw = ow + 2, ph = height + 2
    var padded = [UInt8](repeating: 0, count: pw * ph)
    padded.withUnsafeMutableBufferPointer { p in
      pixels.withUnsafeBufferPointer { s in
        for row in 0..<height {
          (p.baseAddress! + (row + 1) * pw + 1).update(
            from: s.baseAddress! + row * width, count: width)
        }
      }
    }
    let out = [UInt8](unsafeUninitializedCapacity: ow * oh) { o, count in
      padded.withUnsafeBufferPointer { p in
        for j in 0..<oh {
          // Source row j − shiftY (and the next) in padded rows: + 1 for the border.
          let top = p.baseAddress! + (j - shiftY + 1) * pw, bottom = top + pw
          let row = o.baseAddress! + j * ow
          // Padded column i − shiftX + 1 (and the next); columns past the mask read 0. Eight
          // pixels at a time, then one at a time.
          var i = 0
          while i + 8 <= ow {
            let c = i - shiftX + 1
            func load(_ p: UnsafePointer<UInt8>) -> SIMD8<UInt32> {
              SIMD8<UInt32>(
                truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
            }
            var sum = load(top + c) &* w00 &+ load(top + c + 1) &* w10
            sum &+= load(bottom + c) &* w01 &+ load(bottom + c + 1) &* w11
            UnsafeMutableRawPointer(row + i).storeBytes(
              of: SIMD8<UInt8>(truncatingIfNeeded: sum &>> 16), as: SIMD8<UInt8>.self)
            i += 8
          }
          while i < ow {
            let c = i - shiftX + 1
            let sum =
              UInt32(top[c]) * w00 + UInt32(top[c + 1]) * w10 + UInt32(bottom[c]) * w01
              + UInt32(bottom[c + 1]) * w11
            row[i] = UInt8(sum >> 16)
            i += 1
          }
        }
      }
      count = ow * oh
    }
    return (AlphaMask(width: ow, height: oh, pixels: out), x0, y0)
  }
}

/// Separable blurs of a float image: a direct Gaussian kernel for small σ, else Deriche's
/// recursive Gaussian (constant work per pixel whatever σ, in floats, eight columns or rows at
/// a time: `RecursiveGaussian`).
enum Blur {
  /// How one axis is blurred.
  enum Passes {
    /// A normalised kernel, centred.
    case kernel([Float])
    /// A recursive Gaussian, spreading a pixel `reach` pixels (4σ, past which 0.003 % of it
    /// would land).
    case recursive(RecursiveGaussian, reach: Int)

    /// How far, in pixels, the blur spreads a pixel.
    var reach: Int {
      switch self {
      case .kernel(let k): return k.count / 2
      case .recursive(_, let reach): return reach
      }
    }
  }

  /// The passes that blur with standard deviation `sigma` pixels.
  static func passes(sigma: Double) -> Passes {
    // Below a tenth of a pixel the kernel's side taps are under e^-50: the blur is no blur.
    // (Below about 1e-161, σ² underflowed to 0, the middle tap was 0/0, and a blurred layer or
    // shadow vanished.)
    if sigma < 0.1 { return .kernel([0, 1, 0]) }
    if sigma < kernelLimit {
      let r = Int((3 * sigma).rounded(.up))
      var k = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
      let sum = k.reduce(0, +)
      k = k.map { $0 / sum }
      return .kernel(k)
    }
    return .recursive(RecursiveGaussian(sigma: sigma), reach: Int((4 * sigma).rounded(.up)))
  }

  /// Below this σ (pixels) the kernel is applied directly (at most 37 taps).
  static let kernelLimit = 6.0

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
    switch passes {
    case .kernel(let k):
      var scratch = [Float](repeating: 0, count: buffer.count)
      buffer.withUnsafeMutableBufferPointer { a in
        scratch.withUnsafeMutableBufferPointer { b in
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
        }
      }
    case .recursive(let filter, _):
      // In floats, eight columns or rows at a time, in place (`RecursiveGaussian`: its
      // sections stay within a tenth of a level of the Gaussian in floats, whatever σ).
      let scratch = UnsafeMutablePointer<RecursiveGaussian.Lanes>.allocate(
        capacity: RecursiveGaussian.scratchCount(width: width, height: height))
      defer { scratch.deallocate() }
      buffer.withUnsafeMutableBufferPointer { b in
        guard let image = b.baseAddress else { return }
        if axes != .horizontal {
          filter.blurColumns(image, width: width, height: height, scratch: scratch)
        }
        if axes != .vertical {
          filter.blurRows(image, width: width, height: height, scratch: scratch)
        }
      }
    }
  }

  typealias Buffer = UnsafeMutableBufferPointer<Float>

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
}

extension AlphaMask {
  /// What blurring a mask over part of its blurred box takes, in this mask's pixel indices
  /// (pixel (0, 0) at 0, whatever `originX`/`originY` say): the pixels kept (`output`, its
  /// width a multiple of 4) and the float buffer blurred (`buffer`: the box around the mask's
  /// own pixels and `output`, outside which the blur's input is 0).
  public struct BlurCrop: Equatable, Sendable {
    /// The kept pixels: x0..<x1, y0..<y1.
    public var output: (x0: Int, y0: Int, x1: Int, y1: Int)
    /// The blurred pixels: x0..<x1, y0..<y1.
    public var buffer: (x0: Int, y0: Int, x1: Int, y1: Int)
    /// The buffer's width, in pixels.
    public var bufferWidth: Int { buffer.x1 - buffer.x0 }
    /// The buffer's height, in pixels.
    public var bufferHeight: Int { buffer.y1 - buffer.y0 }
    /// The pixels the blur goes over (the buffer's).
    public var bufferPixels: Int { bufferWidth * bufferHeight }

    public static func == (a: BlurCrop, b: BlurCrop) -> Bool {
      a.output == b.output && a.buffer == b.buffer
    }
  }

  /// How far, in pixels, a blur of standard deviation `sigma` pixels spreads a pixel (0 for
  /// none): the padding `blurred(sigmaX:sigmaY:)` grows a mask by along that axis.
  public static func blurReach(sigma: Double) -> Int {
    guard sigma > 0 else { return 0 }
    return Blur.passes(sigma: sigma).reach
  }

  /// The part of this mask's blur (σ `sigmaX`, `sigmaY` pixels) that falls within `region`
  /// (pixel indices of this mask, as `BlurCrop`), and the buffer blurring it takes; `nil`
  /// when none of the blurred box is in `region`.
  public func blurCrop(
    sigmaX: Double, sigmaY: Double, within region: (x0: Int, y0: Int, x1: Int, y1: Int)
  ) -> BlurCrop? {
    guard width > 0, height > 0 else { return nil }
    let padX = AlphaMask.blurReach(sigma: sigmaX), padY = AlphaMask.blurReach(sigma: sigmaY)
    let x0 = Swift.max(-padX, region.x0), y0 = Swift.max(-padY, region.y0)
    var x1 = Swift.min(width + padX, region.x1)
    let y1 = Swift.min(height + padY, region.y1)
    guard x0 < x1, y0 < y1 else { return nil }
    x1 = x0 + (x1 - x0 + 3) / 4 * 4  // rows a multiple of 4 bytes, as Cairo's A8 surfaces want
    return BlurCrop(
      output: (x0, y0, x1, y1),
      buffer: (Swift.min(0, x0), Swift.min(0, y0), Swift.max(width, x1), Swift.max(height, y1)))
  }

  /// The pixels of this mask's blur (σ `sigmaX` pixels along rows, `sigmaY` down columns) in
  /// `crop.output` only, blurred in `crop.buffer` (from `blurCrop`): the same pixels there as
  /// `blurred(sigmaX:sigmaY:)` gives, without the rest of its box (a blur of σ 10,000 pixels
  /// grows a mask by 40,000 on every side). The result's origin is this mask's plus the output's
  /// corner.
  public func blurred(sigmaX: Double, sigmaY: Double, in crop: BlurCrop) -> AlphaMask {
    let sx = sigmaX > 0 ? sigmaX : 0, sy = sigmaY > 0 ? sigmaY : 0
    let b = crop.buffer, o = crop.output
    let w = crop.bufferWidth, h = crop.bufferHeight
    var buffer = [Float](repeating: 0, count: w * h)
    buffer.withUnsafeMutableBufferPointer { buf in
      pixels.withUnsafeBufferPointer { p in
        for y in 0..<height {
          let row = buf.baseAddress! + (y - b.y0) * w - b.x0, source = p.baseAddress! + y * width
          for x in 0..<width { row[x] = Float(source[x]) }
        }
      }
    }
    let passesX = sx > 0 ? Blur.passes(sigma: sx) : nil
    let passesY = sy > 0 ? Blur.passes(sigma: sy) : nil
    if sx == sy, let passesX {
      Blur.apply(passesX, to: &buffer, width: w, height: h)
    } else {
      if let passesY { Blur.apply(passesY, to: &buffer, width: w, height: h, axes: .vertical) }
      if let passesX { Blur.apply(passesX, to: &buffer, width: w, height: h, axes: .horizontal) }
    }
    // Rounded to the nearest level (halves up): whole rows at once when every column is kept.
    let ow = o.x1 - o.x0, oh = o.y1 - o.y0
    var out: [UInt8] = []
    buffer.withUnsafeBufferPointer { buf in
      if ow == w {
        let start = buf.baseAddress! + (o.y0 - b.y0) * w
        out = Blur.levels(UnsafeBufferPointer(start: start, count: ow * oh))
        return
      }
      out.reserveCapacity(ow * oh)
      for y in o.y0..<o.y1 {
        let start = buf.baseAddress! + (y - b.y0) * w + (o.x0 - b.x0)
        out += Blur.levels(UnsafeBufferPointer(start: start, count: ow))
      }
    }
    return AlphaMask(
      width: ow, height: oh, originX: originX + o.x0, originY: originY + o.y0, pixels: out)
  }

  /// This mask at one pixel for every `factor` x `factor` of its own (the mean of each block,
  /// rounded; the last row and column of blocks cover what is left), its origin 0: a shape
  /// brought to a lower density before a blur so wide that its box is over the canvas limits.
  public func reduced(by factor: Int) -> AlphaMask {
    guard factor > 1, width > 0, height > 0 else { return self }
    let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
    var sums = [UInt32](repeating: 0, count: w * h)
    pixels.withUnsafeBufferPointer { p in
      for y in 0..<height {
        let row = (y / factor) * w
        for x in 0..<width { sums[row + x / factor] += UInt32(p[y * width + x]) }
      }
    }
    let area = UInt32(factor * factor)
    let out = sums.map { UInt8((($0 + area / 2) / area)) }
    return AlphaMask(width: w, height: h, pixels: out)
  }
}
