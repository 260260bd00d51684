@testable import FlipbookCommand

/// Runs the command with `arguments` in this process, as the tests of hostile input do: its
/// exit status and what it wrote to standard error.
func runFlipbook(_ arguments: [String]) -> (status: Int32, errors: String) {
  var errors = ""
  let status = FlipbookTool.run(arguments, standardError: { errors += $0 + "\n" })
  return (status, errors)
}
