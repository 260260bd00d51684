/// Base64 decoding for embedded images (`data:...;base64,`), as browsers decode a data URL's
/// body (WHATWG's forgiving-base64, after percent-decoding): what lottie-web in a browser draws.
enum Base64 {
  private static let table: [UInt8] = {
    var t = [UInt8](repeating: 0xFF, count: 256)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
    return t
  }()

  /// The bytes `text` encodes, or `nil` when it is not base64 as browsers read it: ASCII
  /// whitespace ignored; one or two `=` at the end only, and only where they pad to a multiple
  /// of four; the standard alphabet only (a URL-safe `-` or `_` is refused, as `atob` refuses
  /// it); not a dangling sixth of a byte. (Decoding stopped at the first `=`, so what followed
  /// it was dropped without a word.)
  static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
    var letters: [UInt8] = []
    letters.reserveCapacity(text.count)
    for c in text where !(c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == 0x0C) {
      letters.append(c)
    }
    if letters.count % 4 == 0, letters.last == UInt8(ascii: "=") {
      letters.removeLast()
      if letters.last == UInt8(ascii: "=") { letters.removeLast() }
    }
    guard letters.count % 4 != 1 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(letters.count * 3 / 4)
    var buffer: UInt32 = 0, bits = 0
    for c in letters {
      let v = table[Int(c)]
      guard v != 0xFF else { return nil }
      buffer = buffer << 6 | UInt32(v)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return out
  }
}
