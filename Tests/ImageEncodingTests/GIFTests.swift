import FlipbookTestSupport
import Glibc
import CairoCanvas
import Geometry
import ImageEncoding
import Testing

/// GIFs decoded by giflib's reader and composited show the source frames.
@Suite struct GIFEncoderTests {
  /// Encodes frames in two passes, as a render does.
  func encode(
    _ frames: [Bitmap], delays: [Int]? = nil, options: GIF.Options = GIF.Options()
  ) throws -> [UInt8] {
    let builder = GIF.PaletteBuilder()
    for f in frames { builder.add(f) }
    let palette = builder.makePalette(maxColors: options.maxColors)
    var bytes: [UInt8] = []
    let encoder = try GIF.Encoder(
      width: frames[0].width, height: frames[0].height, palette: palette, options: options
    ) { bytes += $0 }
    for (i, f) in frames.enumerated() { try encoder.add(f, delay: delays?[i] ?? 4) }
    try encoder.finish()
    return bytes
  }

  /// A UI-like frame: a moving rounded square and a circle on white (few colors).
  func uiFrame(_ i: Int, transparent: Bool = false) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 64, pixelHeight: 48)
    if !transparent { canvas.clear(to: .white) }
    canvas.fill(
      Path(roundedRect: Rect(Double(4 + i * 3), 8, 20, 20), cornerRadius: 4),
      with: Color(red: 0.2, green: 0.4, blue: 0.8))
    canvas.fill(
      Path(ellipseIn: Rect(40, 20, 16, 16)),
      with: Color(red: 0.9, green: 0.3, blue: 0.1, alpha: i % 2 == 0 ? 1 : 0.5))
    return canvas.makeBitmap()
  }

  /// What a GIF can show of a frame: alpha thresholded at 50%, colors kept.
  func thresholded(_ b: Bitmap) -> Bitmap {
    var out = b
    for i in stride(from: 0, to: out.pixels.count, by: 4) {
      if out.pixels[i + 3] < 128 {
        (out.pixels[i], out.pixels[i + 1], out.pixels[i + 2], out.pixels[i + 3]) = (0, 0, 0, 0)
      } else {
        out.pixels[i + 3] = 255
      }
    }
    return out
  }

  @Test func fewColorsAreLossless() throws {
    let frames = try (0..<6).map { try uiFrame($0) }
    let builder = GIF.PaletteBuilder()
    frames.forEach(builder.add)
    #expect(builder.makePalette().isExact)
    let decoded = try DecodedGIF(try encode(frames))
    #expect(decoded.frames.count == 6)
    for (a, b) in zip(decoded.frames, frames) { #expect(a == b) }
  }

  @Test func transparentBackgroundsComeOutTransparentWithoutTrails() throws {
    let frames = try (0..<6).map { try uiFrame($0, transparent: true) }
    let decoded = try DecodedGIF(try encode(frames))
    #expect(decoded.frames.count == 6)
    for (a, b) in zip(decoded.frames, frames) { #expect(a == thresholded(b)) }
    // The square moves right over a transparent page: pixels it leaves must be cleared.
    #expect(decoded.disposals.contains(2))
  }

  @Test func delaysLoopAndMergedDuplicates() throws {
    let a = try uiFrame(0), b = try uiFrame(1)
    let decoded = try DecodedGIF(
      try encode(
        [a, a, b, b, b, a], delays: [3, 3, 4, 3, 3, 4], options: GIF.Options(loopCount: 0)))
    #expect(decoded.frames.count == 3)
    #expect(decoded.delays == [6, 10, 4])
    #expect(decoded.loopExtension == 0)
    #expect(
      try DecodedGIF(try encode([a, b], options: GIF.Options(loopCount: 1))).loopExtension == nil)
    #expect(
      try DecodedGIF(try encode([a, b], options: GIF.Options(loopCount: 3))).loopExtension == 2)
  }

  /// Eighteenth hostile pass: a loop extension named ANIMEXTS1.0, the older name browsers read
  /// as NETSCAPE2.0, was ignored, so a GIF a browser loops forever was said to play once.
  @Test func anANIMEXTSLoopExtensionIsReadAsNETSCAPE() throws {
    let a = try uiFrame(0), b = try uiFrame(1)
    for loopCount in [0, 3] {
      var bytes = try encode([a, b], options: GIF.Options(loopCount: loopCount))
      let netscape = Array("NETSCAPE2.0".utf8)
      let at = try #require(
        (0...(bytes.count - 11)).first { Array(bytes[$0..<($0 + 11)]) == netscape })
      bytes.replaceSubrange(at..<(at + 11), with: Array("ANIMEXTS1.0".utf8))
      let repeats = loopCount == 0 ? 0 : loopCount - 1
      #expect(try GIF.decode(bytes).loopExtension == repeats)
      #expect(try GIF.layout(of: bytes).loopExtension == repeats)
      #expect(
        try GIF.layout(of: encode([a, b], options: GIF.Options(loopCount: loopCount)))
          .loopExtension == repeats)
    }
    #expect(
      try GIF.layout(of: encode([a, b], options: GIF.Options(loopCount: 1))).loopExtension
        == nil)
  }

  @Test func onlyTheChangedRectangleIsStored() throws {
    let frames = try (0..<3).map { try uiFrame($0) }
    let full = try encode([frames[0], frames[0]] + [frames[1]])
    let decoded = try DecodedGIF(full)
    #expect(decoded.frames.last == frames[1])
    // A GIF of a single changing square is far smaller than three full frames would be.
    let still = try encode([frames[0]])
    #expect(full.count < still.count * 2)
  }

  @Test func gradientsAreQuantizedWithGoodFidelity() throws {
    // A smooth two-axis gradient has 12,288 colors. 255 cells over it cannot do better than about
    // 34.9 dB (RGB error uniform over 16-level cells); clustering in Oklab spends precision where
    // the eye sees it, and dithering trades PSNR for no banding. Floors sit just under what the
    // encoder reaches (33.2, 33.2 and 31.7 dB) so a regression shows.
    var gradient = Bitmap(width: 128, height: 96)
    for y in 0..<96 {
      for x in 0..<128 {
        gradient[x, y] = RGBA8(UInt8(x * 2), UInt8(y * 255 / 95), UInt8(255 - x * 2), 255)
      }
    }
    for method in GIF.DitherMethod.allCases {
      let decoded = try DecodedGIF(try encode([gradient], options: GIF.Options(dither: method)))
      let psnr = Fidelity.psnr(decoded.frames[0], gradient)
      let floor: Double = method == .none ? 33 : 31.5
      #expect(psnr > floor, "\(method): PSNR \(psnr) dB")
    }
  }

  @Test func unchangedPixelsKeepTheirIndicesAcrossFrames() throws {
    // A dithered gradient with a small moving square: outside the square nothing may flicker.
    var frames: [Bitmap] = []
    for i in 0..<3 {
      var b = Bitmap(width: 64, height: 64)
      for y in 0..<64 {
        for x in 0..<64 { b[x, y] = RGBA8(UInt8(x * 4), UInt8(y * 4), 128, 255) }
      }
      for y in 0..<8 {
        for x in 0..<8 { b[x + i * 8, y] = RGBA8(255, 255, 255, 255) }
      }
      frames.append(b)
    }
    let decoded = try DecodedGIF(try encode(frames))
    for y in 16..<64 {
      for x in 0..<64 { #expect(decoded.frames[1][x, y] == decoded.frames[0][x, y]) }
    }
  }

  /// Issue 18: many frames on a large screen (a small file: each frame is one pixel) are refused
  /// before they are composited into whole-screen bitmaps.
  @Test func manyFramesOnALargeScreenAreRefused() {
    var gif: [UInt8] = Array("GIF89a".utf8) + [0x80, 0x3E, 0xA0, 0x0F, 0x80, 0, 0]  // 16000 x 4000
    gif += [0, 0, 0, 255, 255, 255]
    for _ in 0..<10_000 { gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0] }
    gif.append(0x3B)
    do {
      _ = try GIF.decode(gif)
      Issue.record("decoded")
    } catch {
      // Every frame is counted: the 16th was over the limit, and the message said "16 frames".
      #expect(
        error.reason
          == "10000 frames of 16000 x 4000 pixels are over the limit of 1000000000 decoded "
          + "pixels in all the frames")
    }
  }

  /// A 2 x 2 screen with a two-colour table, then `blocks`.
  func gif(_ blocks: [UInt8]) -> [UInt8] {
    Array("GIF89a".utf8) + [2, 0, 2, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255] + blocks
  }

  /// Issue 18: a frame of 0 x 0 pixels said "giflib error 0", and a GIF cut before its trailer
  /// "Failed to read from given file"; both say what is wrong.
  @Test func emptyFramesAndMissingTrailersAreNamed() throws {
    let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
    var empty = frame
    (empty[5], empty[7]) = (0, 0)
    func reason(_ bytes: [UInt8]) -> String? {
      do {
        _ = try GIF.decode(bytes)
        return nil
      } catch {
        return error.reason
      }
    }
    #expect(
      reason(gif(frame + empty + [0x3B])) == "frame 1 is 0 x 0 pixels: a frame has at least one")
    #expect(
      reason(gif(frame + frame)) == "the file ends after frame 1 without the GIF trailer (0x3B)")
    #expect(reason(gif([])) == "the file ends before its first frame")
    #expect(reason(gif(frame + frame.dropLast(3))) == "the file ends inside frame 1")
    #expect(try GIF.decode(gif(frame + frame + [0x3B])).frames.count == 2)
  }

  /// Eighteenth hostile pass: a frame reaching past the logical screen (a 2 x 2 frame at 1, 1
  /// on a 2 x 2 screen) was refused whole as lying "outside" the screen. It is clipped to the
  /// screen, as browsers and ImageMagick show it: its part on the screen is drawn, disposing of
  /// it clears only that part, and a frame wholly off the screen draws nothing. Its declared
  /// size still counts against the limits.
  @Test func aFramePastTheScreenIsClippedToIt() throws {
    let white = RGBA8(255, 255, 255, 255), none = RGBA8(0, 0, 0, 0)
    // Restore to background (disposal 2), then a 2 x 2 frame at 1, 1: white, black / white,
    // white; only its top-left pixel is on the screen.
    let past: [UInt8] =
      [0x21, 0xF9, 4, 2 << 2, 10, 0, 0, 0]
      + [0x2C, 1, 0, 1, 0, 2, 0, 2, 0, 0, 2, 4, 12, 193, 48, 44, 0]
    let corner: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 12, 11, 0]
    let far: [UInt8] = [0x2C, 0x60, 0xEA, 0x60, 0xEA, 1, 0, 1, 0, 0, 2, 2, 12, 11, 0]
    let frames = try GIF.decode(gif(past + corner + far + [0x3B])).frames
    #expect(frames.count == 3)
    #expect(frames[0].pixels == [none, none, none, white].flatMap { [$0.r, $0.g, $0.b, $0.a] })
    #expect(frames[1].pixels == [white, none, none, none].flatMap { [$0.r, $0.g, $0.b, $0.a] })
    #expect(frames[2] == frames[1])
    // A frame at 1, 1 claiming 65535 x 65535 pixels is still refused by its declared size.
    let huge: [UInt8] = [0x2C, 1, 0, 1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 2, 2, 12, 11, 0]
    #expect(throws: GIF.DecodingError.self) { try GIF.decode(gif(huge + [0x3B])) }
  }

  /// An interlaced frame's rows come in four passes (GIF89a, appendix E) and are put in place
  /// as they come: the same rows marked interlaced show stored row k at the k-th row of the
  /// passes' order.
  @Test func interlacedRowsArePutInPlace() throws {
    var frame = Bitmap(width: 3, height: 21)
    for y in 0..<21 { for x in 0..<3 { frame[x, y] = RGBA8(UInt8(y * 12), 0, 0, 255) } }
    var bytes = try encode([frame])
    let descriptor = try #require(
      (13..<bytes.count).first { bytes[$0] == 0x2C && bytes[$0 + 5] == 3 && bytes[$0 + 7] == 21 })
    bytes[descriptor + 9] |= 0x40
    let shown = try GIF.decode(bytes).frames[0]
    let order = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap {
      Array(stride(from: $0.0, to: 21, by: $0.1))
    }
    for (k, y) in order.enumerated() { #expect(shown[1, y] == frame[1, k], "row \(y)") }
  }

  /// The frame reader gives frame after frame as `decode` composites them, with the delays the
  /// layout found before decoding and the loop count once read.
  @Test func theFrameReaderGivesWhatDecodeGives() throws {
    let frames = (0..<5).map { k in
      var b = Bitmap(width: 6, height: 4, fill: RGBA8(255, 255, 255, 255))
      b[k, k % 4] = RGBA8(255, 0, 0, 255)
      return b
    }
    let bytes = try encode(frames)
    let whole = try GIF.decode(bytes)
    let reader = try GIF.FrameReader(bytes)
    var read: [Bitmap] = []
    while let frame = try reader.next() { read.append(frame.image) }
    #expect(read == whole.frames && read.count == 5)
    #expect(reader.layout.delays == whole.delays)
    #expect(reader.loopExtension == whole.loopExtension)
    #expect(try reader.next() == nil)
  }

  @Test func delayPlanFollowsTheExactTimes() {
    #expect(GIF.DelayPlan.centiseconds(frameCount: 6, fps: 30) == [3, 3, 4, 3, 3, 4])
    #expect(GIF.DelayPlan.centiseconds(frameCount: 4, fps: 25) == [4, 4, 4, 4])
    #expect(GIF.DelayPlan.centiseconds(frameCount: 7, fps: 24) == [4, 4, 4, 4, 4, 5, 4])
    #expect(GIF.DelayPlan.centiseconds(frameCount: 300, fps: 30).reduce(0, +) == 1000)
    #expect(GIF.DelayPlan.centiseconds(frameCount: 60, fps: 60).reduce(0, +) == 100)
    #expect(GIF.DelayPlan.warning(fps: 50) == nil)
    // Rates no scene allows saturate instead of trapping (the writer refuses delays over 65535).
    #expect(GIF.DelayPlan.centiseconds(frameCount: 2, fps: 1e-300) == [1_000_000_000_000_000, 0])
    #expect(GIF.DelayPlan.warning(fps: 1e300) != nil)
    #expect(GIF.DelayPlan.warning(fps: 60) != nil)
  }

  @Test func wrongSizesAndDelaysAreRefused() throws {
    let palette = GIF.Palette(
      colors: [RGBA8(0, 0, 0, 255)], isExact: true, hasTransparentIndex: true)
    let encoder = try GIF.Encoder(width: 4, height: 4, palette: palette) { _ in }
    #expect(
      throws: GIF.EncodingError.frameSizeMismatch(
        frame: 0, expected: Size(4, 4), actual: Size(5, 4))
    ) {
      try encoder.add(Bitmap(width: 5, height: 4), delay: 4)
    }
    #expect(throws: GIF.EncodingError.delayOutOfRange(frame: 0, centiseconds: 70000)) {
      try encoder.add(Bitmap(width: 4, height: 4), delay: 70000)
    }
    let empty = try GIF.Encoder(width: 4, height: 4, palette: palette) { _ in }
    #expect(throws: GIF.EncodingError.noFrames) { try empty.finish() }
  }
}

@Suite struct LocalPaletteTests {
  /// A smooth gradient in one hue family.
  func gradient(_ hue: (Double, Double, Double)) -> Bitmap {
    var b = Bitmap(width: 96, height: 64)
    for y in 0..<64 {
      for x in 0..<96 {
        let t = Double(x) / 95, u = Double(y) / 63
        b[x, y] = RGBA8(
          UInt8(255 * hue.0 * (0.2 + 0.8 * t)), UInt8(255 * hue.1 * (0.2 + 0.8 * u)),
          UInt8(255 * hue.2 * (0.3 + 0.7 * t * u)), 255)
      }
    }
    return b
  }

  @Test func framesOfUnrelatedColorsGetTheirOwnPalettesAndLookBetter() throws {
    let warm = gradient((1, 0.5, 0.1)), cool = gradient((0.1, 0.6, 1))
    let frames = [warm, warm, cool, cool]
    func encode(local: Bool) throws -> (DecodedGIF, Int) {
      let builder = GIF.PaletteBuilder()
      frames.forEach(builder.add)
      let palette = builder.makePalette(maxColors: 64)
      var bytes: [UInt8] = []
      let encoder = try GIF.Encoder(
        width: 96, height: 64, palette: palette, options: GIF.Options(maxColors: 64, dither: .none)
      ) { bytes += $0 }
      for f in frames {
        let choice =
          local ? GIF.LocalPalette.choose(for: GIF.FrameHistogram(f), global: palette) : nil
        try encoder.add(f, delay: 10, localPalette: choice)
      }
      try encoder.finish()
      return (try DecodedGIF(bytes), encoder.localPaletteFrameCount)
    }
    let (withLocal, localFrames) = try encode(local: true)
    let (globalOnly, none) = try encode(local: false)
    #expect(localFrames == 2 && none == 0)  // identical neighbours are merged: two stored frames
    for (k, source) in [(0, warm), (1, cool)] {
      let better = Fidelity.psnr(withLocal.frames[k], source),
        worse = Fidelity.psnr(globalOnly.frames[k], source)
      #expect(
        better > worse + 3, "frame \(k): \(better) dB with its own palette, \(worse) dB without")
    }
  }

  /// Twenty-sixth pass: `--colors 2` wrote a two-colour global table and a local table of up to
  /// 255 colours on every frame (262 colours in all, a larger file than 256). A frame's own
  /// palette has at most `maxColors` entries with its transparent one.
  @Test func aFramesOwnPaletteKeepsToTheColorLimit() throws {
    let warm = gradient((1, 0.5, 0.1)), cool = gradient((0.1, 0.6, 1))
    for maxColors in [2, 16, 64] {
      let builder = GIF.PaletteBuilder()
      builder.add(warm)
      let global = builder.makePalette(maxColors: maxColors)
      let local = try #require(
        GIF.LocalPalette.choose(
          for: GIF.FrameHistogram(cool), global: global, maxColors: maxColors))
      #expect(local.colors.count <= maxColors - 1 && local.hasTransparentIndex, "\(maxColors)")
    }
  }

  /// Twenty-eighth pass: a quantized palette always kept one entry transparent, so `--colors 2`
  /// drew every frame of an opaque scene in one flat colour. Up to `smallPaletteColors`, an
  /// animation without transparent pixels gets all N colours; above, the transparent entry that
  /// lets a frame keep unchanged pixels stays.
  @Test func aSmallPaletteOfAnOpaqueAnimationShowsAllItsColors() throws {
    let warm = gradient((1, 0.5, 0.1))
    for (maxColors, visible, transparent) in [(2, 2, false), (16, 16, false), (17, 16, true)] {
      let builder = GIF.PaletteBuilder()
      builder.add(warm)
      let palette = builder.makePalette(maxColors: maxColors)
      #expect(palette.colors.count == visible && palette.hasTransparentIndex == transparent)
    }
    var clear = warm
    clear[0, 0] = RGBA8(0, 0, 0, 0)
    let builder = GIF.PaletteBuilder()
    builder.add(clear)
    let palette = builder.makePalette(maxColors: 2)
    #expect(palette.colors.count == 1 && palette.hasTransparentIndex)
  }

  @Test func aHugeFrameIsRefusedBeforeGiflibAllocatesIt() {
    // A 1 x 1 screen whose one frame claims 65535 x 65535 pixels (4 GiB decoded): refused by
    // the size check that walks the blocks, before DGifSlurp would allocate the frame.
    let bytes: [UInt8] =
      Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
      + [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0] + [2, 0] + [0x3B]
    #expect(throws: GIF.DecodingError.self) { try GIF.decode(bytes) }
    do {
      _ = try GIF.decode(bytes)
    } catch {
      #expect(error.reason.contains("frame 0 has 4294836225 pixels"), "\(error.reason)")
    }
  }

  /// Issue 18: a frame whose LZW minimum code size is outside 2...8 (12 here) got giflib's
  /// "Failed to read from given file"; it is refused naming the code size.
  @Test func anLZWCodeSizeOutsideTwoToEightIsNamed() throws {
    for size: UInt8 in [12, 9, 1, 0] {
      // A 1 x 1 screen with a two-colour table, one 1 x 1 frame.
      let bytes: [UInt8] =
        Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0] + [size, 2, 0x4C, 0x01, 0] + [0x3B]
      do {
        _ = try GIF.decode(bytes)
        Issue.record("code size \(size) was read")
      } catch {
        #expect(
          error.reason == "frame 0 has an LZW minimum code size of \(size), outside 2...8")
      }
    }
    // The same frame at code size 2 reads.
    let valid: [UInt8] =
      Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
      + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0] + [2, 2, 0x4C, 0x01, 0] + [0x3B]
    #expect(try GIF.decode(valid).frames.count == 1)
  }
}
