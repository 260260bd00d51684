import Glibc
import Synchronization

/// Why a file could not be read or written, with the path and the system's reason.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file the operation was about.
  public var path: String
  /// The system's description of the failure (`strerror`).
  public var reason: String

  /// Creates an error for `path`.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `"<path>: <reason>"`.
  public var description: String { "\(path): \(reason)" }
}

/// Reads whole files and writes them whole or not at all: every file Flipbook writes goes
/// through here.
///
/// A write goes to a temporary file beside the target (`.<name>.<pid>.tmp`) that is renamed over
/// the target only once every byte is on disk, so an interrupted or failed write never leaves a
/// half-written file and never clobbers an existing one. Temporary files still open when the
/// process gets SIGINT, SIGTERM or SIGHUP are removed before it exits.
public enum AtomicFile {
  /// Writes `bytes` to `path`, replacing any existing file only when the write succeeded.
  public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
    let stream = try Stream(path: path)
    try stream.write(bytes)  // on failure the stream's deinit removes the temporary file
    try stream.commit()
  }

  /// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files of writes under way before the
  /// process ends (also when the process started with those signals ignored). Commands call
  /// this first; writes install it themselves too.
  public static func removeTemporaryFilesOnInterrupt() {
    TemporaryFiles.installHandlers()
  }

  /// The most bytes `read` reads from one file unless told otherwise: 256 MiB (268,435,456).
  /// Every file Flipbook reads (scenes, images, `diff` inputs) goes through `read`, so no input
  /// can make it allocate more than this for one file.
  public static let maximumReadSize: Int = 256 << 20

  /// Reads the whole regular file at `path`.
  ///
  /// Only regular files are read: a folder, a device (`/dev/zero`), a pipe or a socket is refused
  /// before a byte is read, so no input can make a read endless.
  ///
  /// - Parameters:
  ///   - path: the file to read.
  ///   - limit: the most bytes the file may have (default `maximumReadSize`); a larger file is
  ///     refused, before more than `limit` bytes are read, with `FileError` "it is larger than N
  ///     bytes, the limit".
  public static func read(
    _ path: String, limit: Int = maximumReadSize
  ) throws(FileError) -> [UInt8] {
    try read(path, limit: limit, prefix: false)
  }

  /// The first `count` bytes of the regular file at `path` (all of it when it is shorter), with
  /// the checks `read(_:limit:)` makes: what a folder search looks at to tell whether a file too
  /// large to read whole is a scene.
  public static func read(_ path: String, first count: Int) throws(FileError) -> [UInt8] {
    try read(path, limit: count, prefix: true)
  }

  /// `read(_:limit:)`, or with `prefix` the first `limit` bytes.
  private static func read(_ path: String, limit: Int, prefix: Bool) throws(FileError) -> [UInt8] {
    guard !path.isEmpty else { throw FileError(path: path, reason: "an empty path names no file") }
    guard !path.utf8.contains(0) else {
      throw FileError(path: path, reason: "the path contains a NUL character")
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw FileError(path: path, reason: openError(path)) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw FileError(path: path, reason: lastError()) }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw FileError(path: path, reason: "is a folder, not a file")
    default: throw FileError(path: path, reason: "is not a regular file (a device, pipe or socket)")
    }
    if info.st_size > limit && !prefix {
      throw FileError(path: path, reason: "it is larger than \(limit) bytes, the limit")
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Swift.min(Int(info.st_size), limit))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while !(prefix && bytes.count == limit) {
      let wanted = prefix ? Swift.min(chunk.count, limit - bytes.count) : chunk.count
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw FileError(path: path, reason: lastError())
      }
      if n == 0 { break }
      if bytes.count + n > limit {
        throw FileError(path: path, reason: "it is larger than \(limit) bytes, the limit")
      }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
  }

  /// Why `open` failed for `path` (`errno`), saying so when the name is a symbolic link whose
  /// target does not exist: "No such file or directory" for a name `ls` lists misled.
  static func openError(_ path: String) -> String {
    let code = errno
    let reason = String(cString: strerror(code))
    guard code == ENOENT else { return reason }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return reason }
    return "is a symbolic link to a file that does not exist"
  }

  /// Removes the temporary files (`.NAME.PID.tmp`) in `folder` whose process no longer exists:
  /// what a write killed by SIGKILL or a crash left behind. Files of live processes stay.
  ///
  /// - Returns: the names removed.
  @discardableResult
  public static func removeStaleTemporaryFiles(in folder: String) -> [String] {
    guard let dir = opendir(folder.isEmpty ? "." : folder) else { return [] }
    defer { closedir(dir) }
    var removed: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      guard name.hasPrefix("."), name.hasSuffix(".tmp") else { continue }
      let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count >= 3, let pid = Int32(parts[parts.count - 1]), pid > 0 else { continue }
      guard pid != getpid() else { continue }
      guard kill(pid, 0) != 0 && errno == ESRCH else { continue }  // alive, or not ours to ask
      let full = folder.isEmpty ? name : (folder.hasSuffix("/") ? folder : folder + "/") + name
      var info = stat()
      guard lstat(full, &info) == 0 else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        if unlink(full) == 0 { removed.append(name) }
      case S_IFDIR:
        // A folder of frames (`AtomicFile.Folder`): its files, then itself.
        removeFiles(in: full)
        if rmdir(full) == 0 { removed.append(name) }
      default: continue
      }
    }
    return removed.sorted()
  }

  /// The folder part of `path` ("" for a bare name), with its trailing slash.
  static func folder(of path: String) -> String {
    path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
  }

  /// The most bytes a file name may have (`NAME_MAX` on Linux and macOS).
  static let maximumNameLength = 255

  /// The temporary file a write to `path` goes through first: `.NAME.PID.tmp` beside it. When
  /// that is longer than a file name may be (a name of 251 bytes is allowed, its temporary
  /// name was not: "File name too long"), the name is cut at a character's end and a hash of
  /// the whole name put after it (`.NAME-START~HASH.PID.tmp`), so that two long names that
  /// start alike do not share a temporary file; it still ends in `.PID.tmp`, so
  /// `removeStaleTemporaryFiles(in:)` finds it.
  static func temporaryPath(for path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let suffix = ".\(getpid()).tmp"
    guard 1 + name.utf8.count + suffix.utf8.count > maximumNameLength else {
      return "\(folder).\(name)\(suffix)"
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let tag = "~" + String(hash, radix: 16)
    var start = ""
    for character in name {
      guard
        1 + start.utf8.count + character.utf8.count + tag.utf8.count + suffix.utf8.count
          <= maximumNameLength
      else { break }
      start.append(character)
    }
    return "\(folder).\(start)\(tag)\(suffix)"
  }

  static func lastError() -> String { String(cString: strerror(errno)) }

  /// Why a file or folder beside which a temporary one was being made (`path`) cannot be
  /// written: the system's reason, or, when the folder it goes in does not exist, that folder
  /// named (`-o a/b/c/` said "No such file or directory" of `a/b/c`, whose parent was missing).
  static func creationError(for path: String) -> String {
    let code = errno
    let reason = lastError()
    guard code == ENOENT else { return reason }
    var parent = folder(of: path)
    if parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
    var info = stat()
    guard !parent.isEmpty, stat(parent, &info) != 0 else { return reason }
    // Named when it reads as it is; a long or odd one is in the path the message names.
    let plain = parent.utf8.count <= 200 && !parent.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    return plain
      ? "the folder it goes in, \(parent), does not exist" : "the folder it goes in does not exist"
  }

  /// Writes all of `bytes` to `fd`, at its position or (with `offset`) from that byte on, going
  /// on after interrupted and partial writes; the system's reason when it fails, else `nil`.
  static func writeAll(_ bytes: [UInt8], to fd: Int32, at offset: Int? = nil) -> String? {
    bytes.withUnsafeBytes { raw -> String? in
      var done = 0
      while done < raw.count {
        let n =
          offset.map { pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t($0 + done)) }
          ?? Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
        if n < 0 {
          if errno == EINTR { continue }
          return lastError()
        }
        done += n
      }
      return nil
    }
  }
}

/// The folders this process has cleared of stale temporary files (once each, so that a folder
/// of 100,000 frames is listed once, not once per frame).
enum StaleFiles {
  private static let cleared = Mutex<Set<String>>([])

  static func removeOnce(in folder: String) {
    let first = cleared.withLock { $0.insert(folder).inserted }
    if first { AtomicFile.removeStaleTemporaryFiles(in: folder) }
  }
}

/// The temporary files being written, removed by a signal handler if the process is stopped.
///
/// The tables are plain C memory because a signal handler reads them: it walks the slots without
/// allocating or locking (async-signal-safe). Every change to them happens under `installed`'s
/// `Mutex`, so writers never race each other; a slot is emptied before its string is freed.
enum TemporaryFiles {
  private static let capacity = 64
  // A fixed table of C strings that the signal handler can walk without allocating or locking.
  nonisolated(unsafe) private static let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    .allocate(capacity: capacity)
  // Programs writing temporary files (ffmpeg): killed, and waited for, before the files are
  // removed, so none can create its file again after the removal.
  private static let helperCapacity = 16
  nonisolated(unsafe) private static let helpers = UnsafeMutablePointer<pid_t>.allocate(
    capacity: helperCapacity)
  // Temporary folders (`AtomicFile.Folder`), each with a directory stream opened when it was
  // made, so the handler can list and remove its files without allocating.
  private static let folderCapacity = 16
  nonisolated(unsafe) private static let folderPaths =
    UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: folderCapacity)
  nonisolated(unsafe) private static let folderStreams = UnsafeMutablePointer<OpaquePointer?>
    .allocate(capacity: folderCapacity)
  /// Whether the handlers are installed (and the tables initialized); guards every table write.
  private static let installed = Mutex(false)
  /// How many threads are putting files in place (`deferringSignals`), and the signal that came
  /// meanwhile (0: none): the handler leaves it until they are done.
  private static let deferring = Atomic<Int>(0)
  private static let deferredSignal = Atomic<Int32>(0)

  /// Runs `body` with SIGINT, SIGTERM and SIGHUP held back: one that comes meanwhile is acted
  /// on (temporary files removed, the process ended) once `body` returns. For moves that must
  /// all happen or none (a folder of frames put in place file by file: an interrupt in the
  /// middle left new and old frames mixed).
  static func deferringSignals<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    installHandlers()
    deferring.add(1, ordering: .sequentiallyConsistent)
    defer {
      if deferring.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
        let signal = deferredSignal.exchange(0, ordering: .sequentiallyConsistent)
        if signal != 0 { raise(signal) }
      }
    }
    return try body()
  }

  /// The signals that end the process and are handled first (`installHandlers`): SIGINT,
  /// SIGTERM and SIGHUP; SIGQUIT (Ctrl-\), which Swift's runtime took as a crash, printed a
  /// backtrace of every thread for, and then let the render go on to exit 0; and SIGUSR1 and
  /// SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU (a CPU-time limit, `ulimit -t`) and SIGPWR,
  /// whose default action ended the process with its temporary files (a frames folder) left.
  static let endingSignals = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
    SIGPWR,
  ]

  /// Installs the handlers (once): on one of `endingSignals` every helper program is killed
  /// and waited for, every temporary file being written is removed, then the signal takes its
  /// default action (the process ends).
  static func installHandlers() {
    installed.withLock { installHandlersLocked(&$0) }
  }

  private static func installHandlersLocked(_ installed: inout Bool) {
    guard !installed else { return }
    // Made now, not first in the handler (a static's first use is not async-signal-safe).
    _ = deferring.load(ordering: .sequentiallyConsistent)
    _ = deferredSignal.load(ordering: .sequentiallyConsistent)
    slots.initialize(repeating: nil, count: capacity)
    helpers.initialize(repeating: 0, count: helperCapacity)
    folderPaths.initialize(repeating: nil, count: folderCapacity)
    folderStreams.initialize(repeating: nil, count: folderCapacity)
    for signal in TemporaryFiles.endingSignals {
      Glibc.signal(signal) { number in
        // Files being put in place: acted on when they are (`deferringSignals`).
        if TemporaryFiles.deferring.load(ordering: .sequentiallyConsistent) > 0 {
          TemporaryFiles.deferredSignal.store(number, ordering: .sequentiallyConsistent)
          return
        }
        for i in 0..<TemporaryFiles.helperCapacity where TemporaryFiles.helpers[i] > 0 {
          kill(TemporaryFiles.helpers[i], SIGKILL)
          waitpid(TemporaryFiles.helpers[i], nil, 0)
        }
        for i in 0..<TemporaryFiles.capacity {
          if let p = TemporaryFiles.slots[i] { unlink(p) }
        }
        // Folders: their files (listed through the stream opened beforehand), then themselves.
        for i in 0..<TemporaryFiles.folderCapacity {
          guard let p = TemporaryFiles.folderPaths[i] else { continue }
          if let dir = TemporaryFiles.folderStreams[i] {
            rewinddir(dir)
            while let entry = readdir(dir) {
              withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = raw.bindMemory(to: CChar.self).baseAddress!
                // Not "." or "..".
                let dot = CChar(UInt8(ascii: "."))
                if name[0] == dot && (name[1] == 0 || (name[1] == dot && name[2] == 0)) { return }
                unlinkat(dirfd(dir), name, 0)
              }
            }
          }
          rmdir(p)
        }
        // SIGQUIT's and SIGXCPU's default action also dumps core: the process ends as it
        // would, without one.
        if number == SIGQUIT || number == SIGXCPU { _exit(128 + number) }
        Glibc.signal(number, SIG_DFL)
        raise(number)
      }
    }
    // A write past the file-size limit (`ulimit -f`) fails with EFBIG, said as the output's
    // error ("File too large") with nothing left behind, rather than SIGXFSZ ending the process
    // without a word and leaving its temporary file (hostile pass 35).
    Glibc.signal(SIGXFSZ, SIG_IGN)
    // A process can start with these signals blocked (the mask is inherited): unblock them.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signal in TemporaryFiles.endingSignals { sigaddset(&unblock, signal) }
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    installed = true
  }

  static func register(_ path: String) { store(path, in: slots, capacity: capacity) }

  /// Adds a temporary folder: an interrupt removes its files and it.
  static func registerFolder(_ path: String) {
    store(path, in: folderPaths, capacity: folderCapacity)
  }

  /// Puts a copy of `path` in the first empty slot of `table`, installing the handlers first.
  private static func store(
    _ path: String, in table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, capacity: Int
  ) {
    installed.withLock { installed in
      installHandlersLocked(&installed)
      for i in 0..<capacity where table[i] == nil {
        table[i] = strdup(path)
        return
      }
    }
  }

  /// Opens the directory stream the handler lists a registered folder's files with.
  static func openFolder(_ path: String) {
    installed.withLock { installed in
      guard installed else { return }
      for i in 0..<folderCapacity {
        if let p = folderPaths[i], String(cString: p) == path, folderStreams[i] == nil {
          folderStreams[i] = opendir(path)
          return
        }
      }
    }
  }

  /// Forgets a folder added with `registerFolder(_:)`.
  static func unregisterFolder(_ path: String) {
    installed.withLock { installed in
      guard installed else { return }
      for i in 0..<folderCapacity {
        if let p = folderPaths[i], String(cString: p) == path {
          // Emptied before anything is closed or freed (the handler may be reading them).
          let dir = folderStreams[i]
          folderStreams[i] = nil
          folderPaths[i] = nil
          if let dir { closedir(dir) }
          free(p)
          return
        }
      }
    }
  }

  /// Adds a program writing a temporary file: an interrupt kills it (and waits for it) first.
  static func registerHelper(_ pid: pid_t) {
    installed.withLock { installed in
      installHandlersLocked(&installed)
      for i in 0..<helperCapacity where helpers[i] == 0 {
        helpers[i] = pid
        return
      }
    }
  }

  /// Forgets a program added with `registerHelper(_:)` (it has ended or been waited for).
  static func unregisterHelper(_ pid: pid_t) {
    installed.withLock { installed in
      guard installed else { return }
      for i in 0..<helperCapacity where helpers[i] == pid { helpers[i] = 0 }
    }
  }

  static func unregister(_ path: String) {
    installed.withLock { installed in
      guard installed else { return }
      for i in 0..<capacity {
        if let p = slots[i], String(cString: p) == path {
          slots[i] = nil
          free(p)
          return
        }
      }
    }
  }
}

extension AtomicFile {
  /// A file written in pieces, whole or not at all: bytes go to a temporary file beside the
  /// target, which `commit()` renames over it; `abort()` (or deinit without a commit) removes it.
  public final class Stream: ByteOutput {
    /// The file the stream becomes on `commit()`.
    public let path: String
    private let temporary: String
    /// The temporary file the bytes go to until `commit()`, for an encoder that is another
    /// program and writes a path itself (ffmpeg): it writes here, `commit()` renames it over
    /// `path`, and an interrupt removes it like any other.
    public var temporaryPath: String { temporary }
    private var fd: Int32
    private var done = false
    private var helper: pid_t = 0

    /// Names the program (process id) that writes `temporaryPath`: on SIGINT, SIGTERM or SIGHUP
    /// it is killed and waited for before the temporary file is removed, so it cannot create
    /// the file again. Call `helperEnded()` once it has been waited for.
    public func writtenBy(process pid: Int32) {
      helper = pid
      TemporaryFiles.registerHelper(pid)
    }

    /// The program named with `writtenBy(process:)` has ended (it was waited for).
    public func helperEnded() {
      guard helper != 0 else { return }
      TemporaryFiles.unregisterHelper(helper)
      helper = 0
    }

    /// Opens a temporary file beside `path`, after removing the stale temporary files of
    /// processes that no longer exist beside it (the first time this process writes in that
    /// folder; see `AtomicFile.removeStaleTemporaryFiles(in:)`).
    public init(path: String) throws(FileError) {
      self.path = path
      temporary = AtomicFile.temporaryPath(for: path)
      StaleFiles.removeOnce(in: AtomicFile.folder(of: path))
      TemporaryFiles.register(temporary)
      fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        let reason = AtomicFile.creationError(for: path)
        TemporaryFiles.unregister(temporary)
        throw FileError(path: path, reason: reason)
      }
    }

    deinit { abort() }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(FileError) {
      precondition(!done, "AtomicFile.Stream written after commit or abort")
      if let failure = AtomicFile.writeAll(bytes, to: fd) {
        throw FileError(path: path, reason: failure)
      }
    }

    /// Replaces bytes already written from `offset` on (see `ByteOutput.overwrite(_:at:)`).
    public func overwrite(_ bytes: [UInt8], at offset: Int) throws(FileError) {
      precondition(!done, "AtomicFile.Stream written after commit or abort")
      if let failure = AtomicFile.writeAll(bytes, to: fd, at: offset) {
        throw FileError(path: path, reason: failure)
      }
    }

    /// Closes the temporary file and renames it over `path`.
    public func commit() throws(FileError) {
      guard !done else { return }
      done = true
      defer { TemporaryFiles.unregister(temporary) }
      var failure: String? = nil
      if close(fd) != 0 { failure = AtomicFile.lastError() }
      if failure == nil && rename(temporary, path) != 0 { failure = AtomicFile.lastError() }
      if let failure {
        unlink(temporary)
        throw FileError(path: path, reason: failure)
      }
    }

    /// Closes and removes the temporary file; the target is left as it was.
    public func abort() {
      guard !done else { return }
      done = true
      close(fd)
      unlink(temporary)
      TemporaryFiles.unregister(temporary)
    }
  }
}

extension AtomicFile {
  /// Creates `path` as a folder if it does not exist (its parent must). Safe to call from
  /// several threads or processes at once: a folder another one made first is accepted.
  public static func makeFolder(_ path: String) throws(FileError) {
    var info = stat()
    func existingFolder() throws(FileError) -> Bool {
      guard stat(path, &info) == 0 else { return false }
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        throw FileError(path: path, reason: "exists and is not a folder")
      }
      return true
    }
    if try existingFolder() { return }
    guard mkdir(path, 0o755) == 0 else {
      // Made by someone else between the check and here (batch jobs writing into one folder).
      if errno == EEXIST, try existingFolder() { return }
      throw FileError(path: path, reason: lastError())
    }
  }

  /// The names of the entries of `folder` that end with `suffix` and do not start with a dot,
  /// sorted; empty when the folder cannot be read.
  public static func names(in folder: String, suffix: String = "") -> [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var out: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if name.hasSuffix(suffix) && !name.hasPrefix(".") { out.append(name) }
    }
    return out.sorted()
  }

  /// The device and inode of the file at `path` (following symbolic links), or `nil` when
  /// there is none: the same file however it is named (`./a.json`, a hard or symbolic link),
  /// so that an output is known to be an input whatever the spellings.
  public static func identity(of path: String) -> [UInt64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  /// Whether `path` names an existing folder.
  public static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}

extension AtomicFile {
  /// Removes the regular files and symbolic links directly in `folder` (dot files too).
  static func removeFiles(in folder: String) {
    guard let dir = opendir(folder) else { return }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    for name in names { unlink(folder + "/" + name) }
  }

  /// A folder of files written whole or not at all: the files go into a temporary folder
  /// beside the target (`.NAME.PID.tmp`), which `commit()` renames to the target (or, when the
  /// target folder exists, whose files it moves into it, replacing files of the same names and
  /// leaving others alone); `abort()`, deinit without a commit, or SIGINT, SIGTERM or SIGHUP
  /// remove it, so a failed or interrupted render leaves no frames behind.
  public final class Folder {
    /// The folder the files end up in.
    public let path: String
    private let temporary: String
    private var names: [String] = []
    private var done = false

    /// Makes the temporary folder beside `path` (whose parent must exist); `path`, when it
    /// exists, must be a folder.
    public init(path: String) throws(FileError) {
      // Every trailing slash and `.` (`"$DIR/"` of a DIR ending in `/` gives `fr//`, which was
      // said to go in a folder `fr` that did not exist; `fr/./` likewise).
      var bare = Substring(path)
      while bare.count > 1, bare.hasSuffix("/") || bare.hasSuffix("/.") {
        bare = bare.dropLast(bare.hasSuffix("/") ? 1 : 2)
      }
      let trimmed = String(bare)
      self.path = trimmed
      var info = stat()
      if stat(trimmed, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR {
        throw FileError(path: trimmed, reason: "exists and is not a folder")
      }
      // A symbolic link whose target does not exist cannot be written through, nor replaced by
      // a folder (it was said "Not a directory" once every frame was rendered).
      if stat(trimmed, &info) != 0, lstat(trimmed, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
        throw FileError(path: trimmed, reason: "is a symbolic link to a folder that does not exist")
      }
      temporary = AtomicFile.temporaryPath(for: trimmed)
      StaleFiles.removeOnce(in: AtomicFile.folder(of: trimmed))
      TemporaryFiles.registerFolder(temporary)
      guard mkdir(temporary, 0o755) == 0 else {
        let reason = AtomicFile.creationError(for: trimmed)
        TemporaryFiles.unregisterFolder(temporary)
        throw FileError(path: trimmed, reason: reason)
      }
      TemporaryFiles.openFolder(temporary)
    }

    deinit { abort() }

    /// Writes the file `name` (no slashes) into the folder.
    public func write(_ bytes: [UInt8], name: String) throws(FileError) {
      precondition(!done, "AtomicFile.Folder written after commit or abort")
      let file = temporary + "/" + name
      let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        throw FileError(path: path + "/" + name, reason: AtomicFile.lastError())
      }
      names.append(name)
      var failure = AtomicFile.writeAll(bytes, to: fd)
      if close(fd) != 0 && failure == nil { failure = AtomicFile.lastError() }
      if let failure { throw FileError(path: path + "/" + name, reason: failure) }
    }

    /// Puts the files in place: the temporary folder renamed to `path`, or its files moved into
    /// the existing folder.
    public func commit() throws(FileError) {
      guard !done else { return }
      var info = stat()
      if stat(path, &info) != 0 {
        if rename(temporary, path) == 0 {
          done = true
          TemporaryFiles.unregisterFolder(temporary)
          return
        }
        // Made meanwhile (another process): moved into, below.
        guard errno == ENOTEMPTY || errno == EEXIST else {
          let reason = AtomicFile.lastError()
          abort()
          throw FileError(path: path, reason: reason)
        }
      }
      // All or none: every name must be free or a file to replace, checked before the first
      // is moved (a folder in a frame's place left the frames before it new and those after
      // it old); the moves then go on whatever signal comes, which is acted on after them.
      var existing = stat()
      for name in names
      where lstat(path + "/" + name, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFDIR {
        abort()
        throw FileError(
          path: path + "/" + name, reason: "is a folder, so no frame was put in place")
      }
      try TemporaryFiles.deferringSignals { () throws(FileError) in
        for name in names where rename(temporary + "/" + name, path + "/" + name) != 0 {
          let reason = AtomicFile.lastError()
          abort()
          throw FileError(path: path + "/" + name, reason: reason)
        }
        done = true
        rmdir(temporary)
        TemporaryFiles.unregisterFolder(temporary)
      }
    }

    /// Removes the temporary folder and what was written into it; the target is left as it was.
    public func abort() {
      guard !done else { return }
      done = true
      AtomicFile.removeFiles(in: temporary)
      rmdir(temporary)
      TemporaryFiles.unregisterFolder(temporary)
    }
  }
}
