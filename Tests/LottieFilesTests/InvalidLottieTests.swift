import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

/// Issue 18: each hostile Lottie file in `Fixtures/invalid-lottie/` (`NAME.json` or
/// `NAME.lottie`) is refused with exactly the messages in its `.expected` file, within seconds.
@Suite struct InvalidLottieTests {
  static let folder = FixtureFiles.root + "/invalid-lottie"
  static let cases =
    FixtureFiles.names(in: folder, suffix: ".json").map { $0 + ".json" }
    + FixtureFiles.names(in: folder, suffix: ".lottie").map { $0 + ".lottie" }

  @Test(arguments: cases)
  func hostileLottieIsRefusedAtOnceWithExactMessages(_ file: String) throws {
    let path = "\(Self.folder)/\(file)"
    let name = String(file[..<file.lastIndex(of: ".")!])
    let expected = FixtureFiles.text("\(Self.folder)/\(name).expected")
    let start = Date()
    do {
      let bytes = try AtomicFile.read(path)
      _ = try LottieFormat.decode(bytes, file: file, baseDirectory: Self.folder)
      Issue.record("\(file) was accepted")
    } catch let error as SceneFormat.DecodingError {
      #expect(error.description + "\n" == expected)
    }
    // Refused before anything is built or sampled (minutes, before issue 18's third pass).
    #expect(Date().timeIntervalSince(start) < 10)
  }

  @Test func theCorpusIsThere() {
    #expect(Self.cases.count >= 2)
  }
}
