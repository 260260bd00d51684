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
}
