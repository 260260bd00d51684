import LayerTree
/// The scene reader's message conventions, shared with the other document readers of this
/// package (the Lottie reader): places and quoted values cut to a readable length, control
/// characters escaped, numbers written shortest.
package enum MessageText {
  /// `place` as a problem's place: control characters escaped, cut in the middle to 200
  /// characters (its start and its end, the key at fault, kept).
  package static func place(_ place: String) -> String {
    let place = SourcePlace.escapingHidden(place)
    return SceneReader.shortenedPlace(place)
  }

  /// `message` with control characters escaped and long quoted values cut to 40 characters.
  package static func message(_ message: String) -> String {
    SceneReader.shortenedQuotes(message)
  }

  /// A file's path as messages name it: control characters escaped, and one over 200
  /// characters cut in its middle, keeping its start and its end (where the file's name is):
  /// a 5,000-byte `-o` path was printed whole in its error line.
  package static func path(_ path: String) -> String {
    let path = SourcePlace.escapingHidden(path)
    guard path.count > 200 else { return path }
    return String(path.prefix(100)) + "…" + String(path.suffix(99))
  }

  /// A value read from a file as messages quote it: control characters escaped, cut to 40
  /// characters and an ellipsis.
  package static func value(_ text: String) -> String { SourcePlace.quoted(text) }

  /// `bytes` (a file name or an argument as the system gave it) as messages show it when it is
  /// not UTF-8: its UTF-8 runs as they are and every other byte as `\xFF` (a `String` made of
  /// such bytes holds U+FFFD instead, which names another file), control characters escaped.
  package static func bytes(_ bytes: [UInt8]) -> String {
    var out = ""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        offset += encoded.count
      case .error(let length):
        for byte in bytes[offset..<offset + length] {
          out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        offset += length
      case .emptyInput:
        return SourcePlace.escapingHidden(out)
      }
    }
  }

  /// The most characters a line of a message read back from a file (a batch manifest's error or
  /// warning) is said with: 1,000, past the longest line Flipbook writes (a place of 200
  /// characters, values of 40, the reason), where a shard manifest's `error` of 50,000,000
  /// characters was printed as one line.
  package static let maximumLineLength = 1_000

  /// `text`, each of its lines with control characters escaped and cut to `maximumLineLength`
  /// characters and `…`.
  package static func lines(_ text: String) -> String {
    guard text.utf8.count > maximumLineLength || SourcePlace.hasControlCharacters(text) else {
      return text
    }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let line = String(line)
      let shown = SourcePlace.escapingHidden(line)
      return shown.unicodeScalars.count > maximumLineLength
        ? String(String.UnicodeScalarView(shown.unicodeScalars.prefix(maximumLineLength))) + "…"
        : shown
    }.joined(separator: "\n")
  }

  /// The most lines of problems or warnings said at once: 100. A file with a problem on every
  /// one of 10,000 layers printed 30,001 lines; past this the rest are counted in one line.
  package static let maximumListedLines = 100

  /// `lines` as they are said: all of them, or the first `maximumListedLines` and the line
  /// `more` makes of how many are left out (`"… and 29901 more problems"`).
  package static func listed(_ lines: [String], more: (Int) -> String) -> [String] {
    guard lines.count > maximumListedLines else { return lines }
    return Array(lines.prefix(maximumListedLines)) + [more(lines.count - maximumListedLines)]
  }

  /// An estimated count as messages give it: `about 123456`, or `more than 10^15` for one past
  /// that (an overflowing estimate is infinite: "about inf" said nothing).
  package static func estimate(_ x: Double) -> String {
    x < 1e15 ? "about \(format(x.rounded()))" : "more than 10^15"
  }

  /// `count` and `noun` as messages count things: `1 animation`, `3 animations` (`plural`
  /// when the noun does not take an `s`).
  package static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
  }

  /// `x` as the scene reader writes numbers in messages (`2`, `0.5`, `1e+20`).
  package static func number(_ x: Double) -> String { format(x) }
}
