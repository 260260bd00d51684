import Glibc

/// Another program run with its standard input fed by us, for encoders that are programs
/// (ffmpeg): started with `posix_spawn`, its standard input a socket written with
/// `MSG_NOSIGNAL` (a program that quits early gives an error, never SIGPIPE), its standard
/// error kept for the error message. Not thread-safe: one thread writes and waits.
final class ChildProcess {
  /// The program's process id.
  let pid: pid_t
  private var input: Int32
  private let errors: Int32
  private var exitStatus: Int32? = nil

  /// Why a program could not be started or ended badly.
  struct Failure: Error, CustomStringConvertible {
    /// A one-line message.
    var description: String
  }

  /// The executable `name` in a folder of `PATH` (or `path` when given), or `nil`.
  static func find(_ name: String, path: String? = nil) -> String? {
    let folders = (path ?? (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")).split(
      separator: ":")
    for folder in folders where !folder.isEmpty {
      let candidate = folder + "/" + name
      var info = stat()
      if stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        && access(candidate, X_OK) == 0
      {
        return candidate
      }
    }
    return nil
  }

  /// Starts `executable` with `arguments`; its standard output goes to /dev/null.
  init(_ executable: String, _ arguments: [String]) throws {
    var sockets: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets)
        == 0
    else {
      throw Failure(
        description: "cannot make a socket for \(executable): \(String(cString: strerror(errno)))")
    }
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &errorPipe)
        == 0
    else {
      close(sockets[0]); close(sockets[1])
      throw Failure(
        description: "cannot make a pipe for \(executable): \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
    close(sockets[1])
    close(errorPipe[1])
    guard status == 0 else {
      close(sockets[0]); close(errorPipe[0])
      throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    (pid, input, errors) = (child, sockets[0], errorPipe[0])
  }

  deinit {
    if exitStatus == nil { kill(pid, SIGKILL); _ = wait() }
    if input >= 0 { close(input) }
    close(errors)
  }

  /// Writes `bytes` to the program's standard input (blocking while it is busy).
  func write(_ bytes: [UInt8]) throws {
    var failure: Int32 = 0
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = send(input, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += n
      }
    }
    if failure != 0 {
      throw Failure(
        description:
          "the encoder stopped taking frames: "
          + (finishWithMessage() ?? String(cString: strerror(failure)))
      )
    }
  }

  /// Closes the program's standard input and waits for it; `nil` when it exited with status 0
  /// and said no error, else its error output (or how it ended). ffmpeg exits with 0 when it
  /// cannot write a WebM's last bytes (a full disk: "Error writing trailer of x.webm: No space
  /// left on device"), so a line starting with "Error" is a failure whatever the status (it
  /// runs with `-loglevel error`: it says nothing else).
  func finishWithMessage() -> String? {
    if input >= 0 { close(input); input = -1 }
    let status = wait()
    // All it said (up to 64 KiB): the cause is often not on the last line (ffmpeg out of disk
    // space ends with "Error initializing output stream 0:0 --", the cause a line before).
    var said: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while said.count < 65536 {
      let n = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      said += chunk[0..<n]
    }
    let text = String(decoding: said, as: UTF8.self)
    guard
      status != 0
        || text.split(separator: "\n").contains(where: { $0.hasPrefix("Error") })
    else { return nil }
    let message = Self.summary(of: text)
    return message.isEmpty ? "exit status \(status)" : message
  }

  /// A program's error output as one line: its distinct lines joined with "; ", without
  /// ffmpeg's closing lines that say no cause ("Conversion failed!", a trailing " --"), the last
  /// 300 characters kept.
  static func summary(of text: String) -> String {
    var lines: [String] = []
    for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      func trimmed<S: StringProtocol>(_ s: S) -> String {
        String(
          s.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: {
            $0 == " " || $0 == "\t"
          }).reversed())
      }
      var line = trimmed(line)
      while line.hasSuffix("--") { line = trimmed(line.dropLast(2)) }
      guard !line.isEmpty, line != "Conversion failed!", !lines.contains(line) else { continue }
      lines.append(line)
    }
    let joined = lines.joined(separator: "; ")
    return joined.count > 300 ? "…" + String(joined.suffix(300)) : joined
  }

  /// Ends the program at once (SIGKILL) and waits for it.
  func terminate() {
    guard exitStatus == nil else { return }
    kill(pid, SIGKILL)
    _ = wait()
  }

  private func wait() -> Int32 {
    if let exitStatus { return exitStatus }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS by hand (the macros do not import).
    let result = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    exitStatus = result
    return result
  }
}
