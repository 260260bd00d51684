import ArgumentParser
import Flipbook

/// Why a number typed on the command line was refused (its description is the whole reason,
/// which the argument parser prints after the option and the value).
struct NumberError: Error, CustomStringConvertible {
  var description: String
}

/// A number option's value as typed: decimal notation only (`12`, `-0.5`, `1e-3`, `+2`), and
/// within what a `Double` holds. Swift would also read hexadecimal (`0x10` as 16), `nan` and
/// `inf`, and turn `1e-401` into 0 and `1e999` into infinity; each of those is refused, naming
/// what was typed (the option's range is checked after, by `validate`).
func decimal(_ text: String) throws -> Double {
  var rest = Substring(text)
  if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
  let digits = rest.prefix { $0.isASCII && $0.isNumber }
  rest = rest.dropFirst(digits.count)
  var fraction = Substring("")
  if rest.first == "." {
    fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
    rest = rest.dropFirst(1 + fraction.count)
  }
  if rest.first == "e" || rest.first == "E" {
    var exponent = rest.dropFirst()
    if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
    let exponentDigits = exponent.prefix { $0.isASCII && $0.isNumber }
    rest = exponentDigits.isEmpty ? rest : exponent.dropFirst(exponentDigits.count)
  }
  guard !(digits.isEmpty && fraction.isEmpty), rest.isEmpty, let x = Double(text) else {
    throw NumberError(description: "expected a decimal number (such as 12, 0.5 or 1e-3)")
  }
  guard x.isFinite else {
    throw NumberError(description: "\(text) is out of range: too large for a number")
  }
  if x == 0, (digits + fraction).contains(where: { $0 != "0" }) {
    throw NumberError(description: "\(text) is out of range: so small it underflows to 0")
  }
  return x
}

/// A whole-number option's value as typed (`12`, `+2`, `-3`): anything else (`1.5`, `abc`, a
/// number past what an `Int` holds) is refused saying what the option takes, `range` in words
/// (`"in 1...256"`), where the argument parser alone said only that the value is invalid. The
/// range itself is checked after, by `validate`, which names the value found.
func wholeNumber(_ range: String) -> @Sendable (String) throws -> Int {
  { text in
    let digits = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw NumberError(description: "expected a whole number \(range)")
    }
    // Digits past what an Int holds are a whole number still: said too large, not "no number".
    guard let n = Int(text) else {
      throw NumberError(
        description: "expected a whole number \(range), found one past \(Int.max) in magnitude")
    }
    return n
  }
}

/// Options given twice: `--fps 10 --fps 20` would silently take the last.
enum RepeatedOptions {
  /// An option's names (`--fps`, `-o`) and whether it takes a value and may repeat.
  struct Option {
    var names: [String]
    var takesValue: Bool
    var repeats: Bool
  }

  /// The message for the first option of `arguments` (a subcommand and what follows it) given
  /// twice, naming it and the values, or `nil`; options that repeat (`--time`) and flags may.
  static func problem(in arguments: [String]) -> String? {
    guard let command = arguments.first else { return nil }
    let rest = arguments.dropFirst().prefix { $0 != "--" }
    // Cheap first: fewer than two options, nothing to look up.
    guard rest.filter({ $0.hasPrefix("-") }).count >= 2,
      let options = commandOptions[command]
    else { return nil }
    var seen: [String: (spelling: String, value: String?)] = [:]
    var i = rest.startIndex
    while i < rest.endIndex {
      let argument = rest[i]
      i += 1
      let parts = argument.split(separator: "=", maxSplits: 1)
      guard argument.hasPrefix("-"), let name = parts.first,
        let option = options.first(where: { $0.names.contains(String(name)) })
      else { continue }
      var value: String? = parts.count == 2 ? String(parts[1]) : nil
      if option.takesValue, value == nil, i < rest.endIndex {
        value = rest[i]
        i += 1
      }
      guard option.takesValue, !option.repeats else { continue }
      let key = option.names.first { $0.hasPrefix("--") } ?? option.names[0]
      if let first = seen[key] {
        // `--fps given twice (10, then 20)`; `--output given twice (-o a.gif, then --output
        // b.gif)` when spelled both ways.
        let same = first.spelling == String(name)
        func shown(_ spelling: String, _ value: String?) -> String {
          [same ? nil : spelling, value].compactMap { $0 }.joined(separator: " ")
        }
        return "\(key) given twice (\(shown(first.spelling, first.value)), then "
          + "\(shown(String(name), value))): give it once"
      }
      seen[key] = (String(name), value)
    }
    return nil
  }

  /// Each subcommand's options, by its name, from the argument parser's own description of
  /// the tool (made once).
  static let commandOptions: [String: [Option]] = {
    guard let tool = try? JSONParser.parse(Array(FlipbookTool._dumpHelp().utf8)),
      let commands = tool["command"]?["subcommands"]?.items
    else { return [:] }
    var out: [String: [Option]] = [:]
    for command in commands {
      guard let name = command["commandName"]?.text else { continue }
      out[name] = options(command["arguments"]?.items ?? [])
    }
    return out
  }()

  /// The options among a command's `arguments` (in the argument parser's description).
  static func options(_ arguments: [JSONValue]) -> [Option] {
    arguments.compactMap { argument in
      guard let kind = argument["kind"]?.text, kind != "positional",
        let names = argument["names"]?.items
      else { return nil }
      let spelled = names.compactMap { name -> String? in
        guard let text = name["name"]?.text else { return nil }
        return name["kind"]?.text == "short" ? "-" + text : "--" + text
      }
      return Option(
        names: spelled, takesValue: kind == "option",
        repeats: argument["isRepeating"] == .bool(true))
    }
  }
}

extension JSONValue {
  /// The value at `key` of an object.
  fileprivate subscript(_ key: String) -> JSONValue? {
    guard case .object(let entries) = self else { return nil }
    return entries.first { $0.key == key }?.value
  }

  /// The items of a list.
  fileprivate var items: [JSONValue]? {
    guard case .array(let items) = self else { return nil }
    return items
  }

  /// The text of a string.
  fileprivate var text: String? {
    guard case .string(let s) = self else { return nil }
    return s
  }
}

/// Long command lines. swift-argument-parser takes time in the square of the arguments it
/// parses (each one consumed is removed from an array, each repeated value's origins merged
/// into a set): 16,000 `--time` options took 16 s, 64,000 batch inputs 100 s, before any work
/// or usage error. A batch's inputs, however many, are set aside and given to the command after
/// parsing; every other command line is limited to `maximumArguments`.
enum BulkArguments {
  /// The most arguments a command line may have besides a batch's inputs: 4,096 (about 0.3 s
  /// of parsing). Many times are asked for with `--from`, `--to` and `--step`; many inputs are
  /// given as folders, `@LIST` files, or as many arguments as the system takes.
  static let maximumArguments = 4_096

  /// The batch inputs set aside only when there are more than this many (fewer parse fast, and
  /// the parser then sees the command line as given).
  static let setAsideFrom = 256

  /// The message for a command line of `count` arguments.
  static func tooMany(_ count: Int) -> String {
    "\(count) arguments, more than the \(maximumArguments) flipbook takes on one command line "
      + "besides a batch's inputs: ask for many times with --from, --to and --step (inspect), "
      + "or frames spread evenly (sheet, without --times), and give many inputs as folders or "
      + "@LIST files"
  }

  /// `arguments` with a `batch` command's inputs after its first left out, and those inputs in
  /// order, when there are more than `setAsideFrom`; otherwise `arguments` and none. Options
  /// and their values stay (`-o OUT`, `--jobs=2`), and so does `--`, after which every
  /// argument is an input.
  static func settingAsideBatchInputs(_ arguments: [String]) -> ([String], [String]) {
    guard arguments.first == "batch", arguments.count > setAsideFrom,
      let options = RepeatedOptions.commandOptions["batch"]
    else { return (arguments, []) }
    var kept = [arguments[0]], inputs: [String] = []
    var keptInput = false, afterDashes = false
    var i = 1
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      if afterDashes || !argument.hasPrefix("-") || argument == "-" {
        if keptInput {
          inputs.append(argument)
        } else {
          kept.append(argument)
          keptInput = true
        }
        continue
      }
      kept.append(argument)
      if argument == "--" {
        afterDashes = true
        continue
      }
      let name = String(argument.split(separator: "=", maxSplits: 1)[0])
      if !argument.contains("="), i < arguments.count,
        options.contains(where: { $0.takesValue && $0.names.contains(name) })
      {
        kept.append(arguments[i])
        i += 1
      }
    }
    return inputs.count >= setAsideFrom ? (kept, inputs) : (arguments, [])
  }
}
