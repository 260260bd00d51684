import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

/// Issue 18: each hostile Lottie file in `Fixtures/invalid-lottie/` (`NAME.json` or
/// `NAME.lottie`) is refused with exactly the messages in its `.expected` file, within seconds;
/// or, when its `.expected` file holds `warning:` lines, read with exactly those warnings (the
/// lines `flipbook` prints for it), and refused with `--strict`.
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
    let bytes = try AtomicFile.read(path)
    let outcome = Result { try LottieFormat.decode(bytes, file: file, baseDirectory: Self.folder) }
    switch outcome {
    case .success(let read):
      #expect(expected.hasPrefix("warning: "), "\(file) was accepted")
      #expect(read.warnings.map { "warning: \($0)\n" }.joined() == expected)
      let strict = Result {
        try LottieFormat.decode(bytes, file: file, baseDirectory: Self.folder, strict: true)
      }
      #expect((try? strict.get()) == nil, "\(file) was accepted with --strict")
    case .failure(let error):
      #expect(String(describing: error) + "\n" == expected)
    }
    // Refused before anything is built or sampled (minutes, before issue 18's third pass).
    #expect(Date().timeIntervalSince(start) < 10)
  }

  @Test func theCorpusIsThere() {
    #expect(Self.cases.count >= 2)
  }
}
