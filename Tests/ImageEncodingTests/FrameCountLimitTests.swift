import FileIO
import FlipbookTestSupport
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

  /// LZW data of `codes` at minimum code size 2, each code 3 bits (no code widens the table
  /// past 8 entries when a clear follows every other code), in sub-blocks and a terminator.
  static func lzwData(_ codes: [Int]) -> [UInt8] {
    var packed: [UInt8] = []
    var buffer = 0, held = 0
    for code in codes {
      buffer |= code << held
      held += 3
      while held >= 8 {
        packed.append(UInt8(buffer & 0xFF))
        buffer >>= 8
        held -= 8
      }
    }
    if held > 0 { packed.append(UInt8(buffer & 0xFF)) }
    var out: [UInt8] = [2]
    for start in stride(from: 0, to: packed.count, by: 255) {
      let block = packed[start..<Swift.min(start + 255, packed.count)]
      out += [UInt8(block.count)] + block
    }
    return out + [0]
  }

  /// A GIF of a `side` x `side` screen (4 colours) and `frames` whole-screen frames, each of
  /// `data` (from `lzwData`).
  static func gif(side: Int, frames: Int, data: [UInt8]) -> [UInt8] {
    let s = [UInt8(side & 0xFF), UInt8(side >> 8)]
    var out = Array("GIF89a".utf8) + s + s + [0x81, 0, 0] + [UInt8](repeating: 0, count: 12)
    let frame = [0x2C, 0, 0, 0, 0] + s + s + [0] + data
    for _ in 0..<frames { out += frame }
    return out + [0x3B]
  }

  /// Twentieth hostile pass: a GIF of 1,000 frames of 256 x 256 with a clear code after every
  /// pixel (0.75 bytes a pixel, within the data limit) took 44 s to compare with itself: giflib
  /// resets its whole table at each clear code. Each clear code counts as 64 pixels against
  /// the decoded-pixel limit, counted as the blocks are walked with giflib's code widths.
  @Test func clearCodesCountAgainstTheDecodedPixels() throws {
    #expect(GIF.pixelsPerClearCode == 64)
    // Four pixels of colours 0...3, each after a clear code: the picture is right, and the
    // clear codes are counted (the first, and one after each pixel).
    let pixels = [0, 1, 2, 3]
    let cleared = Self.lzwData([4] + pixels.flatMap { [$0, 4] } + [5])
    let small = Self.gif(side: 2, frames: 1, data: cleared)
    #expect(GIF.countClearCodes(in: small, from: 36, to: small.count - 1, minimumCodeSize: 2) == 5)
    #expect(try GIF.FrameReader(small).next()?.image.width == 2)
    // A frame giflib's own encoder wrote, codes widening to 12 bits and its table cleared when
    // full: the widths followed, the count is that of a full table's every 4,093 codes.
    var noise = Bitmap(width: 256, height: 256)
    var seed: UInt64 = 7
    for y in 0..<256 {
      for x in 0..<256 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let v = UInt8(truncatingIfNeeded: seed >> 56)
        noise[x, y] = RGBA8(v, v &* 3, v &* 7, 255)
      }
    }
    let encoded = try GIFBytes.encode([noise])
    let start = try #require(GIFBytes.frameDataStarts(of: encoded).first)
    let count = GIF.countClearCodes(
      in: encoded, from: start + 1, to: encoded.count - 1, minimumCodeSize: Int(encoded[start]))
    #expect(count >= 1 && count <= 65_536 / 1_000, "\(count)")
    // Frames of nothing but clear codes (2.67 a byte, within 2 bytes a pixel and 64 KiB):
    // 30 frames of 256 x 256 are 1,966,080 pixels and 15.6 million clear codes, over the limit.
    let clears = Self.lzwData([Int](repeating: 4, count: 520_000))
    #expect(try GIF.layout(of: Self.gif(side: 256, frames: 29, data: clears)).delays.count == 29)
    #expect(
      throws: GIF.DecodingError(
        reason: "30 frames of 256 x 256 pixels and 15600000 LZW clear codes (each counted as 64 "
          + "pixels: the decoder resets its table at each) are over the limit of 1000000000 "
          + "decoded pixels in all the frames")
    ) { try GIF.FrameReader(Self.gif(side: 256, frames: 40, data: clears)) }
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

  /// Twenty-ninth pass: every fault of a WebP's container was said as "not a valid WebP
  /// (libwebp cannot read it)", where the APNG and GIF readers name theirs. A file libwebp
  /// refuses is looked at for the faults its container can show.
  @Test func aWebPsStructuralFaultsAreNamed() throws {
    let encoder = try WebP.AnimationEncoder(width: 20, height: 20)
    try encoder.add(Bitmap(width: 20, height: 20, fill: RGBA8(255, 0, 0, 255)), timestamp: 0)
    try encoder.add(Bitmap(width: 20, height: 20, fill: RGBA8(0, 0, 255, 255)), timestamp: 100)
    let bytes = try encoder.assemble(endTimestamp: 200)
    func offset(_ type: String) throws -> Int {
      try #require((12..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array(type.utf8) })
    }
    func refusal(_ change: (inout [UInt8]) throws -> Void) throws -> String? {
      var changed = bytes
      try change(&changed)
      do {
        _ = try WebP.FrameReader(changed)
        return nil
      } catch { return error.reason }
    }
    #expect(try refusal { _ in } == nil)
    #expect(
      try refusal { $0.removeLast(20) }
        == "its RIFF header says \(bytes.count) bytes, the file has \(bytes.count - 20) (it is "
        + "cut short)")
    // A RIFF size short of the file: a chunk runs past the data the header states.
    let short = bytes.count - 8 - 20
    #expect(
      try refusal {
        ($0[4], $0[5], $0[6], $0[7]) = (
          UInt8(short & 0xFF), UInt8(short >> 8 & 0xFF), UInt8(short >> 16 & 0xFF), 0
        )
      } == "its ANMF chunk runs past the end of the RIFF data its header states")
    let vp8x = try offset("VP8X")
    #expect(
      try refusal { $0[vp8x + 8] &= ~0x02 }
        == "it has frames (ANMF) but its VP8X header does not say it is animated")
    #expect(
      try refusal { ($0[vp8x + 12], $0[vp8x + 13], $0[vp8x + 14]) = (0xFF, 0xFF, 0xFF) }
        == "a 16777216 x 20 canvas is outside 1...64000000 pixels")
    let anmf = try offset("ANMF")
    #expect(
      try refusal { $0[anmf + 8] = 5 }  // x offset 10 (stored halved)
        == "frame 0 (20 x 20 at 10, 0) lies outside the 20 x 20 canvas")
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
    let reader = try APNG.FrameReader(PNGChunks.fixingCRCs(bytes))
    _ = try reader.next()
    let error = #expect(throws: APNG.DecodingError.self) { try reader.next() }
    #expect(error?.reason.hasPrefix("frame 1 is 0 x ") == true)
    #expect(error?.reason.hasSuffix("pixels (an APNG frame is at least 1 x 1)") == true)
  }
}
