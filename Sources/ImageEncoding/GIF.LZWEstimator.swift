extension GIF {
  /// The size GIF's LZW coder gives a run of indices, computed by running the same dictionary
  /// rules and counting code bits without emitting them. Used to choose between ways of storing
  /// a frame; giflib writes the chosen one.
  struct LZWEstimator {
    // Open-addressing table from (prefix code, next index) to code; reused between calls.
    private var keys = [UInt32](repeating: .max, count: 1 << 14)
    private var codes = [UInt16](repeating: 0, count: 1 << 14)
    private var used: [Int] = []

    /// The number of bytes of LZW data (sub-block framing included) for `pixels` coded with a
    /// minimum code size of `minimumCodeSize` bits.
    mutating func size(of pixels: [UInt8], minimumCodeSize: Int) -> Int {
      guard !pixels.isEmpty else { return 2 }
      let clear = 1 << minimumCodeSize
      var next = clear + 2
      var width = minimumCodeSize + 1
      var bits = width  // the initial clear code
      var prefix = UInt32(pixels[0])
      resetTable()
      pixels.withUnsafeBufferPointer { p in
        for i in 1..<p.count {
          let c = UInt32(p[i])
          let key = prefix << 8 | c
          var slot = Int((key &* 2_654_435_761) >> 18) & ((1 << 14) - 1)
          var found = false
          while keys[slot] != .max {
            if keys[slot] == key {
              prefix = UInt32(codes[slot])
              found = true
              break
            }
            slot = (slot + 1) & ((1 << 14) - 1)
          }
          if found { continue }
          bits += width
          if next < 4096 {
            keys[slot] = key
            codes[slot] = UInt16(next)
            used.append(slot)
            if next == (1 << width) && width < 12 { width += 1 }
            next += 1
          } else {
            bits += width  // a clear code, then start again
            resetTable()
            next = clear + 2
            width = minimumCodeSize + 1
          }
          prefix = c
        }
      }
      bits += width * 2  // the last code and the end code
      let bytes = (bits + 7) / 8
      return bytes + bytes / 255 + 2
    }

    private mutating func resetTable() {
      for slot in used { keys[slot] = .max }
      used.removeAll(keepingCapacity: true)
    }
  }
}
