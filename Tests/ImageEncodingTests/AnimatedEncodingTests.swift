import FileIO
import FlipbookTestSupport
import Foundation
import Geometry
import Testing

@testable import ImageEncoding

/// Animated WebP and APNG: what goes in comes out (our decoders here; Pillow, ffprobe and the
/// command in FlipbookCommandTests), with the delays and loop counts asked for.
struct AnimatedEncodingTests {
  /// Four 24 x 16 frames on a transparent canvas: a square with partial alpha moving right,
  /// then the same frame again (merged), then a frame with a colour under zero alpha.
  static let frames: [Bitmap] = {
    var out: [Bitmap] = []
    for k in 0..<3 {
      var b = Bitmap(width: 24, height: 16)
      for y in 4..<10 {
        for x in (2 + 5 * k)..<(8 + 5 * k) {
          b[x, y] = RGBA8(200, UInt8(40 * k), 30, 128 + UInt8(x * 3))
        }
      }
      b[23, 15] = RGBA8(0, 0, 255, 255)
      out.append(b)
    }
    out.append(out[2])
    var last = out[2]
    last[0, 0] = RGBA8(10, 20, 30, 1)
    out.append(last)
    return out
  }()

  @Test func webpTimestampsAreWholeMillisecondsFollowingTheFrameTimes() {
    let t = WebP.timestamps(frameCount: 6, fps: 30)
    #expect(t == [0, 33, 66, 100, 133, 166, 200])
    #expect(zip(t.dropFirst(), t).map { $0 - $1 } == [33, 33, 34, 33, 33, 34])
  }

  @Test func losslessWebPDecodesToTheFramesAlphaIncluded() throws {
    let encoder = try WebP.AnimationEncoder(
      width: 24, height: 16, options: WebP.Options(loopCount: 3))
    let stamps = WebP.timestamps(frameCount: Self.frames.count, fps: 10)
    for (i, frame) in Self.frames.enumerated() { try encoder.add(frame, timestamp: stamps[i]) }
    let bytes = try encoder.assemble(endTimestamp: stamps.last!)
    let decoded = try WebP.decode(bytes)
    #expect(decoded.loopCount == 3)
    #expect((decoded.width, decoded.height) == (24, 16))
    // The repeated frame is merged into the one before: 200 ms.
    let same = decoded.frames == [Self.frames[0], Self.frames[1], Self.frames[2], Self.frames[4]]
    #expect(same)
    #expect(decoded.durations == [100, 100, 200, 100])
    #expect(WebP.storedFrameCount(bytes) == 4)
  }

  /// Twenty-second hostile pass: a frame whose image chunk is damaged was left out by libwebp's
  /// demuxer, and the file read as a shorter animation without a word (compared with itself,
  /// it matched). The frames it stores are counted; one unreadable is refused.
  @Test func aWebPWithADamagedFrameIsRefused() throws {
    let encoder = try WebP.AnimationEncoder(width: 24, height: 16)
    let stamps = WebP.timestamps(frameCount: Self.frames.count, fps: 10)
    for (i, frame) in Self.frames.enumerated() { try encoder.add(frame, timestamp: stamps[i]) }
    var bytes = try encoder.assemble(endTimestamp: stamps.last!)
    #expect(WebP.frameChunkCount(bytes) == 4)
    #expect(try WebP.FrameReader(bytes).frameCount == 4)
    // The last ANMF's image chunk (after its 16-byte frame header) renamed.
    let anmf = Array("ANMF".utf8)
    let last = try #require((12..<(bytes.count - 4)).last { Array(bytes[$0..<$0 + 4]) == anmf })
    for k in 0..<4 { bytes[last + 8 + 16 + k] = UInt8(ascii: "X") }
    #expect(
      throws: WebP.DecodingError(
        reason: "it stores 4 frames (ANMF chunks), of which libwebp reads 3: a frame is damaged")
    ) { try WebP.FrameReader(bytes) }
  }

  /// Fourteenth hostile pass: libwebp wrote an animation of one stored frame as a still image,
  /// without its duration or loop count (a 1000 s render read as a still, equal to a 1 s one).
  /// It stays an animation of one frame, lossless and lossy alike.
  @Test func anAnimationOfOneStoredFrameKeepsItsDurationAndLoops() throws {
    for quality in [nil, 80.0] as [Double?] {
      let encoder = try WebP.AnimationEncoder(
        width: 24, height: 16, options: WebP.Options(quality: quality, loopCount: 2))
      for k in 0..<3 { try encoder.add(Self.frames[0], timestamp: 400_000 * k) }
      let bytes = try encoder.assemble(endTimestamp: 1_000_000)
      #expect(Array(bytes[12..<16]) == Array("VP8X".utf8))
      let decoded = try WebP.decode(bytes)
      #expect(decoded.loopCount == 2)
      #expect(decoded.durations == [1_000_000])
      #expect(decoded.frames.count == 1)
      if quality == nil { #expect(decoded.frames == [Self.frames[0]]) }
    }
  }

  /// libwebp's errors are said in words: a batch's WebP failed with "ERROR adding frame.
  /// WebPEncodingError: 1." where 1 is out of memory (found by an independent hostile pass).
  @Test func webPErrorsSayTheirCauseInWords() throws {
    #expect(WebP.encodingErrorReason(1) == "out of memory")
    #expect((0...11).map(WebP.encodingErrorReason).allSatisfy { !$0.isEmpty })
    let encoder = try WebP.AnimationEncoder(width: 24, height: 16)
    try encoder.add(Self.frames[0], timestamp: 100)
    #expect(
      throws: WebP.EncodingError.libwebp(
        "cannot add frame 1: timestamps must be non-decreasing (the configuration is invalid, "
          + "WebPEncodingError 4)")
    ) { try encoder.add(Self.frames[1], timestamp: 50) }
  }

  /// Lossless WebP of a detailed 8000 x 8000 frame took about 45 s (found by an independent
  /// hostile pass): `minimize_size` encodes each candidate rectangle losslessly, so frames over
  /// 4,194,304 pixels are encoded without it (a render of two such frames: 33 s, now 18 s, for
  /// a file 6% larger).
  @Test func largeWebPFramesAreEncodedWithoutMinimizingTheirSize() throws {
    #expect(WebP.maximumMinimizedPixels == 2048 * 2048)
    #expect(try WebP.AnimationEncoder(width: 2048, height: 2048).minimizesSize)
    #expect(try !WebP.AnimationEncoder(width: 2049, height: 2048).minimizesSize)
    var options = WebP.Options()
    options.minimizeSize = false
    #expect(try !WebP.AnimationEncoder(width: 64, height: 64, options: options).minimizesSize)
  }

  @Test func lossyWebPIsCloseAndSmaller() throws {
    var frame = Bitmap(width: 64, height: 64)
    // A photograph-like texture: smooth waves with a little deterministic noise.
    var seed: UInt32 = 1
    for y in 0..<64 {
      for x in 0..<64 {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        let noise = Int(seed >> 28)
        let v = 128 + Int(60 * sin(Double(x) / 5) * cos(Double(y) / 7)) + noise
        frame[x, y] = RGBA8(UInt8(v), UInt8(255 - v), UInt8((x * 4 + noise) % 256), 255)
      }
    }
    func encoded(_ options: WebP.Options) throws -> [UInt8] {
      let e = try WebP.AnimationEncoder(width: 64, height: 64, options: options)
      try e.add(frame, timestamp: 0)
      return try e.assemble(endTimestamp: 100)
    }
    let lossless = try encoded(WebP.Options()), lossy = try encoded(WebP.Options(quality: 80))
    #expect(lossy.count < lossless.count)
    let decoded = try WebP.decode(lossy).frames[0]
    let errors = zip(decoded.pixels, frame.pixels).map { abs(Int($0) - Int($1)) }
    let mean = Double(errors.reduce(0, +)) / Double(errors.count)
    #expect(mean > 0 && mean < 6, "mean error \(mean)")
  }

  @Test func apngDelaysAreExactFractions() {
    #expect(APNG.Delay(frames: 1, fps: 30) == APNG.Delay(numerator: 1, denominator: 30))
    #expect(APNG.Delay(frames: 3, fps: 30) == APNG.Delay(numerator: 1, denominator: 10))
    #expect(APNG.Delay(frames: 1, fps: 29.97) == APNG.Delay(numerator: 100, denominator: 2997))
    #expect(APNG.Delay(frames: 2, fps: 12.5) == APNG.Delay(numerator: 4, denominator: 25))
    // Rates that are no fraction of thousandths were rounded to thousandths (NTSC film's 24000/1001
    // as 23.976: 125/2997 s a frame; 1.0005 as 1.001), and the delays drifted.
    #expect(
      APNG.Delay(frames: 1, fps: 24000.0 / 1001) == APNG.Delay(numerator: 1001, denominator: 24000))
    #expect(APNG.Delay(frames: 1, fps: 1.0005) == APNG.Delay(numerator: 2000, denominator: 2001))
    #expect(APNG.Delay(frames: 1, fps: 1e-7) == APNG.Delay(numerator: 65535, denominator: 1))
    #expect(APNG.Delay(frames: 1, fps: 1e9) == APNG.Delay(numerator: 1, denominator: 65535))
    // 1/100000 s does not fit 16 bits: the closest fraction that does.
    #expect(
      APNG.Delay.closest(numerator: 1, denominator: 100_000)
        == APNG.Delay(numerator: 1, denominator: 65535))
  }

  func encodeAPNG(_ frames: [Bitmap], loop: Int = 0) throws -> [UInt8] {
    let encoder = try APNG.Encoder(
      width: frames[0].width, height: frames[0].height, fps: 10,
      options: APNG.Options(loopCount: loop))
    for frame in frames { try encoder.add(frame) }
    return try encoder.assemble()
  }

  /// Frames are written as they are decided (the one before, once the next differs), and
  /// `acTL`'s frame count is filled in at the end: the compressed frames were kept until then
  /// (a 1000 x 1000 animation of 100 changing noise frames peaked at 960 MB, now 117 MB).
  @Test func apngFramesAreWrittenAsTheyComeAndTheCountFilledInAtTheEnd() throws {
    let output = ByteBuffer()
    let encoder = try APNG.Encoder(width: 24, height: 16, fps: 10, output: output)
    try encoder.add(Self.frames[0])
    let header = output.bytes.count  // signature, IHDR, acTL
    #expect(header == 8 + 25 + 20)
    try encoder.add(Self.frames[1])
    #expect(output.bytes.count > header)  // the first frame, decided by the second
    let afterFirst = output.bytes.count
    try encoder.add(Self.frames[2])
    #expect(output.bytes.count > afterFirst)
    let afterSecond = output.bytes.count
    try encoder.add(Self.frames[3])  // the same again: merged, nothing written
    try encoder.add(Self.frames[3])
    #expect(output.bytes.count == afterSecond)
    try encoder.finish()
    #expect(output.bytes == (try encodeAPNG(Self.frames.dropLast() + [Self.frames[3]])))
    #expect(encoder.byteCount == output.bytes.count)
    let decoded = try APNG.decode(output.bytes)
    #expect(decoded.frames.count == 3)
    // acTL: frames 3, plays 0.
    #expect(Array(output.bytes[41..<49]) == [0, 0, 0, 3, 0, 0, 0, 0])
  }

  @Test func apngDecodesToTheFramesAlphaIncluded() throws {
    let bytes = try encodeAPNG(Self.frames, loop: 2)
    let decoded = try APNG.decode(bytes)
    #expect(decoded.loopCount == 2)
    let same = decoded.frames == [Self.frames[0], Self.frames[1], Self.frames[2], Self.frames[4]]
    #expect(same)
    #expect(decoded.delays.map(\.description) == ["1/10 s", "1/10 s", "1/5 s", "1/10 s"])
  }

  /// An APNG whose acTL frame count is not what its fcTL chunks make is in error (the APNG
  /// specification) and refused: one without any fcTL read as no frames, and two such files of
  /// different colours compared as matching.
  @Test func apngFramesOtherThanItsACTLSaysAreRefused() throws {
    var bytes = try encodeAPNG(Self.frames)
    let actl = Array("acTL".utf8)
    let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == actl })
    bytes[at + 7] = 5  // the count's low byte: 5 frames said, 4 made
    #expect(
      throws: APNG.DecodingError(reason: "its acTL says 5 frames, its frame controls (fcTL) make 4")
    ) {
      try APNG.decode(PNGChunks.fixingCRCs(bytes))
    }
  }

  /// An fcTL's dispose_op past 2, blend_op past 1, or an fcTL or fdAT out of sequence was read as
  /// if it were 0 (or in order), and `diff` said such a file matched its original (found by an
  /// independent hostile pass): each is refused naming the frame, the chunk and the field.
  @Test func apngControlsTheSpecificationDoesNotDefineAreRefused() throws {
    let bytes = try encodeAPNG(Self.frames)
    func offsets(_ type: String) -> [Int] {
      var out: [Int] = [], at = 8
      while at + 12 <= bytes.count {
        if String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) == type { out.append(at) }
        at += 12 + Int(bytes.bigEndian32(at))
      }
      return out
    }
    let fcTL = offsets("fcTL"), fdAT = offsets("fdAT")
    #expect(fcTL.count == 4 && !fdAT.isEmpty)
    func refusal(_ change: (inout [UInt8]) -> Void) -> String? {
      var changed = bytes
      change(&changed)
      do {
        _ = try APNG.decode(PNGChunks.fixingCRCs(changed))
        return nil
      } catch { return error.reason }
    }
    #expect(
      refusal { $0[fcTL[1] + 8 + 24] = 7 }
        == "frame 1's fcTL has dispose_op 7 (APNG's are 0, 1 and 2)")
    #expect(
      refusal { $0[fcTL[1] + 8 + 25] = 9 } == "frame 1's fcTL has blend_op 9 (APNG's are 0 and 1)")
    #expect(refusal { $0[fcTL[1] + 8 + 24] = 2 } == nil)
    #expect(
      refusal {
        $0[fcTL[1] + 8 + 2] = 0x03; $0[fcTL[1] + 8 + 3] = 0xE7
      }  // 999
        == "frame 1's fcTL has sequence number 999, not 1 (APNG numbers its fcTL and fdAT "
        + "chunks 0, 1, 2, ... in order)")
    let fdATFrame = fcTL.filter { $0 < fdAT[0] }.count - 1
    let expected = Int(bytes.bigEndian32(fdAT[0] + 8))
    #expect(
      refusal { $0[fdAT[0] + 8 + 3] ^= 0x40 }
        == "frame \(fdATFrame)'s fdAT has sequence number \(expected ^ 0x40), not \(expected) "
        + "(APNG numbers its fcTL and fdAT chunks 0, 1, 2, ... in order)")
  }

  /// Why `bytes` are refused as an APNG, or `nil` when they decode.
  static func refusal(_ bytes: [UInt8]) -> String? {
    do {
      _ = try APNG.decode(bytes)
      return nil
    } catch { return error.reason }
  }

  /// The chunks of a PNG or APNG, in order: each one's type, and where it starts and ends.
  static func chunks(of bytes: [UInt8]) -> [(type: String, at: Int, end: Int)] {
    var out: [(String, Int, Int)] = [], at = 8
    while at + 12 <= bytes.count {
      let end = at + 12 + Int(bytes.bigEndian32(at))
      out.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), at, end))
      at = end
    }
    return out
  }

  /// Twentieth hostile pass: a frame without data, a first frame not covering the canvas and
  /// a second acTL were said as damaged data ("zlib status -3", "goes on past its rows") or
  /// taken silently: each is named as what it is.
  @Test func apngStructureFaultsAreNamedAsSuch() throws {
    let bytes = try encodeAPNG(Self.frames)
    let all = Self.chunks(of: bytes)
    func refusal(_ changed: [UInt8]) -> String? {
      Self.refusal(PNGChunks.fixingCRCs(changed))
    }
    // The first fcTL comes before the IDAT: the default image is frame 0.
    let fcTL = all.filter { $0.type == "fcTL" },
      idat = try #require(all.first { $0.type == "IDAT" })
    #expect(fcTL[0].at < idat.at)
    // Frame 1's fdAT chunks left out.
    let dropped = all.filter { $0.type == "fdAT" && $0.at > fcTL[1].at && $0.at < fcTL[2].at }
    #expect(!dropped.isEmpty)
    var noData = bytes
    for chunk in dropped.reversed() { noData.removeSubrange(chunk.at..<chunk.end) }
    #expect(
      refusal(noData) == "frame 1 has no image data (no IDAT or fdAT chunk after its fcTL)")
    // Frame 0 moved one pixel right (x_offset is at 12 in the fcTL's data).
    var moved = bytes
    moved[fcTL[0].at + 8 + 15] = 1
    #expect(
      refusal(moved)
        == "frame 0's fcTL is 24 x 16 at 1, 0, but it is the default image (it comes before the "
        + "IDAT), which covers the whole 24 x 16 canvas")
    // The acTL twice.
    let actl = try #require(all.first { $0.type == "acTL" })
    var twice = bytes
    twice.insert(contentsOf: bytes[actl.at..<actl.end], at: actl.end)
    #expect(refusal(twice) == "a second acTL chunk (an APNG has one)")
    // Twenty-fourth pass: a second IHDR after the first frame made a new canvas past the
    // limits checked on the first's (1 x 1, then 8000 x 8000 for 1,000 frames).
    let ihdr = try #require(all.first { $0.type == "IHDR" })
    var second = bytes
    second.insert(contentsOf: bytes[ihdr.at..<ihdr.end], at: idat.end)
    #expect(refusal(second) == "a second IHDR chunk (a PNG has one)")
    // An acTL after frame 0's fcTL (allowed: only before the IDAT) stating more frames than the
    // limits take was never checked (1,000 frames of 8000 x 8000 took 56 s).
    let actlChunk = try #require(all.first { $0.type == "acTL" })
    var late = bytes
    late.removeSubrange(actlChunk.at..<actlChunk.end)
    var bigACTL = Array(bytes[actlChunk.at..<actlChunk.end])
    (bigACTL[8], bigACTL[9], bigACTL[10], bigACTL[11]) = (0x00, 0x01, 0x86, 0xA1)  // 100,001
    late.insert(contentsOf: bigACTL, at: fcTL[0].end - (actlChunk.end - actlChunk.at))
    #expect(
      refusal(late) == "its acTL says 100001 frames, over the limit of 100000 a decoded animation")
    // Frame 1's data as IDAT (a second run of IDAT, after its fcTL) was taken as its data.
    var idat2 = noData
    idat2.insert(contentsOf: bytes[idat.at..<idat.end], at: fcTL[1].end)
    #expect(
      refusal(idat2)
        == "frame 1's image data is IDAT (only the first frame's may be; the others' are fdAT)")
    // The IDAT's zlib header broken: damaged, in words.
    var broken = bytes
    broken[idat.at + 8] ^= 0xFF
    #expect(
      refusal(broken) == "frame 0: its image data is damaged (not zlib data, or a broken stream)")
  }

  /// Twenty-seventh hostile pass (hostile27): an IHDR after the image data was taken (the limits
  /// were checked on a canvas of 0 x 0, so a 13 KB file of 200 frames of 8000 x 8000 decoded for
  /// 12 s and a report page of 8 took 4.8 GB), and a PLTE or tRNS after the image data, or a
  /// second one, recoloured the frame before it. Each is refused, as libpng refuses them.
  @Test func apngChunksOutOfPlaceAreRefused() throws {
    let bytes = try encodeAPNG(Self.frames)
    let all = Self.chunks(of: bytes)
    func refusal(_ changed: [UInt8]) -> String? {
      Self.refusal(PNGChunks.fixingCRCs(changed))
    }
    /// A chunk of `type` holding `body` (its CRC is made by `refusal`).
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
      [0, 0, 0, UInt8(body.count)] + Array(type.utf8) + body + [0, 0, 0, 0]
    }
    let ihdr = try #require(all.first { $0.type == "IHDR" }),
      idat = try #require(all.first { $0.type == "IDAT" })
    #expect(ihdr.at == 8 && all[1].type == "acTL")
    // The IHDR moved after the IDAT: the first chunk is the acTL.
    var late = bytes
    late.insert(contentsOf: bytes[ihdr.at..<ihdr.end], at: idat.end)
    late.removeSubrange(ihdr.at..<ihdr.end)
    #expect(refusal(late) == "its first chunk is acTL, not IHDR (a PNG starts with IHDR)")
    #expect(throws: APNG.DecodingError.self) { try APNG.FrameReader(PNGChunks.fixingCRCs(late)) }
    // A first chunk whose type is no four letters is not quoted.
    var unnamed = bytes
    unnamed.insert(contentsOf: chunk("\u{1}\u{2}\u{3}\u{4}", []), at: 8)
    #expect(refusal(unnamed) == "its first chunk is not IHDR (a PNG starts with IHDR)")
    // A PLTE or tRNS after the IDAT, or a second one before it.
    let plte = chunk("PLTE", [255, 0, 0]), trns = chunk("tRNS", [0])
    func inserted(_ chunks: [UInt8], at offset: Int) -> [UInt8] {
      var changed = bytes
      changed.insert(contentsOf: chunks, at: offset)
      return changed
    }
    #expect(refusal(inserted(plte, at: idat.at)) == nil)
    #expect(refusal(inserted(plte + trns, at: idat.at)) == nil)
    #expect(
      refusal(inserted(plte, at: idat.end))
        == "a PLTE chunk after the image data (a PNG's palette comes before its IDAT)")
    #expect(refusal(inserted(plte + plte, at: idat.at)) == "a second PLTE chunk (a PNG has one)")
    #expect(
      refusal(inserted(trns, at: idat.end))
        == "a tRNS chunk after the image data (a PNG's transparency comes before its IDAT)")
    #expect(refusal(inserted(trns + trns, at: idat.at)) == "a second tRNS chunk (a PNG has one)")
    // verify30: a tRNS before the PLTE was applied, where libpng drops it.
    #expect(
      refusal(inserted(trns + plte, at: idat.at))
        == "a PLTE chunk after the tRNS (a PNG's transparency comes after its palette)")
  }

  /// Twenty-ninth hostile pass: the APNG reader took chunks whose CRC did not match (a flipped
  /// bit in IHDR is another size) and critical chunks it did not know, which the same file as a
  /// plain PNG (libpng) refused. A damaged critical or animation chunk is refused, a damaged
  /// ancillary one left out, an unknown critical one refused, as libpng does.
  @Test func apngChunksWithBadCRCsOrUnknownCriticalTypesAreRefused() throws {
    let bytes = try encodeAPNG(Self.frames)
    let all = Self.chunks(of: bytes)
    let refusal = Self.refusal
    for type in ["IHDR", "acTL", "fcTL", "IDAT", "fdAT", "IEND"] {
      let chunk = try #require(all.first { $0.type == type })
      var damaged = bytes
      damaged[chunk.end - 1] ^= 0x01  // the CRC's last byte
      #expect(refusal(damaged) == "its \(type) chunk is damaged (its CRC does not match its data)")
    }
    let idat = try #require(all.first { $0.type == "IDAT" })
    func inserted(_ type: String, damaged: Bool = false) -> [UInt8] {
      var chunk = PNGChunks.fixingCRCs(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 1] + Array(type.utf8)
          + [7, 0, 0, 0, 0])
      chunk.removeFirst(8)
      if damaged { chunk[chunk.count - 1] ^= 0x01 }
      var changed = bytes
      changed.insert(contentsOf: chunk, at: idat.at)
      return changed
    }
    #expect(refusal(inserted("tEXt", damaged: true)) == nil)  // left out
    #expect(refusal(inserted("zzZz")) == nil)  // an unknown ancillary chunk is skipped
    #expect(
      refusal(inserted("ABCD"))
        == "it holds a critical chunk this reader does not know, ABCD (a reader must not skip one)")
  }

  /// Twenty-fourth hostile pass: an RGB APNG's tRNS (one transparent colour) was ignored and
  /// the colour drawn opaque. `Fixtures/images/apng-rgb-trns.png`: two 4 x 4 frames of red,
  /// the tRNS key red: every pixel transparent, as Pillow reads it.
  @Test func anRGBAPNGsTransparentColourIsTransparent() throws {
    let bytes = try AtomicFile.read(FixtureFiles.root + "/images/apng-rgb-trns.png")
    let reader = try APNG.FrameReader(bytes)
    let frame = try #require(try reader.next()).image
    #expect(frame[0, 0].a == 0 && frame[3, 3].a == 0)
  }

  /// Issue 18: APNGs and WebPs are decoded one frame at a time and take 1,000,000,000 pixels in
  /// all their frames, as GIFs do (64,000,000 refused Flipbook's own 420 frames of 400 x 400);
  /// the count the file states is checked before any frame is decoded.
  @Test func apngAndWebPTakeAsManyPixelsInAllAsAGIF() throws {
    var frames: [Bitmap] = []
    for k in 0..<2 {
      var b = Bitmap(width: 100, height: 100, fill: RGBA8(255, 255, 255, 255))
      b[k, 0] = RGBA8(255, 0, 0, 255)
      frames.append(b)
    }
    var bytes = try encodeAPNG(frames)
    let reader = try APNG.FrameReader(bytes)
    #expect(try reader.next()?.image == frames[0])
    #expect(try reader.next()?.image == frames[1])
    #expect(try reader.next() == nil)
    // The acTL's count is checked before any frame is decoded: 100,000 frames of 100 x 100
    // (1,000,000,000 pixels, where 64,000,000 were refused) are taken, one more is not.
    let actl = Array("acTL".utf8)
    let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == actl })
    (bytes[at + 5], bytes[at + 6], bytes[at + 7]) = (0x01, 0x86, 0xA0)  // 100,000
    let many = try APNG.FrameReader(PNGChunks.fixingCRCs(bytes))
    #expect(many.declaredFrames == 100_000)
    bytes[at + 7] = 0xA1  // 100,001: past the frames a decoded animation may have, too
    #expect(
      throws: APNG.DecodingError(
        reason: "its acTL says 100001 frames, over the limit of 100000 a decoded animation")
    ) { try APNG.FrameReader(PNGChunks.fixingCRCs(bytes)) }
    // Within the frames, the pixels in all still count: 99,999 frames of 100 x 101
    // (1,009,989,900 pixels) are refused for them (the header's height changed in place).
    (bytes[at + 5], bytes[at + 6], bytes[at + 7]) = (0x01, 0x86, 0x9F)  // 99,999
    let ihdr = try #require(
      (0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == Array("IHDR".utf8) })
    bytes[ihdr + 11] = 101  // height 101
    #expect(
      throws: APNG.DecodingError(
        reason: "99999 frames of 100 x 101 pixels are over the limit of 1000000000 decoded "
          + "pixels in all the frames")
    ) { try APNG.FrameReader(PNGChunks.fixingCRCs(bytes)) }
    #expect(APNG.maximumDecodedTotalPixels == GIF.maximumDecodedTotalPixels)
    #expect(WebP.maximumDecodedTotalPixels == GIF.maximumDecodedTotalPixels)
  }

  /// Frames are compressed a row at a time into a growing output (an 8000 x 8000 frame took
  /// 1.5 GB of filtered copies and zlib buffers beside it, now 0.5 GB in all): noise that
  /// compresses to several of its 64 KiB chunks, and a change in the middle, decode exactly.
  @Test func apngFramesCompressedRowByRowDecodeExactly() throws {
    var noise = Bitmap(width: 200, height: 150)
    var state: UInt64 = 7
    for i in noise.pixels.indices {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      noise.pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
    }
    var changed = noise
    for y in 40..<90 { for x in 50..<160 { changed[x, y] = RGBA8(UInt8(x), UInt8(y), 9, 255) } }
    let bytes = try encodeAPNG([noise, changed])
    #expect(bytes.count > 120_000)  // the noise does not compress
    let same = try APNG.decode(bytes).frames == [noise, changed]
    #expect(same)
  }

  /// The frame controls of an APNG: (width, height, x, y, dispose, blend) of each frame.
  func controls(_ bytes: [UInt8]) -> [[Int]] {
    var out: [[Int]] = [], at = 8
    while at + 12 <= bytes.count {
      let length = Int(bytes.bigEndian32(at))
      if String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) == "fcTL" {
        let b = Array(bytes[(at + 8)..<(at + 8 + length)])
        out.append([
          Int(b.bigEndian32(4)), Int(b.bigEndian32(8)), Int(b.bigEndian32(12)),
          Int(b.bigEndian32(16)), Int(b[24]), Int(b[25]),
        ])
      }
      at += 12 + length
    }
    return out
  }

  @Test func apngStoresOnlyTheChangedRectangle() throws {
    // An opaque frame, then one 3 x 2 patch changed: the second frame is that patch, drawn over.
    var a = Bitmap(width: 40, height: 30, fill: RGBA8(250, 250, 250, 255))
    for x in 0..<40 { a[x, 29] = RGBA8(UInt8(x * 6), 0, 0, 255) }
    var b = a
    for y in 10..<12 { for x in 20..<23 { b[x, y] = RGBA8(0, 128, 255, 255) } }
    let bytes = try encodeAPNG([a, b])
    let c = controls(bytes)
    #expect(c.count == 2)
    #expect(c[0] == [40, 30, 0, 0, 0, 0])
    #expect(Array(c[1][0..<4]) == [3, 2, 20, 10])
    let same = try APNG.decode(bytes).frames == [a, b]
    #expect(same)
  }

  @Test func apngClearsWhatMovedAwayOnATransparentCanvas() throws {
    // A sprite jumping across a transparent canvas: disposing the previous frame to the
    // background makes the next frame just the sprite, not both positions.
    var frames: [Bitmap] = []
    for k in 0..<3 {
      var f = Bitmap(width: 60, height: 20)
      for y in 5..<15 { for x in (20 * k + 2)..<(20 * k + 12) { f[x, y] = RGBA8(255, 0, 0, 160) } }
      frames.append(f)
    }
    let bytes = try encodeAPNG(frames)
    let c = controls(bytes)
    #expect(c.map { $0[4] } == [1, 1, 0])  // background, background, none (the last)
    #expect(c[1][0] == 10 && c[2][0] == 10)
    let same = try APNG.decode(bytes).frames == frames
    #expect(same)
  }

  /// The colour type byte of an APNG's IHDR.
  func colorType(_ bytes: [UInt8]) -> UInt8 { bytes[8 + 8 + 9] }

  @Test func apngStoresFewColoursIndexedAndOpaqueFramesAsRGB() throws {
    func distinct(_ frames: [Bitmap]) -> Set<UInt32> {
      Set(
        frames.flatMap { f in
          stride(from: 0, to: f.pixels.count, by: 4).map {
            UInt32(f.pixels[$0]) | UInt32(f.pixels[$0 + 1]) << 8 | UInt32(f.pixels[$0 + 2]) << 16
              | UInt32(f.pixels[$0 + 3]) << 24
          }
        })
    }
    func encode(_ frames: [Bitmap], _ model: APNG.ColorModel) throws -> [UInt8] {
      let e = try APNG.Encoder(
        width: frames[0].width, height: frames[0].height, fps: 10, colorModel: model)
      for f in frames { try e.add(f) }
      return try e.assemble()
    }
    // Few colours, partial alpha: indexed, with tRNS; exact.
    let few = Self.frames
    let indexedModel = APNG.ColorModel.smallest(colors: distinct(few), opaque: false)
    let indexed = try encode(few, indexedModel)
    #expect(colorType(indexed) == 3)
    let decodedFew = try APNG.decode(indexed).frames
    #expect(decodedFew == [few[0], few[1], few[2], few[4]])
    // Many opaque colours: RGB; exact.
    var a = Bitmap(width: 40, height: 30, fill: RGBA8(0, 0, 0, 255))
    for y in 0..<30 {
      for x in 0..<40 { a[x, y] = RGBA8(UInt8(x * 6), UInt8(y * 8), UInt8(x + y), 255) }
    }
    var b = a
    for y in 10..<12 { for x in 20..<23 { b[x, y] = RGBA8(0, 128, 255, 255) } }
    #expect(APNG.ColorModel.smallest(colors: nil, opaque: true) == .rgba)
    let rgb = try encode([a, b], .rgb)
    #expect(colorType(rgb) == 2)
    let decodedRGB = try APNG.decode(rgb).frames
    #expect(decodedRGB == [a, b])
    #expect(controls(rgb)[1].last == 0)  // no alpha: source blending only
  }
}
