import ArgumentParser
import Flipbook
import Glibc

/// The `flipbook` command: renders Core Animation scenes to PNG frames and animated GIFs.
///
/// Exit status follows docs/command-line.md: 0 on success, 1 when the work failed (a bad scene, an
/// unwritable file), 2 on wrong usage. Errors go to standard error, one line per problem.
public struct FlipbookTool: ParsableCommand {
  /// The command's name, abstract and subcommands.
  public static let configuration = CommandConfiguration(
    commandName: "flipbook",
    abstract: "Render Core Animation scenes to PNG frames and animated GIFs.",
    discussion: """
      A scene is a JSON file (see docs/scene-format in the README) or a built-in demo. Times are \
      in seconds, sizes in points; --scale sets pixels per point.
      Exit status: 0 success, 1 the work failed (bad scene, unwritable output), 2 wrong usage.
      """,
    version: "0.1.0",
    subcommands: [
      RenderCommand.self, FrameCommand.self, InspectCommand.self, DemoCommand.self,
      DiffCommand.self, SheetCommand.self, BatchCommand.self,
    ])

  /// Creates the root command (it only dispatches to subcommands).
  public init() {}

  /// Parses `arguments`, runs the chosen command and exits with docs/command-line.md's statuses.
  public static func main(_ arguments: [String]) -> Never {
    main(rawArguments: arguments.map { Array($0.utf8) })
  }

  /// The process's arguments after the program's name, as the bytes the system gave them:
  /// `CommandLine.arguments` turns a byte that is not UTF-8 into U+FFFD, which names another
  /// file (`bad<FF>name.json` was "No such file", and `-o o<FE>.gif` wrote `o<EF BF BD>.gif`).
  public static var commandLineBytes: [[UInt8]] {
    (1..<Int(CommandLine.argc)).map { i in
      guard let argument = CommandLine.unsafeArgv[i] else { return [] }
      return UnsafeRawBufferPointer(start: argument, count: strlen(argument)).map { $0 }
    }
  }

  /// Parses `rawArguments` (each argument's bytes, `commandLineBytes`), runs the chosen command
  /// and exits with docs/command-line.md's statuses; an argument that is not UTF-8 is a usage
  /// error (`run(rawArguments:standardError:)`).
  public static func main(rawArguments: [[UInt8]]) -> Never {
    AtomicFile.removeTemporaryFilesOnInterrupt()
    var code = run(rawArguments: rawArguments, standardError: { FileHandleStandardError.write($0) })
    // What was printed (`inspect`, `demo --list`, summaries) is part of the result: a standard
    // output that cannot take it (a full disk) is a failure, said once. `print` writes through
    // C's buffered standard output; flushing every stream writes what is left of it.
    if fflush(nil) != 0 {
      FileHandleStandardError.write(
        "cannot write standard output: \(String(cString: strerror(errno)))")
      if code == 0 { code = 1 }
    }
    Glibc.exit(code)
  }

  /// Runs the arguments `rawArguments` (their bytes) as `run(_:standardError:)` does, after
  /// refusing, before any work, one that is not UTF-8 (exit status 2): file names and values are
  /// read and written as UTF-8 text throughout (the manifest, the gallery page, ffmpeg's
  /// arguments), so such a name could be neither read nor written as given. The message names
  /// the argument's position (1 is the command's name) and the option it is the value of, and
  /// shows its other bytes as `\xFF`.
  public static func run(rawArguments: [[UInt8]], standardError: (String) -> Void) -> Int32 {
    var arguments: [String] = []
    for (k, bytes) in rawArguments.enumerated() {
      guard let argument = String(validating: bytes, as: UTF8.self) else {
        let command = configuration.subcommands.first {
          $0.configuration.commandName == arguments.first
        }
        // The option before it, when it takes a value (`-o`), is what the argument is for.
        var of = ""
        if k >= 2, let options = RepeatedOptions.commandOptions[arguments[0]],
          options.contains(where: { $0.takesValue && $0.names.contains(arguments[k - 1]) })
        {
          of = ", the value of \(arguments[k - 1]),"
        }
        let problem =
          "argument \(k + 1) (\(MessageText.bytes(bytes)))\(of) is not UTF-8: flipbook reads and "
          + "writes file names as UTF-8 text; rename the file or give another name"
        standardError(
          "Error: \(problem)"
            + (command.map {
              "\nUsage: \(usageString(for: $0))\n  See 'flipbook \(arguments[0]) --help' for more "
                + "information."
            } ?? ""))
        return 2
      }
      arguments.append(argument)
    }
    return run(arguments, standardError: standardError)
  }

  /// Parses and runs `arguments`, reporting errors through `standardError`, and returns the exit
  /// status; `main` calls this, and tests call it directly.
  public static func run(_ arguments: [String], standardError: (String) -> Void) -> Int32 {
    let subcommand = configuration.subcommands.first {
      $0.configuration.commandName == arguments.first
    }
    func usageError(_ problem: String) -> Int32 {
      standardError(
        "Error: \(problem)"
          + (subcommand.map {
            "\nUsage: \(usageString(for: $0))\n  See 'flipbook \(arguments[0]) --help' for more "
              + "information."
          } ?? ""))
      return 2
    }
    // A batch's inputs are set aside before parsing (the parser takes time in the square of
    // the arguments it is given), and the other arguments are limited.
    let (parsed, batchInputs) = BulkArguments.settingAsideBatchInputs(arguments)
    guard parsed.count <= BulkArguments.maximumArguments else {
      return usageError(BulkArguments.tooMany(parsed.count))
    }
    if let problem = RepeatedOptions.problem(in: parsed), subcommand != nil {
      return usageError(problem)
    }
    do {
      var command = try parseAsRoot(SheetCommand.attachingTimes(parsed))
      if !batchInputs.isEmpty, var batch = command as? BatchCommand {
        batch.inputs += batchInputs
        command = batch
      }
      try command.run()
      return 0
    } catch let failure as CommandFailure {
      standardError(failure.message)
      return 1
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        print(fullMessage(for: error))
        return 0
      }
      if code == .validationFailure {
        standardError(cuttingLongArguments(fullMessage(for: error), parsed))
        return 2
      }
      // Errors of our own libraries: their descriptions already name file and place.
      standardError(String(describing: error))
      return code.rawValue == 0 ? 1 : code.rawValue
    }
  }

  /// `message` (a usage error from the argument parser, which quotes a value it refuses, twice
  /// for a number) with each argument of `arguments` over 200 characters cut in its middle as
  /// messages cut paths (`MessageText.path`): a `--time` of 100,000 digits made one line of
  /// 200,093 bytes.
  static func cuttingLongArguments(_ message: String, _ arguments: [String]) -> String {
    var message = message
    for argument in Set(arguments)
    where argument.count > 200 || SourcePlace.hasControlCharacters(argument) {
      // Control characters escaped too (an argument `x<ESC>[2J.zzz` cleared the terminal).
      message = message.replacing(argument, with: MessageText.path(argument))
    }
    return message
  }
}

/// A failure of the work itself (exit status 1), with the lines to print.
struct CommandFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// Unbuffered writes to standard error.
enum FileHandleStandardError {
  static func write(_ text: String) {
    writeRaw(text.hasSuffix("\n") ? text : text + "\n")
  }

  /// Writes `text` as it is (no newline added).
  static func writeRaw(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        Glibc.write(2, $0.baseAddress! + offset, $0.count - offset)
      }
      if n <= 0 { break }
      offset += n
    }
  }
}
