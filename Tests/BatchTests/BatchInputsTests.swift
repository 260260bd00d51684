import FileIO
import FlipbookTestSupport
import Testing

@testable import Batch

/// docs/command-line.md "batch": which files a batch takes, and the names their outputs get.
@Suite struct BatchInputsTests {
  let folder = FixtureFiles.temporaryFolder()

  func write(_ text: String, _ name: String) throws {
    let path = folder + "/" + name
    try Paths.makeFolders(Paths.folder(of: path))
    try AtomicFile.write(Array(text.utf8), to: path)
  }

  @Test func pathsAreNormalizedAndMadeRelative() {
    #expect(Paths.absolute("a/./b/../c.json", base: "/w") == "/w/a/c.json")
    #expect(Paths.absolute("/x//y/", base: "/w") == "/x/y")
    #expect(Paths.commonFolder(["/a/b/c", "/a/b", "/a/bc"]) == "/a")
    #expect(Paths.relative("/a/b/c.png", to: "/a") == "b/c.png")
    #expect(Paths.relative("/a/img/c.png", to: "/a/b") == "../img/c.png")
    #expect(Paths.removingExtension("icons/spin.ner.json") == "icons/spin.ner")
    #expect(Paths.removingExtension("a.b/c") == "a.b/c")
  }

  @Test func contentTellsScenesAndLottieFromOtherJSON() {
    #expect(BatchInputs.kind(of: Array(#"{"flipbook": 1, "layers": []}"#.utf8)) == .scene)
    #expect(
      BatchInputs.kind(
        of: Array(#"{"v":"5.7","fr":30,"ip":0,"op":60,"w":1,"h":1,"layers":[]}"#.utf8))
        == .lottie)
    #expect(BatchInputs.kind(of: [0x50, 0x4B, 0x03, 0x04, 0]) == .lottie)
    #expect(BatchInputs.kind(of: Array(#"{"name": "package"}"#.utf8)) == nil)
    #expect(BatchInputs.kind(of: Array("[1, 2]".utf8)) == nil)
    #expect(BatchInputs.kind(of: Array("not json".utf8)) == nil)
    // Twenty-seventh hostile pass (hostile27): a Lottie file without `v`, which the reader now
    // takes, was skipped by a folder search; one lacking `layers` is taken too, so the batch
    // says what it lacks. Three of the keys are not enough.
    #expect(
      BatchInputs.kind(of: Array(#"{"fr":30,"ip":0,"op":60,"w":1,"h":1,"layers":[]}"#.utf8))
        == .lottie)
    #expect(BatchInputs.kind(of: Array(#"{"v":"5","fr":30,"ip":0,"op":60}"#.utf8)) == .lottie)
    #expect(BatchInputs.kind(of: Array(#"{"w":1,"h":1,"layers":[]}"#.utf8)) == nil)
  }

  @Test func foldersAreSearchedRecursivelyListsAndFilesTakenAsNamed() throws {
    let scene = #"{"flipbook": 1}"#
    try write(scene, "in/b.json")
    try write(scene, "in/deep/er/a.json")
    try write(#"{"v":"5","fr":30,"ip":0,"op":1,"layers":[]}"#, "in/deep/anim.json")
    try write(#"{"other": true}"#, "in/package.json")
    try write(scene, "in/.hidden/x.json")
    try write(scene, "in/notes.txt")
    try write(scene, "in/out/old.json")  // the output folder is not searched
    try write(scene, "extra/named.scene")
    try write("# comment\n\n  extra/named.scene  \n", "list.txt")
    let found = try BatchInputs.find(
      ["in", "@list.txt", "in/b.json"], workingDirectory: folder, excluding: "in/out")
    #expect(found.root == folder)
    #expect(
      found.inputs.map(\.relativePath) == [
        "extra/named.scene", "in/b.json", "in/deep/anim.json", "in/deep/er/a.json",
      ])
    #expect(found.inputs.map(\.name) == ["extra/named", "in/b", "in/deep/anim", "in/deep/er/a"])
    #expect(found.inputs[1].path == folder + "/in/b.json")
  }

  /// Fourteenth hostile pass: a list saved with a byte-order mark (Windows' "UTF-8") named
  /// `\u{FEFF}in/a.json`, a file that does not exist; the mark is skipped.
  @Test func aListsByteOrderMarkIsSkipped() throws {
    try write(#"{"flipbook": 1}"#, "in/a.json")
    try write("\u{FEFF}in/a.json\r\n", "bom.txt")
    let found = try BatchInputs.find(["@bom.txt"], workingDirectory: folder)
    #expect(found.inputs.map(\.path) == [folder + "/in/a.json"])
  }

  @Test func oneFileIsNamedByItsOwnName() throws {
    try write(#"{"flipbook": 1}"#, "x/one.json")
    let found = try BatchInputs.find(["x/one.json"], workingDirectory: folder)
    #expect(found.root == folder + "/x")
    #expect(found.inputs.map(\.name) == ["one"])
  }

  @Test func anUnreadableListIsAFailure() {
    #expect(throws: BatchInputs.Failure.self) {
      try BatchInputs.find(["@missing.txt"], workingDirectory: folder)
    }
  }

  /// Issue 18: a list that included itself said "lists nest too deep", and `@` alone "is a
  /// folder"; each says what is wrong.
  @Test func listsThatIncludeThemselvesOrNestTooDeepAreNamed() throws {
    func failure(_ argument: String) -> String? {
      do {
        _ = try BatchInputs.find([argument], workingDirectory: folder)
        return nil
      } catch {
        return error.description
      }
    }
    try write("@b.txt\n", "a.txt")
    try write("# back\n@a.txt\n", "b.txt")
    #expect(failure("@a.txt") == "a.txt: the list includes itself (a.txt → b.txt → a.txt)")
    for i in 1...9 { try write("@n\(i + 1).txt\n", "n\(i).txt") }
    try write("x.json\n", "n10.txt")
    #expect(failure("@n1.txt") == "n9.txt: lists nest more than 8 deep (n1.txt → … → n9.txt)")
    #expect(failure("@n3.txt") == nil)  // n3 ... n10: 8 deep
    #expect(failure("@") == "@: the list file's name is empty (write @LIST.txt, a file of paths)")
    // A list named twice side by side is no loop.
    try write("@c.txt\n@c.txt\n", "twice.txt")
    try write("c.json\n", "c.txt")
    #expect(failure("@twice.txt") == nil)
  }

  /// Issue 18, twelfth pass: lists naming the next list 100 times, 8 deep, were expanded
  /// 10^14 times (a hang); each list is read once, and the entries read are bounded.
  @Test func aListNamedManyTimesIsReadOnce() throws {
    try write(#"{"flipbook": 1}"#, "deep/a.json")
    for i in 1..<8 {
      try write(String(repeating: "@deep/l\(i + 1).txt\n", count: 100), "deep/l\(i).txt")
    }
    try write("deep/a.json\n", "deep/l8.txt")
    let found = try BatchInputs.find(["@deep/l1.txt"], workingDirectory: folder)
    #expect(found.inputs.map(\.name) == ["a"])
    #expect(BatchInputs.maximumListLines == 1_000_000)
    // A final line feed ends the last line: 1,000,001 lines are one too many.
    try write(String(repeating: "x\n", count: 1_000_001), "deep/many.txt")
    let error = #expect(throws: BatchInputs.Failure.self) {
      try BatchInputs.find(["@deep/many.txt"], workingDirectory: folder)
    }
    #expect(
      error?.description
        == "deep/many.txt: the lists have more than 1000000 lines in all, past the limit")
  }

  /// A million missing files named in a list made a 364 MB manifest and a 669 MB page: a
  /// batch takes at most 100,000 animations, counted as they are found.
  @Test func aBatchTakesAtMostAHundredThousandAnimations() throws {
    #expect(BatchInputs.maximumInputs == 100_000)
    try write(
      (0...100_000).map { "missing/m\($0).json" }.joined(separator: "\n"), "inputs.txt")
    let error = #expect(throws: BatchInputs.Failure.self) {
      try BatchInputs.find(["@inputs.txt"], workingDirectory: folder)
    }
    #expect(
      error?.description
        == "the inputs name more than 100000 animations, the most a batch renders (split them "
        + "into several batches, or shards)")
    // Paths are made absolute by their bytes: `.` and `..` parts, repeated slashes.
    #expect(Paths.absolute("./a/./b/../c//d.json", base: "/w") == "/w/a/c/d.json")
    #expect(Paths.absolute("../../..", base: "/w") == "/")
    #expect(Paths.absolute("é/./ü.json", base: "/") == "/é/ü.json")
  }

  @Test func shardsTakeEveryNthFromTheIth() {
    let inputs = (0..<7).map { BatchInput(path: "/\($0)", relativePath: "\($0)", name: "\($0)") }
    #expect(BatchInputs.shard(inputs, index: 1, of: 3).map(\.name) == ["0", "3", "6"])
    #expect(BatchInputs.shard(inputs, index: 2, of: 3).map(\.name) == ["1", "4"])
    #expect(BatchInputs.shard(inputs, index: 3, of: 3).map(\.name) == ["2", "5"])
    #expect(BatchInputs.shard(inputs, index: 1, of: 1).count == 7)
  }
}
