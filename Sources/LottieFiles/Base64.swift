/// Base64 (RFC 4648, standard alphabet) decoding for embedded images (`data:...;base64,`).
enum Base64 {
  private static let table: [UInt8] = {
    var t = [UInt8](repeating: 0xFF, count: 256)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
    // The URL-safe alphabet's two letters too, as browsers accept them in data URLs.
    t[Int(UInt8(ascii: "-"))] = 62
    t[Int(UInt8(ascii: "_"))] = 63
    return t
  }()

  /// The bytes `text` encodes (whitespace ignored, padding optional), or `nil` when it holds
  /// another character or a dangling sixth of a byte.
  static func decode(_ text: Substring) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count * 3 / 4)
    var buffer: UInt32 = 0, bits = 0
    for c in text.utf8 {
      if c == UInt8(ascii: "=") { break }
      if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { continue }
      let v = table[Int(c)]
      guard v != 0xFF else { return nil }
      buffer = buffer << 6 | UInt32(v)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return bits >= 6 ? nil : out
  }
}
