/// PNG chunks for tests that change a file's chunks by hand: their CRCs made right again, so
/// that the change the test means is what a reader meets (a reader refuses a chunk whose CRC
/// does not match before it reads the field the test changed).
public enum PNGChunks {
  /// `bytes` (a PNG or APNG: the signature, then chunks) with every whole chunk's CRC
  /// computed anew; bytes after the last whole chunk are kept as they are.
  public static func fixingCRCs(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var at = 8
    while at + 12 <= out.count {
      let length =
        Int(out[at]) << 24 | Int(out[at + 1]) << 16 | Int(out[at + 2]) << 8 | Int(out[at + 3])
      guard at + 12 + length <= out.count else { break }
      let crc = crc32(out[(at + 4)..<(at + 8 + length)])
      let end = at + 8 + length
      (out[end], out[end + 1], out[end + 2], out[end + 3]) = (
        UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)
      )
      at = end + 4
    }
    return out
  }

  /// The CRC-32 PNG uses (ISO 3309, reflected, polynomial 0xEDB88320) of `bytes`.
  public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }
}
