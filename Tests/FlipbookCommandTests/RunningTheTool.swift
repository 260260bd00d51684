import FlipbookTestSupport
import Foundation

@testable import FlipbookCommand

/// Runs the command with `arguments` in this process, as the tests of hostile input do: its
/// exit status and what it wrote to standard error.
func runFlipbook(_ arguments: [String]) -> (status: Int32, errors: String) {
  var errors = ""
  let status = FlipbookTool.run(arguments, standardError: { errors += $0 + "\n" })
  return (status, errors)
}

/// Runs the built `flipbook` binary with `arguments` (and `environment`, when given) as a user
/// runs it, in its own process: its exit status and all it wrote to standard error (warnings
/// and progress go there directly, not through `FlipbookTool.run`'s handler).
func runFlipbookProcess(
  _ arguments: [String], environment: [String: String]? = nil
) throws -> (status: Int32, errors: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: Tools.flipbook)
  process.arguments = arguments
  if let environment { process.environment = environment }
  let err = Pipe()
  process.standardError = err
  process.standardOutput = Pipe()
  try process.run()
  let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return (process.terminationStatus, errors)
}
