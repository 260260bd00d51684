extension SceneFormat {
  /// One thing wrong in a scene file: where, and what.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The place in the document as a path of keys and indices (`layers[2].sublayers[0].opacity`);
    /// empty for the document as a whole.
    public var place: String
    /// The 1-based line of a JSON syntax error (`nil` for problems found in valid JSON).
    public var line: Int?
    /// The 1-based column of a JSON syntax error.
    public var column: Int?
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(place: String, line: Int? = nil, column: Int? = nil, message: String) {
      self.place = place
      self.line = line
      self.column = column
      self.message = message
    }

    /// `"<place>: <message>"`, `"<line>:<column>: <message>"` or `"<message>"`.
    public var description: String {
      if let line, let column { return "\(line):\(column): \(message)" }
      return place.isEmpty ? message : "\(place): \(message)"
    }
  }

  /// Why a scene file was refused: every problem found in it.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The scene file, as it was named.
    public var file: String
    /// The problems, in document order.
    public var problems: [Problem]

    /// Creates an error.
    public init(file: String, problems: [Problem]) {
      self.file = file
      self.problems = problems
    }

    /// One line per problem: `"<file>: <place>: <message>"` (`"<file>:<line>:<column>: ..."` for
    /// JSON syntax errors); past the first 100, one line counts the rest
    /// (`"<file>: … and 29901 more problems"`).
    public var description: String {
      // The file as messages name it: a name holding a newline or an escape sequence split
      // the line or reached the terminal (`MessageText.path`).
      let file = MessageText.path(file)
      let lines = problems.map { p in
        if p.line != nil { return "\(file):\(p)" }
        return "\(file): \(p)"
      }
      return MessageText.listed(lines) { "\(file): … and \($0) more problems" }
        .joined(separator: "\n")
    }
  }
}
