import CWebP
import Geometry

/// Animated WebP from and to bitmaps, with libwebp (`WebPAnimEncoder`, `WebPAnimDecoder`).
///
/// Lossless by default: every decoded frame equals the bitmap given, alpha included (partial
/// alpha is kept, and the colour under fully transparent pixels too). `Options.quality` makes
/// the frames lossy. libwebp's animation encoder stores each frame as the rectangle that changed,
/// with the blending and disposal that keep it exact, and merges a frame identical to the one
/// before into it (its duration grows).
public enum WebP {
  /// How an animation is encoded.
  public struct Options: Hashable, Sendable {
    /// `nil` for lossless (the default); 0...100 for lossy frames of that quality (libwebp's
    /// scale: 75 is its default, 90 and up look like the original on UI frames).
    public var quality: Double? = nil
    /// How many times the animation plays: 0 forever (the default), N in all.
    public var loopCount: Int = 0
    /// libwebp's effort, 0 (fastest) ... 6 (smallest); 4 by default, as `img2webp` and `cwebp`.
    public var method: Int = 4
    /// libwebp's `minimize_size`: tries every frame rectangle, blending and disposal for the
    /// smallest file. On by default: on the benchmark scenes it saved 0 to 15% (radar 15%) for
    /// 1.7 to 3.6 times libwebp's encoding time (`flipbook-bench webp-grid`, BENCHMARKS.md);
    /// method 6 saved nothing more. Frames of more than `WebP.maximumMinimizedPixels` are
    /// encoded without it whatever this says.
    public var minimizeSize = true
    /// libwebp's `kmin`/`kmax`: the least and most frames between key frames, or `nil` for
    /// libwebp's defaults (chosen by it from the mode).
    public var keyFrameSpacing: ClosedRange<Int>? = nil
    /// Lossy only: let libwebp store each frame lossy or lossless, whichever is smaller. On by
    /// default: 2 to 3% smaller on two benchmark scenes, 0.3% larger on one.
    public var allowMixed = true

    /// Lossless, looping forever, effort 4.
    public init(quality: Double? = nil, loopCount: Int = 0) {
      self.quality = quality
      self.loopCount = loopCount
    }
  }

  /// The largest width or height a WebP image may have, in pixels (the format stores 14 bits).
  public static let maximumSide = 16383

  /// The most pixels a frame may have for `Options.minimizeSize` to apply: 4,194,304 (2048 x
  /// 2048). Its candidates are each a lossless encoding of the frame, seconds each for a large
  /// frame: two 8000 x 8000 frames took 38 s with it and 21 s without (img2webp, the same
  /// libwebp), for a file 6% larger (BENCHMARKS.md, "Animated WebP and APNG").
  public static let maximumMinimizedPixels = 2048 * 2048

  /// Why an animation could not be written.
  public enum EncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// libwebp refused; its message.
    case libwebp(String)
    /// No frame was added.
    case noFrames
    /// The frame is larger than WebP allows: 16383 pixels a side.
    case tooLarge(width: Int, height: Int)

    /// A one-line message.
    public var description: String {
      switch self {
      case .libwebp(let message): return "libwebp: \(message)"
      case .noFrames: return "an animated WebP needs at least one frame"
      case .tooLarge(let width, let height):
        return "a frame of \(width) x \(height) pixels is larger than WebP allows "
          + "(\(WebP.maximumSide) pixels a side); use another format or a smaller --scale"
      }
    }
  }

  /// The start times, in whole milliseconds, of `frameCount` frames at `fps` frames per second,
  /// then the end of the last: `floor(1000 i / fps)` for i = 0 ... frameCount, so each duration
  /// is whole milliseconds and their running total follows the exact frame times (30 fps gives
  /// 33, 33, 34, 33, 33, 34, ...).
  public static func timestamps(frameCount: Int, fps: Double) -> [Int] {
    precondition(fps > 0 && fps.isFinite, "Frame rate must be positive")
    return (0...frameCount).map { Int((Double($0) * 1000 / fps + 1e-9).rounded(.down)) }
  }

  /// libwebp's animation encoder, fed frame by frame in display order.
  ///
  /// Not thread-safe: one thread adds the frames and assembles.
  public final class AnimationEncoder {
    /// The canvas size, in pixels.
    public let width: Int, height: Int
    /// How the frames are encoded.
    public let options: Options
    /// Whether libwebp's `minimize_size` is on: `options.minimizeSize`, for frames of at most
    /// `WebP.maximumMinimizedPixels`.
    public let minimizesSize: Bool
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private var frameCount = 0

    /// An encoder for a `width` x `height` animation.
    public init(width: Int, height: Int, options: Options = Options()) throws(EncodingError) {
      guard width <= WebP.maximumSide, height <= WebP.maximumSide else {
        throw .tooLarge(width: width, height: height)
      }
      (self.width, self.height, self.options) = (width, height, options)
      minimizesSize = options.minimizeSize && width * height <= WebP.maximumMinimizedPixels
      var animOptions = WebPAnimEncoderOptions()
      guard WebPAnimEncoderOptionsInit(&animOptions) != 0, WebPConfigInit(&config) != 0 else {
        throw .libwebp("the library's version does not match its headers")
      }
      animOptions.anim_params.loop_count = Int32(options.loopCount)
      animOptions.anim_params.bgcolor = 0x0000_0000  // transparent black, as the frames begin
      animOptions.minimize_size = minimizesSize ? 1 : 0
      if let quality = options.quality {
        config.lossless = 0
        config.quality = Float(min(100, max(0, quality)))
        animOptions.allow_mixed = options.allowMixed ? 1 : 0
      } else {
        config.lossless = 1
        config.exact = 1  // keep the colour under transparent pixels: decoded == rendered
        config.quality = 75
      }
      if let spacing = options.keyFrameSpacing {
        (animOptions.kmin, animOptions.kmax) = (
          Int32(spacing.lowerBound), Int32(spacing.upperBound)
        )
      }
      config.method = Int32(min(6, max(0, options.method)))
      guard WebPValidateConfig(&config) != 0 else { throw .libwebp("invalid configuration") }
      encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animOptions)
      guard encoder != nil else {
        throw .libwebp("cannot make an animation encoder of \(width) x \(height)")
      }
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds `bitmap` (the canvas's size), shown from `timestamp` milliseconds on.
    public func add(_ bitmap: Bitmap, timestamp: Int) throws(EncodingError) {
      precondition(
        bitmap.width == width && bitmap.height == height, "frame size differs from the canvas")
      var picture = WebPPicture()
      guard WebPPictureInit(&picture) != 0 else { throw .libwebp("cannot make a picture") }
      defer { WebPPictureFree(&picture) }
      picture.use_argb = 1
      picture.width = Int32(width)
      picture.height = Int32(height)
      let imported = bitmap.pixels.withUnsafeBufferPointer {
        WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4))
      }
      guard imported != 0 else { throw .libwebp("cannot import a frame (out of memory)") }
      guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
        throw lastError(doing: "cannot add frame \(frameCount)", code: picture.error_code.rawValue)
      }
      frameCount += 1
    }

    /// Ends the animation at `endTimestamp` milliseconds and returns the file's bytes.
    public func assemble(endTimestamp: Int) throws(EncodingError) -> [UInt8] {
      guard frameCount > 0 else { throw .noFrames }
      guard WebPAnimEncoderAdd(encoder, nil, Int32(endTimestamp), nil) != 0 else {
        throw lastError(doing: "cannot end the animation")
      }
      var data = WebPData()
      guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
        throw lastError(doing: "cannot assemble the file")
      }
      defer { WebPDataClear(&data) }
      return try animated(data, duration: endTimestamp)
    }

    /// `data` as an animation: libwebp writes one stored frame (every frame the same, or one
    /// frame rendered) as a still image, which has no duration and no loop count (a 1000 s
    /// render read as a still, and `diff` found it equal to a 1 s one); its mux does the same
    /// to an animation of one frame that covers the canvas. Such a picture is put in an
    /// animation of its one frame here: `VP8X`, `ANIM`, and one `ANMF` holding the picture's
    /// chunks, `duration` milliseconds long (at most 2^24 - 1, what a WebP frame holds).
    private func animated(_ data: WebPData, duration: Int) throws(EncodingError) -> [UInt8] {
      let file = Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
      // The picture's chunks: after a still's `VP8X`, its `ALPH` and `VP8 `; or its one
      // `VP8L` or `VP8 `. An animation is returned as it is.
      var image: [UInt8] = []
      var at = 12
      while at + 8 <= file.count {
        let fourCC = String(decoding: file[at..<at + 4], as: UTF8.self)
        let size =
          Int(file[at + 4]) | Int(file[at + 5]) << 8 | Int(file[at + 6]) << 16
          | Int(file[at + 7]) << 24
        let end = Swift.min(file.count, at + 8 + size + (size & 1))
        switch fourCC {
        case "ANIM", "ANMF": return file
        case "ALPH", "VP8 ", "VP8L": image += file[at..<end]
        default: break
        }
        at = end
      }
      guard !image.isEmpty else { throw .libwebp("the file made holds no picture") }
      var features = WebPBitstreamFeatures()
      let alpha =
        file.withUnsafeBufferPointer {
          WebPGetFeatures($0.baseAddress, $0.count, &features) == VP8_STATUS_OK
        } && features.has_alpha != 0
      func u24(_ x: Int) -> [UInt8] {
        [UInt8(x & 0xFF), UInt8(x >> 8 & 0xFF), UInt8(x >> 16 & 0xFF)]
      }
      func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        var out = Array(fourCC.utf8)
        let n = payload.count
        out += [
          UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF),
        ]
        out += payload
        if n & 1 == 1 { out.append(0) }
        return out
      }
      let flags: UInt8 = 0x02 | (alpha ? 0x10 : 0)  // animation, alpha
      let loops = UInt16(clamping: options.loopCount)
      var body = Array("WEBP".utf8)
      body += chunk("VP8X", [flags, 0, 0, 0] + u24(width - 1) + u24(height - 1))
      body += chunk("ANIM", [0, 0, 0, 0, UInt8(loops & 0xFF), UInt8(loops >> 8)])
      // At (0, 0), the canvas's size, not blended, not disposed.
      let frameHeader =
        u24(0) + u24(0) + u24(width - 1) + u24(height - 1)
        + u24(Swift.min(Swift.max(duration, 1), 0xFF_FFFF)) + [0x02]
      body += chunk("ANMF", frameHeader + image)
      return chunk("RIFF", body)
    }

    /// The encoder's last error, its code said in words (`WebP.encodingErrorReason`): libwebp's
    /// message `ERROR adding frame. WebPEncodingError: 1.` said nothing of the cause, out of
    /// memory. `code` is a picture's `error_code` (0: none); a code in the message wins.
    private func lastError(doing what: String, code: UInt32 = 0) -> EncodingError {
      var message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""
      var found = Int(code)
      if let at = message.firstRange(of: "WebPEncodingError") {
        let digits = message[at.upperBound...].drop { !$0.isNumber }.prefix { $0.isNumber }
        found = Int(digits) ?? found
        message = ""  // only the code, said below
      }
      // `ERROR adding frame: timestamps must be non-decreasing.`: what is after the step.
      if message.hasPrefix("ERROR"), let colon = message.firstRange(of: ": ") {
        message = String(message[colon.upperBound...])
      }
      if message.hasSuffix(".") { message.removeLast() }
      let reason = WebP.encodingErrorReason(found), code = "WebPEncodingError \(found)"
      switch (message.isEmpty, found == 0) {
      case (true, true): return .libwebp("\(what): unknown error")
      case (true, false): return .libwebp("\(what): \(reason) (\(code))")
      case (false, true): return .libwebp("\(what): \(message)")
      case (false, false): return .libwebp("\(what): \(message) (\(reason), \(code))")
      }
    }
  }

  /// libwebp's `WebPEncodingError` `code` in words (libwebp's encode.h): 1 is out of memory.
  public static func encodingErrorReason(_ code: Int) -> String {
    switch code {
    case 1: return "out of memory"
    case 2: return "out of memory writing the bitstream"
    case 3: return "a parameter is missing (null)"
    case 4: return "the configuration is invalid"
    case 5: return "the picture's width or height is invalid"
    case 6: return "the first partition is over 512 KiB"
    case 7: return "a partition is over 16 MiB"
    case 8: return "the bytes cannot be written"
    case 9: return "the file would be over 4 GiB"
    case 10: return "stopped by the caller"
    default: return "error \(code)"
    }
  }

  /// An animated (or still) WebP as a viewer shows it: each frame composited on the canvas.
  public struct Animation: Hashable, Sendable {
    /// The canvas size, in pixels.
    public var width: Int, height: Int
    /// The frames, composited, straight RGBA.
    public var frames: [Bitmap]
    /// Each frame's duration, in milliseconds.
    public var durations: [Int]
    /// How many times it plays: 0 forever.
    public var loopCount: Int

    /// Creates an animation.
    public init(width: Int, height: Int, frames: [Bitmap], durations: [Int], loopCount: Int) {
      (self.width, self.height, self.frames, self.durations, self.loopCount) =
        (width, height, frames, durations, loopCount)
    }
  }

  /// Why a WebP could not be read.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String
    /// The reason.
    public var description: String { reason }
  }

  /// The most pixels a decoded WebP's canvas may have: 64,000,000 (what `Canvas` allows, as
  /// for a GIF's screen).
  public static let maximumDecodedPixels = 64_000_000

  /// The most pixels all the decoded frames of a WebP may have together: 1,000,000,000 (each
  /// frame is the whole canvas), as for a GIF; checked against the frame count the file states
  /// before any frame is decoded.
  public static let maximumDecodedTotalPixels = 1_000_000_000

  /// The most frames a decoded WebP may have: 30,000. libwebp's animation decoder finds each
  /// frame by walking its list from the first, in time in the square of the frames: 100,000
  /// one-pixel frames took 21 s to read and 400,000 over two minutes; 30,000 take about 2 s.
  /// Checked against the count the file states, before any frame is decoded.
  public static let maximumDecodedFrames = 30_000

  /// Whether `bytes` start like a WebP file (`RIFF....WEBP`).
  public static func isWebP(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8))
      && Array(bytes[8..<12]) == Array("WEBP".utf8)
  }

  /// Decodes every frame of a WebP (animated or still) with libwebp's animation decoder (see
  /// `FrameReader`, which gives them one at a time).
  public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Animation {
    let reader = try FrameReader(bytes)
    var frames: [Bitmap] = [], durations: [Int] = []
    while let frame = try reader.next() {
      frames.append(frame.image)
      durations.append(frame.duration)
    }
    return Animation(
      width: reader.width, height: reader.height, frames: frames, durations: durations,
      loopCount: reader.loopCount)
  }

  /// Reads a WebP's frames one at a time with libwebp's animation decoder, each composited on
  /// the canvas, so a caller that looks at each frame once (`flipbook diff`) holds a canvas or
  /// two, not every frame. The canvas and the frame count are checked against the limits when
  /// it is made, before any frame is decoded.
  public final class FrameReader {
    /// The canvas size, in pixels.
    public let width: Int, height: Int
    /// How many times it plays: 0 forever.
    public let loopCount: Int
    /// The frame count the file states.
    public let frameCount: Int
    /// How many frames `next()` has returned.
    public private(set) var framesRead = 0
    /// The file's bytes, where the decoder reads them for as long as it lives.
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private let decoder: OpaquePointer
    private var previous: Int32 = 0

    /// Opens `bytes` as a WebP.
    ///
    /// - Throws: `DecodingError` when libwebp cannot read them, or the canvas or the frame
    ///   count is over the limits.
    public init(_ bytes: [UInt8]) throws(DecodingError) {
      guard isWebP(bytes) else { throw DecodingError(reason: "not a WebP file") }
      let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
      _ = storage.initialize(from: bytes)
      var data = WebPData(bytes: storage.baseAddress, size: storage.count)
      var options = WebPAnimDecoderOptions()
      guard WebPAnimDecoderOptionsInit(&options) != 0 else {
        storage.deallocate()
        throw DecodingError(reason: "libwebp version mismatch")
      }
      options.color_mode = MODE_RGBA
      options.use_threads = 0
      guard let decoder = WebPAnimDecoderNew(&data, &options) else {
        storage.deallocate()
        throw DecodingError(
          reason: WebP.structuralProblem(bytes) ?? "not a valid WebP (libwebp cannot read it)")
      }
      var info = WebPAnimInfo()
      guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
        WebPAnimDecoderDelete(decoder)
        storage.deallocate()
        throw DecodingError(reason: "unreadable WebP header")
      }
      (self.storage, self.decoder) = (storage, decoder)
      (width, height) = (Int(info.canvas_width), Int(info.canvas_height))
      (loopCount, frameCount) = (Int(info.loop_count), Int(info.frame_count))
      // libwebp's demuxer leaves out a frame whose image it cannot find, and the file read as
      // a shorter animation, without a word: the frames it stores are counted too.
      let stored = WebP.frameChunkCount(bytes)
      guard stored == 0 || stored == frameCount else {
        // Frames past the RIFF data the header states are not the frames' fault.
        let stated =
          bytes.count >= 8 ? (0..<4).reduce(0) { $0 | Int(bytes[4 + $1]) << (8 * $1) } + 8 : 0
        if stated < bytes.count, WebP.frameChunkCount(bytes, within: stated) < stored {
          throw DecodingError(
            reason: "its RIFF header says \(stated) bytes, the file has \(bytes.count), and "
              + "frames (ANMF chunks) lie past them: the header cuts the animation short")
        }
        throw DecodingError(
          reason: "it stores \(stored) frames (ANMF chunks), of which libwebp reads "
            + "\(frameCount): a frame is damaged")
      }
      guard width * height <= maximumDecodedPixels else {
        throw DecodingError(
          reason: "a \(width) x \(height) canvas is outside 1...\(maximumDecodedPixels) pixels")
      }
      guard frameCount <= maximumDecodedFrames else {
        throw DecodingError(
          reason: "\(frameCount) frames are over the limit of \(maximumDecodedFrames) a decoded "
            + "WebP (libwebp finds each frame from the first)")
      }
      guard frameCount <= maximumDecodedTotalPixels / Swift.max(1, width * height) else {
        throw DecodingError(
          reason: "\(frameCount) frames of \(width) x \(height) pixels are over the limit of "
            + "\(maximumDecodedTotalPixels) decoded pixels in all the frames")
      }
    }

    deinit {
      WebPAnimDecoderDelete(decoder)
      storage.deallocate()
    }

    /// The next frame and its duration in milliseconds, or `nil` after the last.
    ///
    /// - Throws: `DecodingError` when the frame cannot be decoded.
    public func next() throws(DecodingError) -> (image: Bitmap, duration: Int)? {
      guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
      var pixels: UnsafeMutablePointer<UInt8>? = nil
      var timestamp: Int32 = 0
      guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
        throw DecodingError(reason: "frame \(framesRead) cannot be decoded")
      }
      let image = Bitmap(
        width: width, height: height,
        pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
      defer { (previous, framesRead) = (timestamp, framesRead + 1) }
      // libwebp's end times are C ints that wrap past 2^31 ms (128 frames of the longest
      // duration, 0xFFFFFF ms); a frame's duration is under 2^24 ms, so the difference taken
      // modulo 2^32 is exact (subtracted as Int32 it trapped).
      return (image, Int(UInt32(bitPattern: timestamp &- previous)))
    }
  }
}

extension WebP {
  /// What is wrong with the structure of a WebP file libwebp refused, when it is one of the
  /// faults its container can show (`nil` otherwise: damaged image data): the file shorter than
  /// its RIFF header says, a chunk running past the end, a canvas over the limits, frames in a
  /// file whose header does not say it is animated, the ANIM chunk after the frames, a frame
  /// outside the canvas. libwebp says only that it cannot read the file, where the APNG and GIF
  /// readers name such faults.
  static func structuralProblem(_ bytes: [UInt8]) -> String? {
    func le(_ at: Int, _ count: Int) -> Int {
      (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    guard bytes.count >= 12 else { return nil }
    let stated = le(4, 4) + 8
    if stated > bytes.count {
      return "its RIFF header says \(stated) bytes, the file has \(bytes.count) (it is cut short)"
    }
    var at = 12, frame = 0, sawFrames = false
    var canvas: (width: Int, height: Int, animated: Bool)? = nil
    while at + 8 <= stated {
      let type = String(decoding: bytes[at..<at + 4], as: UTF8.self)
      let size = le(at + 4, 4)
      let body = at + 8
      guard body + size <= stated else {
        return "its \(APNG.FrameReader.chunkName(type)) chunk runs past the end of "
          + (stated < bytes.count ? "the RIFF data its header states" : "the file")
      }
      switch type {
      case "VP8X" where size >= 10:
        let (w, h) = (1 + le(body + 4, 3), 1 + le(body + 7, 3))
        guard w * h <= maximumDecodedPixels else {
          return "a \(w) x \(h) canvas is outside 1...\(maximumDecodedPixels) pixels"
        }
        canvas = (w, h, bytes[body] & 0x02 != 0)
      case "ANIM" where sawFrames:
        return "its ANIM chunk comes after the frames (ANMF); it must come before them"
      case "ANMF" where size >= 16:
        sawFrames = true
        guard let canvas else { return "it has frames (ANMF) but no VP8X header before them" }
        guard canvas.animated else {
          return "it has frames (ANMF) but its VP8X header does not say it is animated"
        }
        let (x, y) = (2 * le(body, 3), 2 * le(body + 3, 3))
        let (w, h) = (1 + le(body + 6, 3), 1 + le(body + 9, 3))
        if x + w > canvas.width || y + h > canvas.height {
          return "frame \(frame) (\(w) x \(h) at \(x), \(y)) lies outside the \(canvas.width) x "
            + "\(canvas.height) canvas"
        }
        frame += 1
      default: break
      }
      at = body + size + (size & 1)
    }
    if let canvas, canvas.animated, !sawFrames {
      return "its VP8X header says it is animated, but it has no frames (ANMF)"
    }
    return nil
  }

  /// How many `ANMF` (animation frame) chunks the top level of a WebP file holds, walking its
  /// RIFF chunks (each size padded to even) up to `limit` bytes (the file's end by default); a
  /// chunk running past the end ends the walk.
  static func frameChunkCount(_ bytes: [UInt8], within limit: Int? = nil) -> Int {
    var count = 0, at = 12
    let end = Swift.min(bytes.count, limit ?? bytes.count)
    while at + 8 <= end {
      let size =
        Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16
        | Int(bytes[at + 7]) << 24
      if bytes[at..<at + 4].elementsEqual([0x41, 0x4E, 0x4D, 0x46]) { count += 1 }  // ANMF
      let next = at + 8 + size + (size & 1)
      guard next <= end + 1, next > at else { break }
      at = next
    }
    return count
  }

  /// How many frames a WebP file stores (after the encoder's merging); 0 when it cannot be read.
  public static func storedFrameCount(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
      guard let demux = WebPDemux(&data) else { return 0 }
      defer { WebPDemuxDelete(demux) }
      return Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
    }
  }
}
