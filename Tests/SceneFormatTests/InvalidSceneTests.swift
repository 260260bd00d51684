import Glibc
import SceneFormat
import Testing

/// scene-format.md "Errors": each bad scene in `Fixtures/invalid/` is refused with exactly the
/// messages in its `.expected` file.
@Suite struct InvalidSceneTests {
  static let folder: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path + "/Fixtures/invalid"
  }()

  static var cases: [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var out: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name.hasSuffix(".json") { out.append(String(name.dropLast(5))) }
    }
    return out.sorted()
  }

  static func read(_ path: String) -> String {
    guard let f = fopen(path, "r") else { return "" }
    defer { fclose(f) }
    var out: [UInt8] = []
    while case let c = fgetc(f), c != EOF { out.append(UInt8(c)) }
    return String(decoding: out, as: UTF8.self)
  }

  @Test(arguments: cases)
  func badSceneIsRefusedWithExactMessages(_ name: String) throws {
    let bytes = Array(Self.read("\(Self.folder)/\(name).json").utf8)
    let expected = Self.read("\(Self.folder)/\(name).expected")
    do {
      _ = try SceneFormat.decode(bytes, file: "\(name).json", baseDirectory: Self.folder)
      Issue.record("\(name).json was accepted")
    } catch {
      #expect(error.description + "\n" == expected)
    }
  }

  @Test func theCorpusIsThere() {
    #expect(Self.cases.count >= 15)
  }
}
