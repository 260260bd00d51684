/// The JSON paths messages name (`Layer.sourcePlace`, and the places readers report).
package enum SourcePlace {
  /// A JSON path cut in its middle when longer than 200 characters, between its keys: about its
  /// first 60 and last 140 characters kept around `…N more…` (the keys left out), so the
  /// place's end (the key at fault) and its depth are never lost.
  package static func shortened(_ place: String) -> String {
    guard place.utf8.count > 200 else { return place }
    let parts = place.split(separator: ".", omittingEmptySubsequences: false)
    var head = 0, headLength = 0
    while head < parts.count, headLength + parts[head].utf8.count + 1 <= 60 {
      headLength += parts[head].utf8.count + 1
      head += 1
    }
    var tail = parts.count, tailLength = 0
    while tail > head, tailLength + parts[tail - 1].utf8.count + 1 <= 140 {
      tailLength += parts[tail - 1].utf8.count + 1
      tail -= 1
    }
    // A key too long to keep whole (or no keys to cut between): the characters themselves.
    guard head > 0, tail < parts.count, head < tail else {
      return String(place.prefix(60)) + "…" + String(place.suffix(139))
    }
    return parts[..<head].joined(separator: ".") + ".…\(tail - head) more…."
      + parts[tail...].joined(separator: ".")
  }

  /// A value read from a file (a layer's name) as messages quote it: control and invisible
  /// characters escaped (`hasControlCharacters(_:)`), cut to 40 characters and an ellipsis, so
  /// that a message stays one readable line.
  package static func quoted(_ value: String) -> String {
    let text = escapingHidden(value)
    guard text.utf8.count > 40 else { return text }
    return String(text.prefix(40)) + "…"
  }

  /// Whether `text` has a control character (U+0000...U+001F, U+007F...U+009F) or an
  /// invisible formatting character (a byte-order mark U+FEFF, zero-width spaces and joiners,
  /// direction marks, embeddings, overrides and isolates, line and paragraph separators): in
  /// a message they would break the line or hide or reorder what it says.
  package static func hasControlCharacters(_ text: String) -> Bool {
    text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 >= 0xC2 }
      && text.unicodeScalars.contains { isHidden($0.value) }
  }

  /// Whether the scalar `v` is one `hasControlCharacters` looks for.
  package static func isHidden(_ v: UInt32) -> Bool {
    v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFEFF || (0x200B...0x200F).contains(v)
      || (0x2028...0x202E).contains(v) || (0x2060...0x2069).contains(v)
  }

  /// `text` with its control and invisible characters escaped when it has any
  /// (`hasControlCharacters(_:)`), else `text` itself.
  package static func escapingHidden(_ text: String) -> String {
    hasControlCharacters(text) ? escaped(text) : text
  }

  /// `text` with those characters written as JSON escapes (`\u0000`, `\uFEFF`).
  package static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if isHidden(scalar.value) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
