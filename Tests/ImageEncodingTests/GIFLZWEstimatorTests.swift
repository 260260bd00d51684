import Testing

@testable import ImageEncoding

/// The encoder chooses how to store a frame by `GIF.LZWEstimator`'s sizes: they must be the
/// sizes GIF's LZW rules give, here counted by a plain dictionary coder written from the rules.
@Suite struct GIFLZWEstimatorTests {
  /// The LZW data size of `pixels` by the book: a clear code first, codes widening when the
  /// next code reaches a power of two (up to 12 bits), a clear code when the table is full, the
  /// last code and the end code, then 255-byte sub-blocks (a length byte each), the minimum
  /// code size byte and the block terminator.
  func referenceSize(_ pixels: [UInt8], minimumCodeSize: Int) -> Int {
    let clear = 1 << minimumCodeSize
    var table: [[UInt8]: Int] = [:]
    var next = clear + 2
    var width = minimumCodeSize + 1
    var bits = width
    var current: [UInt8] = [pixels[0]]
    for c in pixels.dropFirst() {
      let extended = current + [c]
      if extended.count == 1 || table[extended] != nil {
        current = extended
        continue
      }
      bits += width
      if next < 4096 {
        table[extended] = next
        if next == 1 << width && width < 12 { width += 1 }
        next += 1
      } else {
        bits += width
        table.removeAll()
        next = clear + 2
        width = minimumCodeSize + 1
      }
      current = [c]
    }
    bits += width * 2
    let bytes = (bits + 7) / 8
    return bytes + bytes / 255 + 2
  }

  @Test(arguments: [
    (2, 0), (2, 1), (4, 2), (8, 3), (8, 4),
  ])
  func sizesAreWhatTheRulesGive(codeSize: Int, seed: Int) {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    func random() -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state >> 33)
    }
    var estimator = GIF.LZWEstimator()
    let colors = 1 << codeSize
    for count in [1, 2, 300, 5_000, 40_000] {
      // Runs of a few colors (as a UI frame gives) and noise (which fills the table and clears).
      var pixels: [UInt8] = []
      while pixels.count < count {
        let color = UInt8(random() % colors)
        let run = seed % 2 == 0 ? 1 : 1 + random() % 40
        pixels += [UInt8](repeating: color, count: Swift.min(run, count - pixels.count))
      }
      let estimated = estimator.size(of: pixels, minimumCodeSize: codeSize)
      let expected = referenceSize(pixels, minimumCodeSize: codeSize)
      #expect(estimated == expected, "\(count) pixels, \(colors) colors")
    }
  }
}
