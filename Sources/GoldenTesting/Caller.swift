import Flipbook
import Testing
import XCTest

/// The test an assertion runs in: its name as the test runner knows it, and where to report.
struct Caller {
  /// `#fileID` (`Module/File.swift`), `#filePath`, `#function`, `#line`, `#column`.
  let fileID: String, file: StaticString, function: String, line: UInt, column: UInt

  /// The module the test is in (the start of `#fileID`).
  var module: String { String(fileID.prefix { $0 != "/" }) }

  /// The test's name as the runner shows it: `Suite/test()` for Swift Testing (from the running
  /// test), `Class.testMethod` for XCTest (the enclosing class, read from the test file).
  var testName: String {
    if let test = Test.current {
      let components = test.id.nameComponents
      return components.isEmpty ? test.name : components.joined(separator: "/")
    }
    let method = function.prefix { $0 != "(" }
    return enclosingType.map { "\($0).\(method)" } ?? String(method)
  }

  /// A `swift test --filter` pattern that runs this test alone: `Module.Suite/test`, or
  /// `Module.Class/testMethod` under XCTest (the pattern is a regular expression matched against
  /// those names).
  var filter: String {
    var name = testName
    if Test.current == nil, let dot = name.lastIndex(of: ".") {
      name.replaceSubrange(dot...dot, with: "/")
    }
    if let paren = name.lastIndex(of: "("), name.hasSuffix(")") { name = String(name[..<paren]) }
    return "\(module).\(name)"
  }

  /// The innermost `class`, `struct`, `actor` or `extension` declared above the assertion's
  /// line in the test file: the XCTest case class (XCTest names no running test).
  var enclosingType: String? {
    guard let bytes = try? AtomicFile.read("\(file)") else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for text in lines.prefix(Int(line)).reversed() {
      let words = text.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "{" || $0 == "<" })
      for (i, word) in words.enumerated().dropLast()
      where ["class", "struct", "actor", "extension"].contains(word) && !text.contains("func ") {
        return String(words[i + 1])
      }
    }
    return nil
  }

  /// Reports a failing outcome to the running test framework, titled with the test's name.
  ///
  /// Under Swift Testing the issue is a `GoldenImageFailure` (an error whose description is the
  /// whole message), so the runner's title line is the message rather than "Issue recorded".
  func report(_ outcome: GoldenFile.Outcome) {
    guard let message = outcome.message else { return }
    let titled = "golden check in \(testName): \(message)"
    if Test.current != nil {
      let location = SourceLocation(
        fileID: fileID, filePath: "\(file)", line: Int(line), column: Int(column))
      Issue.record(GoldenImageFailure(description: titled), sourceLocation: location)
    } else {
      XCTFail(titled, file: file, line: line)
    }
  }
}

/// A golden-image assertion's failure, as Swift Testing records it: the description is the
/// message (the test's name, what differs, the failure pictures, the command that re-records).
public struct GoldenImageFailure: Error, CustomStringConvertible, Sendable {
  /// The whole message.
  public var description: String
}
