import Foundation

/// Running outside programs from tests: the independent decoders and the built `flipbook`.
public enum Tools {
  /// The path of `name` in the usual system folders (not /usr/local/bin, where this machine
  /// keeps a stand-in `convert`), or `nil` when it is not installed.
  public static func path(of name: String) -> String? {
    for folder in ["/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
      return "\(folder)/\(name)"
    }
    return nil
  }

  /// Whether Python can import Pillow.
  public static let hasPillow: Bool = (try? run("/usr/bin/env", ["python3", "-c", "import PIL"]).status) == 0

  /// The built `flipbook` command beside the test bundle.
  public static var flipbook: String {
    FixtureFiles.repository + ".build/debug/flipbook"
  }

  /// Runs a program to completion; its status, standard output and standard error.
  @discardableResult
  public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
  }
}
