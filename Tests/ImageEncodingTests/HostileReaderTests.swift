import FileIO
import FlipbookTestSupport
import Geometry
import ImageEncoding
import Testing

/// Issue 18, hostile pass 34: files made elsewhere that the animation readers crashed on or
/// misread (`Fixtures/images`, where the fuzzer takes them as seeds too).
@Suite struct HostileReaderTests {
  func fixture(_ name: String) throws -> [UInt8] {
    try AtomicFile.read(FixtureFiles.root + "/images/" + name)
  }

  /// An IHDR of 4294967295 x 4294967295: the canvas's area overflowed and trapped.
  @Test func anAPNGCanvasPastAnyAreaIsRefused() throws {
    let bytes = try fixture("apng-ihdr-overflow.png")
    #expect(throws: APNG.DecodingError.self) { try APNG.FrameReader(bytes) }
    do {
      _ = try APNG.FrameReader(bytes)
    } catch {
      #expect(error.reason == "a 4294967295 x 4294967295 canvas is outside 1...64000000 pixels")
    }
    #expect(throws: (any Error).self) { try Bitmap(stillOfPNGData: bytes) }
  }

  /// An fdAT before any fcTL was taken as the next frame's data (the frame's own dropped), so
  /// the file compared as matching another.
  @Test func frameDataBeforeItsFrameControlIsRefused() throws {
    let bytes = try fixture("apng-fdat-before-fctl.png")
    do {
      let reader = try APNG.FrameReader(bytes)
      while try reader.next() != nil {}
      Issue.record("read")
    } catch {
      #expect(error.reason == "an fdAT chunk before any fcTL (frame data follows its fcTL)")
    }
  }

  /// 200 frames of the longest WebP duration (0xFFFFFF ms) pass 2^31 ms: libwebp's end times
  /// wrap, and their difference trapped. Each duration is read as it is.
  @Test func webPDurationsPastTwoToTheThirtyOneMillisecondsAreRead() throws {
    let reader = try WebP.FrameReader(try fixture("webp-long-durations.webp"))
    var durations: [Int] = []
    while let frame = try reader.next() { durations.append(frame.duration) }
    #expect(durations.count == 200 && durations.allSatisfy { $0 == 0xFF_FFFF })
  }

  /// A Graphic Control Extension of 5 bytes (giflib takes exactly 4) lost its delay and
  /// transparency; browsers read its first four bytes.
  @Test func aLongerGraphicControlExtensionIsRead() throws {
    let four = try GIF.decode(try fixture("gif-gce-4.gif"))
    let five = try GIF.decode(try fixture("gif-gce-5.gif"))
    #expect(four.delays == five.delays && four.delays.allSatisfy { $0 > 0 })
    #expect(four.frames == five.frames)
  }

  /// Disposal 4 is "restore to previous", as 3 (browsers read both so); 5 to 7 are
  /// unspecified (keep), as browsers read them.
  @Test func disposalFourRestoresThePreviousScreen() throws {
    let three = try GIF.decode(try fixture("gif-dispose-3.gif"))
    let four = try GIF.decode(try fixture("gif-dispose-4.gif"))
    let seven = try GIF.decode(try fixture("gif-dispose-7.gif"))
    #expect(three.frames == four.frames)
    #expect(four.frames != seven.frames)
    #expect(four.disposals[1] == 3 && seven.disposals[1] == 0)
  }
}
