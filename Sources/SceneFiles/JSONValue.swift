/// A parsed JSON document that keeps what a scene reader needs for good messages: object keys
/// in document order and numbers as written (doubles; `true`/`false` kept apart from numbers).
/// Public so that other readers of JSON documents (the batch manifest) share this one parser.
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  /// Equal kinds and values; objects compare their keys in order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// How the value's kind is named in messages: "a number", "a string", ...
  package var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    // A literal past the largest double (`1e400`) is read as infinite: said as such, not as
    // the number it could not be ("expected a number, found a number").
    case .number(let x):
      return x.isFinite ? "a number" : "a number beyond ±1.8e308 (what a double holds)"
    case .string: return "a string"
    case .array: return "a list"
    case .object: return "an object"
    }
  }
}

/// A JSON syntax error with its 1-based line and column.
public struct JSONSyntaxError: Error, Equatable {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1.
  public var column: Int
  /// What is wrong.
  public var message: String
}

/// A strict RFC 8259 reader: no comments, no trailing commas, no duplicate keys.
public struct JSONParser {
  private let bytes: [UInt8]
  private var i = 0
  private var depth = 0
  private static let maximumDepth = 512

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Parses one JSON document (a UTF-8 byte order mark is allowed).
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    if let encoding = wideEncoding(bytes) {
      throw JSONSyntaxError(
        line: 1, column: 1,
        message: "the file is \(encoding) text; scene and Lottie files must be UTF-8")
    }
    var parser = JSONParser(bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }
    parser.skipWhitespace()
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.i == bytes.count else {
      throw parser.error("unexpected \(parser.found()) after the document")
    }
    return value
  }

  /// The encoding of text in UTF-16 or UTF-32 (`UTF-16 (little-endian)`), told by its
  /// byte-order mark or, without one, by the NUL bytes between its first characters (JSON
  /// starts with an ASCII character, so one of those encodings puts NULs where UTF-8 has
  /// none: RFC 4627's rule); `nil` for anything else. Such text is never valid UTF-8 JSON, and
  /// "unexpected byte 0xff" did not say why.
  static func wideEncoding(_ bytes: [UInt8]) -> String? {
    let b = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: Swift.max(0, 4 - bytes.count))
    switch (b[0], b[1], b[2], b[3]) {
    case (0x00, 0x00, 0xFE, 0xFF): return "UTF-32 (big-endian)"
    case (0xFF, 0xFE, 0x00, 0x00): return "UTF-32 (little-endian)"
    case (0xFE, 0xFF, _, _): return "UTF-16 (big-endian)"
    case (0xFF, 0xFE, _, _): return "UTF-16 (little-endian)"
    case (0x00, 0x00, 0x00, let x) where x != 0: return "UTF-32 (big-endian)"
    case (let x, 0x00, 0x00, 0x00) where x != 0: return "UTF-32 (little-endian)"
    case (0x00, let x, 0x00, let y) where x != 0 && y != 0: return "UTF-16 (big-endian)"
    case (let x, 0x00, let y, 0x00) where x != 0 && y != 0: return "UTF-16 (little-endian)"
    default: return nil
    }
  }

  private func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
    let end = Swift.min(position ?? i, bytes.count)
    var line = 1, column = 1
    for b in bytes[0..<end] {
      if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
    }
    return JSONSyntaxError(line: line, column: column, message: message)
  }

  private func found() -> String {
    guard i < bytes.count else { return "end of file" }
    let b = bytes[i]
    return b >= 0x20 && b < 0x7F
      ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
  }

  private mutating func skipWhitespace() {
    while i < bytes.count,
      bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09
    { i += 1 }
  }

  private mutating func literal(
    _ word: String, _ value: JSONValue
  ) throws(JSONSyntaxError) -> JSONValue {
    let w = Array(word.utf8)
    guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else {
      throw error("unexpected \(found()); expected a value")
    }
    i += w.count
    return value
  }

  private mutating func value() throws(JSONSyntaxError) -> JSONValue {
    guard i < bytes.count else { throw error("unexpected end of file; expected a value") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("unexpected \(found()); expected a value")
    }
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > JSONParser.maximumDepth {
      throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
    }
  }

  private mutating func object() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var entries: [(key: String, value: JSONValue)] = []
    var seen = Set<String>()
    skipWhitespace()
    if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
      i += 1
      return .object(entries)
    }
    while true {
      skipWhitespace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
        throw error("unexpected \(found()); expected a key in quotes")
      }
      let keyStart = i
      let key = try string()
      guard seen.insert(key).inserted else { throw error("duplicate key \"\(key)\"", at: keyStart) }
      skipWhitespace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
        throw error("unexpected \(found()); expected ':'")
      }
      i += 1
      skipWhitespace()
      entries.append((key, try value()))
      skipWhitespace()
      guard i < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(entries) }
      throw error("unexpected \(found()); expected ',' or '}'")
    }
  }

  private mutating func array() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
      i += 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      items.append(try value())
      skipWhitespace()
      guard i < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
      throw error("unexpected \(found()); expected ',' or ']'")
    }
  }

  private mutating func number() throws(JSONSyntaxError) -> JSONValue {
    let start = i
    func digits(_ i: inout Int, _ bytes: [UInt8]) -> Int {
      let s = i
      while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
      return i - s
    }
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    let intStart = i
    guard digits(&i, bytes) > 0 else { throw error("malformed number", at: start) }
    if bytes[intStart] == UInt8(ascii: "0") && i - intStart > 1 {
      throw error("malformed number (leading zero)", at: start)
    }
    if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard digits(&i, bytes) > 0 else { throw error("malformed number", at: start) }
    }
    if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
      i += 1
      if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
        i += 1
      }
      guard digits(&i, bytes) > 0 else { throw error("malformed number", at: start) }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(text) else { throw error("malformed number", at: start) }
    return .number(value)
  }

  private mutating func string() throws(JSONSyntaxError) -> String {
    i += 1
    var out: [UInt8] = []
    while true {
      guard i < bytes.count else { throw error("unterminated string") }
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        break
      }
      if b < 0x20 { throw error("control character in string") }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        i += 1
        continue
      }
      i += 1
      guard i < bytes.count else { throw error("unterminated string") }
      let e = bytes[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
          guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
          else {
            throw error("unpaired surrogate in string")
          }
          i += 2
          let low = try hex4()
          guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in string") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        // A low surrogate with no high one before it (`\\udc00`): unpaired, as a lone high one.
        guard let u = Unicode.Scalar(scalar) else { throw error("unpaired surrogate in string") }
        out.append(contentsOf: Array(String(Character(u)).utf8))
      default:
        throw error("invalid escape in string", at: i - 2)
      }
    }
    guard let s = String(validating: out, as: UTF8.self) else {
      throw error("string is not valid UTF-8")
    }
    return s
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("invalid \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[i]
      let d: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
      default: throw error("invalid \\u escape")
      }
      v = v << 4 | d
      i += 1
    }
    return v
  }
}
