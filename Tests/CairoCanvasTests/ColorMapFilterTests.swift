@testable import CairoCanvas
import Geometry
import Scenes
import Glibc
import Testing

/// Tint and tritone read each channel's linear-light value from a table and map each distinct
/// pixel once: the same bytes as the per-pixel formula (scene-format.md, "Filters").
@Suite struct ColorMapFilterTests {
  /// The per-pixel formula, four powers a pixel, as the filters computed it before the table.
  static func reference(_ filter: LayerFilter, _ p: UInt32) -> UInt32 {
    let a8 = p >> 24
    guard a8 > 0 else { return p }
    let a = Double(a8) / 255
    let r = Double((p >> 16) & 0xFF) / 255, g = Double((p >> 8) & 0xFF) / 255
    let b = Double(p & 0xFF) / 255
    let level = PremultipliedPixels.greyLevel(r / a, g / a, b / a)
    switch filter {
    case .tint(let black, let white, let amount):
      let (mr, mg, mb) = PremultipliedPixels.mix(black, white, level)
      let t = a * amount
      func over(_ top: Double, _ below: Double) -> Double { top * t + below * (1 - t) }
      let outA = t + (1 - t) * (t + (1 - t) * a)
      return PremultipliedPixels.pack(
        over(mr, over(level, r)) / outA, over(mg, over(level, g)) / outA,
        over(mb, over(level, b)) / outA, outA)
    case .tritone(let bright, let midtone, let dark, let k):
      let (mr, mg, mb) =
        level < 0.5
        ? PremultipliedPixels.mix(dark, midtone, level * 2)
        : PremultipliedPixels.mix(midtone, bright, level * 2 - 1)
      let (sr, sg, sb) = (r / a, g / a, b / a)
      return PremultipliedPixels.pack(
        sr + (mr - sr) * k, sg + (mg - sg) * k, sb + (mb - sb) * k, a)
    default:
      return p
    }
  }

  /// 200,000 pixels: random premultiplied ones (each channel up to its alpha), every grey of
  /// every alpha, and runs of one pixel (what the map keeps), each filtered as the formula.
  @Test(arguments: [
    LayerFilter.tint(black: Color(red: 0.1, green: 0.14, blue: 0.49), white: .white, amount: 1),
    .tint(black: .black, white: Color(red: 1, green: 0.92, blue: 0.23), amount: 0.37),
    .tritone(bright: .white, midtone: .red, dark: Color(red: 0, green: 0, blue: 0.3), amount: 1),
    .tritone(bright: .white, midtone: Color(white: 0.5), dark: .black, amount: 0.75),
  ])
  func givesTheFormulasBytes(filter: LayerFilter) {
    var generator = SeededGenerator(seed: 18)
    var source: [UInt32] = []
    for a in UInt32(0)...255 {
      for c in UInt32(0)...a { source.append(a << 24 | c << 16 | c << 8 | c) }
    }
    while source.count < 200_000 {
      let a = UInt32.random(in: 0...255, using: &generator)
      let p =
        a << 24 | UInt32.random(in: 0...a, using: &generator) << 16
        | UInt32.random(in: 0...a, using: &generator) << 8
        | UInt32.random(in: 0...a, using: &generator)
      source += Array(repeating: p, count: Int.random(in: 1...3, using: &generator))
    }
    let width = 400, height = source.count / width
    source.removeLast(source.count - width * height)
    var pixels = source
    pixels.withUnsafeMutableBytes { raw in
      PremultipliedPixels(
        data: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), width: width, height: height,
        stride: width * 4
      ).apply(filter, pixelsPerPoint: 1)
    }
    let wrong = zip(source, pixels).filter { ColorMapFilterTests.reference(filter, $0) != $1 }
    #expect(wrong.count == 0, "\(wrong.prefix(5))")
    // Transparent pixels stay as they are.
    #expect(zip(source, pixels).allSatisfy { $0 >> 24 != 0 || $0 == $1 })
  }

  /// The table holds what the formula computes for each level over each alpha.
  @Test func linearTableIsTheFormulas() {
    var wrong = 0
    for a in 1...255 {
      for c in 0...255
      where PremultipliedPixels.linearOfStraight[a << 8 | c]
        != PremultipliedPixels.linear(Double(c) / 255 / (Double(a) / 255))
      {
        wrong += 1
      }
    }
    #expect(wrong == 0)
    #expect(PremultipliedPixels.linearOfStraight[0..<256].allSatisfy { $0 == 0 })
  }

  /// Packing rounds each level as `rounded()` does (halves up), at and beside every half.
  @Test func packingRoundsHalvesUp() {
    func reference(_ v: Double) -> UInt32 {
      UInt32((Swift.min(1, Swift.max(0, v)) * 255).rounded())
    }
    var values: [Double] = [0, 1, -1, 2, .nan, .infinity, 0.5.nextDown / 255, 0.5 / 255]
    for k in 0...255 {
      let half = (Double(k) + 0.5) / 255
      values += [half, half.nextDown, half.nextUp, Double(k) / 255]
    }
    var generator = SeededGenerator(seed: 18)
    for _ in 0..<10_000 { values.append(Double.random(in: 0...1, using: &generator)) }
    let wrong = values.filter { v in
      PremultipliedPixels.pack(v, 0, 0, 1) >> 16 & 0xFF != (v.isNaN ? 0 : reference(v))
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    #expect(PremultipliedPixels.pack(0.2, 0.4, 0.6, 0.5) == 0x801A_334D)
  }
}
