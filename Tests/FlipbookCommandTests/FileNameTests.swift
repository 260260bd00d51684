import FileIO
import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import Batch
@testable import FlipbookCommand

/// Issue 18, an independent hostile pass (H): file names that are not UTF-8 were read as other
/// names (`bad<FF>name.json` as `bad<EF BF BD>name.json`, "No such file"; `-o o<FE>.gif` wrote
/// `o<EF BF BD>.gif`), and a batch's folder search skipped them, dangling links, pipes and
/// devices named `*.json` without a word.
@Suite struct FileNameTests {
  let folder = FixtureFiles.temporaryFolder()
  static let scene = FixtureFiles.root + "/scenes/spinner.json"

  /// Runs the command with arguments given as bytes, as the system gives them.
  func run(_ arguments: [[UInt8]]) -> (status: Int32, errors: String) {
    var errors = ""
    let status = FlipbookTool.run(rawArguments: arguments, standardError: { errors += $0 + "\n" })
    return (status, errors)
  }

  /// `folder/name` as the bytes a system call takes.
  func cPath(_ name: [UInt8]) -> [CChar] {
    (Array(folder.utf8) + [0x2F] + name + [0]).map { CChar(bitPattern: $0) }
  }

  /// Copies `source` to `folder/name` (bytes).
  func copy(_ source: String, to name: [UInt8]) throws {
    let bytes = try AtomicFile.read(source)
    let fd = open(cPath(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(fd >= 0)
    _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }

  /// The names in `folder`, as bytes.
  func names() -> Set<[UInt8]> {
    Set(Paths.entryBytes(of: folder))
  }

  @Test func anArgumentThatIsNotUTF8IsAUsageErrorNamingItsPosition() throws {
    let bad = Array("\(folder)/bad".utf8) + [0xFF] + Array("name.json".utf8)
    try copy(Self.scene, to: Array("bad".utf8) + [0xFF] + Array("name.json".utf8))
    let read = run([Array("render".utf8), bad, Array("-o".utf8), Array("\(folder)/x.gif".utf8)])
    #expect(read.status == 2)
    #expect(
      read.errors.hasPrefix(
        "Error: argument 2 (\(folder)/bad\\xFFname.json) is not UTF-8: flipbook reads and writes "
          + "file names as UTF-8 text; rename the file or give another name\nUsage: flipbook "
          + "render "),
      "\(read.errors)")
    // An output name: refused before anything is rendered, so nothing is written under
    // another name (it was `o<EF BF BD>.gif`).
    let before = names()
    let written = run([
      Array("render".utf8), Array(Self.scene.utf8), Array("--to".utf8), Array("0.1".utf8),
      Array("-o".utf8), Array("\(folder)/o".utf8) + [0xFE] + Array(".gif".utf8),
    ])
    #expect(written.status == 2)
    #expect(
      written.errors.hasPrefix(
        "Error: argument 6 (\(folder)/o\\xFE.gif), the value of -o, is not UTF-8: "))
    #expect(names() == before)
    // Valid UTF-8 (an accented name) is a name like any other.
    let accented = run([
      Array("render".utf8), Array(Self.scene.utf8), Array("--to".utf8), Array("0.1".utf8),
      Array("-o".utf8), Array("\(folder)/é.gif".utf8), Array("--quiet".utf8),
    ])
    #expect(accented.status == 0, "\(accented.errors)")
    #expect(names().contains(Array("é.gif".utf8)))
  }

  @Test func bytesThatAreNotUTF8AreShownAsHexEscapes() {
    #expect(MessageText.bytes(Array("a".utf8) + [0xFF, 0xFE] + Array("é".utf8)) == "a\\xFF\\xFEé")
    #expect(MessageText.bytes([0xC3]) == "\\xC3")  // a sequence cut short
    #expect(MessageText.bytes([0x1B, 0x5B, 0x32, 0x4A]) == "\\u001B[2J")  // a terminal's escape
  }

  /// cli.md "batch": a bad input is reported in the manifest and the page, and the exit status
  /// is 1; a file a folder search cannot read, or whose name is not UTF-8, is such an input.
  @Test func aFolderSearchReportsWhatItCannotReadInsteadOfSkippingIt() throws {
    let scene = folder + "/scene.txt"  // a small scene that reads no image
    try AtomicFile.write(Array(BatchCommandTests.scene("#ff0000").utf8), to: scene)
    try copy(scene, to: Array("good.json".utf8))
    try copy(scene, to: Array("bad".utf8) + [0xFF] + Array("name.json".utf8))
    try copy(scene, to: Array("picture".utf8) + [0xFF] + Array(".png".utf8))  // not looked at
    #expect(mkdir(cPath(Array("d".utf8) + [0xFE]), 0o755) == 0)
    #expect(symlink("nowhere.json", folder + "/dangling.json") == 0)
    #expect(mkfifo(folder + "/pipe.json", 0o644) == 0)
    #expect(symlink("/dev/zero", folder + "/zero.json") == 0)
    let out = FixtureFiles.temporaryFolder()
    let result = runFlipbook(["batch", folder, "-o", out, "--formats", "png", "--quiet"])
    #expect(result.status == 1)
    let reasons = [
      "bad\\xFFname.json: its name is not UTF-8: rename it (file names are read and written as "
        + "UTF-8 text)",
      "d\\xFE: a folder whose name is not UTF-8 is not searched: rename it (file names are read "
        + "and written as UTF-8 text)",
      "dangling.json: cannot read the file: is a symbolic link to a file that does not exist",
      "pipe.json: cannot read the file: is not a regular file (a device, pipe or socket)",
      "zero.json: cannot read the file: is not a regular file (a device, pipe or socket)",
    ]
    #expect(result.errors == reasons.joined(separator: "\n") + "\n")
    let manifest = try Manifest.read(out + "/manifest.json")
    let errors = reasons.prefix(3).map { Optional($0) } + [nil] + reasons.suffix(2).map { $0 }
    #expect(manifest.animations.map(\.error) == errors)
    #expect(
      manifest.animations.map(\.name) == [
        "bad\\xFFname", "d\\xFE", "dangling", "good", "pipe", "zero",
      ])
    #expect(manifest.animations.first { $0.name == "good" }?.outputs.map(\.file) == ["good.png"])
    let page = String(decoding: try AtomicFile.read(out + "/index.html"), as: UTF8.self)
    #expect(page.contains("✖ bad\\xFFname.json: its name is not UTF-8"))
  }

  @Test func aListLineThatIsNotUTF8FailsTheBatchNamingTheLine() throws {
    let list = Array("# scenes\n\(Self.scene)\nbad".utf8) + [0xFF] + Array(".json\n".utf8)
    try AtomicFile.write(list, to: folder + "/list.txt")
    let result = runFlipbook(["batch", "@" + folder + "/list.txt", "-o", folder + "/out"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(folder)/list.txt line 3: the path bad\\xFF.json is not UTF-8: rename the "
        + "file (file names are read and written as UTF-8 text)\n")
  }

  /// A `*.json` over the 64 MiB a scene may have is taken when its first 4 KB names a scene's
  /// keys, and fails saying it is too large; other large JSON is skipped (both were skipped).
  @Test func aFolderSearchTakesALargeFileThatStartsAsAScene() throws {
    for (name, start) in [("big", #"{"flipbook": 1, "layers": ["#), ("data", #"{"rows": ["#)] {
      try AtomicFile.write(Array(start.utf8), to: "\(folder)/\(name).json")
      #expect(truncate("\(folder)/\(name).json", off_t(SceneFormat.maximumFileSize + 1)) == 0)
    }
    #expect(try AtomicFile.read(folder + "/big.json", first: 13) == Array("{\"flipbook\": ".utf8))
    let out = FixtureFiles.temporaryFolder()
    let result = runFlipbook(["batch", folder, "-o", out, "--quiet"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "big.json: cannot read the file: it is larger than 67108864 bytes, the limit\n")
  }

  /// A batch's relative paths are made absolute against the working folder: under a folder
  /// whose name is not UTF-8, `in` was "No such file"; the message now says why.
  @Test func aBatchUnderAWorkingFolderThatIsNotUTF8SaysSo() throws {
    #expect(mkdir(cPath(Array("cwd".utf8) + [0xFF]), 0o755) == 0)
    let result = try Tools.run(
      "/bin/sh",
      [
        "-c", #"cd "$(printf '%s/cwd\377' "$1")" && exec "$2" batch in -o out"#, "sh", folder,
        Tools.flipbook,
      ])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "in: the working folder (\(folder)/cwd\\xFF) is not UTF-8, so a path relative to it "
        + "cannot be read: give absolute paths, or work from another folder\n")
  }
}
