import Foundation

/// Running outside programs from tests: the independent decoders and the built `flipbook`.
public enum Tools {
  /// The path of `name` in the usual system folders (not /usr/local/bin, where this machine
  /// keeps a stand-in `convert`), or `nil` when it is not installed.
  public static func path(of name: String) -> String? {
    for folder in ["/usr/bin", "/bin"]
    where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
      return "\(folder)/\(name)"
    }
    return nil
  }

  /// Whether Python can import Pillow.
  public static let hasPillow: Bool =
    (try? run("/usr/bin/env", ["python3", "-c", "import PIL"]).status) == 0

  /// The built `flipbook` command: SwiftPM builds it into the folder that holds the test bundle
  /// (`.build/<triple>/<configuration>/`, whatever the configuration or build path), so it is
  /// looked for beside the running test executable and up to three folders above it (a macOS
  /// bundle nests the executable); failing that, in the folder `swift build --show-bin-path`
  /// names.
  public static let flipbook: String = {
    let fileManager = FileManager.default
    let running =
      (try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main
      .executablePath ?? CommandLine.arguments[0]
    var folder = URL(fileURLWithPath: running).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("flipbook").path
      if fileManager.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    let shown = try? run(
      "/usr/bin/env",
      ["swift", "build", "--package-path", FixtureFiles.repository, "--show-bin-path"])
    let binPath = shown?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    return binPath + "/flipbook"
  }()

  /// Waits until `condition` holds, checking every 20 ms, for at most `timeout` seconds; whether
  /// it came to hold.
  public static func wait(timeout: Double, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
      if Date() > deadline { return false }
      usleep(20_000)
    }
    return true
  }

  /// Starts the built `flipbook` with `arguments`, interrupts it (`signal`, SIGINT by
  /// default) once `started` holds for the names in `folder` (where its output goes; checked
  /// for up to 120 s), `settle` seconds later, and waits for it to end: whether it was still
  /// running when `started` came to hold, whether the signal ended it (SIGQUIT: exit status
  /// 131, the process ending without a core dump), and what it left in `folder` (looked at for
  /// up to 5 s while it cleans up).
  public static func interruptFlipbook(
    _ arguments: [String], in folder: String, settle: Double = 0, signal: Int32 = SIGINT,
    once started: ([String]) -> Bool
  ) throws -> (started: Bool, interrupted: Bool, leftovers: [String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: flipbook)
    process.arguments = arguments
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    func names() -> [String] {
      (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }
    let began = wait(timeout: 120) { started(names()) || !process.isRunning } && process.isRunning
    if settle > 0 { usleep(useconds_t(settle * 1_000_000)) }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    let interrupted =
      signal == SIGQUIT
      ? process.terminationReason == .exit && process.terminationStatus == 128 + SIGQUIT
      : process.terminationReason == .uncaughtSignal && process.terminationStatus == signal
    _ = wait(timeout: 5) { names().isEmpty }
    return (began, interrupted, names())
  }

  /// Runs a program to completion (in `environment`, when given, instead of this process's);
  /// its status, standard output and standard error.
  @discardableResult
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil
  ) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: output, as: UTF8.self),
      String(decoding: errors, as: UTF8.self)
    )
  }
}
