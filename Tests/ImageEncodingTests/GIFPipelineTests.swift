import Geometry
import ImageEncoding
import Testing

/// The encoder's stages (choosing, coding) on threads of their own give what they give on the
/// caller's thread, and stop cleanly when the output fails.
@Suite struct GIFPipelineTests {
  /// An 8 x 8 frame: a 3 x 3 square at column `i`, on white, its left half transparent in odd
  /// frames.
  func frame(_ i: Int) -> Bitmap {
    var bitmap = Bitmap(width: 8, height: 8)
    for y in 0..<8 {
      for x in 0..<8 {
        let p = (y * 8 + x) * 4
        let inside = (i..<(i + 3)).contains(x) && (2..<5).contains(y)
        let color: [UInt8] =
          inside
          ? [200, 40, 10, 255] : (i % 2 == 1 && x < 4 ? [0, 0, 0, 0] : [255, 255, 255, 255])
        bitmap.pixels.replaceSubrange(p..<(p + 4), with: color)
      }
    }
    return bitmap
  }

  func palette(_ frames: [Bitmap]) -> GIF.Palette {
    let builder = GIF.PaletteBuilder()
    frames.forEach(builder.add)
    return builder.makePalette()
  }

  struct Full: Error {}

  @Test func pipelinedStagesGiveTheSameBytesAndCounts() throws {
    let frames = (0..<6).map(frame) + [frame(5), frame(5)]
    var results: [([UInt8], Int, Int)] = []
    for pipelined in [false, true] {
      var bytes: [UInt8] = []
      let encoder = try GIF.Encoder(
        width: 8, height: 8, palette: palette(frames), pipelined: pipelined
      ) { bytes += $0 }
      for f in frames { try encoder.add(f, delay: 5) }
      try encoder.finish()
      results.append((bytes, encoder.storedFrameCount, encoder.localPaletteFrameCount))
    }
    #expect(results[0].0 == results[1].0)
    #expect(results[0].1 == 6 && results[1].1 == 6)  // the repeated last frame is merged
    #expect(results[0].2 == 0 && results[1].2 == 0)
    #expect(Array(results[0].0.prefix(6)) == Array("GIF89a".utf8))
    #expect(results[0].0.last == 0x3B)
  }

  @Test func anOutputThatFailsStopsTheEncoder() throws {
    let frames = (0..<6).map(frame)
    for pipelined in [false, true] {
      var calls = 0
      let encoder = try GIF.Encoder(
        width: 8, height: 8, palette: palette(frames), pipelined: pipelined
      ) { _ in
        calls += 1
        if calls > 1 { throw Full() }  // the header goes out; the first frame's bytes do not
      }
      var failure: GIF.EncodingError? = nil
      do {
        for f in frames { try encoder.add(f, delay: 5) }
        try encoder.finish()
      } catch {
        failure = error
      }
      guard case .output(let message)? = failure else {
        Issue.record("expected an output failure, got \(String(describing: failure))")
        continue
      }
      #expect(message.contains("Full"), "\(message)")
      #expect(calls == 2, "pipelined \(pipelined)")
    }
  }
}
