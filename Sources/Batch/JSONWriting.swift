import Geometry
import SceneFiles

extension JSONValue {
  /// The value as JSON text: two-space indentation, keys in their order, one member or item a
  /// line (short arrays of numbers and strings on one line), a newline at the end. The same
  /// value always gives the same bytes.
  public func serialized() -> String {
    var out = ""
    write(into: &out, indent: "")
    return out + "\n"
  }

  private func write(into out: inout String, indent: String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let x): out += JSONValue.text(of: x)
    case .string(let s): out += JSONValue.quoted(s)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
      } else if items.allSatisfy({ $0.isScalar }) {
        out += "["
        for (i, item) in items.enumerated() {
          if i > 0 { out += ", " }
          item.write(into: &out, indent: indent)
        }
        out += "]"
      } else {
        out += "[\n"
        for (i, item) in items.enumerated() {
          out += indent + "  "
          item.write(into: &out, indent: indent + "  ")
          out += i + 1 < items.count ? ",\n" : "\n"
        }
        out += indent + "]"
      }
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{\n"
      for (i, member) in members.enumerated() {
        out += indent + "  " + JSONValue.quoted(member.key) + ": "
        member.value.write(into: &out, indent: indent + "  ")
        out += i + 1 < members.count ? ",\n" : "\n"
      }
      out += indent + "}"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }

  /// A number as JSON: whole numbers without a fraction, others in Swift's shortest form that
  /// reads back to the same double.
  static func text(of x: Double) -> String {
    guard x.isFinite else { return "null" }
    return shortestNumber(x)
  }

  /// `s` as a JSON string, with `"`, `\` and control characters escaped (also what
  /// `flipbook inspect` writes strings with).
  package static func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// The member `key` of an object, or `nil`.
  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  var numberValue: Double? {
    if case .number(let x) = self { return x }
    return nil
  }

  var arrayValue: [JSONValue]? {
    if case .array(let items) = self { return items }
    return nil
  }
}
