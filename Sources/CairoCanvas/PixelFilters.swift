import Geometry
import Glibc

/// The pixels of a mapped Cairo ARGB32 surface (premultiplied, native-endian `0xAARRGGBB`),
/// rewritten in place by layer filters and mask modes.
struct PremultipliedPixels {
  let data: UnsafeMutablePointer<UInt8>
  let width: Int
  let height: Int
  let stride: Int

  /// Calls `body` with each row as 32-bit pixels.
  func forEachRow(_ body: (UnsafeMutablePointer<UInt32>) -> Void) {
    for y in 0..<height {
      (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { body($0) }
    }
  }

  /// Each pixel becomes opaque white times its luminance (BT.709 weights of the premultiplied
  /// red, green and blue: the color over black), or times one minus it when `inverted`: what a
  /// luminance mask's alpha is.
  func replaceAlphaWithLuminance(inverted: Bool) {
    forEachRow { row in
      for x in 0..<width {
        let p = row[x]
        let r = Double((p >> 16) & 0xFF), g = Double((p >> 8) & 0xFF), b = Double(p & 0xFF)
        var l = UInt32(Swift.min(255, (0.2126 * r + 0.7152 * g + 0.0722 * b).rounded()))
        if inverted { l = 255 - l }
        row[x] = l << 24 | l << 16 | l << 8 | l
      }
    }
  }

  /// Applies one filter (`LayerFilter`); a blur's radius is converted to pixels by
  /// `pixelsPerPoint`.
  func apply(_ filter: LayerFilter, pixelsPerPoint: Double) {
    switch filter {
    case .gaussianBlur(let radius):
      blur(sigma: radius * pixelsPerPoint, axes: .both)
    case .directionalBlur(let radius, let axis):
      blur(sigma: radius * pixelsPerPoint, axes: axis == .horizontal ? .horizontal : .vertical)
    case .fill(let color, let opacity):
      let o = Swift.min(1, Swift.max(0, opacity))
      forEachRow { row in
        for x in 0..<width {
          let a = Double(row[x] >> 24) / 255 * o
          row[x] = Self.pack(color.red, color.green, color.blue, a)
        }
      }
    case .tint(let black, let white, let amount):
      tint(black: black, white: white, amount: amount)
    case .tritone(let bright, let midtone, let dark, let amount):
      tritone(bright: bright, midtone: midtone, dark: dark, amount: amount)
    }
  }

  /// Lottie's Tint as lottie-web builds it: the grey level (as `greyLevel`) at alpha × `amount`,
  /// then that level mapped from `black` to `white` at alpha × `amount`, both composited over
  /// the pixel (SVG's feMerge of the source and its two color matrices).
  private func tint(black: Color, white: Color, amount: Double) {
    let k = Swift.min(1, Swift.max(0, amount))
    guard k > 0 else { return }
    mapPixels { p, a8 in
      let a = Double(a8) / 255
      let r = Double((p >> 16) & 0xFF) / 255, g = Double((p >> 8) & 0xFF) / 255
      let b = Double(p & 0xFF) / 255
      let level = Self.greyLevel(ofPremultiplied: p, alpha: a8)
      let (mr, mg, mb) = Self.mix(black, white, level)
      let t = a * k  // the alpha of both tinted layers
      // Premultiplied: source, the grey over it, the mapped color over that.
      func over(_ top: Double, _ below: Double) -> Double { top * t + below * (1 - t) }
      let outA = t + (1 - t) * (t + (1 - t) * a)
      let outR = over(mr, over(level, r)), outG = over(mg, over(level, g))
      let outB = over(mb, over(level, b))
      return Self.pack(outR / outA, outG / outA, outB / outA, outA)
    }
  }

  /// Lottie's Tritone: each pixel's grey level (as `greyLevel`) mapped through `dark` (0),
  /// `midtone` (0.5) and `bright` (1), mixed with its own color by `amount`; alpha is kept.
  private func tritone(bright: Color, midtone: Color, dark: Color, amount: Double) {
    let k = Swift.min(1, Swift.max(0, amount))
    guard k > 0 else { return }
    mapPixels { p, a8 in
      let a = Double(a8) / 255
      let r = Double((p >> 16) & 0xFF) / 255 / a, g = Double((p >> 8) & 0xFF) / 255 / a
      let b = Double(p & 0xFF) / 255 / a
      let level = Self.greyLevel(ofPremultiplied: p, alpha: a8)
      let (mr, mg, mb) =
        level < 0.5
        ? Self.mix(dark, midtone, level * 2) : Self.mix(midtone, bright, level * 2 - 1)
      return Self.pack(r + (mr - r) * k, g + (mg - g) * k, b + (mb - b) * k, a)
    }
  }

  /// Replaces every pixel that is not fully transparent by `map` of it and its alpha. What a
  /// pixel maps to is kept in 4,096 places chosen by a hash of it, so a pixel seen before
  /// (most drawings repeat colors) is not mapped again: a grey level costs a power function,
  /// and tint over a frame of one color took twice a Gaussian blur's time.
  @inline(__always)
  private func mapPixels(_ map: (UInt32, UInt32) -> UInt32) {
    // Pixels seen, by their low 12 bits of a hash (0: none; a transparent pixel is not mapped).
    let slots = 4096
    let seen = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * slots)
    defer { seen.deallocate() }
    seen.initialize(repeating: 0, count: 2 * slots)
    forEachRow { row in
      for x in 0..<width {
        let p = row[x]
        let a8 = p >> 24
        guard a8 > 0 else { continue }
        let slot = Int(((p &* 0x9E37_79B1) >> 20) & UInt32(slots - 1)) * 2
        if seen[slot] == p {
          row[x] = seen[slot + 1]
          continue
        }
        let mapped = map(p, a8)
        seen[slot] = p
        seen[slot + 1] = mapped
        row[x] = mapped
      }
    }
  }

  /// The grey level of a premultiplied pixel of alpha `a8` (1...255), as `greyLevel` of its
  /// straight color: the linear-light value of each channel read from a table (the same
  /// values `linear` gives for the channel over the alpha, each level in 0...1).
  static func greyLevel(ofPremultiplied p: UInt32, alpha a8: UInt32) -> Double {
    let row = Int(a8) << 8
    return linearOfStraight.withUnsafeBufferPointer { table in
      sRGB(
        (table[row | Int((p >> 16) & 0xFF)] + table[row | Int((p >> 8) & 0xFF)]
          + table[row | Int(p & 0xFF)]) / 3)
    }
  }

  /// `linear(Double(c) / 255 / (Double(a) / 255))` at index `a << 8 | c`: the linear-light
  /// value of a premultiplied component level `c` of a pixel of alpha level `a` (0 where `a` is
  /// 0), exactly as the filters computed it per pixel (65,536 powers once, where a frame of
  /// 64 megapixels took 192 million).
  static let linearOfStraight: [Double] = (0..<65_536).map { i in
    let a = Double(i >> 8) / 255
    return a > 0 ? linear(Double(i & 0xFF) / 255 / a) : 0
  }

  /// Blurs the four premultiplied channels with a Gaussian of standard deviation `sigma` pixels
  /// (the shadows' blur, `Blur`), zero outside the surface. Only the drawn pixels' bounding box,
  /// grown by the blur's reach, is blurred: the rest stays transparent.
  private func blur(sigma: Double, axes: Blur.Axes) {
    guard sigma > 0, sigma.isFinite, width > 0, height > 0 else { return }
    let passes = Blur.passes(sigma: Swift.min(sigma, 4 * Double(Swift.max(width, height))))
    guard let drawn = drawnBox() else { return }
    let reach = passes.reach + 1
    let reachX = axes == .vertical ? 0 : reach, reachY = axes == .horizontal ? 0 : reach
    let x0 = Swift.max(0, drawn.x0 - reachX), x1 = Swift.min(width, drawn.x1 + reachX)
    let y0 = Swift.max(0, drawn.y0 - reachY), y1 = Swift.min(height, drawn.y1 + reachY)
    let w = x1 - x0, h = y1 - y0
    var channel = [Float](repeating: 0, count: w * h)
    func rows(_ body: (UnsafeMutablePointer<UInt32>, Int) -> Void) {
      for y in y0..<y1 {
        (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) {
          body($0 + x0, (y - y0) * w)
        }
      }
    }
    for shift in [UInt32(24), 16, 8, 0] {
      rows { row, i in
        for x in 0..<w { channel[i + x] = Float((row[x] >> shift) & 0xFF) }
      }
      Blur.apply(passes, to: &channel, width: w, height: h, axes: axes)
      rows { row, i in
        for x in 0..<w {
          let v = UInt32(Swift.min(255, Swift.max(0, channel[i + x]) + 0.5))
          row[x] = (row[x] & ~(0xFF << shift)) | v << shift
        }
      }
    }
    // Rounding per channel may leave a color component above alpha; premultiplied pixels
    // must not have one.
    rows { row, _ in
      for x in 0..<w {
        let p = row[x], a = p >> 24
        let r = Swift.min(a, (p >> 16) & 0xFF), g = Swift.min(a, (p >> 8) & 0xFF)
        let b = Swift.min(a, p & 0xFF)
        row[x] = a << 24 | r << 16 | g << 8 | b
      }
    }
  }

  /// The bounding box of the pixels that are not fully transparent (`x1`, `y1` exclusive), or
  /// `nil` when there are none.
  func drawnBox() -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
    var x0 = width, y0 = height, x1 = 0, y1 = 0
    var y = 0
    forEachRow { row in
      for x in 0..<width where row[x] != 0 {
        x0 = Swift.min(x0, x)
        x1 = Swift.max(x1, x + 1)
        y0 = Swift.min(y0, y)
        y1 = Swift.max(y1, y + 1)
      }
      y += 1
    }
    return x1 > x0 ? (x0, y0, x1, y1) : nil
  }

  /// The grey level of a straight sRGB color, as lottie-web's effects take it: the mean of the
  /// linear-light channels (a color matrix in linearRGB), back in sRGB.
  static func greyLevel(_ r: Double, _ g: Double, _ b: Double) -> Double {
    sRGB((linear(r) + linear(g) + linear(b)) / 3)
  }

  /// A straight color (components 0...1) and alpha as a premultiplied pixel.
  static func pack(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> UInt32 {
    // NaN (a color given as NaN from Swift) counts as 0, so that no conversion traps.
    func unit(_ x: Double) -> Double { x.isNaN ? 0 : Swift.min(1, Swift.max(0, x)) }
    // `(unit(x) * 255).rounded()` (halves up) without a call into libm nor a branch the data
    // decides: from 0.5 on, adding a half is exact (the sum keeps the value's spacing or gains
    // only whole halves), so its truncation rounds; below it the sum may round up to 1.
    func level(_ x: Double) -> UInt32 {
      let v = unit(x) * 255
      return v < 0.5 ? 0 : UInt32(v + 0.5)
    }
    let alpha = unit(a)
    return level(alpha) << 24 | level(r * alpha) << 16 | level(g * alpha) << 8 | level(b * alpha)
  }

  /// The color a fraction `t` of the way from `a` to `b` (red, green, blue).
  static func mix(_ a: Color, _ b: Color, _ t: Double) -> (Double, Double, Double) {
    (
      a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
      a.blue + (b.blue - a.blue) * t
    )
  }

  /// An sRGB component (0...1) in linear light.
  static func linear(_ c: Double) -> Double {
    c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  /// A linear-light component (0...1) in sRGB.
  static func sRGB(_ c: Double) -> Double {
    c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
  }
}
