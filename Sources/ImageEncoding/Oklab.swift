import Geometry
import Glibc

/// A color in Oklab (Björn Ottosson's perceptual space), where Euclidean distance follows how
/// different colors look: what the quantizer clusters in and the nearest-color search measures.
struct Oklab: Hashable {
  var l: Float, a: Float, b: Float

  /// sRGB 8-bit components to linear light, once per level.
  static let linear: [Float] = (0..<256).map { v in
    let c = Float(v) / 255
    return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
  }

  init(l: Float, a: Float, b: Float) {
    (self.l, self.a, self.b) = (l, a, b)
  }

  init(r: UInt8, g: UInt8, b blue: UInt8) {
    self.init(linearR: Oklab.linear[Int(r)], g: Oklab.linear[Int(g)], b: Oklab.linear[Int(blue)])
  }

  init(linearR r: Float, g: Float, b: Float) {
    let l = cbrtf(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    let m = cbrtf(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    let s = cbrtf(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    self.l = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
    self.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
    self.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
  }

  /// Back to 8-bit sRGB, rounded and clamped.
  var srgb: RGBA8 {
    // The cone responses' cube roots (Oklab's l', m', s').
    let lRoot = l + 0.3963377774 * a + 0.2158037573 * b
    let mRoot = l - 0.1055613458 * a - 0.0638541728 * b
    let sRoot = l - 0.0894841775 * a - 1.2914855480 * b
    let (l3, m3, s3) = (lRoot * lRoot * lRoot, mRoot * mRoot * mRoot, sRoot * sRoot * sRoot)
    let r = 4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3
    let g = -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3
    let bl = -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3
    func encode(_ c: Float) -> UInt8 {
      let v = c <= 0.0031308 ? 12.92 * c : 1.055 * powf(Swift.max(c, 0), 1 / 2.4) - 0.055
      return UInt8(Swift.max(0, Swift.min(255, (v * 255).rounded())))
    }
    return RGBA8(encode(r), encode(g), encode(bl), 255)
  }

  @inline(__always) func distanceSquared(_ o: Oklab) -> Float {
    let dl = l - o.l, da = a - o.a, db = b - o.b
    return dl * dl + da * da + db * db
  }
}
