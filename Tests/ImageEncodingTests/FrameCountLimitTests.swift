import FileIO
import Geometry
import Testing

@testable import ImageEncoding

/// Fifteenth hostile pass: animations of millions of tiny frames, within the decoded-pixel
/// limit, cost without bound: `diff` of two GIFs of 4,000,000 one-pixel frames took 12 s and
/// 1.2 GB, and a WebP's frames are found from the first each time (100,000 took 21 s, 400,000
/// over two minutes). Each reader refuses past its frame limit before decoding a frame.
@Suite struct FrameCountLimitTests {
  /// A 1 x 1 GIF of `frames` frames, each one pixel of colour 0.
  static func gif(frames: Int) -> [UInt8] {
    var out = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
    for _ in 0..<frames { out += frame }
    return out + [0x3B]
  }

  @Test func aGIFOfMoreFramesThanARenderMakesIsRefusedBeforeDecoding() throws {
    #expect(GIF.maximumDecodedFrames == 100_000)
    #expect(try GIF.layout(of: Self.gif(frames: 3)).delays.count == 3)
    #expect(
      throws: GIF.DecodingError(
        reason: "more than 100000 frames, the limit of a decoded animation")
    ) { try GIF.FrameReader(Self.gif(frames: 100_001)) }
  }

  /// Sixteenth pass: a 1 x 1 frame of 50 MB of LZW clear codes took 99 s to compare (giflib
  /// resets its table at each); a frame holds at most 2 bytes of image data a pixel and 64 KiB.
  @Test func aFrameOfMoreImageDataThanItsPixelsCanTakeIsRefused() throws {
    var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2]
    for _ in 0..<300 { bytes += [255] + [UInt8](repeating: 0x24, count: 255) }
    bytes += [0, 0x3B]
    #expect(
      throws: GIF.DecodingError(
        reason: "frame 0 holds 76801 bytes of image data, more than its 1 pixel can take (2 "
          + "bytes a pixel and 64 KiB)")
    ) { try GIF.FrameReader(bytes) }
    #expect(try GIF.layout(of: Self.gif(frames: 2)).delays.count == 2)
  }

  @Test func anAPNGStatingMoreFramesIsRefusedBeforeDecoding() throws {
    #expect(APNG.maximumDecodedFrames == 100_000)
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var ihdr = [UInt8]()
    ihdr.appendBigEndian(UInt32(1))
    ihdr.appendBigEndian(UInt32(1))
    ihdr += [8, 6, 0, 0, 0]
    bytes.appendChunk("IHDR", ihdr)
    var actl = [UInt8]()
    actl.appendBigEndian(UInt32(100_001))
    actl.appendBigEndian(UInt32(0))
    bytes.appendChunk("acTL", actl)
    bytes.appendChunk("IEND", [])
    #expect(
      throws: APNG.DecodingError(
        reason: "its acTL says 100001 frames, over the limit of 100000 a decoded animation")
    ) { try APNG.FrameReader(bytes) }
  }

  @Test func aWebPOfMoreFramesThanItsDecoderReadsInTimeIsRefused() throws {
    #expect(WebP.maximumDecodedFrames == 30_000)
    // One frame of a 1 x 1 animation, its ANMF chunk repeated.
    let encoder = try WebP.AnimationEncoder(width: 1, height: 1)
    try encoder.add(Bitmap(width: 1, height: 1, fill: RGBA8(255, 0, 0, 255)), timestamp: 0)
    let one = try encoder.assemble(endTimestamp: 100)
    let start = try #require(
      (12..<one.count - 4).first { Array(one[$0..<$0 + 4]) == Array("ANMF".utf8) })
    let header = Array(one[12..<start]), frame = Array(one[start...])
    func webp(frames: Int) -> [UInt8] {
      var body = Array("WEBP".utf8) + header
      for _ in 0..<frames { body += frame }
      let n = body.count
      return Array("RIFF".utf8)
        + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + body
    }
    #expect(try WebP.FrameReader(webp(frames: 3)).frameCount == 3)
    #expect(
      throws: WebP.DecodingError(
        reason: "30001 frames are over the limit of 30000 a decoded WebP (libwebp finds each "
          + "frame from the first)")
    ) { try WebP.FrameReader(webp(frames: 30_001)) }
  }
}

/// Sixteenth pass: a frame of 0 x 0 pixels inside the canvas was said to lie outside it.
@Suite struct APNGFrameSizeTests {
  @Test func aFrameOfNoPixelsIsSaidToBeSo() throws {
    let encoder = try APNG.Encoder(width: 24, height: 16, fps: 10)
    for frame in AnimatedEncodingTests.frames.prefix(2) { try encoder.add(frame) }
    var bytes = try encoder.assemble()
    // The second fcTL's width (after its length, type and sequence number).
    let fctl = Array("fcTL".utf8)
    let at = try #require(
      (0..<(bytes.count - 4)).filter { Array(bytes[$0..<$0 + 4]) == fctl }.dropFirst().first)
    for i in 0..<4 { bytes[at + 8 + i] = 0 }
    let reader = try APNG.FrameReader(bytes)
    _ = try reader.next()
    let error = #expect(throws: APNG.DecodingError.self) { try reader.next() }
    #expect(error?.reason.hasPrefix("frame 1 is 0 x ") == true)
    #expect(error?.reason.hasSuffix("pixels (an APNG frame is at least 1 x 1)") == true)
  }
}
