extension GIF {
  /// The size GIF's LZW coder gives a run of indices, computed by running the same dictionary
  /// rules and counting code bits without emitting them. Used to choose between ways of storing
  /// a frame; giflib writes the chosen one.
  struct LZWEstimator {
    // Open-addressing table from (prefix code, next index) to code, reused between calls: each
    // entry packs the key (a 12-bit prefix and an 8-bit index) above the 12-bit code, so one
    // load answers a probe; `empty` marks a free slot. No entry is all ones: prefix 4095 exists
    // only once code 4095 is given, and no code is added after that one.
    private static let slotBits = 14
    private static let empty = UInt32.max
    private var table = [UInt32](repeating: empty, count: 1 << slotBits)
    private var used: [Int32] = []

    /// The number of bytes of LZW data (sub-block framing included) for `pixels` coded with a
    /// minimum code size of `minimumCodeSize` bits.
    mutating func size(of pixels: [UInt8], minimumCodeSize: Int) -> Int {
      guard !pixels.isEmpty else { return 2 }
      let clear = 1 << minimumCodeSize
      var next = clear + 2
      var width = minimumCodeSize + 1
      var bits = width  // the initial clear code
      resetTable()
      let mask = (1 << Self.slotBits) - 1
      used.reserveCapacity(4096)
      table.withUnsafeMutableBufferPointer { table in
        pixels.withUnsafeBufferPointer { p in
          var prefix = UInt32(p[0])
          for i in 1..<p.count {
            let c = UInt32(p[i])
            let key = prefix << 8 | c
            var slot = Int(truncatingIfNeeded: (key &* 2_654_435_761) >> 18) & mask
            var found = false
            while true {
              let entry = table[slot]
              if entry == Self.empty { break }
              if entry >> 12 == key {
                prefix = entry & 0xFFF
                found = true
                break
              }
              slot = (slot + 1) & mask
            }
            if found { continue }
            bits += width
            if next < 4096 {
              table[slot] = key << 12 | UInt32(next)
              used.append(Int32(slot))
              if next == (1 << width) && width < 12 { width += 1 }
              next += 1
            } else {
              bits += width  // a clear code, then start again
              for slot in used { table[Int(slot)] = Self.empty }
              used.removeAll(keepingCapacity: true)
              next = clear + 2
              width = minimumCodeSize + 1
            }
            prefix = c
          }
        }
      }
      bits += width * 2  // the last code and the end code
      let bytes = (bits + 7) / 8
      return bytes + bytes / 255 + 2
    }

    private mutating func resetTable() {
      for slot in used { table[Int(slot)] = Self.empty }
      used.removeAll(keepingCapacity: true)
    }
  }
}
