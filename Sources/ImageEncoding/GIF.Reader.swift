import CGIF
import Geometry

extension GIF {
  /// A decoded GIF as a viewer shows it: every frame composited by the GIF rules (disposal,
  /// transparency) onto the logical screen, with its delay, and the loop extension.
  public struct Animation: Hashable, Sendable {
    /// The logical screen's size in pixels.
    public var width: Int, height: Int
    /// Each frame as shown, straight RGBA; pixels no frame has covered are (0, 0, 0, 0).
    public var frames: [Bitmap]
    /// Each frame's delay in hundredths of a second.
    public var delays: [Int]
    /// Each frame's disposal method (GIF89a: 0 unspecified, 1 keep, 2 background, 3 previous).
    public var disposals: [Int]
    /// The loop extension's repeat count (0 forever), or `nil` without one (play once): a
    /// NETSCAPE2.0 or an ANIMEXTS1.0 application extension (`loopApplications`).
    public var loopExtension: Int?

    /// Creates an animation from its parts (for tests and tools that build one).
    public init(
      width: Int, height: Int, frames: [Bitmap], delays: [Int], disposals: [Int],
      loopExtension: Int?
    ) {
      (self.width, self.height, self.frames, self.delays, self.disposals, self.loopExtension) =
        (width, height, frames, delays, disposals, loopExtension)
    }
  }

  /// How many times a GIF plays in all (0 forever) for its loop extension's repeat count, as
  /// browsers read it and as `Options.loopCount` counts: no extension plays once, a repeat
  /// count of 0 loops forever, and a repeat count of N plays N + 1 times.
  public static func plays(loopExtension: Int?) -> Int {
    guard let repeats = loopExtension else { return 1 }
    return repeats == 0 ? 0 : repeats + 1
  }

  /// Why bytes could not be read as a GIF.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in words.
    public var reason: String
    public var description: String { reason }
  }

  /// The most pixels a decoded GIF's screen may have (what `Canvas` allows).
  public static let maximumDecodedPixels = 64_000_000

  /// The most pixels all the decoded frames of a GIF may have together: 1,000,000,000 (each
  /// frame is the whole screen, 4 bytes a pixel), so a small file of many frames on a large
  /// screen cannot make the decoder allocate without bound.
  public static let maximumDecodedTotalPixels: Int = 1_000_000_000

  /// The most frames a decoded GIF may have: 100,000, the most a render makes, counted as its
  /// blocks are walked, before any is decoded (`diff` of two GIFs of 4,000,000 one-pixel
  /// frames took 12 s and 1.2 GB, 40 s and 1.9 GB for a report page).
  public static let maximumDecodedFrames = 100_000

  /// The image data a frame may hold past 2 bytes a pixel: 64 KiB (see `layout(of:)`).
  static let maximumFrameDataSlack = 65_536

  /// The decoded pixels one LZW clear code counts as against `maximumDecodedTotalPixels`: 64.
  /// giflib resets its whole 4,096-entry table at every clear code, some 0.33 µs, where a
  /// pixel takes about 7 ns: a GIF of 1,000 frames of 256 x 256 with a clear code after every
  /// pixel (0.75 bytes a pixel, within the data limit) took 44 s to compare with itself, and
  /// its frames have a fifteenth of the pixels the limit allows. An encoder clears its table
  /// when it is full, every few thousand codes (every 254 for an uncompressed 8-bit GIF).
  public static let pixelsPerClearCode = 64

  /// What walking a GIF's blocks without decoding them finds: how many frames it has and each
  /// one's delay in hundredths of a second (from the graphic control extension before it).
  public struct Layout: Hashable, Sendable {
    /// The logical screen's size in pixels, as the header states it.
    public var width: Int, height: Int
    /// Each frame's delay in hundredths of a second (0 without a graphic control extension).
    public var delays: [Int]
    /// The loop extension's repeat count (0 forever), or `nil` without one, as
    /// `FrameReader.loopExtension` reads it.
    public var loopExtension: Int? = nil
  }

  /// The application identifiers of a loop extension: NETSCAPE2.0, and ANIMEXTS1.0, the older
  /// name that browsers read too (Chromium's and Firefox's GIF readers take both).
  public static let loopApplications: Set<String> = ["NETSCAPE2.0", "ANIMEXTS1.0"]

  /// Walks the blocks of `b` without decoding them and refuses a screen, a frame or a frame
  /// count over the size limits before giflib allocates anything: a frame's descriptor states
  /// its size (a 65535 x 65535 frame is 4 GiB of indices), and every frame is shown on a whole
  /// screen. A frame's LZW minimum code size outside 2...8 is refused here too, by name. The
  /// frames are counted to the end of the file, so a refusal says how many there are. Other
  /// structure errors are left to the decoder to report.
  public static func layout(of b: [UInt8]) throws(DecodingError) -> Layout {
    guard b.count >= 13 else { return Layout(width: 0, height: 0, delays: []) }
    let width = Int(b[6]) | Int(b[7]) << 8, height = Int(b[8]) | Int(b[9]) << 8
    let screen = width * height
    guard screen <= maximumDecodedPixels else {
      throw DecodingError(
        reason: "screen size \(width) x \(height) is outside 1...\(maximumDecodedPixels) pixels")
    }
    var i = 13
    if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
    var delays: [Int] = []
    var delay: Int? = nil
    var loopExtension: Int? = nil
    // Every frame is decoded on the whole screen; clear codes count as pixels too.
    let framePixels = Swift.max(screen, 1)
    var clearCodes = 0
    func skipSubBlocks(loop: Bool = false) {
      while i < b.count {
        let n = Int(b[i])
        if loop && n >= 3 && i + 3 < b.count && b[i + 1] == 1 {
          loopExtension = Int(b[i + 2]) | Int(b[i + 3]) << 8
        }
        i += 1 + n
        if n == 0 { return }
      }
    }
    walk: while i < b.count {
      switch b[i] {
      case 0x2C:
        guard i + 10 <= b.count else { break walk }
        let area = (Int(b[i + 5]) | Int(b[i + 6]) << 8) * (Int(b[i + 7]) | Int(b[i + 8]) << 8)
        guard area <= maximumDecodedPixels else {
          throw DecodingError(
            reason:
              "frame \(delays.count) has \(area) pixels, over the limit of \(maximumDecodedPixels)"
          )
        }
        delays.append(delay ?? 0)
        guard delays.count <= maximumDecodedFrames else {
          throw DecodingError(
            reason: "more than \(maximumDecodedFrames) frames, the limit of a decoded animation")
        }
        delay = nil
        let flags = b[i + 9]
        i += 10
        if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
        // The LZW minimum code size: 2...8 (GIF89a, appendix F; Go's decoder takes the same).
        // giflib only says "Failed to read from given file" of a larger one.
        guard i < b.count else { break walk }
        guard (2...8).contains(b[i]) else {
          throw DecodingError(
            reason:
              "frame \(delays.count - 1) has an LZW minimum code size of \(b[i]), outside 2...8")
        }
        i += 1
        let dataStart = i
        skipSubBlocks()
        // At most 2 bytes of image data a pixel (12-bit codes are 1.5, an encoder that clears
        // its table every other code under 0.6) and 64 KiB: giflib resets its whole table at
        // every clear code, so a 1 x 1 frame of 50 MB of clear codes took 99 s to compare.
        let data = i - dataStart
        guard data <= 2 * area + maximumFrameDataSlack else {
          throw DecodingError(
            reason: "frame \(delays.count - 1) holds \(data) bytes of image data, more than its "
              + "\(area) pixel\(area == 1 ? "" : "s") can take (2 bytes a pixel and 64 KiB)")
        }
        clearCodes += countClearCodes(
          in: b, from: dataStart, to: i, minimumCodeSize: Int(b[dataStart - 1]))
        // Checked frame by frame, so a file of many is refused at the first over the limit
        // (frames over it without their clear codes are said as such after the walk).
        let pixels = delays.count * framePixels
        guard
          pixels > maximumDecodedTotalPixels
            || pixels + clearCodes * pixelsPerClearCode <= maximumDecodedTotalPixels
        else {
          throw DecodingError(
            reason: "\(delays.count) frame\(delays.count == 1 ? "" : "s") of \(width) x "
              + "\(height) pixels and \(clearCodes) LZW clear codes (each counted as "
              + "\(pixelsPerClearCode) pixels: the decoder resets its table at each) are over the "
              + "limit of \(maximumDecodedTotalPixels) decoded pixels in all the frames")
        }
      case 0x21:
        if i + 6 < b.count, b[i + 1] == 0xF9, b[i + 2] >= 4 {
          delay = Int(b[i + 4]) | Int(b[i + 5]) << 8
        }
        let loop =
          i + 14 <= b.count && b[i + 1] == 0xFF && b[i + 2] == 11
          && loopApplications.contains(String(decoding: b[(i + 3)..<(i + 14)], as: UTF8.self))
        i += 2
        if loop {
          i += 12
          skipSubBlocks(loop: true)
        } else {
          skipSubBlocks()
        }
      default:
        break walk  // the trailer, or something the decoder will name
      }
    }
    let total = delays.count.multipliedReportingOverflow(by: framePixels)
    guard !total.overflow, total.partialValue <= maximumDecodedTotalPixels else {
      throw DecodingError(
        reason: "\(delays.count) frames of \(width) x \(height) pixels are over the limit of "
          + "\(maximumDecodedTotalPixels) decoded pixels in all the frames")
    }
    return Layout(width: width, height: height, delays: delays, loopExtension: loopExtension)
  }

  /// How many clear codes the LZW code stream of a frame holds: its data sub-blocks from
  /// `start` (the first size byte) to `end`, read with the code widths giflib reads them with
  /// (`minimumCodeSize` + 1 bits after each clear, one more each time its next code passes the
  /// width, at most 12), up to the end-of-information code. Only the widths are followed, not
  /// the table, so the count costs a few nanoseconds a code.
  static func countClearCodes(
    in b: [UInt8], from start: Int, to end: Int, minimumCodeSize: Int
  ) -> Int {
    let clear = 1 << minimumCodeSize, endOfInformation = clear + 1
    var bits = minimumCodeSize + 1, limit = 1 << bits, running = endOfInformation + 1
    var buffer: UInt64 = 0, held = 0
    var clears = 0
    var block = start
    let last = Swift.min(end, b.count)
    while block < last {
      let n = Int(b[block])
      if n == 0 { break }
      var k = block + 1
      let blockEnd = Swift.min(block + 1 + n, last)
      while k < blockEnd {
        buffer |= UInt64(b[k]) << UInt64(held)
        held += 8
        k += 1
        while held >= bits {
          let code = Int(buffer & UInt64((1 << bits) - 1))
          buffer >>= UInt64(bits)
          held -= bits
          // As giflib's DGifDecompressInput: the next code, and the width with it.
          if running < 4097 {
            running += 1
            if running > limit && bits < 12 {
              limit <<= 1
              bits += 1
            }
          }
          if code == clear {
            clears += 1
            (bits, running) = (minimumCodeSize + 1, endOfInformation + 1)
            limit = 1 << bits
          } else if code == endOfInformation {
            return clears
          }
        }
      }
      block += 1 + n
    }
    return clears
  }

  /// One frame as a viewer shows it, from `FrameReader`.
  public struct Frame: Sendable {
    /// The whole screen with this frame composited on what the earlier frames left, straight
    /// RGBA; pixels no frame has covered are (0, 0, 0, 0).
    public var image: Bitmap
    /// The frame's delay in hundredths of a second.
    public var delay: Int
    /// The frame's disposal method (GIF89a: 0 unspecified, 1 keep, 2 background, 3 previous).
    public var disposal: Int
  }

  /// Reads a GIF's frames one at a time, each composited on the screen as a viewer shows it,
  /// so a caller that looks at each frame once (`flipbook diff`, `flipbook sheet`) holds one
  /// screen or two, not every frame (999 frames of 1000 x 1000 are 4 GB decoded at once).
  ///
  /// The sizes are checked (`layout(of:)`) when it is made, before any pixel is decoded.
  public final class FrameReader {
    /// The logical screen's size in pixels.
    public let width: Int, height: Int
    /// The frame count and delays, found before decoding.
    public let layout: Layout
    /// The loop extension's repeat count (0 forever) once it has been read, else `nil`: a
    /// NETSCAPE2.0 or an ANIMEXTS1.0 application extension (`loopApplications`).
    public private(set) var loopExtension: Int?
    /// How many frames `next()` has returned.
    public private(set) var framesRead = 0
    private let source: ByteSource
    private let gif: UnsafeMutablePointer<GifFileType>
    private var screen: Bitmap
    private var indices: [UInt8] = []
    private var finished = false

    /// Opens `bytes` as a GIF.
    ///
    /// - Throws: `DecodingError` when they are not a GIF or its sizes are over the limits.
    public init(_ bytes: [UInt8]) throws(DecodingError) {
      // Anything else (a JSON file named .gif) is refused as giflib would, before its bytes are
      // taken for a screen size.
      guard bytes.starts(with: Array("GIF".utf8)) else {
        throw DecodingError(reason: "not a GIF (\(errorText(D_GIF_ERR_NOT_GIF_FILE)))")
      }
      layout = try GIF.layout(of: bytes)
      source = ByteSource(bytes)
      var error: Int32 = 0
      let opened = DGifOpen(
        Unmanaged.passUnretained(source).toOpaque(),
        { file, out, count in
          guard let file, let user = file.pointee.UserData, let out else { return 0 }
          let source = Unmanaged<ByteSource>.fromOpaque(user).takeUnretainedValue()
          let n = Swift.min(Int(count), source.bytes.count - source.offset)
          source.bytes.withUnsafeBufferPointer {
            out.update(from: $0.baseAddress! + source.offset, count: n)
          }
          source.offset += n
          return Int32(n)
        }, &error)
      guard let opened else { throw DecodingError(reason: "not a GIF (\(errorText(error)))") }
      gif = opened
      (width, height) = (Int(opened.pointee.SWidth), Int(opened.pointee.SHeight))
      guard width > 0, height > 0, width * height <= maximumDecodedPixels else {
        DGifCloseFile(opened, &error)
        throw DecodingError(
          reason: "screen size \(width) x \(height) is outside 1...\(maximumDecodedPixels) pixels")
      }
      screen = Bitmap(width: width, height: height)
    }

    deinit {
      var error: Int32 = 0
      DGifCloseFile(gif, &error)
    }

    /// The error giflib reports, in words, or `fallback` when it names none; `inside` the
    /// frame being read, if any.
    private func failure(_ fallback: String, inside frame: Int? = nil) -> DecodingError {
      // At the end of the bytes every read fails: say what is missing.
      if source.offset >= source.bytes.count, let frame {
        return DecodingError(reason: "the file ends inside frame \(frame)")
      }
      if source.offset >= source.bytes.count {
        return DecodingError(
          reason: framesRead == 0
            ? "the file ends before its first frame"
            : "the file ends after frame \(framesRead - 1) without the GIF trailer (0x3B)")
      }
      let code = gif.pointee.Error
      return DecodingError(
        reason: "unreadable GIF data (\(code == 0 ? fallback : errorText(code)))")
    }

    /// The next frame, or `nil` after the last (at the trailer).
    ///
    /// - Throws: `DecodingError` when the data is broken or cut short, a frame is empty or has
    ///   no color table. A frame reaching past the screen is clipped to it (a frame wholly off
    ///   the screen draws nothing), as browsers show it.
    public func next() throws(DecodingError) -> Frame? {
      guard !finished else { return nil }
      var control = GraphicsControlBlock(
        DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
      while true {
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &type) == GIF_OK else { throw failure("a bad block") }
        switch type {
        case EXTENSION_RECORD_TYPE:
          var code: Int32 = 0
          var block: UnsafeMutablePointer<GifByteType>? = nil
          guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
            throw failure("a bad extension")
          }
          var first = true, netscape = false
          while let b = block {
            let n = Int(b[0])
            if first && code == GRAPHICS_EXT_FUNC_CODE {
              if n >= 4 { control = Self.graphicsControl(b + 1) }
            } else if first && code == APPLICATION_EXT_FUNC_CODE && n == 11 {
              netscape = loopApplications.contains(
                String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self))
            } else if netscape && n >= 3 && b[1] == 1 {
              loopExtension = Int(b[2]) | Int(b[3]) << 8
            }
            first = false
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
              throw failure("a bad extension")
            }
          }
        case IMAGE_DESC_RECORD_TYPE:
          guard DGifGetImageDesc(gif) == GIF_OK else {
            throw failure("a bad image descriptor", inside: framesRead)
          }
          return try frame(control)
        case TERMINATE_RECORD_TYPE:
          finished = true
          guard framesRead > 0 else { throw DecodingError(reason: "the GIF has no frames") }
          return nil
        default:
          throw failure("an unknown block")
        }
      }
    }

    /// A Graphic Control Extension's first four bytes (flags, delay, transparent index), as
    /// browsers read them: a block longer than 4 bytes is read too (giflib refused it, and its
    /// delay and transparency were lost), disposal 4 is "restore to previous" (as 3: encoders
    /// disagree on which bit GIF89a meant) and 5 to 7 unspecified.
    static func graphicsControl(_ bytes: UnsafePointer<GifByteType>) -> GraphicsControlBlock {
      let flags = bytes[0]
      var disposal = Int32((flags >> 2) & 0x07)
      if disposal == 4 { disposal = DISPOSE_PREVIOUS } else if disposal > 4 { disposal = 0 }
      return GraphicsControlBlock(
        DisposalMode: disposal, UserInputFlag: flags & 0x02 != 0,
        DelayTime: Int32(bytes[1]) | Int32(bytes[2]) << 8,
        TransparentColor: flags & 0x01 != 0 ? Int32(bytes[3]) : NO_TRANSPARENT_COLOR)
    }

    /// Decodes the frame whose descriptor was just read and composites it on the screen.
    private func frame(_ control: GraphicsControlBlock) throws(DecodingError) -> Frame {
      let k = framesRead
      let d = gif.pointee.Image
      let (left, top, w, h) = (Int(d.Left), Int(d.Top), Int(d.Width), Int(d.Height))
      guard w > 0, h > 0 else {
        throw DecodingError(reason: "frame \(k) is \(w) x \(h) pixels: a frame has at least one")
      }
      // A frame reaching past the screen is clipped to it, as browsers and ImageMagick show it
      // (GIF89a says a frame should fit, but encoders that crop the screen and not the frames
      // make such files); a frame wholly off the screen draws nothing. Its declared size still
      // counts against the limits (`layout(of:)`): all of it is decoded.
      let xs = Swift.min(left, width)..<Swift.min(left + w, width)
      let ys = Swift.min(top, height)..<Swift.min(top + h, height)
      guard let map = d.ColorMap ?? gif.pointee.SColorMap else {
        throw DecodingError(reason: "frame \(k) has no color table")
      }
      if indices.count < w * h { indices = [UInt8](repeating: 0, count: w * h) }
      // Interlaced frames come in four passes of rows (GIF89a, appendix E).
      let rows: [Int] =
        d.Interlace
        ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(stride(from: $0.0, to: h, by: $0.1)) }
        : Array(0..<h)
      let read = indices.withUnsafeMutableBufferPointer { out in
        rows.allSatisfy { DGifGetLine(gif, out.baseAddress! + $0 * w, Int32(w)) == GIF_OK }
      }
      guard read else { throw failure("bad image data", inside: k) }
      let colors = Int(map.pointee.ColorCount)
      let transparent = Int(control.TransparentColor)
      let before = control.DisposalMode == DISPOSE_PREVIOUS ? screen : nil
      let width = width
      indices.withUnsafeBufferPointer { raster in
        screen.pixels.withUnsafeMutableBufferPointer { out in
          for y in ys {
            var o = (y * width + xs.lowerBound) * 4
            for x in xs {
              let index = Int(raster[(y - top) * w + x - left])
              if index != transparent && index < colors {
                let c = map.pointee.Colors[index]
                out[o] = c.Red; out[o + 1] = c.Green; out[o + 2] = c.Blue; out[o + 3] = 255
              }
              o += 4
            }
          }
        }
      }
      let shown = Frame(
        image: screen, delay: Int(control.DelayTime), disposal: Int(control.DisposalMode))
      if control.DisposalMode == DISPOSE_BACKGROUND {
        screen.pixels.withUnsafeMutableBufferPointer { out in
          for y in ys {
            for i in ((y * width + xs.lowerBound) * 4)..<((y * width + xs.upperBound) * 4) {
              out[i] = 0
            }
          }
        }
      } else if let before {
        screen = before
      }
      framesRead += 1
      return shown
    }
  }

  /// Decodes every frame of `bytes` (see `FrameReader`, which gives them one at a time).
  ///
  /// - Throws: `DecodingError` when the bytes are not a GIF giflib can read, a frame has no
  ///   palette, or the screen is over the size limit. A frame reaching past the screen is
  ///   clipped to it.
  public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Animation {
    let reader = try FrameReader(bytes)
    var animation = Animation(
      width: reader.width, height: reader.height, frames: [], delays: [], disposals: [],
      loopExtension: nil)
    while let frame = try reader.next() {
      animation.frames.append(frame.image)
      animation.delays.append(frame.delay)
      animation.disposals.append(frame.disposal)
    }
    animation.loopExtension = reader.loopExtension
    return animation
  }

  /// The bytes giflib's read callback takes from.
  private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  private static func errorText(_ code: Int32) -> String {
    GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
  }
}
