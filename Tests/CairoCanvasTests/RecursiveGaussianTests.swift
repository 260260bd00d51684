@testable import CairoCanvas
import Glibc
import Testing

/// The recursive Gaussian in floats: its accuracy before rounding at every σ a blur can ask
/// for, the image passes against the one-signal filter, and the rounding to levels.
@Suite struct RecursiveGaussianTests {
  /// The Gaussian's cumulative distribution: the profile of a blurred straight edge.
  func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.squareRoot())) }

  /// `signal` (one signal, zero outside) blurred by `filter` in lane 0.
  func blurred(_ signal: [Float], _ filter: RecursiveGaussian) -> [Float] {
    let input = signal.map { value in
      var lanes = RecursiveGaussian.Lanes()
      lanes[0] = value
      return lanes
    }
    var output = [RecursiveGaussian.Lanes](repeating: .zero, count: signal.count)
    input.withUnsafeBufferPointer { x in
      output.withUnsafeMutableBufferPointer {
        filter.filter(x.baseAddress!, into: $0.baseAddress!, count: signal.count)
      }
    }
    return output.map { $0[0] }
  }

  /// Measured before rounding to levels, the largest error (levels of 255): 0.084 at σ 6 (the
  /// fit sampled at whole pixels), 0.039 at σ 10, 0.034 to 0.036 from σ 20 to 1,000 (the fit
  /// itself, whose tail 5σ out is still felt), 0.048 at σ 10,000 and 0.135 at σ 65,536 (the
  /// floats' rounding over up to 1.7 million samples; 65,536 is the widest blur a filter asks
  /// for). The direct fourth-order recurrence in floats was 0.95 levels off at σ 20, 109 at
  /// σ 100. Rounded to levels, every σ is within 0.5 + these of the Gaussian: under 1 level.
  @Test(arguments: [
    (6.0, 0.09), (10.0, 0.045), (20.0, 0.04), (40.0, 0.04), (100.0, 0.04), (300.0, 0.04),
    (1000.0, 0.04), (10000.0, 0.055), (65536.0, 0.15),
  ])
  func edgeFollowsTheGaussianBeforeRounding(sigma: Double, tolerance: Double) {
    // An edge with 4σ of zeros before it (the blur's reach, as the masks are grown) and 9σ of
    // 255 after it, then zeros: samples within 4σ of the edge are 5σ from the far end.
    let reach = Int((4 * sigma).rounded(.up)), edge = reach + Int(4 * sigma)
    let count = edge + Int(9 * sigma) + reach
    let signal = (0..<count).map { Float($0 >= edge && $0 < count - reach ? 255 : 0) }
    let out = blurred(signal, RecursiveGaussian(sigma: sigma))
    var worst = 0.0
    for n in (edge - Int(4 * sigma))..<(edge + Int(4 * sigma)) {
      let expected = phi((Double(n - edge) + 0.5) / sigma) * 255
      worst = max(worst, abs(Double(out[n]) - expected))
    }
    #expect(worst <= tolerance, "σ \(sigma): \(worst) levels from Φ before rounding")
  }

  /// The delta-form passes written out one sample at a time over every sample: what `filter`
  /// computes, without its skipping of leading and trailing zeros.
  func reference(_ x: [Float], _ filter: RecursiveGaussian) -> [Float] {
    var out = [Float](repeating: 0, count: x.count)
    for section in filter.sections {
      var y: Float = 0, g: Float = 0, previous: Float = 0
      for n in x.indices {
        g = section.p * x[n] + section.q * (x[n] - previous) - section.k * y + section.d2 * g
        y += g
        previous = x[n]
        out[n] += y
      }
    }
    var anticausal = [Float](repeating: 0, count: x.count)
    for section in filter.sections {
      var y: Float = 0, g: Float = 0, next: Float = 0, afterNext: Float = 0
      for n in x.indices.reversed() {
        g = section.pa * next + section.qa * (next - afterNext) - section.k * y + section.d2 * g
        y += g
        (afterNext, next) = (next, x[n])
        anticausal[n] += y
      }
    }
    return zip(out, anticausal).map { $0 + $1 }
  }

  @Test func zeroMarginsAreSkippedWithoutChangingValues() {
    // Zeros before, between and after values, and signals of zeros only or of one sample.
    let filter = RecursiveGaussian(sigma: 9)
    var state: UInt64 = 11
    let interior = (0..<50).map { i -> Float in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return i % 7 == 3 ? 0 : Float(state >> 56)
    }
    let signals: [[Float]] = [
      [Float](repeating: 0, count: 30) + interior + [Float](repeating: 0, count: 40),
      interior + [0, 0, 0], [0, 0] + interior, [Float](repeating: 0, count: 12), [0, 0, 255, 0],
      [7],
    ]
    for signal in signals {
      #expect(blurred(signal, filter) == reference(signal, filter), "\(signal.count) samples")
    }
  }

  @Test func flatSignalStaysFlat() {
    // The sections' weights sum to 1 for a flat signal: deep inside a long run of 255 the
    // output is 255 within the floats' rounding, which grows with σ.
    // Measured: 0.000015 levels at σ 6, 0.0002 at σ 50, 0.018 at σ 2,000.
    for (sigma, tolerance) in [(6.0, 0.001), (50.0, 0.001), (2000.0, 0.03)] {
      let count = Int(40 * sigma)
      let out = blurred([Float](repeating: 255, count: count), RecursiveGaussian(sigma: sigma))
      #expect(abs(Double(out[count / 2]) - 255) <= tolerance, "σ \(sigma): \(out[count / 2])")
    }
  }

  /// An image of pseudo-random values 0...255, `width × height`.
  func noise(_ width: Int, _ height: Int) -> [Float] {
    var state: UInt64 = 3
    return (0..<(width * height)).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(state >> 56)
    }
  }

  @Test(arguments: [(37, 29), (8, 8), (16, 3), (45, 19), (3, 21)])
  func imagePassesBlurEachRowAndColumnAsOneSignal(width: Int, height: Int) {
    // Sizes with and without whole sets of eight rows or columns and whole 4 x 4 blocks: every
    // lane computes alone, so each row (column) is the filter of that row (column), bit for bit.
    let filter = RecursiveGaussian(sigma: 7)
    let image = noise(width, height)
    var rows = image, columns = image
    let scratch = UnsafeMutablePointer<RecursiveGaussian.Lanes>.allocate(
      capacity: RecursiveGaussian.scratchCount(width: width, height: height))
    defer { scratch.deallocate() }
    rows.withUnsafeMutableBufferPointer {
      filter.blurRows($0.baseAddress!, width: width, height: height, scratch: scratch)
    }
    columns.withUnsafeMutableBufferPointer {
      filter.blurColumns($0.baseAddress!, width: width, height: height, scratch: scratch)
    }
    for y in 0..<height {
      let row = Array(image[(y * width)..<((y + 1) * width)])
      #expect(Array(rows[(y * width)..<((y + 1) * width)]) == blurred(row, filter), "row \(y)")
    }
    for x in 0..<width {
      let column = (0..<height).map { image[$0 * width + x] }
      #expect(
        (0..<height).map { columns[$0 * width + x] } == blurred(column, filter), "column \(x)")
    }
  }

  @Test func levelsRoundHalvesUpAndClamp() {
    // Every quarter from −10 to 300 (halves included), in a count that leaves a tail of fewer
    // than eight: the same levels as the scalar conversion.
    let values = (0..<1243).map { Float($0) / 4 - 10 }
    let levels = values.withUnsafeBufferPointer { Blur.levels($0) }
    #expect(levels == values.map { UInt8(min(255, max(0, $0) + 0.5)) })
    #expect(levels[(2 + 10) * 4 + 2] == 3)  // 2.5 → 3
    #expect(levels[(254 + 10) * 4 + 2] == 255)  // 254.5 → 255
    #expect(levels[0] == 0 && levels.last == 255)
  }
}
