import FileIO
import FlipbookTestSupport
import SceneFiles
import Testing

/// docs/scene-format.md §10: each bad scene in `Fixtures/invalid/` is refused with exactly the
/// messages in its `.expected` file.
@Suite struct InvalidSceneTests {
  static let folder = FixtureFiles.root + "/invalid"
  static let cases = FixtureFiles.names(in: folder, suffix: ".json")

  @Test(arguments: cases)
  func badSceneIsRefusedWithExactMessages(_ name: String) throws {
    let bytes = try AtomicFile.read("\(Self.folder)/\(name).json")
    let expected = FixtureFiles.text("\(Self.folder)/\(name).expected")
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
