import Flipbook
import FlipbookTestSupport
import Foundation
import Testing

/// Issue 18, tenth hostile pass: 200 text layers of one character at 3,000 to 3,199 points
/// (one size each) in a 1000 x 1000 frame took 3.9 GB and 6 s; Cairo kept an image of each
/// glyph. Glyphs larger than `Canvas.largestCachedGlyphSize` pixels are filled as outlines.
@Suite struct LargeGlyphMemoryTests {
  let folder = FixtureFiles.temporaryFolder()

  @Test func largeGlyphsOfManySizesHoldLittleMemory() throws {
    let time = try #require(Tools.path(of: "time"))
    let layers = (0..<40).map { i in
      #"{"type": "text", "bounds": [0, 0, 1000, 1000], "position": [500, 500], "#
        + ##""string": "漢", "fontSize": \##(3000 + i), "foregroundColor": "#00000010"}"##
    }
    let scene =
      #"{"flipbook": 1, "size": [1000, 1000], "layers": [\#(layers.joined(separator: ", "))]}"#
    let path = folder + "/glyphs.json"
    try AtomicFile.write(Array(scene.utf8), to: path)
    let run = try Tools.run(
      time, ["-f", "%M", Tools.flipbook, "frame", path, "--time", "0", "-o", folder + "/g.png"])
    #expect(run.status == 0)
    // Peak resident memory in kilobytes: 811 MB when each size's glyph image was kept (a debug
    // build), some 60 MB drawn as outlines.
    let kilobytes = try #require(run.errors.split(separator: "\n").last.flatMap { Int($0) })
    #expect(kilobytes < 300_000, "\(kilobytes) KB")
  }
}
