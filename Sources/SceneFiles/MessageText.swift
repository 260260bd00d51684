/// The scene reader's message conventions, shared with the other document readers of this
/// package (the Lottie reader): places and quoted values cut to a readable length, control
/// characters escaped, numbers written shortest.
package enum MessageText {
  /// `place` as a problem's place: control characters escaped, cut to 200 characters.
  package static func place(_ place: String) -> String {
    let place = SceneReader.hasControlCharacters(place) ? SceneReader.escaped(place) : place
    return SceneReader.shortened(place, to: 200)
  }

  /// `message` with control characters escaped and long quoted values cut to 40 characters.
  package static func message(_ message: String) -> String {
    SceneReader.shortenedQuotes(message)
  }

  /// `x` as the scene reader writes numbers in messages (`2`, `0.5`, `1e+20`).
  package static func number(_ x: Double) -> String { format(x) }
}
