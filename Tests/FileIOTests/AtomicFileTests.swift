import Dispatch
import FileIO
import FlipbookTestSupport
import Glibc
import Synchronization
import Testing

func temporaryFolder() -> String { FixtureFiles.temporaryFolder() }

func entries(of folder: String) -> [String] {
  guard let dir = opendir(folder) else { return [] }
  defer { closedir(dir) }
  var names: [String] = []
  while let entry = readdir(dir) {
    names.append(
      withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      })
  }
  return names
}

@Suite struct AtomicFileTests {
  let folder = temporaryFolder()

  /// Batch jobs make the same output folder at once: whoever loses the race accepts the
  /// winner's folder instead of failing with "File exists".
  @Test func manyThreadsMakingOneFolderAllSucceed() throws {
    for round in 0..<20 {
      let folder = temporaryFolder() + "/made-\(round)"
      let failures = Mutex(0)
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        do { try AtomicFile.makeFolder(folder) } catch { failures.withLock { $0 += 1 } }
      }
      #expect(failures.withLock { $0 } == 0)
      var info = stat()
      #expect(stat(folder, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR)
    }
  }

  @Test func writesAndReadsWholeFiles() throws {
    let path = folder + "/a.bin"
    try AtomicFile.write([1, 2, 3], to: path)
    #expect(try AtomicFile.read(path) == [1, 2, 3])
    try AtomicFile.write([4], to: path)
    #expect(try AtomicFile.read(path) == [4])
  }

  @Test func failedWritesLeaveNothingBehind() throws {
    let path = folder + "/missing-folder/a.bin"
    #expect(throws: FileError.self) { try AtomicFile.write([1], to: path) }
    // Writing over a folder fails at the rename and removes the temporary file.
    mkdir(folder + "/taken", 0o755)
    mkdir(folder + "/taken/inner", 0o755)
    #expect(throws: FileError.self) { try AtomicFile.write([1], to: folder + "/taken") }
    #expect(!entries(of: folder).contains { $0.hasSuffix(".tmp") })
  }

  @Test func readingAMissingFileNamesIt() {
    #expect(throws: FileError(path: folder + "/nope", reason: "No such file or directory")) {
      try AtomicFile.read(folder + "/nope")
    }
  }

  @Test func readingPastTheLimitIsRefused() throws {
    let path = folder + "/big.bin"
    try AtomicFile.write([UInt8](repeating: 7, count: 100), to: path)
    #expect(try AtomicFile.read(path, limit: 100).count == 100)
    #expect(throws: FileError(path: path, reason: "it is larger than 99 bytes, the limit")) {
      try AtomicFile.read(path, limit: 99)
    }
  }

  @Test func onlyRegularFilesAreRead() {
    #expect(
      throws: FileError(
        path: "/dev/zero", reason: "is not a regular file (a device, pipe or socket)")
    ) {
      try AtomicFile.read("/dev/zero")
    }
    #expect(throws: FileError(path: folder, reason: "is a folder, not a file")) {
      try AtomicFile.read(folder)
    }
    #expect(throws: FileError(path: "", reason: "an empty path names no file")) {
      try AtomicFile.read("")
    }
    #expect(throws: FileError(path: folder + "/a\0b", reason: "the path contains a NUL character"))
    {
      try AtomicFile.read(folder + "/a\0b")
    }
  }

  /// Issue 18: a write finds the temporary files a killed process left beside its target and
  /// removes those whose process is gone; a live process's stay.
  @Test func aWriteRemovesStaleTemporaryFilesOfDeadProcesses() throws {
    // No process has an id above the kernel's pid_max.
    let pidMax =
      Int(
        (try? AtomicFile.read("/proc/sys/kernel/pid_max")).map {
          String(decoding: $0, as: UTF8.self).trimmingCharacters()
        } ?? "") ?? 4_194_304
    let dead = ".out.gif.\(pidMax + 1).tmp", alive = ".out.gif.\(getppid()).tmp"
    let other = ".frame-00001.png.\(pidMax + 2).tmp", unrelated = ".notes.txt.tmp"
    // Made directly (a write through AtomicFile would clear the folder before they exist).
    for name in [dead, alive, other, unrelated] { close(creat(folder + "/" + name, 0o644)) }
    try AtomicFile.write([2], to: folder + "/out.gif")
    let names = entries(of: folder)
    #expect(!names.contains(dead) && !names.contains(other))
    #expect(names.contains(alive) && names.contains(unrelated) && names.contains("out.gif"))
  }

  /// Issue 18: a 251-byte name (allowed: 255) failed with "File name too long", because its
  /// temporary name `.NAME.PID.tmp` was longer; that name is cut and a hash of the whole name
  /// put after it, still ending `.PID.tmp` for the stale-file cleanup.
  @Test func aLongNameIsWrittenThroughAShortenedTemporaryName() throws {
    let long = String(repeating: "é", count: 100) + String(repeating: "a", count: 47) + ".gif"
    #expect(long.utf8.count == 251)
    try AtomicFile.write([1], to: folder + "/" + long)
    #expect(try AtomicFile.read(folder + "/" + long) == [1])
    let other = String(long.dropLast(5)) + "b.gif"
    let (a, b) = (
      try AtomicFile.Stream(path: folder + "/" + long),
      try AtomicFile.Stream(path: folder + "/" + other)
    )
    defer {
      a.abort()
      b.abort()
    }
    for stream in [a, b] {
      let name = String(stream.temporaryPath.split(separator: "/").last!)
      #expect(name.utf8.count <= 255 && name.hasSuffix(".\(getpid()).tmp"), "\(name)")
      #expect(name.hasPrefix("." + String(repeating: "é", count: 100) + "aaaa"))
    }
    #expect(a.temporaryPath != b.temporaryPath)
    // One such name a killed process left is removed by the next write.
    // No process has an id above 2^22, the largest pid_max (7 digits: a shorter start).
    let ours = String(a.temporaryPath.split(separator: "/").last!)
    let hash = ours.split(separator: "~").last!.split(separator: ".").first!
    let dead = "." + String(repeating: "é", count: 100) + "aaaa~\(hash).4194305.tmp"
    #expect(creat(folder + "/" + dead, 0o644) >= 0)
    #expect(entries(of: folder).contains(dead))
    #expect(AtomicFile.removeStaleTemporaryFiles(in: folder) == [dead])
    #expect(!entries(of: folder).contains(dead))
  }

  @Test func aStreamAppearsOnlyOnCommit() throws {
    let path = folder + "/stream.bin"
    let stream = try AtomicFile.Stream(path: path)
    try stream.write([1, 2])
    try stream.write([3])
    #expect(access(path, F_OK) != 0)
    try stream.commit()
    #expect(try AtomicFile.read(path) == [1, 2, 3])
    let aborted = try AtomicFile.Stream(path: path)
    try aborted.write([9])
    aborted.abort()
    #expect(try AtomicFile.read(path) == [1, 2, 3])
    #expect(!entries(of: folder).contains { $0.hasSuffix(".tmp") })
  }

  /// Issue 18: a folder of files appears whole on commit (renamed into place, or its files
  /// moved into an existing folder, others left alone), and nothing of it is left on abort.
  @Test func aFolderAppearsOnlyOnCommit() throws {
    let path = folder + "/frames"
    let made = try AtomicFile.Folder(path: path)
    try made.write([1], name: "a.png")
    try made.write([2], name: "b.png")
    #expect(access(path, F_OK) != 0)
    try made.commit()
    #expect(AtomicFile.names(in: path) == ["a.png", "b.png"])
    try AtomicFile.write([7], to: path + "/notes.txt")
    // Thirty-first pass: `fr//` (every trailing slash) is the folder `fr` too.
    let doubled = try AtomicFile.Folder(path: folder + "/doubled//")
    #expect(doubled.path == folder + "/doubled")
    doubled.abort()
    // Thirty-second pass: and `fr/./` (a trailing `.`).
    let dotted = try AtomicFile.Folder(path: folder + "/dotted/./")
    #expect(dotted.path == folder + "/dotted")
    dotted.abort()
    let again = try AtomicFile.Folder(path: path + "/")
    try again.write([3], name: "a.png")
    try again.commit()
    #expect(AtomicFile.names(in: path) == ["a.png", "b.png", "notes.txt"])
    #expect(try AtomicFile.read(path + "/a.png") == [3])
    let aborted = try AtomicFile.Folder(path: path)
    try aborted.write([9], name: "b.png")
    try aborted.write([9], name: "c.png")
    aborted.abort()
    #expect(AtomicFile.names(in: path) == ["a.png", "b.png", "notes.txt"])
    #expect(try AtomicFile.read(path + "/b.png") == [2])
    #expect(!entries(of: folder).contains { $0.hasSuffix(".tmp") })
    // Not over a file.
    #expect(throws: FileError(path: path + "/notes.txt", reason: "exists and is not a folder")) {
      try AtomicFile.Folder(path: path + "/notes.txt")
    }
    // Twenty-eighth pass: nor through a link to a folder that does not exist ("Not a
    // directory", once every frame was rendered).
    symlink(folder + "/nowhere/dir", folder + "/dangling")
    #expect(
      throws: FileError(
        path: folder + "/dangling", reason: "is a symbolic link to a folder that does not exist")
    ) { try AtomicFile.Folder(path: folder + "/dangling/") }
  }

  /// Fourteenth hostile pass: a folder where one of the new files goes left the files before
  /// it replaced and those after it old. Every name is checked before the first is moved.
  @Test func aFolderIsPutInPlaceWholeOrNotAtAll() throws {
    let path = folder + "/mixed"
    let first = try AtomicFile.Folder(path: path)
    for name in ["a.png", "b.png", "d.png"] { try first.write([1], name: name) }
    try first.commit()
    mkdir(path + "/c.png", 0o755)
    let second = try AtomicFile.Folder(path: path)
    for name in ["a.png", "b.png", "c.png", "d.png"] { try second.write([2], name: name) }
    #expect(
      throws: FileError(
        path: path + "/c.png", reason: "is a folder, so no frame was put in place")
    ) { try second.commit() }
    for name in ["a.png", "b.png", "d.png"] {
      #expect(try AtomicFile.read(path + "/" + name) == [1])
    }
    #expect(!entries(of: folder).contains { $0.hasSuffix(".tmp") })
  }

  @Test func aWriteRemovesStaleTemporaryFoldersOfDeadProcesses() throws {
    let pidMax =
      Int(
        (try? AtomicFile.read("/proc/sys/kernel/pid_max")).map {
          String(decoding: $0, as: UTF8.self).trimmingCharacters()
        } ?? "") ?? 4_194_304
    let dead = ".frames.\(pidMax + 1).tmp", alive = ".frames.\(getppid()).tmp"
    for name in [dead, alive] {
      mkdir(folder + "/" + name, 0o755)
      close(creat(folder + "/" + name + "/frame-00000.png", 0o644))
      close(creat(folder + "/" + name + "/.hidden", 0o644))
    }
    try AtomicFile.write([2], to: folder + "/out.gif")
    let names = entries(of: folder)
    #expect(!names.contains(dead))
    #expect(names.contains(alive) && names.contains("out.gif"))
  }

  @Test func aByteBufferCollectsInMemory() throws {
    let buffer = ByteBuffer()
    let output: any ByteOutput = buffer
    try output.write([1])
    try output.write([2, 3])
    try output.commit()
    #expect(buffer.bytes == [1, 2, 3])
  }
}

extension String {
  fileprivate func trimmingCharacters() -> String {
    String(self.filter { !$0.isWhitespace })
  }
}
