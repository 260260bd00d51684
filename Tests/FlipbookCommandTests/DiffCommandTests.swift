import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// docs/command-line.md `diff`: PNG and GIF comparisons, tolerance flags, exit statuses, `-o`.
@Suite struct DiffCommandTests {
  let folder = FixtureFiles.temporaryFolder()
  static let goldens = FixtureFiles.root + "/goldens"

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  @Test func aPNGMatchesItselfAndNotAnotherFrame() throws {
    let cat = Self.goldens + "/cat.png", later = Self.goldens + "/cat@0.5.png"
    #expect(run(["diff", cat, cat]).status == 0)
    let differ = run(["diff", cat, later, "-o", folder + "/heat.png"])
    #expect(differ.status == 1 && differ.errors.contains("differ"))
    let heat = try Bitmap(contentsOfPNGFile: folder + "/heat.png")
    #expect(heat.width == 400 && heat.height == 400)
    #expect(run(["diff", cat, later, "--max-diff-ratio", "0.05"]).status == 0)
    #expect(run(["diff", cat, later, "--max-diff-pixels", "10"]).status == 1)
    #expect(run(["diff", cat, later, "-o", folder + "/strip.png", "--strip"]).status == 1)
    #expect(try Bitmap(contentsOfPNGFile: folder + "/strip.png").width == 3 * 400 + 8)
  }

  @Test func differentSizesNameBoth() {
    let result = run(["diff", Self.goldens + "/cat.png", Self.goldens + "/spinner.png"])
    #expect(result.status == 1)
    #expect(result.errors.contains("expected 400 x 400, actual 120 x 120"))
  }

  /// Sizes come from the PNG headers before anything is decoded: a file whose header states
  /// another size is reported as a size mismatch even though its pixel data is garbage (which
  /// decoding would have refused), so a large pair that cannot match costs no memory.
  @Test func sizesAreComparedBeforeDecoding() throws {
    let big = folder + "/big.png"
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8) + [0, 0, 0x3E, 0x80, 0, 0, 0x0F, 0xA0, 8, 6, 0, 0, 0]
    bytes += [UInt8](repeating: 0xAB, count: 100)
    try AtomicFile.write(bytes, to: big)
    let result = run(["diff", Self.goldens + "/cat.png", big])
    #expect(result.status == 1)
    #expect(result.errors.contains("sizes differ: expected 400 x 400, actual 16000 x 4000"))
  }

  @Test func gifsAreComparedFrameByFrameWithTheirTiming() throws {
    let a = folder + "/a.gif", b = folder + "/b.gif", c = folder + "/c.gif"
    #expect(run(["demo", "spinner", "-o", a, "--quiet"]).status == 0)
    #expect(run(["demo", "spinner", "-o", b, "--quiet"]).status == 0)
    #expect(run(["diff", a, b]).status == 0)
    #expect(run(["demo", "spinner", "-o", c, "--quiet", "--to", "0.4"]).status == 0)
    let result = try Tools.run(Tools.flipbook, ["diff", a, c])
    #expect(result.status == 1)
    #expect(result.output.contains("frame counts differ: expected 8, actual 4"))
  }

  @Test func wrongUsageExitsWith2() {
    let png = Self.goldens + "/cat.png"
    #expect(run(["diff", png]).status == 2)
    #expect(run(["diff", png, png, "--threshold", "2"]).status == 2)
    #expect(
      run(["diff", png, png, "--max-diff-pixels", "1", "--max-diff-ratio", "0.1"]).status == 2)
    #expect(run(["diff", png, png, "-o", folder + "/x.gif"]).status == 2)
    #expect(run(["diff", png, folder + "/missing.png"]).status == 1)
  }
}
